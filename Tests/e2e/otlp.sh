#!/usr/bin/env bash
# End-to-end test of the OTLP/HTTP receiver with real OpenTelemetry clients.
#
# Starts the built dashboard in a tmux pane with `--listen otlp:PORT --record FILE`, runs several producers at
# once (the OpenTelemetry Python SDK exporting protobuf with gzip, and hand-made OTLP/JSON over urllib: see
# otlp_producer.py), ends the dashboard with q, and checks in the recording that every exception, log line and
# histogram observation arrived exactly once, with types, messages and stack traces intact.
#
# Needs python3 with the OpenTelemetry SDK and OTLP/HTTP exporter: OTLP_PYTHON names that interpreter (.ci/run
# makes a virtual environment with pinned versions and sets it). Waits poll with a deadline, never a fixed sleep.
set -euo pipefail
cd "$(dirname "$0")/../.."

BIN="${ERRORWATCH_BIN:-$(swift build --show-bin-path)/errorwatch}"
PYTHON="${OTLP_PYTHON:-python3}"
[[ -x "$BIN" ]] || { echo "e2e-otlp: $BIN is not built"; exit 1; }
"$PYTHON" -c 'import opentelemetry.sdk, opentelemetry.exporter.otlp.proto.http' ||
    { echo "e2e-otlp: $PYTHON lacks the OpenTelemetry SDK (set OTLP_PYTHON)"; exit 1; }

WORK=$(mktemp -d)
# The dashboard keeps issues in a store by default: here, in the scratch folder, never the user's state.
export XDG_STATE_HOME="$WORK/state"
SESSION="errorwatch-otlp-$$"
TMUX_CMD=(tmux -L "errorwatch-otlp-$$")
cleanup() { "${TMUX_CMD[@]}" kill-server >/dev/null 2>&1 || true; rm -rf "$WORK"; }
trap cleanup EXIT
screen() { "${TMUX_CMD[@]}" capture-pane -p -t "$SESSION"; }

PORT=$("$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
URL="http://127.0.0.1:$PORT"
RECORDING="$WORK/recording.ndjson"

"${TMUX_CMD[@]}" -f /dev/null new-session -d -s "$SESSION" -x 120 -y 40 \
    "env -i PATH=$PATH HOME=$HOME TERM=xterm-256color LANG=C.UTF-8 bash --norc --noprofile"
"${TMUX_CMD[@]}" send-keys -t "$SESSION" \
    "$BIN --seed 7 --listen otlp:$PORT --record $RECORDING; echo \"EXIT=\$?\"" Enter

# The receiver is up once a connection succeeds.
"$PYTHON" - "$PORT" <<'PY'
import socket, sys, time
deadline = time.time() + 60
while True:
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1).close()
        break
    except OSError:
        if time.time() > deadline:
            sys.exit("e2e-otlp: the receiver never listened")
        time.sleep(0.1)
PY
echo "e2e-otlp: dashboard listening on otlp:$PORT"

# Several producers at once: three through the SDK (protobuf, gzip), two in OTLP/JSON.
N=12
pids=()
for i in 1 2 3; do "$PYTHON" Tests/e2e/otlp_producer.py sdk "$URL" "sdk-$i" "$N" "$WORK/sdk-$i.json" & pids+=($!); done
for i in 1 2; do "$PYTHON" Tests/e2e/otlp_producer.py json "$URL" "json-$i" "$N" "$WORK/json-$i.json" & pids+=($!); done
for pid in "${pids[@]}"; do wait "$pid" || { echo "FAIL a producer failed"; exit 1; }; done
echo "ok   5 producers exported their logs and metrics"

# The Sources pane lists the resources.
deadline=$((SECONDS + 20))
until screen | grep -q "e2e-otlp"; do
    ((SECONDS < deadline)) || { echo "FAIL no e2e-otlp row on screen"; screen; exit 1; }
    sleep 0.1
done
echo "ok   the dashboard shows the OTLP sources"

"${TMUX_CMD[@]}" send-keys -t "$SESSION" q
deadline=$((SECONDS + 20))
# The typed command line itself holds `echo "EXIT=$?"`: wait for the line the shell prints, `EXIT=` and digits.
until screen | grep -Eq "^EXIT=[0-9]+"; do
    ((SECONDS < deadline)) || { echo "FAIL the dashboard did not exit"; screen; exit 1; }
    sleep 0.1
done
screen | grep -Eq "^EXIT=0$" || { echo "FAIL the dashboard exited with $(screen | grep -Eo '^EXIT=[0-9]+')"; exit 1; }
echo "ok   the dashboard exited with 0"

"$PYTHON" - "$RECORDING" "$WORK"/sdk-*.json "$WORK"/json-*.json <<'PY'
import collections, json, sys

events = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
ours = [e for e in events if e.get("service.name") == "e2e-otlp"]
failures, checks = 0, 0

def check(ok, what):
    global failures, checks
    checks += 1
    if not ok:
        failures += 1
        print("FAIL " + what)

errors = collections.Counter(
    (e.get("exception.type"), e.get("exception.message")) for e in ours if e["kind"] == "error")
logs = collections.Counter(e.get("body") for e in ours if e["kind"] == "log")
observations = [e for e in ours if e["kind"] == "metric" and e.get("metric.name") == "checkout.duration"]
expected_errors = expected_logs = expected_observations = 0
for path in sys.argv[2:]:
    manifest = json.load(open(path))
    expected_observations += manifest["observations"]
    for record in manifest["records"]:
        if record["kind"] == "error":
            expected_errors += 1
            key = (record["type"], record["message"])
            check(errors[key] == 1, f"{key} arrived {errors[key]} times, not once")
            matching = [e for e in ours if e["kind"] == "error" and e.get("exception.message") == record["message"]]
            check(all(record["stack"] in (e.get("exception.stacktrace") or "") for e in matching),
                  f"{key}: the stack trace lost {record['stack']!r}")
            if "trace_id" in record:
                check(all((e.get("attributes") or {}).get("trace_id") == record["trace_id"] for e in matching),
                      f"{key}: trace_id not kept")
        else:
            expected_logs += 1
            check(logs[record["body"]] == 1, f"log {record['body']!r} arrived {logs[record['body']]} times")
check(sum(errors.values()) == expected_errors, f"{sum(errors.values())} errors, expected {expected_errors}")
check(sum(logs.values()) == expected_logs, f"{sum(logs.values())} log lines, expected {expected_logs}")
check(len(observations) == expected_observations,
      f"{len(observations)} histogram observations, expected {expected_observations}")
check(all(e.get("metric.kind") == "histogram" for e in observations), "observations are not histogram samples")
print(f"ok   {expected_errors} exceptions, {expected_logs} log lines and {expected_observations} histogram "
      f"observations checked in the recording" if failures == 0 else f"e2e-otlp: {failures} checks failed")
print(f"e2e-otlp: {checks - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
PY
