#!/usr/bin/env bash
# Measures what forwarding to errorwatch costs Examples/ShopServer under wrk (docs/benchmarks-shop.md), release
# builds. Three setups, run in turn ROUNDS times so drift on a shared machine hits them alike:
#   off   shop-server without --errorwatch
#   sink  --errorwatch to a Unix socket read and discarded by a small Python reader: the server's own cost of
#         forwarding (encoding, queueing, writing), with nothing else on the machine's two cores
#   dash  --errorwatch to the release dashboard (errorwatch --listen, in tmux), which classifies, counts and draws
#         every event on the same two cores as the server and wrk
# With BASELINE_BIN=path/to/an/older/shop-server, a fourth setup `base` runs that binary as `sink` runs the
# current one, to compare a change of the forwarder's cost on the same machine in the same minutes.
# Each run: a fresh server, WARMUP seconds of load that are not measured, then `wrk --latency` for DURATION.
# Prints one line per run (requests/s, p50, p99, the server's CPU time per request, non-2xx, CPU of the server
# and the dashboard in % of one core, forwarder sent/dropped) and the medians per setup.
# SETUPS="off base sink" picks the setups to run (default: off sink dash, and base when BASELINE_BIN is set).
# DELAY_MS=4 offers a fixed load instead of as much as the server takes: each connection waits that long after
# every answer (32 connections and 4 ms: about 6,400 requests/s), to compare CPU per request and latency below
# saturation.
# Usage: Benchmarks/scripts/shop-load.sh [ROUNDS] [DURATION] [CONNECTIONS]   (defaults 3, 15s, 32)
set -euo pipefail
# The dashboard keeps issues in a store by default: a scratch one here, never the user's state folder.
export XDG_STATE_HOME="${XDG_STATE_HOME_FOR_BENCH:-$(mktemp -d /tmp/errorwatch-bench-state-XXXXXX)}"
cd "$(dirname "$0")/../.."
ROOT="$PWD"
ROUNDS="${1:-3}"
DURATION="${2:-15s}"
CONNECTIONS="${3:-32}"
WARMUP="${WARMUP:-3s}"
SCRATCH="${SCRATCH:-.build}"
# PIN=1 puts the server on CPU 0 and everything else (wrk, the sink, the dashboard) on CPU 1, so that what the
# server's own core does is measured apart from the load generator and the dashboard.
SERVER_CPU=()
OTHER_CPU=()
if [[ "${PIN:-0}" == 1 ]]; then
    SERVER_CPU=(taskset -c 0)
    OTHER_CPU=(taskset -c 1)
fi

# SETUPS="off sink" (any of off, base, sink, dash) runs only those.
DEFAULT_SETUPS="off sink dash"
[[ -n "${BASELINE_BIN:-}" ]] && DEFAULT_SETUPS="off base sink dash"
read -r -a SETUPS <<<"${SETUPS:-$DEFAULT_SETUPS}"
EW_BIN=""
if [[ " ${SETUPS[*]} " == *" dash "* ]]; then
    swift build -c release --scratch-path "$SCRATCH" --product errorwatch >/dev/null
    EW_BIN="$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/errorwatch"
fi
(cd Examples/ShopServer && swift build -c release --product shop-server >/dev/null)
SHOP_BIN="$(cd Examples/ShopServer && swift build -c release --show-bin-path)/shop-server"

WORK="$(mktemp -d /tmp/shop-load-XXXXXX)"
SCRIPT="$ROOT/Tests/e2e/checkout.lua"
if [[ -n "${DELAY_MS:-}" ]]; then
    SCRIPT="$WORK/checkout-paced.lua"
    cat "$ROOT/Tests/e2e/checkout.lua" >"$SCRIPT"
    echo "delay = function() return $DELAY_MS end" >>"$SCRIPT"
