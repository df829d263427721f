#!/usr/bin/env python3
"""A producer that is not written in Swift: a small shop backend reporting to errorwatch in the NDJSON wire format.

It sends errors without `message.user` (so alerts must say what failed), log lines, a latency histogram
(`http.server.duration`), a gauge (`queue.depth`), a counter (`orders.placed`) and two statuses.

    foreign_producer.py --socket /tmp/ew.sock     # send to `errorwatch --listen unix:/tmp/ew.sock`
    foreign_producer.py --stdout > shop.ndjson     # write a recording (fixed times) for `errorwatch render --from`
"""
import argparse
import json
import socket
import sys
from datetime import datetime, timedelta, timezone

START = datetime(2026, 11, 22, 9, 0, 0, tzinfo=timezone.utc)
COMMON = {"v": 1, "service.name": "shop-py", "process.pid": 4242, "host.name": "build-7"}


def events():
    """The events, each with its offset in seconds from the start."""
    latencies = [12.5, 14.0, 11.2, 250.0, 13.1, 15.8, 12.9, 480.0, 13.3, 12.0, 16.4, 13.7]
    for i, ms in enumerate(latencies):
        yield i * 0.5, {"kind": "metric", "metric.name": "http.server.duration", "metric.kind": "histogram",
                        "metric.value": ms, "metric.unit": "ms"}
    for i, depth in enumerate([3, 7, 12, 9]):
        yield i * 1.5, {"kind": "metric", "metric.name": "queue.depth", "metric.value": depth}
    for i in range(5):
        yield 1 + i, {"kind": "metric", "metric.name": "orders.placed", "metric.kind": "counter", "metric.value": 2}
    yield 0.2, {"kind": "status", "status.name": "reconciler", "status.state": "running", "status.health": "ok",
                "status.detail": "pass 7 of 9"}
    yield 0.3, {"kind": "status", "status.name": "payments", "status.state": "degraded",
                "status.health": "degraded", "status.detail": "gateway answers slowly"}
    yield 0.5, {"kind": "log", "severity_text": "INFO", "body": "checkout service ready", "source": "shop.http"}
    failures = [
        (1.0, "shop.payments.GatewayTimeout", "POST /charge timed out after 3000 ms", "shop.payments"),
        (2.0, "shop.inventory.StockConflict", "SKU 1142: reserved 3, available 2", "shop.inventory"),
        (3.0, "psycopg.errors.DeadlockDetected", "deadlock detected while updating orders", "shop.db"),
        (4.0, "KeyError", "'shipping_address'", "shop.checkout"),
    ]
    for offset, type_name, message, source in failures:
        yield offset, {"kind": "error", "exception.type": type_name, "exception.message": message,
                       "source": source, "severity": "error"}
    yield 5.0, {"kind": "log", "severity_text": "WARN", "body": "retrying payment capture", "source": "shop.payments"}


def lines(now=None):
    for offset, event in sorted(events(), key=lambda pair: pair[0]):
        time = (now or START) + timedelta(seconds=offset)
        line = dict(COMMON)
        line["time"] = time.isoformat(timespec="microseconds").replace("+00:00", "Z")
        line.update(event)
        yield json.dumps(line, separators=(",", ":")) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--socket")
    parser.add_argument("--stdout", action="store_true")
    args = parser.parse_args()
    if args.stdout:
        sys.stdout.writelines(lines())
        return
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.connect(args.socket)
        connection.sendall("".join(lines(datetime.now(timezone.utc))).encode())


if __name__ == "__main__":
    main()
