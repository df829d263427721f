#!/usr/bin/env python3
"""Writes log lines of several shapes to stdout, as programs that do not speak errorwatch's format do, then a
heartbeat every half second until its reader goes away (for `python3 shapes_producer.py | errorwatch -`).

With --once it writes the lines and exits, so the dashboard shows its input as ended."""
import json
import sys
import time

now_ms = int(time.time() * 1000)
LINES = [
    json.dumps({"level": 30, "time": now_ms, "pid": 4242, "hostname": "web-1", "name": "checkout",
                "msg": "order placed"}),
    json.dumps({"level": 50, "time": now_ms, "pid": 4242, "hostname": "web-1", "name": "checkout",
                "msg": "payment failed",
                "err": {"type": "CardDeclinedError", "message": "card declined",
                        "stack": "CardDeclinedError: card declined\n    at charge (/app/pay.js:42:11)"}}),
    json.dumps({"level": "error", "ts": time.time(), "caller": "pay/charge.go:117", "msg": "charge failed",
                "error": "stripe: card_declined"}),
    "2026-11-23 10:00:00,001 ERROR worker: order 7 failed",
    "Traceback (most recent call last):",
    '  File "/app/worker.py", line 41, in process',
    "    reserve(order)",
    "KeyError: 'sku-42'",
    'level=warn msg="slow query" took=1.2s',
    json.dumps({"@t": "2026-11-23T10:00:01Z", "@mt": "Payment {PaymentId} failed", "@l": "Error",
                "@x": "System.InvalidOperationException: Card declined\n   at Shop.Pay()", "PaymentId": "p-9"}),
    "panic: runtime error: index out of range [5] with length 3",
    "",
    "goroutine 1 [running]:",
    "main.main()",
    "\t/src/main.go:8 +0x1d",
    "2026-11-23 10:00:02 INFO  worker: caught up",
]

try:
    for line in LINES:
        print(line, flush=True)
    if "--once" in sys.argv:
        sys.exit(0)
    beat = 0
    while True:
        time.sleep(0.5)
        beat += 1
        print(f"DEBUG heartbeat {beat}", flush=True)
except BrokenPipeError:
    # The dashboard quit: leave quietly, as a producer in a pipeline does.
    sys.stderr.close()
    sys.exit(0)
