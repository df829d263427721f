#!/usr/bin/env bash
# Issues 12 and 22 (OTLP load): the release dashboard in a real terminal (tmux 120x40) with `--listen otlp:PORT`
# (OTLP/HTTP) or `--listen otlp-grpc:PORT` (OTLP/gRPC), under `errorwatch-load --otlp` (CLIENTS clients sending
# requests of 500 items of the SIGNALS in turn: log records, half of them exceptions; spans in traces of 10 nested
# spans, half of the traces failing; gauge points; RATE items/s in total for DURATION s), run ROUNDS times per
# transport. For each round it prints:
#   - the clients' report per signal (items accepted, refused when the dashboard was behind, other errors, not sent,
#     answer times) and what the accepted requests map to (events, errors, spans);
#   - key-to-visible latency during the load (`?` to the help overlay, tmux's round trip included);
#   - the dashboard's resident memory during the load (VmRSS) and at exit (VmHWM, from --stats);
#   - the dashboard's counts at exit (--stats), checked against the clients' expectation: errors added, the Sources
#     pane's events over all rows, and the spans the trace store received.
# Usage: Benchmarks/scripts/otlp-load.sh [RATE] [CLIENTS] [DURATION] [ROUNDS]   (default 100000 50 10 1)
#        SCRATCH=.build-release Benchmarks/scripts/otlp-load.sh   (another build folder)
#        GZIP=1 Benchmarks/scripts/otlp-load.sh                   (gzip'ed bodies, or gRPC message compression)
#        SIGNALS=traces TRANSPORTS="http grpc" Benchmarks/scripts/otlp-load.sh   (default: logs over http)
#        DASHBOARD_FLAGS="--trace-budget 25000" Benchmarks/scripts/otlp-load.sh   (more flags for the dashboard)
set -euo pipefail
# The dashboard keeps issues in a store by default: a scratch one here, never the user's state folder.
export XDG_STATE_HOME="${XDG_STATE_HOME_FOR_BENCH:-$(mktemp -d /tmp/errorwatch-bench-state-XXXXXX)}"
cd "$(dirname "$0")/../.."
RATE="${1:-100000}"
CLIENTS="${2:-50}"
DURATION="${3:-10}"
ROUNDS="${4:-1}"
SCRATCH="${SCRATCH:-.build}"
swift build -c release --scratch-path "$SCRATCH" --product errorwatch >/dev/null
swift build -c release --scratch-path "$SCRATCH" --product errorwatch-load >/dev/null
BIN_DIR="$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)"
BIN="$BIN_DIR/errorwatch"
LOAD="$BIN_DIR/errorwatch-load"
SIGNALS="${SIGNALS:-logs}"
TRANSPORTS="${TRANSPORTS:-http}"
GZIP_FLAG=()
[[ "${GZIP:-0}" == 1 ]] && GZIP_FLAG=(--gzip)
SOCK="errorwatch-otlp-$$"
T=(tmux -L "$SOCK")
OUT="$(mktemp -d)"
trap '"${T[@]}" kill-server >/dev/null 2>&1 || true; rm -rf "$OUT"' EXIT
screen() { "${T[@]}" capture-pane -p -t otlp; }
wait_for() { local deadline=$((SECONDS + ${2:-30})); until screen | grep -Eq -- "$1"; do ((SECONDS < deadline)) || return 1; sleep 0.005; done; }
ms() { date +%s%3N; }
pid() { pgrep -f "^$BIN --stats" | head -1; }
rss() { awk '/VmRSS/ {print int($2/1024)}' "/proc/$(pid)/status"; }
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

for transport in $TRANSPORTS; do
for round in $(seq 1 "$ROUNDS"); do
    P=$(port)
    scheme=otlp
    [[ "$transport" == grpc ]] && scheme=otlp-grpc
    echo "== $transport round $round: $CLIENTS clients, $RATE items/s of $SIGNALS for $DURATION s," \
        "$scheme:127.0.0.1:$P ${GZIP_FLAG[*]} (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    # A tmux server of its own per round: a new session right after kill-server can race the old server's exit.
    T=(tmux -L "$SOCK-$transport-$round")
    "${T[@]}" -f /dev/null new-session -d -s otlp -x 120 -y 40 \
        "env LANG=C.UTF-8 TERM=xterm-256color $BIN --stats --listen $scheme:$P ${DASHBOARD_FLAGS:-} ; sleep 600"
    "${T[@]}" set-option -t otlp status off >/dev/null
    wait_for "Alerts"
    "$LOAD" --otlp --connect "$scheme:127.0.0.1:$P" --clients "$CLIENTS" --rate "$RATE" --duration "$DURATION" \
        --signals "$SIGNALS" "${GZIP_FLAG[@]}" >"$OUT/load.txt" 2>&1 &
    loader=$!
    sleep 2
    worst=0
    peak_rss=0
    for _ in 1 2 3 4 5; do
        r=$(rss); ((r > peak_rss)) && peak_rss=$r
        start=$(ms); "${T[@]}" send-keys -t otlp '?'; wait_for "Help . keys" 10; end=$(ms)
        lat=$((end - start)); ((lat > worst)) && worst=$lat
        echo "   ? -> help visible: ${lat} ms"
        "${T[@]}" send-keys -t otlp Escape
        sleep 0.8
    done
    echo "   worst key-to-visible: ${worst} ms (tmux send + capture included)"
    wait "$loader" || echo "   (errorwatch-load exited with $?)"
    r=$(rss); ((r > peak_rss)) && peak_rss=$r
    echo "   dashboard VmRSS sampled during the load: peak ${peak_rss} MB"
    sed 's/^/   load: /' "$OUT/load.txt"
    screen | grep -E "refused \(503\)" | head -2 | sed 's/^/   Sources row: /' || true
    "${T[@]}" send-keys -t otlp q
    wait_for "peak memory" 60
    screen | sed -n '/errorwatch stats/,/peak memory/p' | sed 's/^/   /' >"$OUT/stats.txt"
    cat "$OUT/stats.txt"
    "${T[@]}" kill-server >/dev/null 2>&1 || true
    # What the accepted requests map to, by the receiver's own decoder (the load tool's "expect:" line).
    read -r want_events want_errors want_spans < <(awk '/^expect:/ {print $2, $4, $6}' "$OUT/load.txt")
    added=$(awk '/errors added/ {print $3}' "$OUT/stats.txt")
    events=$(awk '/source events/ {print $3}' "$OUT/stats.txt")
    spans=$(awk '/spans received/ {print $3}' "$OUT/stats.txt")
    if [[ "$events" == "$want_events" && "$added" == "$want_errors" && "$spans" == "$want_spans" ]]; then
        echo "   CHECK: Sources events $events, errors added $added, spans received $spans: as the clients expect"
    else
        echo "   MISMATCH: expected $want_events events, $want_errors errors, $want_spans spans;" \
            "Sources events $events, errors added $added, spans received $spans"
    fi
done
done
