#!/usr/bin/env bash
# End-to-end test of the live dashboard in a real terminal (tmux at 120x40).
#
# Starts the built binary inside a shell in a tmux pane, presses keys like a user, reads the screen with
# capture-pane, and checks that the panes, alerts, recovery, coalescing, filter and help overlay show; that
# `q` and `kill -TERM` both leave with exit code 0; and that the terminal is restored afterwards (`stty -a`
# run in the same pane shows `echo` and `icanon`). Waits poll the screen for a condition with a deadline,
# never a fixed sleep.
set -euo pipefail
cd "$(dirname "$0")/../.."
# The dashboard keeps issues in a store by default: here, a fresh one, never the user's state folder.
export XDG_STATE_HOME="$(mktemp -d /tmp/errorwatch-e2e-state-XXXXXX)"

BIN="${ERRORWATCH_BIN:-$(swift build --show-bin-path)/errorwatch}"
[[ -x "$BIN" ]] || { echo "e2e: $BIN is not built"; exit 1; }
SESSION="errorwatch-e2e-$$"
RUN=0
TMUX_CMD=(tmux -L "errorwatch-e2e-$$-$RUN")
failures=0
checks=0

cleanup() { "${TMUX_CMD[@]}" kill-server >/dev/null 2>&1 || true; }
cleanup_all() {
    for ((r = 0; r <= RUN; r++)); do tmux -L "errorwatch-e2e-$$-$r" kill-server >/dev/null 2>&1 || true; done
    rm -rf "$XDG_STATE_HOME"
}
trap cleanup_all EXIT

screen() { "${TMUX_CMD[@]}" capture-pane -p -t "$SESSION"; }

# wait_for PATTERN [SECONDS]: polls the pane until PATTERN (extended regex) appears.
wait_for() {
    local pattern="$1" limit="${2:-20}" deadline
    deadline=$((SECONDS + limit))
    while ((SECONDS < deadline)); do
        if screen | grep -Eq -- "$pattern"; then return 0; fi
        sleep 0.1
    done
    return 1
}

check() {
    local what="$1" pattern="$2" limit="${3:-20}"
    checks=$((checks + 1))
    if wait_for "$pattern" "$limit"; then
        echo "ok   $what"
    else
        failures=$((failures + 1))
        echo "FAIL $what (no /$pattern/ on screen)"
        screen | sed 's/^/     | /'
    fi
}

# check_count WHAT PATTERN N: waits until at least N screen lines match PATTERN.
check_count() {
    local what="$1" pattern="$2" want="$3" deadline
    checks=$((checks + 1))
    deadline=$((SECONDS + 20))
    while ((SECONDS < deadline)); do
        if (($(screen | grep -Ec -- "$pattern") >= want)); then
            echo "ok   $what"
            return 0
        fi
        sleep 0.1
    done
    failures=$((failures + 1))
    echo "FAIL $what (fewer than $want lines match /$pattern/)"
    screen | sed 's/^/     | /'
}

keys() { "${TMUX_CMD[@]}" send-keys -t "$SESSION" "$@"; }

# check_gone WHAT PATTERN: waits until PATTERN is no longer on screen (an overlay closed).
check_gone() {
    local what="$1" pattern="$2" deadline
    checks=$((checks + 1))
    deadline=$((SECONDS + 20))
    while ((SECONDS < deadline)); do
        if ! screen | grep -Eq -- "$pattern"; then
            echo "ok   $what"
            return 0
        fi
        sleep 0.1
    done
    failures=$((failures + 1))
    echo "FAIL $what (/$pattern/ still on screen)"
    screen | sed 's/^/     | /'
}

