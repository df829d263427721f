#!/usr/bin/env bash
# Compares two release builds of the dashboard under the same wire load, alternating them round by round on the
# same machine, so a change to the ingest path is judged against the build before it and not against a figure
# measured on another day.
#
# Each round, for each build: `errorwatch --listen unix:SOCK --stats` in tmux (120x40), then
# `errorwatch-load --producers 50 --rate RATE --duration 10 --connect unix:SOCK` (the load tool of the FIRST build,
# so the producers are the same), then `?` (key to overlay, in ms) and `q`; prints what the producers sent, what
# the dashboard added, the rate, its peak memory, the key latency and its CPU time per event added (user + system
# until `q`, from /proc: steadier than the rate, since the producers share the machine's cores with it).
#
# Usage: Benchmarks/scripts/ingest-compare.sh BEFORE_BIN_DIR AFTER_BIN_DIR [ROUNDS] [RATE]
#   e.g. (worktrees at two commits, each built with `swift build -c release`)
#   Benchmarks/scripts/ingest-compare.sh ../before/.build/release .build/release 3 400000
set -euo pipefail
# The dashboard keeps issues in a store by default: a scratch one here, never the user's state folder.
export XDG_STATE_HOME="${XDG_STATE_HOME_FOR_BENCH:-$(mktemp -d /tmp/errorwatch-bench-state-XXXXXX)}"
BEFORE="$1"
AFTER="$2"
ROUNDS="${3:-3}"
RATE="${4:-400000}"
LOAD="$BEFORE/errorwatch-load"
RUN=0
T=(tmux -L "errorwatch-compare-$$-0")
trap '"${T[@]}" kill-server >/dev/null 2>&1 || true' EXIT
screen() { "${T[@]}" capture-pane -p -t cmp -S -60; }
wait_for() { local deadline=$((SECONDS + ${2:-30})); until screen | grep -Eq -- "$1"; do ((SECONDS < deadline)) || return 1; sleep 0.01; done; }
ms() { date +%s%3N; }

one() {
    local name="$1" bin="$2" path
    path="$(mktemp -u /tmp/ew-compare-XXXXXX.sock)"
    # A fresh tmux server per run: reusing one right after kill-server races with its shutdown.
    "${T[@]}" kill-server >/dev/null 2>&1 || true
    RUN=$((RUN + 1))
    T=(tmux -L "errorwatch-compare-$$-$RUN")
    "${T[@]}" -f /dev/null new-session -d -s cmp -x 120 -y 40 \
        "env LANG=C.UTF-8 TERM=xterm-256color $bin/errorwatch --listen unix:$path --stats; sleep 600"
    "${T[@]}" set-option -t cmp status off >/dev/null
    wait_for "Alerts"
    local out
    out="$("$LOAD" --producers 50 --rate "$RATE" --duration 10 --connect "unix:$path")"
    local start end
    start=$(ms); "${T[@]}" send-keys -t cmp '?'; wait_for "Help . keys" 20; end=$(ms)
    # Its CPU time (user + system) until now: per event added, it depends less than the rate on what else runs
    # (the producers share the two cores with it).
    local pid ticks=0
    pid=$(pgrep -f -x "$bin/errorwatch --listen unix:$path --stats" | head -n 1 || true)
    if [[ -n "$pid" ]]; then ticks=$(awk '{print $14 + $15}' "/proc/$pid/stat"); fi
    "${T[@]}" send-keys -t cmp q
    wait_for "peak memory" 60
    local sent added peak rate
    sent="$(printf '%s\n' "$out" | awk '/^sent:/ {print $2; exit}')"
    rate="$(printf '%s\n' "$out" | awk '/^sent:/ {gsub(/[()]/, "", $7); print $7; exit}')"
    added="$(screen | awk '/errors added/ {print $3; exit}')"
    peak="$(screen | awk '/peak memory/ {print $3 " " $4; exit}')"
    local digits="${added//,/}" cpu="-"
    if [[ "$digits" =~ ^[0-9]+$ ]] && ((digits > 0)); then
        cpu=$(awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" -v n="$digits" 'BEGIN { printf "%.1f", t / hz * 1e6 / n }')
    fi
    printf '%-7s sent %9s  added %9s  sent at %10s  peak %7s  key %4s ms  CPU %5s us/event\n' "$name" "$sent" \
        "$added" "$rate" "$peak" "$((end - start))" "$cpu"
}

for round in $(seq 1 "$ROUNDS"); do
    echo "== round $round (load $(cut -d' ' -f1 /proc/loadavg))"
    if ((round % 2)); then one before "$BEFORE"; one after "$AFTER"; else one after "$AFTER"; one before "$BEFORE"; fi
done
