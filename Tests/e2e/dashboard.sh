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

BIN="${ERRORWATCH_BIN:-$(swift build --show-bin-path)/errorwatch}"
[[ -x "$BIN" ]] || { echo "e2e: $BIN is not built"; exit 1; }
SESSION="errorwatch-e2e-$$"
SOCKET="errorwatch-e2e-$$"
TMUX_CMD=(tmux -L "$SOCKET")
failures=0
checks=0

cleanup() { "${TMUX_CMD[@]}" kill-server >/dev/null 2>&1 || true; }
trap cleanup EXIT

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

keys() { "${TMUX_CMD[@]}" send-keys -t "$SESSION" "$@"; }

start() {
    cleanup
    "${TMUX_CMD[@]}" -f /dev/null new-session -d -s "$SESSION" -x 120 -y 40 "env -i PATH=$PATH HOME=$HOME TERM=xterm-256color LANG=C.UTF-8 bash --norc --noprofile"
    "${TMUX_CMD[@]}" set-option -t "$SESSION" status off >/dev/null
    keys "stty sane; clear; $BIN --seed 7; echo \"EXIT=\$?\"; stty -a | tr ' ;' '\n\n' | grep -Ex -- '-?(echo|icanon)' | tr '\n' ' '; echo '<stty'" Enter
}

restored_checks() {
    check "exit code 0 ($1)" "EXIT=0"
    check "echo and icanon restored ($1)" "^echo icanon <stty|^icanon echo <stty"
}

echo "e2e: $BIN at 120x40"

# --- Run 1: a user session, ended with q ---
start
check "first frame with the four panes" "Errors.*Logs|Errors" 30
check "Logs pane" "Logs"
check "Metrics pane" "Metrics"
check "Flows pane" "Flows"

keys l
check "login succeeds" "logged in"
keys i
keys l
check "invalid credentials alert with its code" "A-101"
keys r
keys l
check "recovery: a later login on the same binding succeeds" "login ok|logged in"
keys x
check "session expired reaches the user" "A-401|[Ss]ession expired"
keys s
check "server-error burst coalesced with a count" "×[0-9]+|x[0-9]+"
keys 1
check "type filter shown in the header" "filter"
keys '?'
check "help overlay lists the bindings" "Keys|Help"
keys Escape
keys t
check "theme cycled" "theme"
"${TMUX_CMD[@]}" resize-window -t "$SESSION" -x 60 -y 20
check "still drawing at 60x20" "Errors|small"
"${TMUX_CMD[@]}" resize-window -t "$SESSION" -x 120 -y 40
check "back at 120x40" "Metrics"
keys q
restored_checks "q"

# --- Run 2: ended with SIGTERM ---
start
check "first frame (run 2)" "Errors" 30
pkill -TERM -f "^$BIN --seed 7" || true
restored_checks "SIGTERM"

echo "$((checks - failures)) passed, $failures failed"
((failures == 0))
