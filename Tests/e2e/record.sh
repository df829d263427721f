#!/usr/bin/env bash
# End-to-end: a record you can trust (issue 32), with real files written by Python's standard `logging` module.
#   1. two logs (text and JSON) whose records interleave in time, opened together: the W export's times never go
#      back; the hex-id timeouts are one issue per logger; every error is counted once, on screen and in the store;
#   2. the same two files opened again with the same store: the store still counts each error once, and the
#      dashboard's Issues view shows the counts `errorwatch issues` prints;
#   3. a resolved issue seen again in a newer file is `regressed` in both, and `--fail-on regressed` names it.
# Usage: Tests/e2e/record.sh (after `swift build`). Exits non-zero when a check fails.
set -euo pipefail
cd "$(dirname "$0")/../.."

BIN="$(swift build --show-bin-path)/errorwatch"
[[ -x "$BIN" ]] || { echo "e2e: build errorwatch first"; exit 1; }
WORK="$(mktemp -d /tmp/ew32-record-e2e-XXXXXX)"
export XDG_STATE_HOME="$WORK/state"
export TZ=UTC
STORE="$WORK/store.sqlite"
T=(tmux -L "ew32-record-e2e-$$-0")
SERVERS=0
new_tmux() {
    "${T[@]}" kill-server >/dev/null 2>&1 || true
    SERVERS=$((SERVERS + 1))
    T=(tmux -L "ew32-record-e2e-$$-$SERVERS")
}
cleanup() {
    for ((n = 0; n <= SERVERS; n++)); do tmux -L "ew32-record-e2e-$$-$n" kill-server >/dev/null 2>&1 || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT
failures=0
checks=0
pass() { checks=$((checks + 1)); echo "ok   $1"; }
fail() { checks=$((checks + 1)); failures=$((failures + 1)); echo "FAIL $1"; }
screen() { "${T[@]}" capture-pane -p -t rec; }
wait_for() {
    local deadline=$((SECONDS + ${2:-30}))
    until screen | grep -Eq -- "$1"; do ((SECONDS < deadline)) || return 1; sleep 0.05; done
}
start_dashboard() {
    new_tmux
    "${T[@]}" -f /dev/null new-session -d -s rec -x 160 -y 50 \
        "cd $WORK && env LANG=C.UTF-8 TERM=xterm-256color TZ=UTC ERRORWATCH_EXPORT_DIR=$WORK/export $BIN $* ; sleep 600"
    "${T[@]}" set-option -t rec status off >/dev/null
    wait_for "Alerts|Issues" 60
}
quit_dashboard() {
    "${T[@]}" send-keys -t rec q
    local deadline=$((SECONDS + 20))
    while pgrep -f "^$BIN --store $STORE" >/dev/null && ((SECONDS < deadline)); do sleep 0.05; done
}
issues_json() { "$BIN" issues --store "$STORE" --status all --json; }
mkdir -p "$WORK/export"

echo "== 1. two interleaved logs opened together"
python3 Tests/e2e/logging_producer.py "$WORK" --records 300 >"$WORK/summary.json"
errors=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print(sum(f["errors"] for f in s.values()))' "$WORK/summary.json")
start_dashboard --store "$STORE" app.log app.json.log
if wait_for "app.log .* 300 ev" 30 && wait_for "app.json.log .* 300 ev" 30; then
    pass "both files read (300 records each)"
else
    fail "files not read"; screen
fi
# The Sources rows count what was read; the last piece may still be on its way to the Logs pane. Every error counted
# in Metrics (sampled twice a second) means every line before it was handed on too: only then is W's export whole.
errors_shown=$(python3 -c "print(f'{int(\"$errors\"):,}')")
wait_for "errors $errors_shown " 30 || { echo "Metrics never counted $errors_shown errors"; screen; }
"${T[@]}" send-keys -t rec W
if wait_for "saved|wrote|export" 10; then pass "W exported the kept lines"; else fail "no export message"; screen; fi
export_file=$(ls "$WORK"/export/*.ndjson 2>/dev/null | head -1 || true)
if [[ -n "$export_file" ]] && python3 - "$export_file" <<'EOF'
import json, sys
times = [json.loads(line)["time"] for line in open(sys.argv[1]) if line.strip()]
assert len(times) >= 600, len(times)
assert all(a <= b for a, b in zip(times, times[1:])), "time goes back"
EOF
then pass "the export's $(wc -l <"$export_file") lines never go back in time"; else fail "export out of time order or missing"; fi
"${T[@]}" send-keys -t rec v
wait_for "Issues" 5 || true
quit_dashboard
issues_json >"$WORK/issues1.json"
if python3 - "$WORK/issues1.json" "$WORK/summary.json" <<'EOF'
import json, sys
issues = json.load(open(sys.argv[1])); summary = json.load(open(sys.argv[2]))
errors = sum(f["errors"] for f in summary.values())
assert sum(i["count"] for i in issues) == errors, (sum(i["count"] for i in issues), errors)
timeouts = [i for i in issues if "db query timed out" in i["title"]]
per_logger = {}
for f in summary.values():
    for logger, n in f["timeouts"].items(): per_logger[logger] = per_logger.get(logger, 0) + n
assert len(timeouts) == len(per_logger), [i["fingerprint"] for i in timeouts]
assert sorted(i["count"] for i in timeouts) == sorted(per_logger.values()), (timeouts, per_logger)
EOF
then pass "store: $errors errors counted once; the hex-id timeouts are one issue per logger"; else fail "store counts after the first reading"; cat "$WORK/issues1.json" | head -40; fi

echo "== 2. the same files opened again"
start_dashboard --store "$STORE" app.log app.json.log
if wait_for "read before" 30; then pass "the Sources rows say the lines were read before"; else fail "no 'read before' in Sources"; screen; fi
"${T[@]}" send-keys -t rec v
wait_for "Issues" 5 || true
sleep_until_counts() {
    local deadline=$((SECONDS + 10))
    until python3 - "$1" "$(screen)" <<'EOF'
import json, re, sys
issues = json.load(open(sys.argv[1]))
rows = [line for line in sys.argv[2].splitlines() if "●" in line and ("Error" in line or "ConnectionError" in line)]
shown = sorted(int(m.group(1).replace(",", "")) for line in rows for m in [re.search(r"\s([\d,]+)\s{2,}", line)] if m)
wanted = sorted(i["count"] for i in issues)
sys.exit(0 if shown == wanted else 1)
EOF
    do ((SECONDS < deadline)) || return 1; sleep 0.2; done
}
if sleep_until_counts "$WORK/issues1.json"; then pass "the Issues view shows the counts errorwatch issues prints"; else fail "screen and CLI differ"; screen; cat "$WORK/issues1.json" | python3 -c 'import json,sys; print([(i["title"][:40], i["count"]) for i in json.load(sys.stdin)])'; fi
quit_dashboard
issues_json >"$WORK/issues2.json"
if python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); b=json.load(open(sys.argv[2])); assert sorted((i["fingerprint"], i["count"]) for i in a) == sorted((i["fingerprint"], i["count"]) for i in b)' "$WORK/issues1.json" "$WORK/issues2.json"; then
    pass "opened twice, the store counts each error once ($errors)"
else
    fail "counts changed on the second reading"; diff <(python3 -m json.tool "$WORK/issues1.json") <(python3 -m json.tool "$WORK/issues2.json") | head -20
fi

echo "== 3. resolved, then seen again in a newer file: regressed in both"
id=$(python3 -c 'import json,sys; print(next(i["id"] for i in json.load(open(sys.argv[1])) if "token for user" in i["title"]))' "$WORK/issues2.json")
"$BIN" issues resolve "$id" --store "$STORE" >/dev/null
printf '%s ERROR shop.auth: token for user u901 expired\n' "$(date -u -d '+1 second' '+%Y-%m-%d %H:%M:%S,000')" >"$WORK/later.log"
start_dashboard --store "$STORE" later.log
"${T[@]}" send-keys -t rec v
if wait_for "\[regressed\] Error: token for user" 30; then pass "the dashboard says regressed"; else fail "no [regressed] on screen"; screen; fi
quit_dashboard
listed=$("$BIN" issues --store "$STORE" --status regressed)
if grep -Eq "^$id +regressed " <<<"$listed"; then pass "errorwatch issues says regressed too"; else fail "CLI: $listed"; fi
shown=$("$BIN" issues show "$id" --store "$STORE")
if grep -q "status       regressed$" <<<"$shown" && grep -q "regressed" <<<"$(grep -A5 '  history' <<<"$shown")"; then
    pass "issues show: status regressed, and the history has the regression"
else
    fail "issues show: $shown"
fi
set +e
gate=$("$BIN" issues --store "$STORE" --fail-on regressed 2>&1 >/dev/null)
code=$?
set -e
if [[ $code == 1 ]] && grep -q "issue $id is regressed" <<<"$gate"; then
    pass "--fail-on regressed exits 1 and names the issue: $gate"
else
    fail "--fail-on: exit $code, stderr: $gate"
fi

echo "record e2e: $((checks - failures)) passed, $failures failed"
((failures == 0))
