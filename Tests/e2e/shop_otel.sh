#!/usr/bin/env bash
# End-to-end test of a Swift server on swift-otel watched by the dashboard: Examples/ShopServer with
# `--otel ENDPOINT`, once over OTLP/HTTP and once over OTLP/gRPC.
#
# For each transport (SHOP_OTEL_TRANSPORTS, `http grpc` by default; `json` is OTLP/HTTP with JSON bodies):
# starts `errorwatch --listen otlp:PORT` (or `--listen otlp-grpc:PORT`) `--record FILE` in tmux, then
# `shop-server --otel http://127.0.0.1:PORT`, drives
# POST /checkout with wrk, stops the server (swift-otel flushes on the way out) and checks:
#   - the checkout exceptions the server says it recorded on its request spans, in all and per exception type,
#     equal the errors the dashboard recorded from shop-server;
#   - each error has its exception type and the shop's message for it, its trace and span ids, the request's
#     route and status;
#   - the warnings the shop logged inside a request arrived linked to that request's trace;
#   - swift-otel logged no failed export and dropped nothing, and used the transport asked for.
# Every wait polls a condition with a deadline; none is a fixed sleep. Exits non-zero on any mismatch.
#
# Needs wrk, curl, tmux and python3 (.ci/run installs the first three when missing).
set -euo pipefail
cd "$(dirname "$0")/../.."

NAME="shop-otel e2e"
TOOLS="wrk curl tmux python3"
# shellcheck source=Tests/e2e/shop-lib.sh
source Tests/e2e/shop-lib.sh

WORK="$(mktemp -d /tmp/shop-otel-e2e-XXXXXX)"
# The dashboard keeps issues in a store by default: here, in the scratch folder, never the user's state.
export XDG_STATE_HOME="$WORK/state"
TMUX_CMD=(tmux -L "shop-otel-e2e-$$")
SESSION=shop
SERVER_PID=""
failures=0
checks=0

cleanup() {
    [[ -n "$SERVER_PID" ]] && kill "$SERVER_PID" 2>/dev/null || true
    "${TMUX_CMD[@]}" kill-server >/dev/null 2>&1 || true
    [[ -n "${KEEP_WORK:-}" ]] && echo "shop-otel e2e: kept $WORK" || rm -rf "$WORK"
}
trap cleanup EXIT

listening() {
    python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1).close()' "$1"
}

# The errors from shop-server in the recording.
recorded_errors() { grep '"kind":"error"' "$RECORDING" 2>/dev/null | grep -c '"service.name":"shop-server"' || true; }
recorded_at_least() { (($(recorded_errors) >= $1)); }

