#!/usr/bin/env bash
# Opening a big plain log: `errorwatch FILE` against `lnav -n` on the same file, side by side (issue 35, item 1).
#
# Writes a plain log of SIZE MiB (default 128; deterministic): lines `2026-11-23T10:00:01.123Z ERROR worker[3]:
# order N failed: …`, one error in three (the others INFO and WARN). Then, alternating, RUNS times each (default 3):
#   - lnav: `lnav -n -c ";SELECT count(*) FROM all_logs WHERE log_level = 'error'" FILE` (index the file, count its
#     errors with SQL, exit); the count it prints is checked;
#   - errorwatch: `errorwatch FILE` as a user runs it, in a real terminal (tmux at 120x40), the store on as for a
#     user (in a fresh scratch XDG_STATE_HOME each run, so no run finds the file counted by the one before), timed
#     from the launch until the Metrics pane counts every error (the screen polled every 50 ms); also the CPU time
#     (user + system, /proc/PID/stat) it had used by then, which depends less than the wall time on what else runs.
# Prints every run and a table: median, min, max per tool and the ratio of the medians to lnav's.
#
# Usage: Benchmarks/scripts/open-vs-lnav.sh [SIZE_MIB]
#   ERRORWATCH_BIN=PATH   the errorwatch to time (default: the release build, built first)
#   ERRORWATCH_BEFORE=PATH  also time this second errorwatch (e.g. a copy of the build before a change), alternating
#   RUNS=N                runs per tool (default 3)
# Figures are in docs/benchmarks-logs.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
SIZE_MIB="${1:-128}"
RUNS="${RUNS:-3}"
SCRATCH="${SCRATCH:-.build-rel}"
command -v lnav >/dev/null || { echo "lnav is not installed (apt-get install lnav)" >&2; exit 1; }
if [[ -z "${ERRORWATCH_BIN:-}" ]]; then
    swift build -c release --scratch-path "$SCRATCH" --product errorwatch >/dev/null
fi
BIN="${ERRORWATCH_BIN:-$(swift build -c release --scratch-path "$SCRATCH" --show-bin-path)/errorwatch}"
BEFORE="${ERRORWATCH_BEFORE:-}"
WORK="$(mktemp -d)"
SOCK="errorwatch-open-$$"
T=(tmux -L "$SOCK")
trap '"${T[@]}" kill-server >/dev/null 2>&1 || true; rm -rf "$WORK"' EXIT
LOG="$WORK/plain.log"

ERRORS=$(python3 - "$LOG" "$SIZE_MIB" <<'EOF'
import sys, time
path, size = sys.argv[1], int(sys.argv[2]) * 1024 * 1024
written = errors = i = 0
second, stamp = -1, ""
with open(path, "w") as out:
    lines = []
    while written < size:
        ms = 1795428001000 + i * 7
        if ms // 1000 != second:
            second = ms // 1000
            stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        ts = "%s.%03dZ" % (stamp, ms % 1000)
        kind = i % 3
        if kind == 0:
            line = "%s ERROR worker[%d]: order %d failed: card declined\n" % (ts, i % 8, i)
            errors += 1
        elif kind == 1:
            line = "%s INFO worker[%d]: order %d placed by %d\n" % (ts, i % 8, i, i % 977)
        else:
            line = "%s WARN worker[%d]: order %d slow: %d ms\n" % (ts, i % 8, i, i % 500)
        lines.append(line)
        written += len(line)
        i += 1
        if len(lines) == 10000:
            out.write("".join(lines))
            lines = []
    out.write("".join(lines))
print(errors)
EOF
)
LINES=$(wc -l <"$LOG")
WANT=$(python3 -c "print(f'{int(\"$ERRORS\"):,}')")
echo "== $(du -h "$LOG" | cut -f1) plain log, $LINES lines, $ERRORS errors; $RUNS runs per tool, alternating"
# lnav keeps its configuration under HOME: a scratch one, so the runs start alike and the user's is untouched.
export HOME_LNAV="$WORK/lnav-home"
mkdir -p "$HOME_LNAV"

