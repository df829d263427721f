#!/usr/bin/env python3
"""One OpenTelemetry producer for Tests/e2e/otlp.sh.

  otlp_producer.py sdk  URL INSTANCE N MANIFEST   the OpenTelemetry Python SDK: logger.exception() through its
                                                  LoggingHandler, a histogram, OTLP/HTTP protobuf with gzip
  otlp_producer.py grpc URL INSTANCE N MANIFEST   the same through the SDK's OTLP/gRPC exporters, with gzip
  otlp_producer.py json URL INSTANCE N MANIFEST   OTLP/JSON posted by hand with urllib (the SDK only speaks
                                                  protobuf): the same kinds of records
  otlp_producer.py traces-EXPORTER URL INSTANCE N MANIFEST
                                                  the SDK's tracer through EXPORTER (http: OTLP/HTTP protobuf with
                                                  gzip; grpc: OTLP/gRPC with gzip): per round, an exception escaping three nested spans (one
                                                  failure, recorded on each), an ERROR span without exception
                                                  (error.type set), an exception recorded by hand on a span left
                                                  unset (as swift-otel does), a trace that succeeds, and a log line
                                                  inside a span (linked to its trace)

Each logs N exceptions (each of its own type, with a unique message), N plain info lines and records N histogram
values, then writes MANIFEST: what the dashboard must have received, exactly once each.
"""
import json
import logging
import os
import sys
import time
import traceback
import urllib.request

SERVICE = "e2e-otlp"


class PaymentDeclined(Exception):
    pass


class InventoryConflict(Exception):
    pass


ERRORS = [PaymentDeclined, InventoryConflict]


def charge(kind, message):
    # A frame of our own, so the stack trace names it.
    raise kind(message)


def http_exporters(url):
    from opentelemetry.exporter.otlp.proto.http import Compression
    from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter
    from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter

    return (OTLPLogExporter(endpoint=url + "/v1/logs", compression=Compression.Gzip),
            OTLPMetricExporter(endpoint=url + "/v1/metrics", compression=Compression.Gzip))


def grpc_exporters(url):
    from grpc import Compression
    from opentelemetry.exporter.otlp.proto.grpc._log_exporter import OTLPLogExporter
    from opentelemetry.exporter.otlp.proto.grpc.metric_exporter import OTLPMetricExporter

    # Plaintext HTTP/2 to the dashboard on loopback, gzip as the Collector sends it.
    return (OTLPLogExporter(endpoint=url, insecure=True, compression=Compression.Gzip),
            OTLPMetricExporter(endpoint=url, insecure=True, compression=Compression.Gzip))


def run_sdk(url, instance, n, exporters=http_exporters):
    from opentelemetry.sdk._logs import LoggerProvider, LoggingHandler
    from opentelemetry.sdk._logs.export import BatchLogRecordProcessor
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import PeriodicExportingMetricReader
    from opentelemetry.sdk.resources import Resource

    resource = Resource.create({"service.name": SERVICE, "service.instance.id": instance})
    log_exporter, metric_exporter = exporters(url)
    logs = LoggerProvider(resource=resource)
    logs.add_log_record_processor(BatchLogRecordProcessor(log_exporter))
    reader = PeriodicExportingMetricReader(metric_exporter, export_interval_millis=3_600_000)
    meters = MeterProvider(resource=resource, metric_readers=[reader])
    latency = meters.get_meter("e2e").create_histogram("checkout.duration", unit="ms")

    logger = logging.getLogger("shop.checkout")
    logger.propagate = False
    logger.setLevel(logging.INFO)
    logger.addHandler(LoggingHandler(level=logging.INFO, logger_provider=logs))
    expected = []
    for i in range(n):
        kind = ERRORS[i % len(ERRORS)]
        message = f"{instance} error {i}"
        try:
            charge(kind, message)
        except Exception:
            logger.exception("checkout failed")
        expected.append({"kind": "error", "type": kind.__name__, "message": message, "stack": "in charge"})
        line = f"{instance} served order {i}"
        logger.info(line)
        expected.append({"kind": "log", "body": line})
        latency.record(3 + 10 * i, {"route": "/checkout"})
    logs.shutdown()
    meters.shutdown()
    return expected, n


