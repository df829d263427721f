"""The child of Tests/e2e/run.sh: a service configured only by the environment `errorwatch run` gives it.

It prints to stdout and stderr, records an exception on a failed span with the OpenTelemetry SDK (its OTLP
exporter reads OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_EXPORTER_OTLP_PROTOCOL, its resource OTEL_SERVICE_NAME),
captures one with sentry-sdk (which reads SENTRY_SPOTLIGHT; no DSN), flushes both, then dies of an uncaught
exception, whose traceback goes to stderr. Each report is of a different error, so each must appear exactly once.
"""
import os
import sys

import sentry_sdk
from opentelemetry import trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.trace import Status, StatusCode

if os.environ.get("OTEL_EXPORTER_OTLP_PROTOCOL") == "grpc":
    from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
else:
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter


class InventoryError(Exception):
    pass


class PaymentDeclined(Exception):
    pass


def main():
    run = os.environ.get("RUN_LABEL", "first")
    print(f"checkout starting ({run})", flush=False)  # stdout is a terminal: line-buffered
    print(f"warming the price cache ({run})", file=sys.stderr)

    provider = TracerProvider(resource=Resource.create())
    provider.add_span_processor(SimpleSpanProcessor(OTLPSpanExporter()))
    tracer = provider.get_tracer("run-child")
    with tracer.start_as_current_span("reserve stock") as span:
        try:
            raise InventoryError("shelf 7 is empty")
        except InventoryError as error:
            span.record_exception(error)
            span.set_status(Status(StatusCode.ERROR, "shelf 7 is empty"))
    provider.shutdown()

    # Configured by SENTRY_SPOTLIGHT alone; the uncaught exception below is the traceback's to report, not the SDK's.
    sentry_sdk.init(default_integrations=False)
    try:
        raise PaymentDeclined("card ending 4242 declined")
    except PaymentDeclined:
        sentry_sdk.capture_exception()
    sentry_sdk.flush(timeout=10)

    print("about to look up the order", flush=True)
    orders = {"A-1": 12}
    return orders["B-2"]  # KeyError: dies here, uncaught


if __name__ == "__main__":
    main()