run_transport() {
    local transport="$1" listen protocol
    RUN="$WORK/$transport"
    SERVER_ERR="$RUN/server.err"
    mkdir -p "$RUN"
    RECORDING="$RUN/recording.ndjson"
    local port
    port="$(free_port)"
    case "$transport" in
        http) listen="otlp:$port" protocol="http/protobuf" ;;
        grpc) listen="otlp-grpc:$port" protocol="grpc" ;;
        json) listen="otlp:$port" protocol="http/json" ;;
        *) fail_now "no transport named $transport" ;;
    esac
    echo "shop-otel e2e: $transport: errorwatch --listen $listen, shop-server --otel-protocol $protocol"

    # --- The dashboard, receiving OTLP and recording what it shows ---
    # A tmux server of its own per transport: a new session right after the last one's kill-server can race that
    # server's exit ("server exited unexpectedly").
    TMUX_CMD=(tmux -L "shop-otel-e2e-$$-$transport")
    "${TMUX_CMD[@]}" -f /dev/null new-session -d -s "$SESSION" -x 120 -y 40 \
        "env -i PATH=$PATH HOME=$HOME XDG_STATE_HOME=$XDG_STATE_HOME TERM=xterm-256color LANG=C.UTF-8 bash --norc --noprofile"
    "${TMUX_CMD[@]}" send-keys -t "$SESSION" \
        "$ERRORWATCH_BIN --listen $listen --record $RECORDING; echo EXIT=\$?" Enter
    wait_until 60 listening "$port" || fail_now "the dashboard never listened on $listen"
    echo "ok   dashboard listening on $listen"

    # --- The server, exporting to it through swift-otel ---
    local shop_port
    shop_port="$(free_port)"
    "$SHOP_BIN" --port "$shop_port" --otel "http://127.0.0.1:$port" --otel-protocol "$protocol" --seed 7 \
        --log-level notice >"$RUN/server.out" 2>"$RUN/server.err" &
    SERVER_PID=$!
    wait_until 60 curl -sf "http://127.0.0.1:$shop_port/products" ||
        fail_now "shop-server never answered on port $shop_port"

    # --- Load: two wrk threads, eight connections, three seconds ---
    wrk -t2 -c8 -d3s -s Tests/e2e/checkout.lua "http://127.0.0.1:$shop_port/checkout" >"$RUN/wrk.out"
    sed 's/^/     wrk| /' "$RUN/wrk.out"

    # --- The server stops; swift-otel exports what it still holds before the process ends ---
    kill -TERM "$SERVER_PID"
    wait "$SERVER_PID" || fail_now "shop-server exited with an error"
    SERVER_PID=""
    sed 's/^/     server| /' "$RUN/server.out"
    local summary total
    summary="$(sed -nE 's/.*: ([0-9]+ checkout exceptions recorded on request spans .*)/\1/p' "$RUN/server.out")"
    total="$(sed -nE 's/^([0-9]+) checkout exceptions.*/\1/p' <<<"$summary")"
    [[ -n "$total" ]] || fail_now "shop-server printed no count of the exceptions it recorded"
    check "$transport: the load made failed checkouts ($total)" test "$total" -gt 0

    # The dashboard records as events arrive: wait until it holds as many as the server recorded (more would be
    # a failure counted twice, which the comparison below reports).
    wait_until 60 recorded_at_least "$total" ||
        echo "     the dashboard recorded $(recorded_errors) of $total errors within 60 s"

    "${TMUX_CMD[@]}" send-keys -t "$SESSION" q
    dashboard_exited() { screen | grep -Eq '^EXIT=[0-9]+'; }
    wait_until 30 dashboard_exited || fail_now "the dashboard did not quit"
    check "$transport: the dashboard exited with 0" grep -Eq '^EXIT=0$' <(screen)
    "${TMUX_CMD[@]}" kill-server >/dev/null 2>&1 || true

    # swift-otel's diagnostics go to standard error: the exporter it chose, and any export that failed.
    local exporter_name
    case "$protocol" in
        grpc) exporter_name="OTLP/gRPC" ;;
        http/json) exporter_name="OTLP/HTTP+json" ;;
        *) exporter_name="OTLP/HTTP+Protobuf" ;;
    esac
    check "$transport: swift-otel exported traces with its $exporter_name exporter" \
        grep -q "Bootstrapping instrumentation system with $exporter_name exporter" "$RUN/server.err"
    check "$transport: swift-otel reported no failed export and dropped nothing" \
        bash -c "! grep -Ei 'fail|dropped' '$RUN/server.err'"
    if grep -Ei 'fail|dropped' "$RUN/server.err" >/dev/null; then
        grep -Ei 'fail|dropped' "$RUN/server.err" | head -n 5 | sed 's/^/     server| /'
    fi

    # --- The recording against what the server says it recorded ---
    checks=$((checks + 1))
    if python3 - "$RECORDING" "$summary" "$transport" <<'PY'; then
import collections, json, re, sys

recording, summary, transport = sys.argv[1:4]
events = [json.loads(line) for line in open(recording) if line.strip()]
shop = [e for e in events if e.get("service.name") == "shop-server"]
errors = [e for e in shop if e["kind"] == "error"]
logs = [e for e in shop if e["kind"] == "log"]
metrics = [e for e in shop if e["kind"] == "metric"]
failures = 0

