#!/usr/bin/env bash
# End-to-end test of `errorwatch run -- COMMAND` with real children.
#
# 1. A Python service (run_child.py) configured only by the environment `run` gives it: the OpenTelemetry SDK's OTLP
#    exporter and sentry-sdk (SENTRY_SPOTLIGHT, no DSN). It prints to stdout and stderr, records an exception on a
#    failed span, captures one with Sentry, then dies of an uncaught KeyError. Checks: each report appears once per
#    run (stdout and stderr lines marked as such, the span's exception, Sentry's, the traceback's, the exit); the
#    exit is shown in the Status pane and as an alert; the KeyError's detail shows its frame and the source line read
#    from the disk; `r` runs it again; `q` ends it and leaves no process behind.
# 2. A Swift program compiled here that traps: its message, its frame with the source line, and the line it printed
#    to stdout before the crash (which a pipe's buffer would lose) are on screen.
# RUN_PYTHON names the interpreter with the pinned SDKs (.ci/run's virtual environment). Waits poll with a deadline,
# never a fixed sleep.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)

BIN="${ERRORWATCH_BIN:-$(swift build --show-bin-path)/errorwatch}"
PYTHON="${RUN_PYTHON:-python3}"
[[ -x "$BIN" ]] || { echo "e2e-run: $BIN is not built"; exit 1; }
"$PYTHON" -c 'import sentry_sdk, opentelemetry.sdk' || { echo "e2e-run: $PYTHON lacks the SDKs (set RUN_PYTHON)"; exit 1; }
PYTHON=$(cd "$(dirname "$PYTHON")" && pwd)/$(basename "$PYTHON")