# start [ENV...]: a fresh pane running the dashboard, then printing its exit code and the tty modes.
start() {
    # A fresh tmux server per run: reusing one right after kill-server races with its shutdown.
    cleanup
    RUN=$((RUN + 1))
    TMUX_CMD=(tmux -L "errorwatch-e2e-$$-$RUN")
    "${TMUX_CMD[@]}" -f /dev/null new-session -d -s "$SESSION" -x 120 -y 40 "env -i PATH=$PATH HOME=$HOME XDG_STATE_HOME=$XDG_STATE_HOME TERM=xterm-256color LANG=C.UTF-8 bash --norc --noprofile"
    "${TMUX_CMD[@]}" set-option -t "$SESSION" status off >/dev/null
    local env="${1:-}"
    shift || true
    # PRODUCER, when set, is a command whose output is piped into the dashboard (`producer | errorwatch -`).
    local pipe="${PRODUCER:+$PRODUCER | }"
    keys "stty sane; clear; $pipe$env $BIN --seed 7 $*; echo \"EXIT=\$?\"; stty -a | tr ' ;' '\n\n' | grep -Ex -- '-?(echo|icanon)' | tr '\n' ' '; echo '<stty'" Enter
}

restored_checks() {
    check "exit code 0 ($1)" "EXIT=0"
    check "echo and icanon restored ($1)" "^echo icanon <stty|^icanon echo <stty"
}

echo "e2e: $BIN at 120x40"

# --- Run 1: a user session, ended with q ---
start
check "first frame with the four panes" "Alerts.*Logs|Alerts" 30
check "Logs pane" "Logs"
check "Metrics pane" "Metrics"
check "Status pane" "Status"

keys l
check "login succeeds" "logged in +login ok"
keys i
check "invalid credentials alert with its code" "Wrong email or password +A-101"
check "the login flow shows the failure" "login failed"
keys l
check "recovery: the next login on the same binding succeeds" "logged in +login ok"
check_count "two successful logins in the log" "INFO .*login ok" 2
keys r
keys l
check_count "a third login after recovering everything" "INFO .*login ok" 3
keys x
check "session expired reaches the user" "A-401|[Ss]ession expired"
keys s
check "server-error burst coalesced with a count" "×[0-9]+|x[0-9]+"
keys 1
check "type filter 1 shown in the header" "filter [A-Za-z]+Error"
keys '?'
check "help overlay lists the bindings" "Help . keys"
check "help overlay lists a demo trigger" "Error storm"
keys Escape
checks=$((checks + 1))
deadline=$((SECONDS + 20))
until ! screen | grep -Eq "Help . keys"; do
    ((SECONDS < deadline)) || break
    sleep 0.1
done
if screen | grep -Eq "Help . keys"; then
    failures=$((failures + 1)); echo "FAIL Esc closes the help overlay"
else
    echo "ok   Esc closes the help overlay"
fi
keys t
check "theme cycled away from default" "theme (light|solarized-dark|high-contrast|monochrome) "
"${TMUX_CMD[@]}" resize-window -t "$SESSION" -x 60 -y 20
check "still drawing at 60x20" "Alerts|small"
"${TMUX_CMD[@]}" resize-window -t "$SESSION" -x 120 -y 40
check "back at 120x40" "Metrics"
keys q
restored_checks "q"

# --- Run 2: ended with SIGTERM ---
start
check "first frame (run 2)" "Alerts" 30
pkill -TERM -f "^$BIN --seed 7" || true
restored_checks "SIGTERM"