def check(ok, what):
    global failures
    if not ok:
        failures += 1
        print(f"     {transport}: {what}")

# "N checkout exceptions recorded on request spans (ShopCore.PaymentError 12, ...)"
sent = {name: int(count) for name, count in re.findall(r"([\w.]+) (\d+)", summary.split("(", 1)[1])}
total = int(summary.split()[0])
received = collections.Counter(e.get("exception.type") for e in errors)
check(len(errors) == total, f"the dashboard recorded {len(errors)} errors, the server recorded {total} exceptions")
check(dict(received) == sent, f"per type: the dashboard {dict(received)}, the server {sent}")

# The shop's words for each type (CheckoutException: the technical message).
messages = {
    "ShopCore.PaymentError": r"card declined by the payment provider: \w+",
    "ShopCore.InventoryConflict": r"stock reservation for \w+ conflicted with a concurrent checkout",
    "ShopCore.DatabaseDeadlock": r"deadlock detected on orders; transaction rolled back",
    "ErrorStreaming.BugReport": r"stock of \w+ went below zero after reserving \d+ \(.+:\d+\)",
}
codes = {"ShopCore.PaymentError": ("P-402", "402"), "ShopCore.InventoryConflict": ("I-409", "409"),
         "ShopCore.DatabaseDeadlock": ("D-40001", "503"), "ErrorStreaming.BugReport": ("B-0", "500")}
for e in errors:
    kind = e.get("exception.type")
    attributes = e.get("attributes") or {}
    if kind not in messages:
        check(False, f"an error of an unknown type: {kind!r}")
        continue
    check(re.fullmatch(messages[kind], e.get("exception.message") or "") is not None,
          f"{kind}: message {e.get('exception.message')!r}")
    check(re.fullmatch(r"[0-9a-f]{32}", e.get("trace_id") or "") is not None, f"{kind}: trace_id {e.get('trace_id')!r}")
    check(re.fullmatch(r"[0-9a-f]{16}", e.get("span_id") or "") is not None, f"{kind}: span_id {e.get('span_id')!r}")
    code, status = codes[kind]
    check(str(attributes.get("error.code")) == code, f"{kind}: error.code {attributes.get('error.code')!r}")
    check(str(attributes.get("http.response.status_code")) == status,
          f"{kind}: http.response.status_code {attributes.get('http.response.status_code')!r}")
    check(attributes.get("http.route") == "/checkout", f"{kind}: http.route {attributes.get('http.route')!r}")
    check(attributes.get("span.kind") == "server", f"{kind}: span.kind {attributes.get('span.kind')!r}")

# Every conflict that outlived the retries is logged as a warning inside its request: linked to its trace.
conflict_traces = {e.get("trace_id") for e in errors if e.get("exception.type") == "ShopCore.InventoryConflict"}
warnings = [e for e in logs if e.get("body") == "stock contention outlived the retries"]
check(len(warnings) == sent.get("ShopCore.InventoryConflict", 0),
      f"{len(warnings)} contention warnings for {sent.get('ShopCore.InventoryConflict', 0)} conflicts")
check(all(e.get("trace_id") in conflict_traces for e in warnings), "a contention warning is not linked to its trace")
check(len(metrics) > 0, "no metric from shop-server arrived")

print(f"     {transport}: {len(errors)} errors ({', '.join(f'{k} {v}' for k, v in sorted(received.items()))}), "
      f"{len(warnings)} linked warnings, {len(metrics)} metric events")
sys.exit(1 if failures else 0)
PY
        echo "ok   $transport: the recording agrees"
    else
        failures=$((failures + 1))
        echo "FAIL $transport: the recording disagrees"
    fi
}

for transport in ${SHOP_OTEL_TRANSPORTS:-http grpc}; do
    run_transport "$transport"
done

echo "$((checks - failures)) passed, $failures failed"
((failures == 0))
