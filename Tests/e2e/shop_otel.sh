#!/usr/bin/env bash
# End-to-end test of a Swift server on swift-otel watched by the dashboard over OpenTelemetry: Examples/ShopServer
# with `--otel`, once over OTLP/HTTP and once over OTLP/gRPC.
#
# For each protocol: starts `errorwatch --listen otlp:PORT --listen otlp-grpc:PORT --record FILE` in tmux, then
# `shop-server --otel URL --otel-protocol P`, places 40 valid orders with curl (the seeded dice decline, deadlock
# or break some of them), stops the server with SIGTERM (swift-otel flushes what it holds), quits the dashboard and
# checks that every failed checkout arrived exactly once as a traced exception (type, message, trace and span id)
# and that swift-otel reported no failed export. Every wait polls a condition with a deadline, never a fixed sleep.
#
# Traces over OTLP/HTTP need the receiver's /v1/traces (issue 22). Needs curl, tmux and python3.
set -euo pipefail
cd "$(dirname "$0")/../.."

ERRORWATCH_BIN="${ERRORWATCH_BIN:-$(swift build --show-bin-path)/errorwatch}"
[[ -x "$ERRORWATCH_BIN" ]] || { echo "shop otel e2e: $ERRORWATCH_BIN is not built"; exit 1; }
for tool in curl tmux python3; do
    command -v "$tool" >/dev/null || { echo "shop otel e2e: $tool is missing"; exit 1; }
done
echo "shop otel e2e: building Examples/ShopServer"
(cd Examples/ShopServer && swift build --product shop-server 2>&1 | tail -n 3)
SHOP_BIN="${SHOP_BIN:-$(cd Examples/ShopServer && swift build --show-bin-path)/shop-server}"
[[ -x "$SHOP_BIN" ]] || { echo "shop otel e2e: $SHOP_BIN is not built"; exit 1; }

WORK="$(mktemp -d /tmp/shop-otel-e2e-XXXXXX)"
TMUX_CMD=(tmux -L "shop-otel-e2e-$$")
SESSION=shop
SERVER_PID=""
failures=0
checks=0
cleanup() {
    [[ -n "$SERVER_PID" ]] && kill "$SERVER_PID" 2>/dev/null || true
    "${TMUX_CMD[@]}" kill-server >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
screen() { "${TMUX_CMD[@]}" capture-pane -p -t "$SESSION"; }
wait_until() {
    local limit="$1" deadline
    shift
    deadline=$((SECONDS + limit))
    until "$@" >/dev/null 2>&1; do
        ((SECONDS < deadline)) || return 1
        sleep 0.1
    done
}
check() {
    local what="$1"
    shift
    checks=$((checks + 1))
    if "$@"; then echo "ok   $what"; else failures=$((failures + 1)); echo "FAIL $what"; fi
}
fail_now() {
    echo "FAIL $1"
    for log in "$WORK"/*.err; do [[ -f "$log" ]] && tail -n 20 "$log" | sed "s|^|     $(basename "$log")| |"; done
    screen 2>/dev/null | sed 's/^/     screen| /' || true
    echo "$((checks - failures)) passed, $((failures + 1)) failed"
    exit 1
}
listening() { python3 -c "import socket, sys; socket.create_connection(('127.0.0.1', int(sys.argv[1])), 1)" "$1"; }

ORDERS=40
"${TMUX_CMD[@]}" -f /dev/null new-session -d -s "$SESSION" -x 120 -y 40 \
    "env -i PATH=$PATH HOME=$HOME TERM=xterm-256color LANG=C.UTF-8 bash --norc --noprofile"

for protocol in http/protobuf grpc; do
    name="${protocol%%/*}"
    HTTP_PORT="$(free_port)"
    GRPC_PORT="$(free_port)"
    RECORDING="$WORK/$name.ndjson"
    "${TMUX_CMD[@]}" send-keys -t "$SESSION" "clear" Enter
    "${TMUX_CMD[@]}" send-keys -t "$SESSION" \
        "$ERRORWATCH_BIN --listen otlp:$HTTP_PORT --listen otlp-grpc:$GRPC_PORT --record $RECORDING; echo EXIT=\$?" Enter
    wait_until 30 listening "$HTTP_PORT" || fail_now "the dashboard never listened on otlp:$HTTP_PORT"
    wait_until 30 listening "$GRPC_PORT" || fail_now "the dashboard never listened on otlp-grpc:$GRPC_PORT"
    if [[ $name == grpc ]]; then URL="http://127.0.0.1:$GRPC_PORT"; else URL="http://127.0.0.1:$HTTP_PORT"; fi

    PORT="$(free_port)"
    "$SHOP_BIN" --port "$PORT" --otel "$URL" --otel-protocol "$protocol" --seed 7 --log-level notice \
        >"$WORK/$name-server.out" 2>"$WORK/$name-server.err" &
    SERVER_PID=$!
    wait_until 60 curl -sf "http://127.0.0.1:$PORT/products" || fail_now "shop-server never answered on $PORT"

    # Valid orders only: every answer other than 201 is a checkout that threw, recorded on its span.
    failed=0
    for i in $(seq 1 "$ORDERS"); do
        status="$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
            -d '{"sku":"mug","quantity":1}' "http://127.0.0.1:$PORT/checkout")"
        [[ "$status" == 201 ]] || failed=$((failed + 1))
    done
    echo "     $name: $failed of $ORDERS checkouts failed"

    kill -TERM "$SERVER_PID"
    wait "$SERVER_PID" || fail_now "shop-server ($name) exited with an error"
    SERVER_PID=""
    check "$name: the load produced failed checkouts" test "$failed" -gt 0
    check "$name: swift-otel reported no failed export" \
        bash -c "! grep -Ei 'failed to export|export failed' '$WORK/$name-server.err' '$WORK/$name-server.out'"

    "${TMUX_CMD[@]}" send-keys -t "$SESSION" q
    wait_until 30 bash -c "${TMUX_CMD[*]} capture-pane -p -t $SESSION | grep -Eq '^EXIT=[0-9]+'" ||
        fail_now "the dashboard ($name) did not quit"

    # Failed checkouts: exceptions of the `checkout` span, each once, with a trace and span id.
    read -r exceptions traced < <(python3 - "$RECORDING" <<'PY'
import json, sys
events = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
errors = [e for e in events if e.get("kind") == "error" and e.get("service.name") == "shop-server"]
traced = [e for e in errors if e.get("trace_id") and e.get("span_id") and e.get("exception.type")]
print(len(errors), len(traced))
PY
    )
    check "$name: the dashboard recorded $failed errors from shop-server's traces (got $exceptions)" \
        test "$exceptions" = "$failed"
    check "$name: each has its exception type and its trace and span ids ($traced of $exceptions)" \
        test "$traced" = "$exceptions"
done

echo "$((checks - failures)) passed, $failures failed"
((failures == 0))
