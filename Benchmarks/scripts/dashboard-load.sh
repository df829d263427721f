#!/usr/bin/env bash
# Measures the live dashboard's issue-5 targets in a real terminal (tmux at 120x40), release build:
#   1. idle CPU over 10 s (the demo's background sync and the 1 s tick still run),
#   2. an error storm of RATE errors/s for 10 s: key-to-visible latency, peak memory, and whether the
#      Metrics total equals the errors added,
#   3. time from launch to the first frame.
# Usage: Benchmarks/scripts/dashboard-load.sh [RATE]   (default 100000)
set -euo pipefail
# The dashboard keeps issues in a store by default: a scratch one here, never the user's state folder.
export XDG_STATE_HOME="${XDG_STATE_HOME_FOR_BENCH:-$(mktemp -d /tmp/errorwatch-bench-state-XXXXXX)}"
cd "$(dirname "$0")/../.."
RATE="${1:-100000}"
swift build -c release --product errorwatch >/dev/null
BIN="$(swift build -c release --show-bin-path)/errorwatch"
SOCK="errorwatch-load-$$"
T=(tmux -L "$SOCK")
trap '"${T[@]}" kill-server >/dev/null 2>&1 || true' EXIT
screen() { "${T[@]}" capture-pane -p -t load; }
wait_for() { local deadline=$((SECONDS + ${2:-30})); until screen | grep -Eq -- "$1"; do ((SECONDS < deadline)) || return 1; sleep 0.005; done; }
ms() { date +%s%3N; }

run() {
    "${T[@]}" -f /dev/null new-session -d -s load -x 120 -y 40 \
        "env LANG=C.UTF-8 TERM=xterm-256color $BIN --stats $* ; sleep 600"
    "${T[@]}" set-option -t load status off >/dev/null
    wait_for "Alerts"
}
pid() { pgrep -f "^$BIN --stats" | head -1; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

echo "== idle CPU over 10 s"
run
sleep 2
p=$(pid); t0=$(cpu_ticks "$p"); sleep 10; t1=$(cpu_ticks "$p")
hz=$(getconf CLK_TCK)
awk -v a="$t0" -v b="$t1" -v hz="$hz" 'BEGIN { printf "   %.2f%% of one core\n", (b - a) / hz / 10 * 100 }'
"${T[@]}" send-keys -t load q
wait_for "first frame" 10
screen | sed -n '/errorwatch stats/,/peak memory/p' | sed 's/^/   /'
"${T[@]}" kill-server

echo "== storm: $RATE errors/s for 10 s"
run --storm-rate "$RATE" --storm-duration 10s
"${T[@]}" send-keys -t load S
sleep 3
worst=0
for i in 1 2 3 4 5; do
    start=$(ms); "${T[@]}" send-keys -t load '?'; wait_for "Help . keys" 5; end=$(ms)
    lat=$((end - start)); ((lat > worst)) && worst=$lat
    echo "   ? -> help visible: ${lat} ms"
    "${T[@]}" send-keys -t load Escape; wait_for "Logs .*(following|paused|scrolled)" 5 || true
    sleep 0.5
done
echo "   worst key-to-visible: ${worst} ms (includes tmux send/capture overhead)"
p=$(pid); echo "   RSS during storm: $(awk '/VmRSS/ {print int($2/1024) " MB"}' /proc/$p/status)"
sleep 9
"${T[@]}" send-keys -t load q
wait_for "first frame" 20
screen | sed -n '/errorwatch stats/,/peak memory/p' | sed 's/^/   /'
