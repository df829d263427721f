"""One process of Tests/e2e/sentry.sh: the real Sentry Python SDK reporting to errorwatch.

Usage: sentry_producer.py (--dsn DSN | --spotlight URL) --run NAME

Sends, each once: an exception captured inside a function with local variables, an unhandled exception in a
thread, logger.error through the logging integration, capture_message, a transaction with a failed span and an
exception captured inside that span; with breadcrumbs, a tag (run=NAME), a release and an environment. Prints
"sent" after flushing; the SDK's own log (debug) goes to stderr, where the script looks for failed sends.
"""

import argparse
import logging
import threading

import sentry_sdk
from sentry_sdk.integrations.logging import LoggingIntegration


class InventoryError(Exception):
    pass


def charge(order_id, amount):
    basket = {"sku": "A-1", "qty": 2}
    try:
        return amount / (basket["qty"] - 2)
    except ZeroDivisionError:
        sentry_sdk.capture_exception()


def restock(run):
    shelf = "north-" + run
    raise InventoryError("shelf %s is empty" % shelf)


def check_stock(run):
    stock = {"north-" + run: 0}
    return stock["south-" + run]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dsn")
    parser.add_argument("--spotlight")
    parser.add_argument("--run", required=True)
    args = parser.parse_args()
    options = dict(
        release="shop@1.4.2",
        environment="staging",
        traces_sample_rate=1.0,
        debug=True,
        integrations=[LoggingIntegration(level=logging.INFO, event_level=logging.ERROR)],
    )
    if args.spotlight:
        options["spotlight"] = args.spotlight
    else:
        options["dsn"] = args.dsn
    sentry_sdk.init(**options)
    sentry_sdk.set_tag("run", args.run)
    sentry_sdk.add_breadcrumb(category="auth", message="signed in " + args.run, level="info", data={"user": "ada"})

    charge("order-" + args.run, 10)

    worker = threading.Thread(target=restock, args=(args.run,))
    worker.start()
    worker.join()

    logging.getLogger("shop.orders").error("order %s could not be paid", args.run)
    sentry_sdk.capture_message("nightly report done " + args.run, level="warning")

    with sentry_sdk.start_transaction(op="task", name="checkout " + args.run):
        with sentry_sdk.start_span(op="db.query", name="SELECT stock " + args.run) as span:
            span.set_status("internal_error")
            try:
                check_stock(args.run)
            except KeyError:
                # Captured inside the transaction: the event names its trace and this span.
                sentry_sdk.capture_exception()

    sentry_sdk.flush(timeout=10)
    print("sent", flush=True)


if __name__ == "__main__":
    main()