def post(url, path, payload):
    request = urllib.request.Request(
        url + path, data=json.dumps(payload).encode(), headers={"Content-Type": "application/json"}
    )
    for attempt in range(20):
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                answer = json.loads(response.read() or b"{}")
                assert "partialSuccess" not in answer or not answer["partialSuccess"], answer
                return
        except urllib.error.HTTPError as error:
            if error.code not in (429, 503):
                raise
            time.sleep(float(error.headers.get("Retry-After", "1")))
    raise RuntimeError("the receiver kept refusing")


def attribute(key, value):
    if isinstance(value, int):
        return {"key": key, "value": {"intValue": str(value)}}
    return {"key": key, "value": {"stringValue": value}}


def run_json(url, instance, n):
    resource = {"attributes": [
        attribute("service.name", SERVICE), attribute("service.instance.id", instance),
        attribute("process.pid", os.getpid()),
    ]}
    records, expected = [], []
    now = time.time_ns()
    for i in range(n):
        kind = ERRORS[i % len(ERRORS)]
        message = f"{instance} error {i}"
        try:
            charge(kind, message)
        except Exception as error:
            stack = traceback.format_exc()
            records.append({
                "timeUnixNano": str(now + i), "severityNumber": 17, "severityText": "ERROR",
                "body": {"stringValue": "checkout failed"},
                "traceId": f"{i + 1:032x}", "spanId": f"{i + 1:016x}",
                "attributes": [attribute("exception.type", type(error).__name__),
                               attribute("exception.message", str(error)),
                               attribute("exception.stacktrace", stack)],
            })
        expected.append({"kind": "error", "type": kind.__name__, "message": message, "stack": "in charge",
                         "trace_id": f"{i + 1:032x}"})
        line = f"{instance} served order {i}"
        records.append({"timeUnixNano": str(now + i), "severityNumber": 9, "body": {"stringValue": line}})
        expected.append({"kind": "log", "body": line})
    post(url, "/v1/logs", {"resourceLogs": [{"resource": resource, "scopeLogs": [
        {"scope": {"name": "shop.checkout"}, "logRecords": records}]}]})
    bounds = [10.0, 100.0, 1000.0]
    counts = [0, 0, 0, 0]
    for i in range(n):
        value = 3 + 10 * i
        counts[next((b for b, bound in enumerate(bounds) if value <= bound), len(bounds))] += 1
    post(url, "/v1/metrics", {"resourceMetrics": [{"resource": resource, "scopeMetrics": [{"metrics": [{
        "name": "checkout.duration", "unit": "ms",
        "histogram": {"aggregationTemporality": 1, "dataPoints": [{
            "startTimeUnixNano": str(now), "timeUnixNano": str(now + n), "count": str(n),
            "bucketCounts": [str(c) for c in counts], "explicitBounds": bounds,
            "attributes": [attribute("route", "/checkout")]}]}}]}]}]})
    return expected, n


def span_exporter(exporter, url):
    """The SDK's span exporter named EXPORTER, sending to URL."""
    if exporter == "http":
        from opentelemetry.exporter.otlp.proto.http import Compression
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
        return OTLPSpanExporter(endpoint=url + "/v1/traces", compression=Compression.Gzip)
    if exporter == "grpc":
        from grpc import Compression
        from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter
        return OTLPSpanExporter(endpoint=url, insecure=True, compression=Compression.Gzip)
    raise SystemExit(f"otlp_producer: no span exporter named {exporter!r}")


class OutOfStock(Exception):
    pass


