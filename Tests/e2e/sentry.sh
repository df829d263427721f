#!/usr/bin/env bash
# End-to-end test of the Sentry receiver with the real Sentry Python SDK.
#
# Starts the built dashboard in a tmux pane with `--listen sentry:PORT --record FILE`, runs four SDK processes at
# once (two over the DSN path, gzip'ed envelopes to /api/1/envelope/; two over `spotlight`, plain envelopes to
# /stream; see sentry_producer.py), then checks:
#   - no SDK logged a warning or an error (a failed send, a 4xx/5xx, a rate limit) in its debug log;
#   - in the recording, each process's exception, thread crash, logger.error, message, failed span and exception
#     inside that span arrived exactly once, with type, message, in-app frame, release, environment and trace id
#     (the exception inside the span naming the span), and each crash kept its report (frames with source line and
#     variables, breadcrumbs, tags);
#   - on screen, the failed span's detail shows its transaction's spans as a tree in its Trace section;
#   - on screen, an exception's detail shows the in-app frame, its source line, its variables, the tag and the
#     SDK's breadcrumb, and the Sources pane lists the client.
# SENTRY_PYTHON names the interpreter with sentry-sdk (.ci/run makes a virtual environment with the pinned version).
# Waits poll with a deadline, never a fixed sleep.
set -euo pipefail
cd "$(dirname "$0")/../.."

BIN="${ERRORWATCH_BIN:-$(swift build --show-bin-path)/errorwatch}"
PYTHON="${SENTRY_PYTHON:-python3}"
[[ -x "$BIN" ]] || { echo "e2e-sentry: $BIN is not built"; exit 1; }
"$PYTHON" -c 'import sentry_sdk' || { echo "e2e-sentry: $PYTHON lacks sentry-sdk (set SENTRY_PYTHON)"; exit 1; }
if "$PYTHON" -c 'import brotli' 2>/dev/null; then
    echo "e2e-sentry: brotli is installed, so the SDK would send br (answered 415); use a venv without it"
    exit 1
fi

WORK=$(mktemp -d)
# The dashboard's issue store goes with the rest of the run, never into the real home state.
export XDG_STATE_HOME="$WORK/state"
SESSION="errorwatch-sentry-$$"
TMUX_CMD=(tmux -L "errorwatch-sentry-$$")
cleanup() { "${TMUX_CMD[@]}" kill-server >/dev/null 2>&1 || true; rm -rf "$WORK"; }
trap cleanup EXIT
screen() { "${TMUX_CMD[@]}" capture-pane -p -t "$SESSION"; }
wait_for() { # wait_for WHAT PATTERN: the screen shows PATTERN within 20 s
    local deadline=$((SECONDS + 20))
    until screen | grep -qE -- "$2"; do
        ((SECONDS < deadline)) || { echo "FAIL $1"; screen; exit 1; }
        sleep 0.1
    done
    echo "ok   $1"
}

PORT=$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
RECORDING="$WORK/recording.ndjson"

"${TMUX_CMD[@]}" -f /dev/null new-session -d -s "$SESSION" -x 150 -y 70 \
    "env -i PATH=$PATH HOME=$HOME XDG_STATE_HOME=$XDG_STATE_HOME TERM=xterm-256color LANG=C.UTF-8 bash --norc --noprofile"
"${TMUX_CMD[@]}" send-keys -t "$SESSION" \
    "$BIN --seed 7 --listen sentry:$PORT --record $RECORDING; echo \"EXIT=\$?\"" Enter

"$PYTHON" - "$PORT" <<'PY'
import socket, sys, time
deadline = time.time() + 60
while True:
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1).close()
        break
    except OSError:
        if time.time() > deadline:
            sys.exit("e2e-sentry: the receiver never listened")
        time.sleep(0.1)
PY
echo "e2e-sentry: dashboard listening on sentry:$PORT"

