#!/usr/bin/env bash
# End-to-end test of the OTLP/HTTP and OTLP/gRPC receivers with real OpenTelemetry clients.
#
# Starts the built dashboard in a tmux pane with `--listen otlp:PORT --listen otlp-grpc:PORT --record FILE`, runs
# several producers at once (the OpenTelemetry Python SDK exporting protobuf with gzip over HTTP and over gRPC, and
# hand-made OTLP/JSON over urllib: see otlp_producer.py), ends the dashboard with q, and checks in the recording
# that every exception, log line and histogram observation arrived exactly once, with types, messages and stack
# traces intact.
#
# Needs python3 with the OpenTelemetry SDK and its OTLP/HTTP and OTLP/gRPC exporters: OTLP_PYTHON names that
# interpreter (.ci/run makes a virtual environment with pinned versions and sets it). Waits poll with a deadline,
# never a fixed sleep.
set -euo pipefail
cd "$(dirname "$0")/../.."

BIN="${ERRORWATCH_BIN:-$(swift build --show-bin-path)/errorwatch}"
PYTHON="${OTLP_PYTHON:-python3}"
[[ -x "$BIN" ]] || { echo "e2e-otlp: $BIN is not built"; exit 1; }
"$PYTHON" -c 'import opentelemetry.sdk, opentelemetry.exporter.otlp.proto.http, opentelemetry.exporter.otlp.proto.grpc' ||
    { echo "e2e-otlp: $PYTHON lacks the OpenTelemetry SDK (set OTLP_PYTHON)"; exit 1; }

WORK=$(mktemp -d)
# The dashboard keeps issues in a store by default: here, in the scratch folder, never the user's state.
export XDG_STATE_HOME="$WORK/state"
SESSION="errorwatch-otlp-$$"
TMUX_CMD=(tmux -L "errorwatch-otlp-$$")
cleanup() { "${TMUX_CMD[@]}" kill-server >/dev/null 2>&1 || true; rm -rf "$WORK"; }
trap cleanup EXIT
screen() { "${TMUX_CMD[@]}" capture-pane -p -t "$SESSION"; }

free_port() { "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
PORT=$(free_port)
GRPC_PORT=$(free_port)
URL="http://127.0.0.1:$PORT"
GRPC_URL="http://127.0.0.1:$GRPC_PORT"
RECORDING="$WORK/recording.ndjson"

"${TMUX_CMD[@]}" -f /dev/null new-session -d -s "$SESSION" -x 120 -y 40 \
    "env -i PATH=$PATH HOME=$HOME XDG_STATE_HOME=$XDG_STATE_HOME TERM=xterm-256color LANG=C.UTF-8 bash --norc --noprofile"
"${TMUX_CMD[@]}" send-keys -t "$SESSION" \
    "$BIN --seed 7 --listen otlp:$PORT --listen otlp-grpc:$GRPC_PORT --record $RECORDING; echo \"EXIT=\$?\"" Enter

# The receivers are up once a connection to each succeeds.
"$PYTHON" - "$PORT" "$GRPC_PORT" <<'PY'
import socket, sys, time
deadline = time.time() + 60
for port in sys.argv[1:]:
    while True:
        try:
            socket.create_connection(("127.0.0.1", int(port)), timeout=1).close()
            break
        except OSError:
            if time.time() > deadline:
                sys.exit(f"e2e-otlp: the receiver on {port} never listened")
            time.sleep(0.1)
PY
echo "e2e-otlp: dashboard listening on otlp:$PORT and otlp-grpc:$GRPC_PORT"

# Several producers at once: three through the SDK over HTTP (protobuf, gzip), three through the SDK over gRPC
# (gzip), two in OTLP/JSON, and per trace exporter (TRACE_EXPORTERS: http, the OTLP/HTTP span exporter; grpc, the
# OTLP/gRPC one) three processes tracing with the SDK.
N=12
TRACE_EXPORTERS=(${TRACE_EXPORTERS:-http grpc})
# The URL a trace exporter sends to.
trace_url() {
    case "$1" in
        http) echo "$URL" ;;
        grpc) echo "$GRPC_URL" ;;
        *) echo "e2e-otlp: no URL for the trace exporter $1" >&2; exit 1 ;;
    esac
}
pids=()
for i in 1 2 3; do "$PYTHON" Tests/e2e/otlp_producer.py sdk "$URL" "sdk-$i" "$N" "$WORK/sdk-$i.json" & pids+=($!); done
for i in 1 2 3; do
    "$PYTHON" Tests/e2e/otlp_producer.py grpc "$GRPC_URL" "grpc-$i" "$N" "$WORK/grpc-$i.json" & pids+=($!)