fi
T=(tmux -L "shop-load-$$")
SERVER_PID=""
SINK_PID=""
cleanup() {
    [[ -n "$SERVER_PID" ]] && kill "$SERVER_PID" 2>/dev/null || true
    [[ -n "$SINK_PID" ]] && kill "$SINK_PID" 2>/dev/null || true
    "${T[@]}" kill-server >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT

wait_until() {
    local deadline=$((SECONDS + $1))
    shift
    until "$@" >/dev/null 2>&1; do
        ((SECONDS < deadline)) || return 1
        sleep 0.05
    done
}
cpu_ticks() { [[ -n "$1" && -r "/proc/$1/stat" ]] && awk '{ print $14 + $15 }' "/proc/$1/stat" || echo 0; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# A reader that takes every byte of every connection and keeps none.
start_sink() {
    "${OTHER_CPU[@]}" python3 - "$1" <<'PY' &
import socket, sys, threading
server = socket.socket(socket.AF_UNIX)
server.bind(sys.argv[1])
server.listen(8)
def drain(connection):
    while connection.recv(1 << 16):
        pass
while True:
    connection, _ = server.accept()
    threading.Thread(target=drain, args=(connection,), daemon=True).start()
PY
    SINK_PID=$!
    wait_until 10 test -S "$1"
}

start_dashboard() {
    "${T[@]}" -f /dev/null new-session -d -s dash -x 120 -y 40 \
        "env LANG=C.UTF-8 TERM=xterm-256color ${OTHER_CPU[*]} $EW_BIN --listen unix:$1; sleep 600"
    wait_until 30 test -S "$1"
}

# run SETUP: one measured run; prints its line.
run() {
    local setup="$1" socket="$WORK/$1-$RANDOM.sock" port args=() bin="$SHOP_BIN"
    case "$setup" in
    sink) start_sink "$socket"; args=(--errorwatch "unix:$socket") ;;
    base) start_sink "$socket"; args=(--errorwatch "unix:$socket"); bin="$BASELINE_BIN" ;;
    dash) start_dashboard "$socket"; args=(--errorwatch "unix:$socket") ;;
    esac
    port="$(free_port)"
    "${SERVER_CPU[@]}" "$bin" --port "$port" --seed 7 "${args[@]}" >"$WORK/server.out" 2>/dev/null &
    SERVER_PID=$!
    wait_until 30 curl -sf "http://127.0.0.1:$port/products"
    "${OTHER_CPU[@]}" wrk -t2 -c"$CONNECTIONS" -d"$WARMUP" -s "$SCRIPT" "http://127.0.0.1:$port/checkout" >/dev/null
    local dash_pid="" server_before dash_before started elapsed
    [[ "$setup" == dash ]] && dash_pid="$(pgrep -f "^$EW_BIN --listen unix:$socket" | head -1)"
    server_before="$(cpu_ticks "$SERVER_PID")"
    dash_before="$(cpu_ticks "$dash_pid")"
    started="$(date +%s%N)"
    "${OTHER_CPU[@]}" wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency -s "$SCRIPT" \
        "http://127.0.0.1:$port/checkout" >"$WORK/wrk.out"
    # CPU used during the measured run, in % of one core (clock ticks are 1/100 s).
    elapsed="$((($(date +%s%N) - started) / 10000000))"
    local server_ticks="$(($(cpu_ticks "$SERVER_PID") - server_before))"
    local server_cpu="$((server_ticks * 100 / elapsed))"
    local dash_cpu="$((($(cpu_ticks "$dash_pid") - dash_before) * 100 / elapsed))"
    kill -TERM "$SERVER_PID"
    wait "$SERVER_PID" || true
    SERVER_PID=""
    [[ -n "$SINK_PID" ]] && { kill "$SINK_PID" 2>/dev/null || true; wait "$SINK_PID" 2>/dev/null || true; SINK_PID=""; }
    "${T[@]}" kill-server >/dev/null 2>&1 || true
    local rps p50 p99 non2xx forwarded
    rps="$(awk '/^Requests\/sec:/ { print $2 }' "$WORK/wrk.out")"
    p50="$(awk '$1 == "50%" { print $2 }' "$WORK/wrk.out")"
    p99="$(awk '$1 == "99%" { print $2 }' "$WORK/wrk.out")"
    non2xx="$(awk '/Non-2xx/ { print $NF }' "$WORK/wrk.out")"
    # The server's CPU time per request in microseconds: less sensitive than req/s to other work on the machine.
    local requests per_request
    requests="$(awk '/requests in/ { print $1 }' "$WORK/wrk.out")"
    per_request="$((server_ticks * 10000 / requests))"
    forwarded="$(sed -nE 's/.*forwarder (sent [0-9]+ lines, dropped [0-9]+).*/\1/p' "$WORK/server.out")"
    printf '%-5s %10s req/s   p50 %8s   p99 %8s   %4s µs cpu/req   non-2xx %6s   cpu server %3s%% dash %3s%%   %s   round %s\n' \
        "$setup" "$rps" "$p50" "$p99" "$per_request" "${non2xx:-0}" "$server_cpu" "$dash_cpu" \
        "${forwarded:-no forwarder}" "$round" |
        tee -a "$WORK/results"
}