now_ms() { date +%s%3N; }

time_lnav() {
    local began counted
    began=$(now_ms)
    counted=$(HOME="$HOME_LNAV" lnav -n -c ";SELECT count(*) FROM all_logs WHERE log_level = 'error'" "$LOG" |
        tail -n 1 | tr -d ' ')
    local took=$(($(now_ms) - began))
    [[ "$counted" == "$ERRORS" ]] || { echo "lnav counted $counted errors, not $ERRORS" >&2; exit 1; }
    echo "$took"
}

# errorwatch FILE in tmux, a fresh store each run; the time until the Metrics pane counts every error.
time_errorwatch() {
    local bin="$1" run="$2" began
    local state="$WORK/state-$run"
    mkdir -p "$state"
    began=$(now_ms)
    "${T[@]}" -f /dev/null new-session -d -s "open$run" -x 120 -y 40 \
        "env LANG=C.UTF-8 TERM=xterm-256color XDG_STATE_HOME=$state $bin $LOG; sleep 600"
    until "${T[@]}" capture-pane -p -t "open$run" | grep -q "errors $WANT "; do
        sleep 0.05
        if (($(now_ms) - began > 600000)); then
            echo "errorwatch did not count every error in 10 minutes" >&2
            exit 1
        fi
    done
    local took=$(($(now_ms) - began))
    local pid ticks=0
    pid=$(pgrep -f -x "$bin $LOG" | head -n 1 || true)
    if [[ -n "$pid" ]]; then ticks=$(awk '{print $14 + $15}' "/proc/$pid/stat"); fi
    local cpu=$((ticks * 1000 / $(getconf CLK_TCK)))
    "${T[@]}" send-keys -t "open$run" q
    # Waits for it to exit (it writes the store's last batch), so the next run has the machine to itself.
    while "${T[@]}" list-panes -t "open$run" -F '#{pane_current_command}' 2>/dev/null | grep -q errorwatch; do
        sleep 0.05
    done
    "${T[@]}" kill-session -t "open$run" >/dev/null 2>&1 || true
    rm -rf "$state"
    echo "$took $cpu"
}

declare -a LNAV=() EW=() EWB=() EWC=() EWBC=()
for ((r = 1; r <= RUNS; r++)); do
    t=$(time_lnav); LNAV+=("$t"); echo "   run $r  lnav -n             $t ms"
    read -r t c < <(time_errorwatch "$BIN" "a$r"); EW+=("$t"); EWC+=("$c")
    echo "   run $r  errorwatch FILE     $t ms (CPU $c ms)"
    if [[ -n "$BEFORE" ]]; then
        read -r t c < <(time_errorwatch "$BEFORE" "b$r"); EWB+=("$t"); EWBC+=("$c")
        echo "   run $r  errorwatch (before) $t ms (CPU $c ms)"
    fi
done

python3 - "${LNAV[*]}" "${EW[*]}" "${EWB[*]:-}" "$LINES" "${EWC[*]}" "${EWBC[*]:-}" <<'EOF'
import sys, statistics
lines = int(sys.argv[4])
lnav, ew, before, ewc, beforec = ([int(x) for x in a.split()] for a in sys.argv[1:4] + sys.argv[5:7])
base = statistics.median(lnav)
print()
print("| tool | median | min | max | lines/s (median) | × lnav (median) | CPU until counted (median) |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
rows = [("lnav -n + SQL count", lnav, []), ("errorwatch FILE", ew, ewc)]
if before:
    rows.append(("errorwatch FILE (before)", before, beforec))
for name, runs, cpu in rows:
    m = statistics.median(runs)
    print("| %s | %.2f s | %.2f s | %.2f s | %s | %.2f | %s |"
          % (name, m / 1000, min(runs) / 1000, max(runs) / 1000, f"{int(lines / (m / 1000)):,}", m / base,
             "%.2f s" % (statistics.median(cpu) / 1000) if cpu else "—"))
EOF
