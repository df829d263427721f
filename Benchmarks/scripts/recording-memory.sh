#!/usr/bin/env bash
# Recordings in bounded time and memory (issue 14, item 3), release build:
#   1. `render --from` a LINES-line recording (default 1,000,000; three producers whose clocks interleave, so
#      lines are out of time order by up to a second): peak resident memory and time, with /usr/bin/time -v;
#   2. `render --from` a recording with a silence from 1970 to 2100, shortened (default) and in full
#      (`--max-gap none`): must finish at once;
#   3. `replay --speed 10000` of the big recording in a real terminal (tmux at 120x40): peak memory from --stats,
#      and the time until the Sources row first shows events (the screen is never blank while the file loads).
# Usage: Benchmarks/scripts/recording-memory.sh [LINES]
# Figures are in docs/benchmarks-wire.md ("Recordings").
set -euo pipefail
# The dashboard keeps issues in a store by default: a scratch one here, never the user's state folder.
export XDG_STATE_HOME="${XDG_STATE_HOME_FOR_BENCH:-$(mktemp -d /tmp/errorwatch-bench-state-XXXXXX)}"
cd "$(dirname "$0")/../.."
LINES="${1:-1000000}"
SCRATCH="${SCRATCH:-.build-rec}"
swift build -c release --scratch-path "$SCRATCH" --product errorwatch >/dev/null
BIN="$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/errorwatch"
WORK="$(mktemp -d)"
SOCK="errorwatch-rec-$$"
T=(tmux -L "$SOCK")
trap '"${T[@]}" kill-server >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT

python3 - "$WORK/big.ndjson" "$LINES" <<'EOF'
import sys, random
path, lines = sys.argv[1], int(sys.argv[2])
random.seed(7)
base = 1_795_338_000.0
def stamp(t):
    whole = int(t)
    import time
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(whole)) + ".%06dZ" % int((t - whole) * 1e6)
with open(path, "w") as out:
    for i in range(lines):
        producer = i % 3
        # 2,000 lines a recorded second; each producer's clock is off by up to a second from the others'.
        t = base + i / 2000 + producer * 0.4 + random.random() * 0.05
        head = '{"v":1,"service.name":"svc-%d","process.pid":%d,"time":"%s",' % (producer, 4000 + producer, stamp(t))
        kind = i % 5
        if kind < 2:
            out.write(head + '"kind":"error","exception.type":"shop.E%d","exception.message":"request %d failed '
                      'after 3000 ms","error.category":"transient","severity":"error","sequence":%d}\n'
                      % (i % 20, i, i))
        elif kind < 4:
            out.write(head + '"kind":"log","severity":"info","source":"shop.api","body":"GET /orders/%d 200 in '
                      '%d ms"}\n' % (i, i % 900))
        else:
            out.write(head + '"kind":"metric","metric.name":"http.server.duration","metric.kind":"histogram",'
                      '"metric.value":%d,"metric.unit":"ms"}\n' % (i % 500))
EOF
printf '%s\n' \
    '{"v":1,"service.name":"old","time":"1970-01-01T00:00:00Z","kind":"error","exception.type":"E","exception.message":"first"}' \
    '{"v":1,"service.name":"old","time":"2100-01-01T00:00:00Z","kind":"error","exception.type":"E","exception.message":"last"}' \
    >"$WORK/gap.ndjson"

measure() {
    /usr/bin/time -v "$@" >"$WORK/screen.txt" 2>"$WORK/time.txt"
    awk -F': ' '/Maximum resident set size/ { rss = $2 } /Elapsed \(wall clock\)/ { wall = $2 }
        /User time/ { user = $2 } /System time/ { sys = $2 }
        END { printf "   peak RSS %.1f MB, wall %s, CPU %.2f s\n", rss / 1024, wall, user + sys }' "$WORK/time.txt"
    grep -Eo "(finished|playing)[^│|]*" "$WORK/screen.txt" | head -1 | sed 's/^/   Sources row: /'
}

echo "== render --from, $LINES lines ($(du -h "$WORK/big.ndjson" | cut -f1))"
measure "$BIN" render --from "$WORK/big.ndjson" --size 120x40
echo "== render --from, a silence from 1970 to 2100 (default --max-gap 5s)"
measure "$BIN" render --from "$WORK/gap.ndjson" --size 120x40
echo "== render --from, the same with --max-gap none"
measure "$BIN" render --from "$WORK/gap.ndjson" --size 120x40 --max-gap none

echo "== replay --speed 10000, $LINES lines, in tmux"
"${T[@]}" -f /dev/null new-session -d -s rec -x 120 -y 40 \
    "env LANG=C.UTF-8 TERM=xterm-256color $BIN replay $WORK/big.ndjson --speed 10000 --stats; sleep 600"
"${T[@]}" set-option -t rec status off >/dev/null
began=$(date +%s%3N)
until "${T[@]}" capture-pane -p -t rec | grep -Eq "playing|finished"; do sleep 0.01; done
echo "   Sources row shown after $(($(date +%s%3N) - began)) ms"
until "${T[@]}" capture-pane -p -t rec | grep -q "finished"; do sleep 0.2; done
echo "   finished after $(($(date +%s%3N) - began)) ms"
"${T[@]}" send-keys -t rec q
until "${T[@]}" capture-pane -p -t rec | grep -q "peak memory"; do sleep 0.05; done
"${T[@]}" capture-pane -p -t rec | grep -E "peak memory|errors" | sed 's/^/   /'