echo "shop-load: $ROUNDS rounds, wrk -t2 -c$CONNECTIONS -d$DURATION (after $WARMUP warm-up), release builds${PIN:+, PIN=$PIN}${DELAY_MS:+, DELAY_MS=$DELAY_MS}"
for ((round = 1; round <= ROUNDS; round++)); do
    # Each round runs the setups in a new random order (SHUFFLE=0 keeps the given order), so that neither the
    # machine's drift nor a setup's place in the round favours one setup.
    order=("${SETUPS[@]}")
    [[ "${SHUFFLE:-1}" == 1 ]] && mapfile -t order < <(printf '%s\n' "${SETUPS[@]}" | shuf)
    for setup in "${order[@]}"; do run "$setup"; done
done

# Medians per setup (p99 converted to ms).
echo "medians:"
for setup in "${SETUPS[@]}"; do
    awk -v s="$setup" '
        function ms(v) {
            if (v ~ /us$/) return v / 1000
            if (v ~ /ms$/) return v + 0
            if (v ~ /s$/) return v * 1000
            return v
        }
        BEGIN { n = 0 }
        $1 == s { rps[n] = $2 + 0; p99[n] = ms($7); cpu[n] = $8 + 0; n++ }
        function median(a, n,   i, j, t) {
            for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
            return n % 2 ? a[(n - 1) / 2] : (a[n / 2 - 1] + a[n / 2]) / 2
        }
        END {
            printf "%-5s %10.0f req/s   p99 %7.2fms   %4d µs cpu/req\n", s, median(rps, n), median(p99, n),
                median(cpu, n)
        }' "$WORK/results"
done

# Paired comparison: each setup's ratio to `off` within the same round, the median of those ratios and a 95%
# bootstrap interval for it. Rounds share the machine's state of those minutes, so the ratios spread far less than
# the setups' own figures do.
if [[ " ${SETUPS[*]} " == *" off "* ]] && ((ROUNDS > 1)); then
    echo "paired with off (median of the rounds' ratios, 95% bootstrap interval):"
    python3 - "$WORK/results" <<'PY'
import random, re, statistics, sys
def micros(text):
    number, unit = re.fullmatch(r"([0-9.]+)(us|ms|s)", text).groups()
    return float(number) * {"us": 1, "ms": 1e3, "s": 1e6}[unit]
rounds = {}
for line in open(sys.argv[1]):
    fields = line.split()
    rounds.setdefault(fields[-1], {})[fields[0]] = (float(fields[1]), micros(fields[6]), float(fields[7]))
setups = sorted({name for runs in rounds.values() for name in runs} - {"off"})
random.seed(12)
for name in setups:
    pairs = [(runs["off"], runs[name]) for runs in rounds.values() if "off" in runs and name in runs]
    parts = []
    for label, index in (("requests/s", 0), ("p99", 1), ("CPU/request", 2)):
        ratios = [run[index] / off[index] for off, run in pairs]
        boots = sorted(statistics.median(random.choices(ratios, k=len(ratios))) for _ in range(4000))
        low, high = boots[int(0.025 * len(boots))], boots[int(0.975 * len(boots)) - 1]
        parts.append(f"{label} {statistics.median(ratios) - 1:+.1%} [{low - 1:+.1%}, {high - 1:+.1%}]")
    print(f"{name:<5} " + "   ".join(parts) + f"   ({len(pairs)} rounds)")
PY
fi