RUNS=(dsn-1 dsn-2 spot-1 spot-2)
pids=()
for run in "${RUNS[@]}"; do
    if [[ $run == dsn-* ]]; then target=(--dsn "http://errorwatch@127.0.0.1:$PORT/1"); else
        target=(--spotlight "http://127.0.0.1:$PORT/stream"); fi
    "$PYTHON" Tests/e2e/sentry_producer.py "${target[@]}" --run "$run" >"$WORK/$run.out" 2>"$WORK/$run.err" &
    pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || { echo "FAIL a producer failed"; cat "$WORK"/*.err; exit 1; }; done
for run in "${RUNS[@]}"; do
    grep -qx sent "$WORK/$run.out" || { echo "FAIL $run did not finish"; cat "$WORK/$run.err"; exit 1; }
    if grep -E '\[sentry\] (WARNING|ERROR)' "$WORK/$run.err"; then
        echo "FAIL the SDK of $run reported a problem"
        exit 1
    fi
    grep -q 'Sending envelope' "$WORK/$run.err" || [[ $run == spot-* ]] ||
        { echo "FAIL $run never sent an envelope"; exit 1; }
done
echo "ok   ${#RUNS[@]} SDK processes sent everything and reported no failed send"

wait_for "the Sources pane lists the SDK client" "● sentry\.python"

# The detail of dsn-1's thread crash, found with the query: its in-app frame, source line, variables, tag and
# breadcrumb.
"${TMUX_CMD[@]}" send-keys -t "$SESSION" / "north-dsn-1" Enter
wait_for "the query keeps the crash" "shelf north-dsn-1 is empty"
# Tab moves the focus from Alerts to Logs, where Enter opens the newest line shown.
# Keys are read in order, so the two need no wait between them.
"${TMUX_CMD[@]}" send-keys -t "$SESSION" Tab Enter
wait_for "the detail shows the exception chain" "^│ InventoryError: shelf north-dsn-1 is empty"
wait_for "the crash is marked unhandled" "\[unhandled · threading\]"
LINE=$(grep -n 'raise InventoryError' Tests/e2e/sentry_producer.py | cut -d: -f1)
wait_for "the in-app frame is selected" "▶ sentry_producer.py:$LINE in restock"
wait_for "the failing source line is marked" "▶ $LINE \|     raise InventoryError"
wait_for "the frame's variables are shown" "│ shelf +'north-dsn-1'"
wait_for "the tag is shown" "│ run +dsn-1 "
"${TMUX_CMD[@]}" send-keys -t "$SESSION" G
wait_for "the SDK's breadcrumb is shown" "info auth  signed in dsn-1"
"${TMUX_CMD[@]}" send-keys -t "$SESSION" Escape
wait_for "the detail closes" "Sources"

# The failed span's error shows its transaction in the Trace section: the transaction the root, the failed span
# under it, marked as the error's own span. The query's draft still holds the last one: erased key by key.
"${TMUX_CMD[@]}" send-keys -t "$SESSION" /
"${TMUX_CMD[@]}" send-keys -t "$SESSION" -N 11 BSpace
"${TMUX_CMD[@]}" send-keys -t "$SESSION" "SELECT stock dsn-1" Enter
wait_for "the query keeps the failed span" "db\.query: SELECT stock dsn-1"
"${TMUX_CMD[@]}" send-keys -t "$SESSION" Enter
wait_for "the failed span's detail opens" "^│ Qualified type +span\.internal_error "
wait_for "its Trace section names the trace" "^│ Trace [0-9a-f]{32} "
wait_for "the transaction is the root of the tree" "^│ task: checkout dsn-1 "
wait_for "the failed span hangs under it, marked as the error's" "^│ └ db\.query: SELECT stock dsn-1 ◀ .* error "
"${TMUX_CMD[@]}" send-keys -t "$SESSION" Escape
wait_for "the detail closes" "Sources"

"${TMUX_CMD[@]}" send-keys -t "$SESSION" q
deadline=$((SECONDS + 20))
until screen | grep -Eq "^EXIT=[0-9]+"; do
    ((SECONDS < deadline)) || { echo "FAIL the dashboard did not exit"; screen; exit 1; }
    sleep 0.1
done
screen | grep -Eq "^EXIT=0$" || { echo "FAIL the dashboard exited with $(screen | grep -Eo '^EXIT=[0-9]+')"; exit 1; }
echo "ok   the dashboard exited with 0"

"$PYTHON" - "$RECORDING" "${RUNS[@]}" <<'PY'
import collections, json, sys

events = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
errors = [e for e in events if e["kind"] == "error"]
failures, checks = 0, 0

def check(ok, what):
    global failures, checks
    checks += 1
    if not ok:
        failures += 1
        print("FAIL " + what)

count = collections.Counter((e.get("exception.type"), e.get("exception.message")) for e in errors)
runs = sys.argv[2:]
check(count[("ZeroDivisionError", "division by zero")] == len(runs),
      f"{count[('ZeroDivisionError', 'division by zero')]} captured exceptions, expected {len(runs)}")
for run in runs:
    for key in [("InventoryError", f"shelf north-{run} is empty"), ("message", f"order {run} could not be paid"),
                ("message", f"nightly report done {run}"), ("span.internal_error", f"db.query: SELECT stock {run}")]:
        check(count[key] == 1, f"{run}: {key} arrived {count[key]} times, not once")
for e in errors:
    what = f"{e.get('exception.type')}: {e.get('exception.message')}"
    check(e.get("service.version") == "shop@1.4.2", f"{what}: release not kept")
    check(e.get("deployment.environment.name") == "staging", f"{what}: environment not kept")
    # Only an error inside a transaction names a trace; the SDK's bare propagation id (shared by unrelated errors
    # outside any transaction) is kept as sent, as an attribute, and links nothing.
    traced = e.get("exception.type") in ("KeyError", "span.internal_error")
    if traced:
        check(len(e.get("trace_id") or "") == 32, f"{what}: no trace id")
    else:
        check(not e.get("trace_id"), f"{what}: the SDK's propagation id was taken for a trace")
        check(len((e.get("attributes") or {}).get("sentry.propagation_trace_id") or "") == 32,
              f"{what}: the SDK's propagation id was not kept")
    check((e.get("fingerprint") or "").startswith("sentry:"), f"{what}: no grouping")
crashes = [e for e in errors if e.get("exception.type") == "InventoryError"]
check(all(e.get("code.function") == "restock" and e.get("code.filepath", "").endswith("sentry_producer.py")
          for e in crashes), "the thread crash lost its in-app frame")
divisions = [e for e in errors if e.get("exception.type") == "ZeroDivisionError"]
check(all(e.get("code.function") == "charge" for e in divisions), "the captured exception lost its in-app frame")
for run in runs:
    # The exception captured inside the failed span names that span and its transaction's trace.
    inside = [e for e in errors if (e.get("exception.type"), e.get("exception.message")) == ("KeyError", f"'south-{run}'")]
    span = [e for e in errors if e.get("exception.message") == f"db.query: SELECT stock {run}"]
    check(len(inside) == 1, f"{run}: the exception inside the transaction arrived {len(inside)} times, not once")
    check(len(inside) == 1 and len(span) == 1 and inside[0].get("trace_id") == span[0].get("trace_id")
          and inside[0].get("span_id") == span[0].get("span_id"),
          f"{run}: the exception inside the span does not name the span's trace and id")
# The recording keeps each crash's report: the in-app frame with its source line and variables, the breadcrumbs.
for e in crashes:
    report = e.get("exception.report") or {}
    frames = [f for x in report.get("exceptions", []) for f in x.get("frames", [])]
    check(any(f.get("function") == "restock" and "raise InventoryError" in f.get("context_line", "")
              and any(name == "shelf" for name, _ in f.get("vars", [])) for f in frames),
          f"{e.get('exception.message')}: the recording lost the frame's source line or variables")
    check(any((b.get("message") or "").startswith("signed in") for b in report.get("breadcrumbs", [])),
          f"{e.get('exception.message')}: the recording lost the breadcrumbs")
    check(["run", e["exception.message"].split("north-")[1].split(" ")[0]] in report.get("tags", []),
          f"{e.get('exception.message')}: the recording lost the tag")
warnings = [e for e in errors if (e.get("exception.message") or "").startswith("nightly report done")]
check(all(e.get("severity") == "warning" for e in warnings), "capture_message lost its level")
print(f"e2e-sentry: {checks - failures} checks passed, {failures} failed")
sys.exit(1 if failures else 0)
PY
