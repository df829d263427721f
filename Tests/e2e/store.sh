#!/usr/bin/env bash
# End-to-end: the issue store with real processes, in a real terminal (tmux).
#   1. a dashboard counts a storm from errorwatch-load into its store: every event sent is counted in the file;
#   2. `errorwatch issues resolve` from another process: the running dashboard shows it within a second;
#   3. SIGKILL in the middle of a second storm: the file stays sound and keeps everything written before; what the
#      kill lost is printed (the figure docs/store.md reports);
#   4. a restart on the same store shows the issues at once, counts continuing;
#   5. a corrupt store is moved aside with a message; a store that cannot be written leaves the dashboard running
#      without it, the header saying so;
#   6. two dashboards on one store: each lists the issues the other counted, one count made by both.
# Usage: Tests/e2e/store.sh (after `swift build`). Exits non-zero when a check fails.
set -euo pipefail
cd "$(dirname "$0")/../.."

BIN_DIR="$(swift build --show-bin-path)"
BIN="$BIN_DIR/errorwatch"
LOAD="$BIN_DIR/errorwatch-load"
[[ -x "$BIN" && -x "$LOAD" ]] || { echo "e2e: build errorwatch and errorwatch-load first"; exit 1; }
WORK="$(mktemp -d /tmp/ew25-store-e2e-XXXXXX)"
# Never the user's state folder, whatever a step forgets to pass.
export XDG_STATE_HOME="$WORK/state"
STORE="$WORK/store.sqlite"
SOCK="$WORK/feed.sock"
T=(tmux -L "ew25-store-e2e-$$-0")
SERVERS=0
# new_tmux: ends the tmux server in use and takes a server of its own for what comes next. A new session right
# after kill-server on the same socket can race the old server's exit ("server exited unexpectedly", which ended a
# CI run here).
new_tmux() {
    "${T[@]}" kill-server >/dev/null 2>&1 || true
    SERVERS=$((SERVERS + 1))
    T=(tmux -L "ew25-store-e2e-$$-$SERVERS")
}
cleanup() {
    for ((n = 0; n <= SERVERS; n++)); do tmux -L "ew25-store-e2e-$$-$n" kill-server >/dev/null 2>&1 || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT
failures=0
checks=0
pass() { checks=$((checks + 1)); echo "ok   $1"; }
fail() { checks=$((checks + 1)); failures=$((failures + 1)); echo "FAIL $1"; }
screen() { "${T[@]}" capture-pane -p -t store; }
wait_for() {
    local deadline=$((SECONDS + ${2:-30}))
    until screen | grep -Eq -- "$1"; do ((SECONDS < deadline)) || return 1; sleep 0.05; done
}
start_dashboard() {
    new_tmux
    "${T[@]}" -f /dev/null new-session -d -s store -x 120 -y 40 \
        "env LANG=C.UTF-8 TERM=xterm-256color $BIN $* ; sleep 600"
    "${T[@]}" set-option -t store status off >/dev/null
    wait_for "Alerts|Issues" 60
}
dashboard_pid() { pgrep -f "^$BIN --listen unix:$SOCK" | head -1; }
# The sum of every stored issue's count, read by the subcommand (another process).
stored_total() {
    "$BIN" issues --store "$STORE" --status all --json |
        python3 -c 'import json, sys; print(sum(i["count"] for i in json.load(sys.stdin)))'
}

echo "== 1. a storm counted into the store"
start_dashboard --listen "unix:$SOCK" --store "$STORE"
sent=$("$LOAD" --connect "unix:$SOCK" --producers 4 --rate 20000 --duration 2 | awk '/^sent:/ {print $2}')
deadline=$((SECONDS + 30))
total=0
while ((SECONDS < deadline)); do
    total=$(stored_total 2>/dev/null || echo 0)
    [[ "$total" == "$sent" ]] && break
    sleep 0.2
done
if [[ "$total" == "$sent" && "$sent" -gt 0 ]]; then pass "stored count $total equals events sent"; else fail "stored $total of $sent sent"; fi

echo "== 2. triage from another process shows in the running dashboard"
"${T[@]}" send-keys -t store v
if wait_for "PaymentError" 10; then pass "Issues view lists the issue"; else fail "Issues view: no PaymentError"; screen; fi
id=$("$BIN" issues --store "$STORE" --json | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["id"])')
start_ms=$(date +%s%3N)
"$BIN" issues resolve "$id" --store "$STORE" >/dev/null
if wait_for "No issues match the filters" 5; then
    pass "resolved issue left the Issues view in $(($(date +%s%3N) - start_ms)) ms"
else
    fail "resolved issue still shown after 5 s"; screen
fi
"${T[@]}" send-keys -t store / "is:resolved" Enter
if wait_for "\[resolved\] PaymentError" 5; then pass "is:resolved shows it, marked"; else fail "is:resolved"; screen; fi
"$BIN" issues reopen "$id" --store "$STORE" >/dev/null
"${T[@]}" send-keys -t store Escape
"${T[@]}" send-keys -t store / Escape
wait_for "PaymentError" 5 || true

echo "== 3. SIGKILL during a storm"
before=$(stored_total)
"$LOAD" --connect "unix:$SOCK" --producers 8 --rate 100000 --duration 4 >"$WORK/load2.txt" 2>&1 &
load=$!
# Kill once the storm is being written (a good part of it already in the file), not after a fixed time.
deadline=$((SECONDS + 30))
until (($(stored_total) >= before + 10000)) || ((SECONDS >= deadline)); do sleep 0.1; done
pid=$(dashboard_pid)
at_kill=$(stored_total)
kill -9 "$pid"
wait "$load" || true
after=$(stored_total)
check=$(sqlite3 "$STORE" 'PRAGMA integrity_check')
if [[ "$check" == "ok" ]]; then pass "store sound after SIGKILL (integrity_check ok)"; else fail "integrity_check: $check"; fi
if ((after >= at_kill && at_kill >= before)); then
    pass "nothing written before the kill was lost ($before before the storm, $at_kill read 0 ms before kill, $after after)"
else
    fail "counts went back: before $before, at kill $at_kill, after $after"
fi
echo "   written between the last read before the kill and the kill: $((after - at_kill)) events"

echo "== 4. restart on the same store"
start_dashboard --listen "unix:$SOCK" --store "$STORE"
"${T[@]}" send-keys -t store v
if wait_for "PaymentError" 5; then pass "Issues view shows the stored issue at once"; else fail "no stored issue after restart"; screen; fi
sent3=$("$LOAD" --connect "unix:$SOCK" --producers 1 --rate 1000 --duration 1 | awk '/^sent:/ {print $2}')
deadline=$((SECONDS + 20))
while ((SECONDS < deadline)); do [[ "$(stored_total)" == "$((after + sent3))" ]] && break; sleep 0.2; done
if [[ "$(stored_total)" == "$((after + sent3))" ]]; then pass "counts continue: $after + $sent3"; else fail "after restart: $(stored_total), expected $((after + sent3))"; fi
"${T[@]}" send-keys -t store q
deadline=$((SECONDS + 20))
while [[ -n "$(dashboard_pid)" ]] && ((SECONDS < deadline)); do sleep 0.05; done
if [[ -z "$(dashboard_pid)" ]]; then pass "q ends the dashboard"; else fail "dashboard still running 20 s after q"; fi

echo "== 5. a corrupt store, a store that cannot be written"
head -c 10000 /dev/urandom >"$WORK/bad.sqlite"
if "$BIN" issues --store "$WORK/bad.sqlite" 2>"$WORK/bad.err" >/dev/null && grep -q "moved to $WORK/bad.sqlite.unusable-" "$WORK/bad.err"; then
    pass "corrupt store moved aside: $(cut -c1-100 "$WORK/bad.err")"
else
    fail "corrupt store: $(cat "$WORK/bad.err")"
fi
new_tmux
"${T[@]}" -f /dev/null new-session -d -s store -x 120 -y 40 \
    "env LANG=C.UTF-8 TERM=xterm-256color $BIN --store /proc/self/ew25/store.sqlite ; sleep 600"
if wait_for "store off" 30; then pass "unwritable store: dashboard runs, header says store off"; else fail "no 'store off' in the header"; screen; fi

echo "== 6. two dashboards on one store see each other's issues"
TWO="$WORK/two.sqlite"
SOCK_B="$WORK/feed-b.sock"
start_dashboard --listen "unix:$SOCK" --store "$TWO"
"${T[@]}" new-session -d -s other -x 120 -y 40 \
    "env LANG=C.UTF-8 TERM=xterm-256color $BIN --listen unix:$SOCK_B --store $TWO ; sleep 600"
"${T[@]}" set-option -t other status off >/dev/null
other() { "${T[@]}" capture-pane -p -t other; }
wait_other() {
    local deadline=$((SECONDS + ${2:-30}))
    until other | grep -Eq -- "$1"; do ((SECONDS < deadline)) || return 1; sleep 0.05; done
}
wait_other "Alerts" 60 || true
"${T[@]}" send-keys -t other v
wait_other "No errors yet" 10 || true
sent_a=$("$LOAD" --connect "unix:$SOCK" --producers 1 --rate 1000 --duration 1 | awk '/^sent:/ {print $2}')
if wait_other "PaymentError" 10; then
    pass "the second dashboard lists the issue the first one counted (it got no event itself)"
else
    fail "second dashboard: no PaymentError after the first counted $sent_a"; other
fi
sent_b=$("$LOAD" --connect "unix:$SOCK_B" --producers 1 --rate 1000 --duration 1 | awk '/^sent:/ {print $2}')
STORE="$TWO"
deadline=$((SECONDS + 20))
while ((SECONDS < deadline)); do [[ "$(stored_total)" == "$((sent_a + sent_b))" ]] && break; sleep 0.2; done
if [[ "$(stored_total)" == "$((sent_a + sent_b))" ]]; then
    pass "one issue counted by both: $sent_a + $sent_b in the file"
else
    fail "two dashboards: stored $(stored_total), expected $((sent_a + sent_b))"
fi
"${T[@]}" send-keys -t store v
total_shown=$(python3 -c "print(f'{$((sent_a + sent_b)):,}')")
if wait_for "PaymentError.* ${total_shown} " 10; then
    pass "the first dashboard shows the count both made ($total_shown)"
else
    fail "first dashboard does not show $total_shown"; screen
fi

echo "store e2e: $((checks - failures)) passed, $failures failed"
((failures == 0))