def run_traces(exporter, url, instance, n):
    from opentelemetry.sdk._logs import LoggerProvider, LoggingHandler
    from opentelemetry.sdk._logs.export import SimpleLogRecordProcessor
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor
    from opentelemetry.trace import SpanKind, Status, StatusCode

    resource = Resource.create({
        "service.name": SERVICE, "service.instance.id": instance, "service.version": "1.4.2",
        "deployment.environment.name": "e2e",
    })
    provider = TracerProvider(resource=resource)
    provider.add_span_processor(BatchSpanProcessor(span_exporter(exporter, url)))
    tracer = provider.get_tracer("e2e.checkout")
    # A second service, called inside the successful trace: an edge of the service map (it sends no errors or logs).
    database = TracerProvider(resource=Resource.create({"service.name": SERVICE + "-db", "service.instance.id": instance}))
    database.add_span_processor(BatchSpanProcessor(span_exporter(exporter, url)))
    database_tracer = database.get_tracer("e2e.db")
    logs = LoggerProvider(resource=resource)
    if exporter == "http":
        from opentelemetry.exporter.otlp.proto.http._log_exporter import OTLPLogExporter
        logs.add_log_record_processor(SimpleLogRecordProcessor(OTLPLogExporter(endpoint=url + "/v1/logs")))
    elif exporter == "grpc":
        from opentelemetry.exporter.otlp.proto.grpc._log_exporter import OTLPLogExporter
        logs.add_log_record_processor(SimpleLogRecordProcessor(OTLPLogExporter(endpoint=url, insecure=True)))
    logger = logging.getLogger("shop.traced." + instance)
    logger.propagate = False
    logger.setLevel(logging.INFO)
    logger.addHandler(LoggingHandler(level=logging.INFO, logger_provider=logs))

    def hex_trace(span):
        return f"{span.get_span_context().trace_id:032x}"

    def sdk_type(kind):
        # The SDK's exception.type on a span event: module and qualified name (the producer's words, kept).
        return f"{kind.__module__}.{kind.__qualname__}" if kind.__module__ != "builtins" else kind.__qualname__

    expected = []
    for i in range(n):
        kind = ERRORS[i % len(ERRORS)]
        # 1. An exception escaping three nested spans: each records it and turns ERROR; one failure.
        message = f"{instance} trace error {i}"
        try:
            with tracer.start_as_current_span("POST /checkout", kind=SpanKind.SERVER,
                                              attributes={"http.request.method": "POST",
                                                          "http.route": "/checkout"}) as root:
                trace_id = hex_trace(root)
                with tracer.start_as_current_span("charge card", kind=SpanKind.CLIENT):
                    with tracer.start_as_current_span("gateway call"):
                        charge(kind, message)
        except kind:
            pass
        expected.append({"kind": "error", "type": sdk_type(kind), "message": message, "stack": "in charge",
                         "trace_id": trace_id, "spans": 3})
        # 2. An ERROR span with no exception: typed by error.type, described by the status.
        with tracer.start_as_current_span("GET /stock", kind=SpanKind.SERVER) as root:
            trace_id = hex_trace(root)
            with tracer.start_as_current_span("reserve") as span:
                span.set_attribute("error.type", "OutOfStock")
                span.set_status(Status(StatusCode.ERROR, f"{instance} out of stock {i}"))
        expected.append({"kind": "error", "type": "OutOfStock", "message": f"{instance} out of stock {i}",
                         "trace_id": trace_id, "spans": 2})
        # 3. An exception recorded by hand on a span whose status stays unset (swift-otel's recordError).
        with tracer.start_as_current_span("refund", kind=SpanKind.CONSUMER) as span:
            trace_id = hex_trace(span)
            try:
                charge(OutOfStock, f"{instance} handled {i}")
            except OutOfStock as error:
                span.record_exception(error)
        expected.append({"kind": "error", "type": sdk_type(OutOfStock), "message": f"{instance} handled {i}",
                         "stack": "in charge", "trace_id": trace_id, "spans": 1})
        # 4. A trace that succeeds, with a log line inside it.
        with tracer.start_as_current_span("GET /health", kind=SpanKind.SERVER) as root:
            trace_id = hex_trace(root)
            with tracer.start_as_current_span("ping db", kind=SpanKind.CLIENT):
                with database_tracer.start_as_current_span("SELECT 1", kind=SpanKind.SERVER):
                    pass
                line = f"{instance} healthy {i}"
                logger.info(line)
        if exporter in ("http", "grpc"):
            expected.append({"kind": "log", "body": line, "trace_id": trace_id})
    provider.shutdown()
    database.shutdown()
    logs.shutdown()
    return expected, 0


def main():
    mode, url, instance, n, manifest = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
    if mode == "grpc":
        expected, observations = run_sdk(url, instance, n, grpc_exporters)
    elif mode.startswith("traces-"):
        expected, observations = run_traces(mode[len("traces-"):], url, instance, n)
    else:
        expected, observations = (run_sdk if mode == "sdk" else run_json)(url, instance, n)
    with open(manifest, "w") as out:
        json.dump({"instance": instance, "records": expected, "observations": observations}, out)


if __name__ == "__main__":
    main()