WORK=$(mktemp -d)
export XDG_STATE_HOME="$WORK/state"
SESSION="errorwatch-run-$$"
TMUX_CMD=(tmux -L "errorwatch-run-$$")
cleanup() {
    tmux -L "errorwatch-run-$$" kill-server >/dev/null 2>&1 || true
    tmux -L "errorwatch-run-swift-$$" kill-server >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT
screen() { "${TMUX_CMD[@]}" capture-pane -p -t "$SESSION"; }
wait_for() { # wait_for WHAT PATTERN: the screen shows PATTERN within 30 s
    local deadline=$((SECONDS + 30))
    until screen | grep -qE -- "$2"; do
        ((SECONDS < deadline)) || { echo "FAIL $1"; screen; exit 1; }
        sleep 0.1
    done
    echo "ok   $1"
}
wait_exit() {
    local deadline=$((SECONDS + 30))
    until screen | grep -Eq "^EXIT=[0-9]+"; do
        ((SECONDS < deadline)) || { echo "FAIL the dashboard did not exit"; screen; exit 1; }
        sleep 0.1
    done
    screen | grep -Eq "^EXIT=0$" || { echo "FAIL the dashboard exited with $(screen | grep -Eo '^EXIT=[0-9]+')"; exit 1; }
    echo "ok   the dashboard exited with 0"
}
start_session() {
    "${TMUX_CMD[@]}" -f /dev/null new-session -d -s "$SESSION" -x 160 -y 60 \
        "env -i PATH=$PATH HOME=$HOME XDG_STATE_HOME=$XDG_STATE_HOME TERM=xterm-256color LANG=C.UTF-8 bash --norc --noprofile"
    "${TMUX_CMD[@]}" send-keys -t "$SESSION" "cd $ROOT && $1; echo \"EXIT=\$?\"" Enter
}

# 1. The Python service.
RECORDING="$WORK/run.ndjson"
start_session "$BIN run --record $RECORDING -- $PYTHON Tests/e2e/run_child.py"
wait_for "the exit is shown in the Status pane" "✗ python3? +exited with status 1|python[0-9.]* exited with status 1"
wait_for "the exit is an alert" "ProcessExit: python[0-9.]* exited with status 1"
wait_for "the uncaught exception is an alert" "KeyError: 'B-2'"
wait_for "the span's exception is an alert" "InventoryError: shelf 7 is empty"
wait_for "Sentry's exception is an alert" "PaymentDeclined: card ending 4242 declined"
"${TMUX_CMD[@]}" send-keys -t "$SESSION" / "KeyError" Enter
wait_for "the query keeps the crash" "KeyError"
"${TMUX_CMD[@]}" send-keys -t "$SESSION" Tab Enter
LINE=$(grep -n 'return orders\["B-2"\]' Tests/e2e/run_child.py | cut -d: -f1)
wait_for "the crash's frame is selected" "▶ $ROOT/Tests/e2e/run_child.py:$LINE in main"
wait_for "its source line, read from the disk, is marked" "▶ $LINE \|     return orders\[\"B-2\"\]"
wait_for "the traceback is kept as printed" "Stack trace as printed"
"${TMUX_CMD[@]}" send-keys -t "$SESSION" Escape
wait_for "the detail closes" "Status"
"${TMUX_CMD[@]}" send-keys -t "$SESSION" Escape
# One key at a time: Esc and a key at once read as Alt and the key.
wait_for "the query is cleared" "│ no filter"
"${TMUX_CMD[@]}" send-keys -t "$SESSION" r
wait_for "r runs it again" "ProcessExit: python[0-9.]* exited with status 1 ×2"
"${TMUX_CMD[@]}" send-keys -t "$SESSION" q
wait_exit
# Any process running the child's script but the dashboard itself (whose arguments name it too).
leftovers() { ps -eo pid=,comm=,args= | awk '$2 != "errorwatch" && /Tests\/e2e\/run_child\.py/'; }
if [[ -n "$(leftovers)" ]]; then
    echo "FAIL a child was left running after q"
    leftovers
    exit 1
fi
echo "ok   no process of the command is left after q"

"$PYTHON" - "$RECORDING" <<'PY'
import collections, json, sys

events = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
failures, checks = 0, 0

def check(ok, what):
    global failures, checks
    checks += 1
    if not ok:
        failures += 1
        print("FAIL " + what)

def lines(text):
    return [e for e in events if e["kind"] == "log" and (e.get("body") or "").startswith(text)]

starts = lines("errorwatch: started ")
check(len(starts) == 2, f"{len(starts)} starts recorded, expected 2 (the first run and r)")
for text, stream in [("checkout starting", "stdout"), ("warming the price cache", "stderr"),
                     ("about to look up the order", "stdout")]:
    found = lines(text)
    check(len(found) == 2, f"{text!r}: {len(found)} lines, expected one per run")
    check(all((e.get("attributes") or {}).get("log.iostream") == stream for e in found),
          f"{text!r}: not marked as {stream}")
errors = [e for e in events if e["kind"] == "error"]
count = collections.Counter((e.get("exception.type") or "").split(".")[-1] for e in errors)
for kind in ["InventoryError", "PaymentDeclined", "KeyError", "ProcessExit"]:
    check(count[kind] == 2, f"{kind}: {count[kind]} errors, expected exactly one per run")
check(sum(count.values()) == 8, f"{sum(count.values())} errors in all, expected 8: {dict(count)}")
crashes = [e for e in errors if e.get("exception.type") == "KeyError"]
check(all("Traceback (most recent call last)" in (e.get("exception.stacktrace") or "") for e in crashes),
      "the traceback was not folded into its error")
exits = [e for e in errors if e.get("exception.type") == "ProcessExit"]
check(all(e.get("error.code") == "exit 1" for e in exits), f"exit codes: {[e.get('error.code') for e in exits]}")
statuses = [e.get("status.state") for e in events if e["kind"] == "status"]
check(statuses.count("exited with status 1") == 2, f"statuses: {statuses}")
services = {e.get("service.name") for e in errors if e.get("exception.type") != "PaymentDeclined"}
check(len(services) == 1, f"the child's reports name {services}, not one service")
print(f"e2e-run: {checks - failures} checks passed, {failures} failed")
sys.exit(1 if failures else 0)
PY

# 2. A Swift program that traps.
swiftc -g -Onone "$ROOT/Tests/e2e/run_trap.swift" -o "$WORK/split-bill" 2>"$WORK/swiftc.err" ||
    { echo "FAIL swiftc"; cat "$WORK/swiftc.err"; exit 1; }
# A server of its own: a new one started as the first exits may race its exit ("server exited unexpectedly").
TMUX_CMD=(tmux -L "errorwatch-run-swift-$$")
start_session "$BIN run --no-store -- $WORK/split-bill"
wait_for "the trap is an alert" "Fatal error: cannot split 120 among 0 people"
wait_for "the crash ends it" "ProcessExit: split-bill killed by SIGILL|ProcessExit: split-bill killed by SIGTRAP"
wait_for "the line printed before the crash is kept" "splitting the bill"
"${TMUX_CMD[@]}" send-keys -t "$SESSION" / "Fatal" Enter
wait_for "the query keeps the trap" "Fatal error"
"${TMUX_CMD[@]}" send-keys -t "$SESSION" Tab Enter
LINE=$(grep -n 'fatalError(' Tests/e2e/run_trap.swift | cut -d: -f1)
wait_for "the trap's frame is selected" "▶ $ROOT/Tests/e2e/run_trap.swift:$LINE:[0-9]+ in divide\(_:among:\)"
wait_for "its source line is marked" "▶ $LINE \|     guard people > 0 else \{ fatalError"
"${TMUX_CMD[@]}" send-keys -t "$SESSION" Escape
wait_for "the detail closes" "Status"
"${TMUX_CMD[@]}" send-keys -t "$SESSION" q
wait_exit
echo "e2e-run: passed"