done
for i in 1 2; do "$PYTHON" Tests/e2e/otlp_producer.py json "$URL" "json-$i" "$N" "$WORK/json-$i.json" & pids+=($!); done
for exporter in "${TRACE_EXPORTERS[@]}"; do
    for i in 1 2 3; do
        "$PYTHON" Tests/e2e/otlp_producer.py "traces-$exporter" "$(trace_url "$exporter")" "traces-$exporter-$i" "$N" \
            "$WORK/traces-$exporter-$i.json" 2>"$WORK/traces-$exporter-$i.err" &
        pids+=($!)
    done
done
for pid in "${pids[@]}"; do wait "$pid" || { echo "FAIL a producer failed"; cat "$WORK"/*.err 2>/dev/null; exit 1; }; done
if grep -l "Failed to export" "$WORK"/*.err 2>/dev/null; then
    echo "FAIL the SDK reported a failed export"; cat "$WORK"/*.err; exit 1
fi
echo "ok   $((8 + 3 * ${#TRACE_EXPORTERS[@]})) producers exported their logs, metrics and traces (over HTTP and gRPC), none reported a failed export"

# An error from a trace shows its trace. One more traced round, alone, so the newest alert is a traced error (an
# exception recorded by hand, the round's last); then that alert, its newest occurrence, the end of its view.
sleep_until() { # PATTERN WHAT: polls the screen for PATTERN until a deadline, else fails saying WHAT
    local deadline=$((SECONDS + 20))
    until screen | grep -q -e "$1"; do
        ((SECONDS < deadline)) || { echo "FAIL $2"; screen; exit 1; }
        sleep 0.1
    done
}
sleep_while() { # PATTERN WHAT: polls the screen until PATTERN is gone, before a deadline, else fails saying WHAT
    local deadline=$((SECONDS + 20))
    while screen | grep -q -e "$1"; do
        ((SECONDS < deadline)) || { echo "FAIL $2"; screen; exit 1; }
        sleep 0.1
    done
}
"$PYTHON" Tests/e2e/otlp_producer.py "traces-${TRACE_EXPORTERS[0]}" "$(trace_url "${TRACE_EXPORTERS[0]}")" last 1 \
    "$WORK/traces-last.json" 2>"$WORK/traces-last.err" || { echo "FAIL the last producer failed"; exit 1; }
sleep_until "last handled 0" "the last traced error never reached the screen"
"${TMUX_CMD[@]}" send-keys -t "$SESSION" Enter
sleep_until "Occurrences" "the alert's detail view did not open"
"${TMUX_CMD[@]}" send-keys -t "$SESSION" Enter
sleep_until "Received" "the occurrence's detail view did not open"
"${TMUX_CMD[@]}" send-keys -t "$SESSION" G
sleep_until "spans\? received" "the error's detail view shows no Trace section"
echo "ok   the error's detail view shows its trace: $(screen | grep -o '[0-9]* spans\? received[^│]*' | head -1 | sed 's/ *$//')"
# One Escape at a time, each seen to land (two at once may reach the dashboard as one Alt+Escape).
"${TMUX_CMD[@]}" send-keys -t "$SESSION" Escape
sleep_until "Occurrences, newest first" "Escape did not return to the alert's view"
"${TMUX_CMD[@]}" send-keys -t "$SESSION" Escape
sleep_while "Occurrences, newest first" "Escape did not close the alert's view"

# The Sources pane lists the resources.
deadline=$((SECONDS + 20))
until screen | grep -q "e2e-otlp"; do
    ((SECONDS < deadline)) || { echo "FAIL no e2e-otlp row on screen"; screen; exit 1; }
    sleep 0.1
done
echo "ok   the dashboard shows the OTLP sources"

# Traces and metrics as views of their own (issue 37). `v` three times: Issues, Patterns, Traces, each seen to land.
key() { "${TMUX_CMD[@]}" send-keys -t "$SESSION" "$@"; }
key v; sleep_until "┌ Issues" "v did not show the Issues view"
key v; sleep_until "┌ Patterns" "v did not show the Patterns view"
key v; sleep_until "traces · by time" "v did not show the Traces view"
for root in "POST /checkout" "GET /health"; do
    screen | grep -q "$root" || { echo "FAIL the Traces view lists no $root trace"; screen; exit 1; }
done
all=$(screen | grep -o '[0-9,]* traces · by time' | head -1 | tr -d ,)
all=${all%% *}
echo "ok   the Traces view lists failing and successful traces ($all in all)"
key /; key -l "status:error POST"; key Enter
# The title then says which of the matching traces are shown: `1–12 of 73 shown · by time`.
sleep_until "of [0-9,]* shown · by time" "the query did not narrow the Traces view"
shown=$(screen | grep -o 'of [0-9,]* shown' | head -1 | tr -d ,)
shown=${shown#of }
shown=${shown%% *}
((shown > 0 && shown < all)) || { echo "FAIL status:error POST shows $shown of $all traces"; screen; exit 1; }
echo "ok   the query status:error POST narrows the Traces view to $shown of $all traces"
key Enter; sleep_until "Trace · " "Enter did not open the trace's waterfall"
key Enter; sleep_until "Span · POST /checkout" "Enter did not open the root span"
for field in "Attributes" "http.route" "/checkout" "SERVER\|server"; do
    screen | grep -q "$field" || { echo "FAIL the span's view lacks $field"; screen; exit 1; }
done
echo "ok   a span's view opens with its attributes (http.route /checkout)"
key Escape; sleep_until "Trace · " "Escape did not return to the waterfall"
key Escape
sleep_while "Trace · " "Escape did not close the waterfall"
key Escape; sleep_until "[0-9] traces · by time" "Escape did not clear the query"
# The service map (`v` after Traces): the traced producers' checks call a second service, e2e-otlp-db.
key v; sleep_until "┌ Services" "v did not show the Services view"
sleep_until "e2e-otlp → e2e-otlp-db" "the Services view has no e2e-otlp → e2e-otlp-db edge"
echo "ok   the service map: $(screen | grep -o 'e2e-otlp → e2e-otlp-db[^│]*' | head -1 | tr -s ' ')"
key Enter; sleep_until "traces · by time\|shown · by time" "Enter on an edge did not open the Traces view"
# The left pane only: the Metrics pane beside it lists request series of both names.
left() { screen | sed 's/││.*//'; }
left | grep -q 'GET /health' || { echo "FAIL the edge's traces are not its GET /health traces"; screen; exit 1; }
left | grep -q 'POST /checkout' && { echo "FAIL the edge's traces include POST /checkout"; screen; exit 1; }
echo "ok   Enter on the edge lists the traces of both services"
key Escape; sleep_until "[0-9] traces · by time" "Escape did not clear the edge's query"
# The Metrics pane (Tab, Tab) selects a series with j and opens its chart with Enter: the producers' histogram.
key Tab; key Tab; key Enter
sleep_until "Chart · " "Enter in the Metrics pane opened no chart"
tries=0
until screen | grep -q "Chart · checkout.duration"; do
    ((tries < 60)) || { echo "FAIL no chart of checkout.duration after $tries series"; screen; exit 1; }
    key Escape
    sleep_while "Chart · " "Escape did not close the chart"
    key j; key Enter; sleep_until "Chart · " "Enter in the Metrics pane opened no chart"
    tries=$((tries + 1))
done
sleep_until "p50 [0-9]" "the histogram's chart shows no p50"
screen | "$PYTHON" -c 'import sys; sys.exit(not any(0x2801 <= ord(c) <= 0x28FF for c in sys.stdin.read()))' ||
    { echo "FAIL the chart has no braille points"; screen; exit 1; }
screen | grep -q -- "-5m .* now" || { echo "FAIL the chart has no 5-minute time axis"; screen; exit 1; }
key w; sleep_until "-15m" "w did not switch the chart to 15 minutes"
echo "ok   the histogram's chart is drawn: $(screen | grep -o 'p50 [0-9.]*[a-zµ]*  *━ p95 [0-9.]*[a-zµ]*' | head -1)"
# Escape seen to land before q (the two at once would reach the dashboard as Alt+q).
key Escape
sleep_while "Chart · " "Escape did not close the chart"

"${TMUX_CMD[@]}" send-keys -t "$SESSION" q
deadline=$((SECONDS + 20))
# The typed command line itself holds `echo "EXIT=$?"`: wait for the line the shell prints, `EXIT=` and digits.
until screen | grep -Eq "^EXIT=[0-9]+"; do
    ((SECONDS < deadline)) || { echo "FAIL the dashboard did not exit"; screen; exit 1; }
    sleep 0.1
done
screen | grep -Eq "^EXIT=0$" || { echo "FAIL the dashboard exited with $(screen | grep -Eo '^EXIT=[0-9]+')"; exit 1; }
echo "ok   the dashboard exited with 0"

"$PYTHON" - "$RECORDING" "$WORK"/sdk-*.json "$WORK"/grpc-*.json "$WORK"/json-*.json "$WORK"/traces-*.json <<'PY'
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
expected_errors = expected_logs = expected_observations = traced_errors = traced_logs = 0
for path in sys.argv[2:]:
    manifest = json.load(open(path))
    expected_observations += manifest["observations"]
    for record in manifest["records"]:
        if record["kind"] == "error":
            expected_errors += 1
            key = (record["type"], record["message"])
            check(errors[key] == 1, f"{key} arrived {errors[key]} times, not once")
            matching = [e for e in ours if e["kind"] == "error" and e.get("exception.message") == record["message"]]
            if "stack" in record:
                check(all(record["stack"] in (e.get("exception.stacktrace") or "") for e in matching),
                      f"{key}: the stack trace lost {record['stack']!r}")
            if "trace_id" in record:
                check(all(e.get("trace_id") == record["trace_id"] for e in matching),
                      f"{key}: trace_id not kept: {[e.get('trace_id') for e in matching]} != {record['trace_id']}")
            if "spans" in record:
                traced_errors += 1
                check(all(len(e.get("span_id") or "") == 16 for e in matching), f"{key}: no span_id")
                check(all(e.get("service.version") == "1.4.2" and e.get("deployment.environment.name") == "e2e"
                          for e in matching), f"{key}: the resource's version or environment was lost")
        else:
            expected_logs += 1
            check(logs[record["body"]] == 1, f"log {record['body']!r} arrived {logs[record['body']]} times")
            if "trace_id" in record:
                traced_logs += 1
                linked = [e for e in ours if e["kind"] == "log" and e.get("body") == record["body"]]
                check(all(e.get("trace_id") == record["trace_id"] for e in linked),
                      f"log {record['body']!r} is not linked to its trace")
check(sum(errors.values()) == expected_errors, f"{sum(errors.values())} errors, expected {expected_errors}")
check(sum(logs.values()) == expected_logs, f"{sum(logs.values())} log lines, expected {expected_logs}")
check(len(observations) == expected_observations,
      f"{len(observations)} histogram observations, expected {expected_observations}")
check(all(e.get("metric.kind") == "histogram" for e in observations), "observations are not histogram samples")
print(f"ok   {expected_errors} errors ({traced_errors} from traces), {expected_logs} log lines ({traced_logs} "
      f"linked to their trace) and {expected_observations} histogram observations checked in the recording"
      if failures == 0 else f"e2e-otlp: {failures} checks failed")
print(f"e2e-otlp: {checks - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
PY
