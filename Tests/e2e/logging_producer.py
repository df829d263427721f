#!/usr/bin/env python3
"""Writes two log files the way a Python service does with the standard `logging` module alone: one in the
text format most services configure, one as JSON lines (a Formatter subclass, as python-json-logger's users
write them), each record in one file or the other, so the files' times interleave.

    python3 logging_producer.py DIR [--records 300] [--start 2026-11-20T11:29:30] [--seed 7]

writes DIR/app.log and DIR/app.json.log and prints a summary as JSON on stdout: how many records each file got,
how many of them are errors, and how many of those are the `db query timed out` error with a hex query id, per
logger, so a test can check the dashboard's and the store's counts against what was written.

The records are made with the `logging` module's own machinery (`Logger.makeRecord`, `Handler.handle`), with the
record's `created` time set to a fixed clock that advances a few seconds per record, so a run is reproducible."""
import argparse
import datetime
import json
import logging
import random
import sys
import time


class JSONFormatter(logging.Formatter):
    """One JSON object per record, with python-json-logger's member names."""

    def format(self, record):
        entry = {
            "asctime": self.formatTime(record),
            "levelname": record.levelname,
            "name": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exc_info"] = self.formatException(record.exc_info)
        return json.dumps(entry)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("dir")
    parser.add_argument("--records", type=int, default=300, help="records per file")
    parser.add_argument("--start", default="2026-11-20T11:29:30")
    parser.add_argument("--seed", type=int, default=7)
    arguments = parser.parse_args()

    rng = random.Random(arguments.seed)
    # Times in UTC, written without a zone, as `logging`'s default `asctime` is; the test runs with TZ=UTC.
    logging.Formatter.converter = time.gmtime
    text = logging.FileHandler(f"{arguments.dir}/app.log", mode="w")
    text.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    structured = logging.FileHandler(f"{arguments.dir}/app.json.log", mode="w")
    structured.setFormatter(JSONFormatter())
    handlers = {"app.log": text, "app.json.log": structured}

    clock = datetime.datetime.fromisoformat(arguments.start).replace(tzinfo=datetime.timezone.utc).timestamp()
    written = {name: 0 for name in handlers}
    summary = {
        name: {"records": 0, "errors": 0, "timeouts": {}, "levels": {}} for name in handlers
    }
    order = 64000

    def emit(file, logger, level, message, exc_info=None):
        nonlocal clock
        clock += rng.uniform(0.2, 3.0)
        record = logging.getLogger(logger).makeRecord(logger, level, __file__, 0, message, (), exc_info)
        record.created = clock
        record.msecs = (clock - int(clock)) * 1000
        handlers[file].handle(record)
        entry = summary[file]
        entry["records"] += 1
        name = logging.getLevelName(level)
        entry["levels"][name] = entry["levels"].get(name, 0) + 1
        if level >= logging.ERROR:
            entry["errors"] += 1
        written[file] += 1

    while min(written.values()) < arguments.records:
        # Each record goes to whichever file the dice pick, while both still take records.
        open_files = [name for name, count in written.items() if count < arguments.records]
        file = rng.choice(open_files)
        order += rng.randint(1, 40)
        roll = rng.random()
        if roll < 0.30:
            emit(file, "shop.orders", logging.INFO, f"order {order} accepted")
        elif roll < 0.45:
            emit(file, "shop.checkout", logging.INFO, f"checkout started for order {order}")
        elif roll < 0.55:
            emit(file, "shop.checkout", logging.WARNING, f"checkout failed for order {order}")
        elif roll < 0.72:
            millis = rng.randint(1500, 4000)
            query = "q-" + "".join(rng.choice("0123456789abcdef") for _ in range(5))
            # Always a digit and a letter, as the ids of the scenario the issue describes.
            if query[2:].isdigit():
                query = query[:-1] + "f"
            if query[2:].isalpha():
                query = query[:-1] + "7"
            logger = "shop.db" if rng.random() < 0.8 else "shop.reports"
            emit(file, logger, logging.ERROR, f"db query timed out after {millis} ms (query id {query})")
            timeouts = summary[file]["timeouts"]
            timeouts[logger] = timeouts.get(logger, 0) + 1
        elif roll < 0.82:
            try:
                raise ConnectionError(f"upstream 10.0.{rng.randint(0, 9)}.{rng.randint(1, 250)}:5432 refused")
            except ConnectionError:
                emit(file, "shop.payments", logging.ERROR, f"payment for order {order} failed", sys.exc_info())
        elif roll < 0.90:
            emit(file, "shop.cache", logging.WARNING, f"cache refresh took {rng.randint(200, 900)} ms")
        else:
            emit(file, "shop.auth", logging.ERROR, f"token for user u{rng.randint(100, 999)} expired")

    for handler in handlers.values():
        handler.close()
    json.dump(summary, sys.stdout, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
