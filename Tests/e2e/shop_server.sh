#!/usr/bin/env bash
# End-to-end test of a real server watched live: Examples/ShopServer under wrk, its errors forwarded to the
# dashboard, its /metrics scraped by a real Prometheus.
#
# Starts `errorwatch --listen unix:SOCK --record FILE` in tmux, `shop-server --errorwatch unix:SOCK` and Debian's
# `prometheus` scraping the server every second, drives POST /checkout with wrk for five seconds, then checks
# that three counts agree: the error events the dashboard recorded, the sum of the server's `errors_total`, and
# Prometheus' `sum(errors_total)` from a scrape taken after the load stopped.
# Every wait polls a condition with a deadline; none is a fixed sleep. Exits non-zero on any mismatch.
#
# Needs wrk, prometheus, curl, tmux and python3 (.ci/run installs the first four when missing).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$PWD"

NAME="shop e2e"
TOOLS="wrk prometheus curl tmux python3"
# shellcheck source=Tests/e2e/shop-lib.sh
source Tests/e2e/shop-lib.sh

WORK="$(mktemp -d /tmp/shop-e2e-XXXXXX)"
# The dashboard keeps issues in a store by default: here, in the scratch folder, never the user's state.
export XDG_STATE_HOME="$WORK/state"
SOCKET="$WORK/ew.sock"
RECORDING="$WORK/recording.ndjson"
TMUX_CMD=(tmux -L "shop-e2e-$$")
SESSION=shop
SERVER_PID=""
PROMETHEUS_PID=""
SERVER_ERR="$WORK/server.err"
failures=0
checks=0

