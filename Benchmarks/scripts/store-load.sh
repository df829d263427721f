#!/usr/bin/env bash
# The store's cost under load (issue 25), release build, in a real terminal (tmux 120x40): the whole dashboard
# listening on a Unix socket under `errorwatch-load --producers 50 --rate 400000 --duration 10`, once with
# --no-store and once with a store, each time printing the events/s the dashboard took, the key-to-visible latency
# of `?` during the storm, and (with the store) what the store holds afterwards.
# Usage: Benchmarks/scripts/store-load.sh [RATE] [DURATION]   (defaults 400000, 10; CONFIG=debug SCRATCH=.build to
# measure the debug build)
set -euo pipefail
cd "$(dirname "$0")/../.."
RATE="${1:-400000}"
DURATION="${2:-10}"
SCRATCH="${SCRATCH:-.build-release}"
CONFIG="${CONFIG:-release}"
swift build -c "$CONFIG" --scratch-path "$SCRATCH" --product errorwatch >/dev/null
swift build -c "$CONFIG" --scratch-path "$SCRATCH" --product errorwatch-load >/dev/null
BIN_DIR="$(swift build -c "$CONFIG" --scratch-path "$SCRATCH" --show-bin-path)"
BIN="$BIN_DIR/errorwatch"
LOAD="$BIN_DIR/errorwatch-load"
WORK="$(mktemp -d /tmp/ew25-store-load-XXXXXX)"
export XDG_STATE_HOME="$WORK/state"
SOCK="$WORK/feed.sock"
T=(tmux -L "ew25-store-load-$$")
trap '"${T[@]}" kill-server >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
screen() { "${T[@]}" capture-pane -p -t load; }
wait_for() { local deadline=$((SECONDS + ${2:-30})); until screen | grep -Eq -- "$1"; do ((SECONDS < deadline)) || return 1; sleep 0.005; done; }
ms() { date +%s%3N; }

measure() {
    local label=$1
    shift
    echo "== $label"
    rm -f "$SOCK"
    "${T[@]}" -f /dev/null new-session -d -s load -x 120 -y 40 \
        "env LANG=C.UTF-8 TERM=xterm-256color $BIN --listen unix:$SOCK --stats $* ; sleep 600"
    "${T[@]}" set-option -t load status off >/dev/null
    wait_for "Alerts"
    "$LOAD" --connect "unix:$SOCK" --producers 50 --rate "$RATE" --duration "$DURATION" >"$WORK/load.txt" 2>&1 &
    local load=$!
    sleep 2
    local worst=0
    for _ in 1 2 3 4 5; do
        local start end lat
        start=$(ms); "${T[@]}" send-keys -t load '?'; wait_for "Help . keys" 10; end=$(ms)
        lat=$((end - start)); ((lat > worst)) && worst=$lat
        "${T[@]}" send-keys -t load Escape
        wait_for "Logs" 10 || true
        sleep 0.5
    done
    wait "$load" || true
    sed 's/^/   /' "$WORK/load.txt"
    echo "   worst ? -> help visible during the storm: ${worst} ms (includes tmux send/capture)"
    "${T[@]}" send-keys -t load q
    wait_for "first frame" 30 || true
    screen | sed -n '/errorwatch stats/,/peak memory/p' | grep -E "errors added|errors counted|peak memory" | sed 's/^/   /' || true
    "${T[@]}" kill-server >/dev/null 2>&1 || true
}

measure "--no-store" --no-store
measure "store on" --store "$WORK/store.sqlite"
echo "   store afterwards: $("$BIN" issues --store "$WORK/store.sqlite" --status all --json |
    python3 -c 'import json, sys; d = json.load(sys.stdin); print(len(d), "issues,", sum(i["count"] for i in d), "errors counted")'),\
 $(du -h "$WORK/store.sqlite" | cut -f1) on disk"
