#!/usr/bin/env bash
# A big mixed log opened from its start (issue 24, item 5): `errorwatch FILE` in a real terminal (tmux at 120x40),
# release build. Writes a log of SIZE MiB (default 1024) in every shape of docs/formats.md, with a known number of
# error events, opens it with `errorwatch FILE --stats`, waits until the Metrics pane counts every error, and
# prints the time that took, the final counts and the peak resident memory (--stats' VmHWM).
# Usage: Benchmarks/scripts/big-log.sh [SIZE_MIB]   (ERRORWATCH_BIN=PATH skips the release build)
# Figures are in docs/benchmarks-logs.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
SIZE_MIB="${1:-1024}"
SCRATCH="${SCRATCH:-.build-rel}"
if [[ -z "${ERRORWATCH_BIN:-}" ]]; then
    swift build -c release --scratch-path "$SCRATCH" --product errorwatch >/dev/null
fi
BIN="${ERRORWATCH_BIN:-$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/errorwatch}"
WORK="$(mktemp -d)"
# The store is on, as for a user, but in the run's scratch folder, never the home state folder.
export XDG_STATE_HOME="$WORK/state"
SOCK="errorwatch-biglog-$$"
T=(tmux -L "$SOCK")
trap '"${T[@]}" kill-server >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT

# Blocks of 20 lines (14 single-line events, one 4-line Python traceback folded into its ERROR line, 2 lines
# without a time); 7 of each block's events are errors. The ids vary, so the templates are few and the lines all
# distinct.
ERRORS=$(python3 - "$WORK/big.log" "$SIZE_MIB" <<'EOF'
import sys
path, size = sys.argv[1], int(sys.argv[2]) * 1024 * 1024
written = errors = i = 0
with open(path, "w") as out:
    while written < size:
        t = 1795000000 + i // 10
        ms = t * 1000 + i % 1000
        block = (
            '{"level":30,"time":%d,"pid":4242,"hostname":"web-1","name":"checkout","msg":"order %d placed"}\n' % (ms, i)
            + '{"level":50,"time":%d,"msg":"request failed","err":{"type":"UpstreamError","message":"upstream closed after %d ms","code":"L-042"}}\n' % (ms, i % 977)
            + '{"level":"error","ts":%d.25,"msg":"fetch failed","error":"read tcp 10.0.%d.7:5432: i/o timeout"}\n' % (t, i % 250)
            + '{"error":"write /var/data/%d.db: no space left on device","level":"error","msg":"disk full","time":"2026-11-23T11:00:05+01:00"}\n' % i
            + '{"event": "job %d picked", "level": "info", "timestamp": "2026-11-23T10:00:00.123456Z", "logger": "worker"}\n' % i
            + '{"@t":"2026-11-23T10:00:01Z","@mt":"Order {OrderId} failed","@l":"Error","@x":"Shop.ClefBoom: boom","OrderId":%d}\n' % i
            + '{"version":"1.1","host":"db-1","short_message":"replica lagging","full_message":"app.ReplicaLagError: replica db-2 is %d s behind","timestamp":%d.5,"level":3}\n' % (i % 60, t)
            + '{"asctime": "2026-11-23 10:00:01,500", "levelname": "INFO", "name": "billing", "message": "invoice %d sent"}\n' % i
            + 'ts=2026-11-23T10:00:01Z level=info msg="request served" path=/products/%d status=200 took=12ms\n' % i
            + '2026-11-23T10:00:01Z ERROR cache refresh failed for key user:%d\n' % i
            + '2026-11-23 10:00:00,001 ERROR worker: order %d failed\n' % i
            + 'Traceback (most recent call last):\n'
            + '  File "/app/worker.py", line 41, in process\n'
            + '    reserve(order)\n'
            + "KeyError: 'sku-%d'\n" % i
            + '2026-11-23T10:00:02Z INFO row %d changed on both sides\n' % i
            + 'a line without a time, number %d\n' % i
            + 'another line without a time\n'
            + '2026-11-23T10:00:03Z WARN slow query took %d ms\n' % (i % 5000)
            + '2026-11-23T10:00:04Z INFO worker: caught up\n'
        )
        out.write(block)
        written += len(block)
        errors += 7
        i += 1
print(errors)
EOF
)
echo "== errorwatch FILE: $(du -h "$WORK/big.log" | cut -f1), $ERRORS errors"
WANT=$(python3 -c "print(f'{int(\"$ERRORS\"):,}')")
"${T[@]}" -f /dev/null new-session -d -s big -x 120 -y 40 \
    "env LANG=C.UTF-8 TERM=xterm-256color $BIN $WORK/big.log --stats; sleep 600"
"${T[@]}" set-option -t big status off >/dev/null
began=$(date +%s%3N)
until "${T[@]}" capture-pane -p -t big | grep -q "errors $WANT "; do sleep 0.5; done
echo "   every error counted after $(($(date +%s%3N) - began)) ms"
"${T[@]}" capture-pane -p -t big | grep -Eo "shapes?[^│]*|big.log[^│]*" | head -1 | sed 's/^/   Sources row: /'
"${T[@]}" send-keys -t big q
until "${T[@]}" capture-pane -p -t big | grep -q "peak memory"; do sleep 0.1; done
"${T[@]}" capture-pane -p -t big | grep -E "peak memory|errors" | sed 's/^/   /'