cleanup() {
    [[ -n "$SERVER_PID" ]] && kill "$SERVER_PID" 2>/dev/null || true
    [[ -n "$PROMETHEUS_PID" ]] && kill "$PROMETHEUS_PID" 2>/dev/null || true
    "${TMUX_CMD[@]}" kill-server >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# The sum of every errors_total series in Prometheus text read from stdin.
sum_errors_total() { awk '/^errors_total[{ ]/ { sum += $NF } END { printf "%d\n", sum }'; }
server_errors_total() { curl -sf "http://127.0.0.1:$PORT/metrics" | sum_errors_total; }

# prom_query EXPR: the single value of an instant query, or nothing.
prom_query() {
    curl -sf --get --data-urlencode "query=$1" "http://127.0.0.1:$PROMETHEUS_PORT/api/v1/query" |
        python3 -c 'import json, sys
result = json.load(sys.stdin)["data"]["result"]
print(result[0]["value"][1] if result else "")'
}

# --- The dashboard, listening on a socket and recording what it shows ---
"${TMUX_CMD[@]}" -f /dev/null new-session -d -s "$SESSION" -x 120 -y 40 \
    "env -i PATH=$PATH HOME=$HOME XDG_STATE_HOME=$XDG_STATE_HOME TERM=xterm-256color LANG=C.UTF-8 bash --norc --noprofile"
"${TMUX_CMD[@]}" send-keys -t "$SESSION" \
    "$ERRORWATCH_BIN --listen unix:$SOCKET --record $RECORDING --stats; echo EXIT=\$?" Enter
wait_until 30 test -S "$SOCKET" || fail_now "the dashboard never listened on $SOCKET"
echo "ok   dashboard listening on unix:$SOCKET"

# --- The server, forwarding to it ---
# A queue of 65,536 lines (about 40 s of this load) rides out a dashboard that a busy CI machine schedules late;
# the default 4,096 would drop, and count, what does not fit, and the counts below could then not agree.
PORT="$(free_port)"
"$SHOP_BIN" --port "$PORT" --errorwatch "unix:$SOCKET" --errorwatch-queue 65536 --seed 7 --log-level notice \
    >"$WORK/server.out" 2>"$WORK/server.err" &
SERVER_PID=$!
wait_until 60 curl -sf "http://127.0.0.1:$PORT/products" || fail_now "shop-server never answered on port $PORT"
check "GET /products answers JSON with the catalog" grep -q '"sku":"mug"' <(curl -sf "http://127.0.0.1:$PORT/products")

# --- Prometheus, scraping the server every second into its own temporary storage ---
PROMETHEUS_PORT="$(free_port)"
cat >"$WORK/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: shop
    static_configs:
      - targets: ["127.0.0.1:$PORT"]
YAML
prometheus --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/prometheus-data" \
    --web.listen-address="127.0.0.1:$PROMETHEUS_PORT" --log.level=warn >"$WORK/prometheus.log" 2>&1 &
PROMETHEUS_PID=$!
wait_until 60 curl -sf "http://127.0.0.1:$PROMETHEUS_PORT/-/ready" || fail_now "prometheus never became ready"
echo "ok   prometheus ready on port $PROMETHEUS_PORT"

# --- Load: two wrk threads, eight connections, five seconds ---
wrk -t2 -c8 -d5s --latency -s Tests/e2e/checkout.lua \
    "http://127.0.0.1:$PORT/checkout" >"$WORK/wrk.out"
sed 's/^/     wrk| /' "$WORK/wrk.out"

# The recorder counts asynchronously: wait until two reads (0.1 s apart) agree, then note the time. The server's
# own total at exit, checked below, proves the count had indeed caught up.
previous=-1
settled() {
    local now
    now="$(server_errors_total)"
    if [[ "$now" == "$previous" ]]; then return 0; fi
    previous="$now"
    return 1
}
wait_until 30 settled || fail_now "the server's errors_total never settled"
SERVER_TOTAL="$previous"
SETTLED_AT="$(date +%s.%N)"
echo "     server errors_total = $SERVER_TOTAL"

metrics="$(curl -sf "http://127.0.0.1:$PORT/metrics")"
check "the load produced errors" test "$SERVER_TOTAL" -gt 0
for code in P-402 I-409 D-40001 B-0; do
    check "errors_total has a $code series" grep -q "^errors_total{.*code=\"$code\"" <<<"$metrics"
done
check "errors_total carries type, category and origin" \
    grep -Eq '^errors_total\{.*type="[^"]+".*category="userActionable".*origin="user"' <<<"$metrics"
check "the stream's gauges are served" grep -Eq '^error_stream_listeners [0-9]' <<<"$metrics"

# --- Prometheus: a scrape that started after the count settled ---
scraped_after_settle() {
    local at
    at="$(prom_query 'timestamp(up{job="shop"})')"
    [[ -n "$at" ]] && python3 -c "import sys; sys.exit(0 if $at > $SETTLED_AT else 1)"
}
wait_until 30 scraped_after_settle || fail_now "prometheus took no scrape after the load"
PROMETHEUS_TOTAL="$(prom_query 'sum(errors_total)')"
echo "     prometheus sum(errors_total) = $PROMETHEUS_TOTAL"

# --- The server stops: its forwarder flushes, and the dashboard's Sources row reaches the lines it sent ---
kill -TERM "$SERVER_PID"
wait "$SERVER_PID" || fail_now "shop-server exited with an error"
SERVER_PID=""
sed 's/^/     server| /' "$WORK/server.out"
SENT="$(sed -nE 's/.*forwarder sent ([0-9]+) lines, dropped ([0-9]+).*/\1/p' "$WORK/server.out")"
DROPPED="$(sed -nE 's/.*forwarder sent ([0-9]+) lines, dropped ([0-9]+).*/\2/p' "$WORK/server.out")"
ADDED="$(sed -nE 's/.*: ([0-9]+) errors added to the stream.*/\1/p' "$WORK/server.out")"
check "the forwarder dropped nothing" test "${DROPPED:-x}" = 0
check "errors_total at the scrape ($SERVER_TOTAL) = errors the server added in all (${ADDED:-?})" \
    test "${ADDED:-x}" = "$SERVER_TOTAL"
# The pane writes counts with thousands separators (1,234 ev): compare digits only.
sources_caught_up() { screen | tr -d ',' | grep -Eq "shop-server.* ${SENT} ev"; }
wait_until 30 sources_caught_up || fail_now "the dashboard's Sources pane never showed the ${SENT:-?} lines sent"
echo "ok   the dashboard received the $SENT lines the server sent"

"${TMUX_CMD[@]}" send-keys -t "$SESSION" q
# The typed command line also holds `EXIT=`, and shows again as soon as the screen is restored: wait for the line
# the shell prints once the process has exited (and its recording is closed).
dashboard_exited() { screen | grep -Eq '^EXIT=[0-9]+'; }
wait_until 30 dashboard_exited || fail_now "the dashboard did not quit"
screen | sed -n '/errorwatch stats/,/peak memory/p' | sed 's/^/     dashboard| /'
DASHBOARD_TOTAL="$(grep '"kind":"error"' "$RECORDING" | grep -c '"service.name":"shop-server"' || true)"
echo "     dashboard recorded $DASHBOARD_TOTAL error events"

check "dashboard errors ($DASHBOARD_TOTAL) = server errors_total ($SERVER_TOTAL)" \
    test "$DASHBOARD_TOTAL" = "$SERVER_TOTAL"
check "prometheus sum(errors_total) ($PROMETHEUS_TOTAL) = server errors_total ($SERVER_TOTAL)" \
    test "$PROMETHEUS_TOTAL" = "$SERVER_TOTAL"

echo "$((checks - failures)) passed, $failures failed"
((failures == 0))