# --- Run 3: a crash signal restores the terminal, the backtrace is printed, the process ends (no prompt), and the
# listener's socket file goes with it (its path was prepared before; the handler only unlinks) ---
CRASH_SOCKET="$(mktemp -u /tmp/errorwatch-e2e-XXXXXX.sock)"
start "" --listen "unix:$CRASH_SOCKET"
check "first frame (run 3)" "Alerts" 30
backtracers_before=" $({ pgrep -x swift-backtrace || true; } | tr '\n' ' ') "
pkill -SEGV -f "^$BIN --seed 7" || true
check "crash exits with the signal's status" "EXIT=139" 60
check "the backtrace was printed" "Program crashed|Segmentation fault"
check "echo and icanon restored (SIGSEGV)" "^echo icanon <stty|^icanon echo <stty"
# The runtime's backtracer is a process of its own (swift-backtrace, started by the crashing process; its command
# line does not name it): the ones that appeared since the crash are waited for, and ended if they outlive it by
# 10 s (one was seen alive 25 minutes later, holding 184 MB), so the run leaves nothing behind.
# live_backtracers: the swift-backtrace processes started since, not counting zombies (a killed one whose parent,
# here the machine's init, does not reap it holds nothing).
live_backtracers() {
    for pid in $(pgrep -x swift-backtrace || true); do
        [[ "$backtracers_before" == *" $pid "* ]] && continue
        [[ "$(ps -o stat= -p "$pid" 2>/dev/null)" == Z* ]] && continue
        echo "$pid"
    done
}
deadline=$((SECONDS + 10))
while true; do
    ours=($(live_backtracers))
    ((${#ours[@]} == 0)) && break
    # Past the deadline, killed (again each round until it is gone: a signal takes a moment to land).
    if ((SECONDS >= deadline)); then kill -KILL "${ours[@]}" 2>/dev/null || true; fi
    ((SECONDS < deadline + 10)) || break
    sleep 0.2
done
checks=$((checks + 1))
if [[ -n "$(live_backtracers)" ]]; then
    failures=$((failures + 1)); echo "FAIL the crash's backtracer is still running"
else
    echo "ok   the crash's backtracer ended"
fi
checks=$((checks + 1))
if [[ -e "$CRASH_SOCKET" ]]; then
    failures=$((failures + 1)); echo "FAIL SIGSEGV left the socket $CRASH_SOCKET behind"
else
    echo "ok   SIGSEGV removed the socket"
fi

# --- Run 3b: a signal whose default action ends the process (SIGUSR1) ends it like q: socket removed ---
USR_SOCKET="$(mktemp -u /tmp/errorwatch-e2e-XXXXXX.sock)"
start "" --listen "unix:$USR_SOCKET"
check "first frame (run 3b)" "Alerts" 30
pkill -USR1 -f "^$BIN --seed 7" || true
restored_checks "SIGUSR1"
checks=$((checks + 1))
if [[ -e "$USR_SOCKET" ]]; then
    failures=$((failures + 1)); echo "FAIL SIGUSR1 left the socket $USR_SOCKET behind"
else
    echo "ok   SIGUSR1 removed the socket"
fi

# --- Run 4: two processes: the dashboard listens, the demo connects from outside ---
SOCKET_PATH="$(mktemp -u /tmp/errorwatch-e2e-XXXXXX.sock)"
RECORDING="$(mktemp /tmp/errorwatch-e2e-XXXXXX.ndjson)"
start "" --listen "unix:$SOCKET_PATH" --record "$RECORDING"
check "listening dashboard, first frame (run 4)" "Alerts" 30
"$BIN" demo --connect "unix:$SOCKET_PATH" --keys "l i l s" --interval 300ms --duration 3s </dev/null >/dev/null
check "the Sources pane is shown" "┌ Sources"
check "the producer is listed with its event count" "errorwatch-demo .*[0-9]+ ev"
check "its invalid-credentials alert shows" "Wrong email or password +A-101"
check "its server-error burst is coalesced" "Server unavailable ×[0-9]+"
check "its statuses reach the Status pane over the wire" "login +logged in"
check "its metrics are drawn with their service" "auth.login.duration"
checks=$((checks + 1))
if screen | tail -1 | grep -q "bad login"; then
    failures=$((failures + 1)); echo "FAIL the footer offers the demo's keys though no app is attached"
else
    echo "ok   no demo keys in the footer: no app is attached here"
fi
keys q
restored_checks "listen"
checks=$((checks + 1))
if [[ -S "$SOCKET_PATH" ]]; then
    failures=$((failures + 1)); echo "FAIL the socket file is left behind: $SOCKET_PATH"
else
    echo "ok   the socket file is removed on exit"
fi
checks=$((checks + 1))
replayed=$("$BIN" render --from "$RECORDING" --size 120x40)
if grep -q "A-101" <<<"$replayed" && grep -q "finished" <<<"$replayed"; then
    echo "ok   the recording renders the same alerts (render --from)"
else
    failures=$((failures + 1)); echo "FAIL render --from $RECORDING"; sed 's/^/     | /' <<<"$replayed"
fi
rm -f "$RECORDING"

# --- Run 5: a producer that is not written in Swift (Python), sending straight to the socket ---
if command -v python3 >/dev/null; then
    SOCKET_PATH="$(mktemp -u /tmp/errorwatch-e2e-XXXXXX.sock)"
    start "" --listen "unix:$SOCKET_PATH"
    check "listening dashboard, first frame (run 5)" "Alerts" 30
    python3 Tests/e2e/foreign_producer.py --socket "$SOCKET_PATH"
    check "alerts name what failed" "GatewayTimeout: POST /charge timed o"
    check "its latency histogram with percentiles" "http.server.duration.*p50 [0-9]+ms"
    check "its gauge" "queue.depth.* 9"
    check "its first status" "reconciler +running +pass 7 of 9"
    check "its second status" "payments +degraded"
    checks=$((checks + 1))
    if screen | grep -Eq "login|Flows|flows"; then
        failures=$((failures + 1)); echo "FAIL a word of the demo shows for a foreign producer"; screen | sed 's/^/     | /'
    else
        echo "ok   no word of the demo on a foreign producer's screen"
    fi
    keys q
    restored_checks "python producer"
else
    echo "skip the Python producer: no python3"
fi

# --- Run 6: a pipe of mixed log shapes (`producer | errorwatch -`): keys from the terminal, q while it runs ---
if command -v python3 >/dev/null; then
    PRODUCER="python3 Tests/e2e/shapes_producer.py" start "" -
    check "piped dashboard, first frame (run 6)" "Alerts" 30
    check "a Python traceback is one error with its type, both messages" "order 7 failed — KeyError"
    check "a pino error with its type, both messages" "payment failed — CardDeclinedError"
    check "a Go panic folded with its goroutine dump" "panic: runtime error: index out"
    check "a Serilog exception under its rendered message" "Payment \"p-9\" failed — Invalid"
    check "a zap error with both messages" "charge failed — Error: stripe"
    check "stdin is a source in the Sources pane" "stdin +reading"
    keys Tab
    keys Enter
    check "keys from the terminal: Enter opens the selected event" "log.format +text"
    keys Escape
    # Wait for Escape to land before the next key, or the two read as one Alt sequence.
    check_gone "Escape closes the detail view" "log.format +text"
    keys "?"
    check "keys from the terminal: the help overlay" "Help . keys"
    keys Escape
    check_gone "Escape closes the help overlay" "Help . keys"
    checks=$((checks + 1))
    if pgrep -f shapes_producer.py >/dev/null; then
        echo "ok   the producer is still running when q is pressed"
    else
        failures=$((failures + 1)); echo "FAIL the producer ended before q"
    fi
    keys q
    restored_checks "pipe, producer still running"
    PRODUCER="python3 Tests/e2e/shapes_producer.py --once" start "" --stdin
    check "end of input leaves the dashboard open, the source ended" "stdin +ended" 30
    check "and its errors shown" "order 7 failed — KeyError"
    keys q
    restored_checks "pipe that ended"
    # A pipe and no terminal to read keys from (setsid: no controlling terminal, so no /dev/tty), while stdout is
    # still the terminal: the hint and exit code 2, at once.
    PRODUCER="echo 'ERROR x'" start "setsid -w" -
    check "a pipe without a terminal for keys: the hint" "not a terminal.*errorwatch render" 15
    check "a pipe without a terminal for keys: exit code 2" "EXIT=2" 15
else
    echo "skip the pipe: no python3"
fi

# --- Run 8: a file opened from its start (`errorwatch FILE`) and a rotating file tailed from its last lines ---
if command -v python3 >/dev/null; then
    FILE_DIR="$(mktemp -d)"
    python3 Tests/e2e/shapes_producer.py --once >"$FILE_DIR/old.log"
    printf '%s\n' \
        '2026-11-23T10:00:01Z ERROR cache refresh failed for key user:1234' \
        '2026-11-23T10:00:02Z ERROR cache refresh failed for key user:99' \
        '{"level":50,"time":1795000002000,"msg":"request failed","err":{"type":"UpstreamError","message":"upstream closed","code":"L-042"}}' \
        >>"$FILE_DIR/old.log"
    printf '%s\n' 'INFO rotating line one' 'INFO rotating line two' 'INFO rotating line three' >"$FILE_DIR/rot.log"
    start "" "$FILE_DIR/old.log" --tail "$FILE_DIR/rot.log" --lines 2
    check "a file opened from its start shows what it already holds (run 8)" "order 7 failed — KeyError" 30
    check "its lines at their own time" "10:00:02 ERROR"
    check "a producer's code as sent, both messages" "\\[L-042\\] request failed — upstream closed"
    check "--lines 2 reads the file's last two lines" "rotating line three"
    checks=$((checks + 1))
    if screen | grep -q "rotating line one"; then
        failures=$((failures + 1)); echo "FAIL --lines 2 read a third line"
    else
        echo "ok   --lines 2 leaves the earlier lines out"
    fi
    mv "$FILE_DIR/rot.log" "$FILE_DIR/rot.log.1"
    printf '%s\n' 'ERROR after rotation: replica lagging' >"$FILE_DIR/rot.log"
    check "the rotated file is followed" "after rotation: replica lagging"
    keys v
    check "v: the Issues view, one issue for both cache refreshes" "Issues"
    check "an issue's row says what failed" "Error: cache refresh failed for key"
    keys v
    check "v again: the Patterns view" "Patterns"
    check "a template with its masked parts" "cache refresh failed for key user:<num>"
    keys Enter
    check "Enter opens a template's lines" "Occurrences, newest first"
    keys Escape
    check_gone "Escape closes the template" "Occurrences, newest first"
    keys q
    restored_checks "files from the start"
    rm -rf "$FILE_DIR"
else
    echo "skip the files: no python3"
fi

# --- Run 7: two named pipes tailed, one writer holding its pipe open without writing: keys work, q exits at once ---
FIFO_DIR="$(mktemp -d)"
mkfifo "$FIFO_DIR/a.fifo" "$FIFO_DIR/b.fifo"
start "" --tail "$FIFO_DIR/a.fifo" --tail "$FIFO_DIR/b.fifo"
check "tailing two FIFOs, first frame (run 7)" "Alerts" 30
# A writer that says one thing and then holds the pipe open; the other pipe never gets a writer.
(printf 'ERROR fifo writer: disk full\n'; sleep 120) >"$FIFO_DIR/a.fifo" &
FIFO_WRITER=$!
check "the FIFO's line is read" "disk full"
check "both FIFOs are sources" "b.fifo"
keys q
check "q exits while a writer holds the pipe open" "EXIT=0" 5
check "echo and icanon restored (FIFO)" "^echo icanon <stty|^icanon echo <stty"
kill "$FIFO_WRITER" 2>/dev/null || true
rm -rf "$FIFO_DIR"

# --- A terminal that cannot move the cursor: a clear message and exit code 1 at once, terminal untouched ---
start "TERM=dumb"
check "TERM=dumb is refused with the render hint" "cannot move the cursor.*errorwatch render|cannot move the cursor" 15
check "TERM=dumb exits with code 1" "EXIT=1" 15
check "echo and icanon restored (TERM=dumb)" "^echo icanon <stty|^icanon echo <stty"

# --- Not a terminal: a one-line hint and exit code 2 ---
checks=$((checks + 1))
set +e
message=$("$BIN" </dev/null 2>&1 >/dev/null)
status=$?
set -e
if ((status == 2)) && [[ "$message" == *"errorwatch render"* ]] && (($(wc -l <<<"$message") == 1)); then
    echo "ok   not a terminal: exit 2 with a one-line hint"
else
    failures=$((failures + 1))
    echo "FAIL not a terminal: exit $status, message: $message"
fi

echo "$((checks - failures)) passed, $failures failed"
((failures == 0))
