#!/usr/bin/env python3
"""One OpenTelemetry producer for Tests/e2e/otlp.sh.

  otlp_producer.py sdk  URL INSTANCE N MANIFEST   the OpenTelemetry Python SDK: logger.exception() through its
                                                  LoggingHandler, a histogram, OTLP/HTTP protobuf with gzip
  otlp_producer.py grpc URL INSTANCE N MANIFEST   the same through the SDK's OTLP/gRPC exporters, with gzip
  otlp_producer.py json URL INSTANCE N MANIFEST   OTLP/JSON posted by hand with urllib (the SDK only speaks
                                                  protobuf): the same kinds of records

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


def main():
    mode, url, instance, n, manifest = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
    if mode == "grpc":
        expected, observations = run_sdk(url, instance, n, grpc_exporters)
    else:
        expected, observations = (run_sdk if mode == "sdk" else run_json)(url, instance, n)
    with open(manifest, "w") as out:
        json.dump({"instance": instance, "records": expected, "observations": observations}, out)


if __name__ == "__main__":
    main()
