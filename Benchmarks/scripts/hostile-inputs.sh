#!/usr/bin/env bash
# Repeats issue 14's attacks against the release dashboard in a real terminal (tmux 120x40) and prints, for each:
# resident memory (VmRSS while attacked, VmHWM at exit), key-to-visible latency (`?` to the help overlay), and the
# counts the dashboard reports at exit against what was sent.
#   1. 4,000 connections each holding 64,994 bytes of an unfinished line
#   2. 30,000 one-shot connections (one error line each), timed per 5,000
#   3. 200,000 distinct exception.type values
#   4. a storm of 10,000,000 errors/s asked for 20 s (the simulated app's S key)
# and issue 26's attacks on the OTLP/HTTP receiver (--listen otlp:PORT), with the time from `q` to the exit:
#   5. 300 connections trickling bodies (reopened as they are closed) while a good client sends 60 requests
#   6. one request naming 35,000 resources
#   7. 64 connections pipelining requests for 30 s without ever reading an answer
#   8. 256 connections each sending a 4 MiB body at once
# and issue 26's attacks on the NDJSON listener and the screen:
#   9. 300 connections trickling unfinished lines (reopened as they are closed) while a good producer sends 100
#      lines on 20 connections (how long until the dashboard counted them)
#  10. the query /(a+)+$/ over 20 lines of 30,000 a's and a b (keys while it runs)
#  11. 200 MiB of random bytes through a pipe (how long until it is read to its end)
#  12. a tailed file replaced by a link to /dev/zero (CPU used in the next 5 s)
# and issue 34's attacks on the OTLP/gRPC receiver (--listen otlp-grpc:PORT), by Benchmarks/scripts/hostile_grpc.py
# (`grpc` runs only these):
#  13. 256 connections x 100 Export calls that never send their message, held
#  14. 3,000 connections that never send the HTTP/2 preface, held
#  15. 64 connections x 10 concurrent Export calls of 3.9 MB each
# and issue 34's attacks on files given as FILE (`files` runs only these, without the OTLP four):
#  16. a .gz bomb: 6.5 MB inflating to 1.9 GB of NDJSON error lines (memory while read, CPU, time from `q` to exit)
#  17. a .gz of 10 GiB of zeros (CPU over 10 s, time from `q` to exit)
#  18. 10,000 files on the command line at `ulimit -n 1024` (all counted, no crash)
#  19. a directory, /dev/zero and /dev/urandom given as FILE beside a good file (refused alone, the good one read)
# and issue 34's attacks on the Sentry receiver (--listen sentry:PORT), with peak memory (VmHWM) after each:
#  20. one envelope of an error with 100,000 frames (19 MB)
#  21. three such envelopes at once
#  22. 5 s of envelopes with a wrong sentry_key on one keep-alive connection (--sentry-key set)
# and issue 34's, on what the dashboard keeps and the CLI prints (`cli` runs only these):
#  23. events whose time cannot be read (5 NDJSON lines on a connection, 5 JSON log lines in a tailed file): how
#      many are counted, and how many the store marks
#  24. `errorwatch issues list` and `show` on a terminal (a pty without output translation) for an issue whose
#      every field holds OSC 52, OSC 8, DCS, CSI 6n, clear screen, BEL, a raw U+009B, NUL, CR and BS: control
#      characters written (C0 but newline, DEL, C1)
#  25. `--store-max-size 1M` while 5,000 (STORE_TYPES) distinct exception.type values arrive: the file and its WAL, at
#      their largest (sampled every 50 ms) and at exit
# Usage: Benchmarks/scripts/hostile-inputs.sh [all|otlp|ndjson|grpc|files|sentry|cli]  (figures go to
# docs/benchmarks-hostile.md by hand). BUILD=debug measures the debug build instead of the release one,
# BIN=path/to/errorwatch a given binary (say so beside their figures).
set -euo pipefail
# The dashboard keeps issues in a store by default: a scratch one here, never the user's state folder.
export XDG_STATE_HOME="${XDG_STATE_HOME_FOR_BENCH:-$(mktemp -d /tmp/errorwatch-bench-state-XXXXXX)}"
cd "$(dirname "$0")/../.."
if [[ -z "${BIN:-}" ]]; then
    swift build -c "${BUILD:-release}" --product errorwatch >/dev/null
    BIN="$(swift build -c "${BUILD:-release}" --show-bin-path)/errorwatch"
fi
PRODUCER="python3 Benchmarks/scripts/hostile_producer.py"
GRPC="python3 Benchmarks/scripts/hostile_grpc.py"
SOCK="errorwatch-hostile-$$"
T=(tmux -L "$SOCK")
trap '"${T[@]}" kill-server >/dev/null 2>&1 || true' EXIT
ulimit -n 16384 || true
screen() { "${T[@]}" capture-pane -p -t hostile; }
wait_for() { local deadline=$((SECONDS + ${2:-30})); until screen | grep -Eq -- "$1"; do ((SECONDS < deadline)) || return 1; sleep 0.005; done; }
ms() { date +%s%3N; }
pid() { pgrep -n -f "^$BIN --stats"; }
rss() { awk '/VmRSS/ {print int($2/1024) " MB"}' "/proc/$(pid)/status"; }
hwm() { awk '/VmHWM/ {print int($2/1024) " MB"}' "/proc/$(pid)/status"; }
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

run() {
    "${T[@]}" kill-server >/dev/null 2>&1 || true
    sleep 0.3  # a new server at once may race the old one's exit ("server exited unexpectedly")
    "${T[@]}" -f /dev/null new-session -d -s hostile -x 120 -y 40 \
        "ulimit -n 16384; env LANG=C.UTF-8 TERM=xterm-256color $BIN --stats $* ; sleep 600"
    "${T[@]}" set-option -t hostile status off >/dev/null
    wait_for "Alerts"
}
keys() {
    local worst=0
    for _ in 1 2 3; do
        local start end
        start=$(ms); "${T[@]}" send-keys -t hostile '?'; wait_for "Help . keys" 10; end=$(ms)
        (((end - start) > worst)) && worst=$((end - start))
        "${T[@]}" send-keys -t hostile Escape; sleep 0.3
    done
    echo "   worst key-to-visible: ${worst} ms (tmux send + capture included)"
}
finish() {
    "${T[@]}" send-keys -t hostile q
    wait_for "peak memory" 30
    screen | sed -n '/errorwatch stats/,/peak memory/p' | grep -E "errors added|errors counted|peak memory" | sed 's/^/   /'
}

quit() {
    local start
    start=$(ms)
    finish
    echo "   q to exit: $(( $(ms) - start )) ms (tmux send + capture included)"
}

MODE="${1:-all}"
cpu_ms() { awk '{print ($14 + $15) * 10}' "/proc/$(pid)/stat"; }

# The dashboard started by a script of its own (a long argument list, a descriptor limit of its own).
run_script() {
    "${T[@]}" kill-server >/dev/null 2>&1 || true
    sleep 0.3  # a new server at once may race the old one's exit ("server exited unexpectedly")
    "${T[@]}" -f /dev/null new-session -d -s hostile -x 120 -y 40 "bash $1 ; sleep 600"
    "${T[@]}" set-option -t hostile status off >/dev/null
    wait_for "Alerts"
}

if [[ "$MODE" == grpc ]]; then
P=$(port)
echo "== 13. 256 connections x 100 stalled Export calls (otlp-grpc:$P)"
run --listen "otlp-grpc:$P"
coproc STALL { $GRPC stall "$P" 256 100; }
read -r result <&"${STALL[0]}"; echo "   $result"
echo "   RSS while held: $(rss) (peak $(hwm))"
sleep 1.5  # the receiver's row is refreshed once a second
screen | grep -Eo "(evicted|refused|over)[^│]*" | head -1 | sed 's/^/   Sources: /' || true
keys
exec {STALL[1]}>&-
wait "$STALL_PID" || true
sleep 1
echo "   RSS after the clients left: $(rss)"
quit

P=$(port)
echo "== 14. 3,000 connections that never send the HTTP/2 preface (otlp-grpc:$P)"
run --listen "otlp-grpc:$P"
coproc SILENT { $GRPC silent "$P" 3000; }
read -r result <&"${SILENT[0]}"; echo "   $result"
echo "   RSS while held: $(rss) (peak $(hwm))"
sleep 1.5
screen | grep -Eo "(evicted|refused|over)[^│]*" | head -1 | sed 's/^/   Sources: /' || true
keys
quit
exec {SILENT[1]}>&-
wait "$SILENT_PID" || true

P=$(port)
echo "== 15. 64 connections x 10 concurrent Export calls of 3.9 MB (otlp-grpc:$P)"
run --listen "otlp-grpc:$P"
$GRPC big "$P" 64 10 3900000 | sed 's/^/   /'
echo "   RSS after: $(rss) (peak $(hwm))"
sleep 1.5
screen | grep -Eo "(evicted|refused|over)[^│]*" | head -1 | sed 's/^/   Sources: /' || true
keys
quit
exit 0
fi

if [[ "$MODE" == all || "$MODE" == files ]]; then
DIR=$(mktemp -d /tmp/errorwatch-hostile-files-XXXXXX)
echo "== 16. a .gz bomb: 6.5 MB inflating to 1.9 GB of NDJSON"
python3 - "$DIR/bomb.ndjson.gz" <<'PY'
import json, sys, zlib
# 100 distinct error lines, repeated: deflate finds each block again in its window, as in the issue's file.
block = b"".join((json.dumps({"v": 1, "kind": "error", "time": "2026-11-23T10:00:00Z", "service.name": "hostile",
                              "exception.type": "Hostile.Error", "exception.message": "attack", "sequence": n})
                  + "\n").encode() for n in range(100))
z = zlib.compressobj(9, zlib.DEFLATED, 31)
with open(sys.argv[1], "wb") as out:
    for _ in range(1_900_000_000 // len(block)):
        out.write(z.compress(block))
    out.write(z.flush())
PY
echo "   $(du -m "$DIR/bomb.ndjson.gz" | cut -f1) MB compressed, $(( $(gzip -l "$DIR/bomb.ndjson.gz" | awk 'NR==2 {print $2}') / 1000000 )) MB inflated (gzip -l, modulo 4 GiB)"
run "$DIR/bomb.ndjson.gz"
before=$(cpu_ms); sleep 10
echo "   after 10 s: RSS $(rss), peak $(hwm), CPU $(( $(cpu_ms) - before )) ms"
screen | grep -Eo "bomb.ndjson.gz[^│]*" | head -1 | sed 's/^/   Sources: /' || true
keys
quit

echo "== 17. a .gz of 10 GiB of zeros"
head -c 10G /dev/zero | gzip -1 > "$DIR/zeros.log.gz"
echo "   $(du -k "$DIR/zeros.log.gz" | cut -f1) KB compressed"
run "$DIR/zeros.log.gz"
before=$(cpu_ms); sleep 10
echo "   after 10 s: RSS $(rss), peak $(hwm), CPU $(( $(cpu_ms) - before )) ms"
keys
quit

echo "== 18. 10,000 files at ulimit -n 1024"
mkdir -p "$DIR/many"
python3 - "$DIR/many" <<'PY'
import json, sys
for n in range(10_000):
    with open(f"{sys.argv[1]}/f{n:05}.ndjson", "w") as out:
        out.write(json.dumps({"v": 1, "kind": "error", "time": "2026-11-23T10:00:00Z", "service.name": "hostile",
                              "exception.type": "Hostile.Error", "exception.message": "attack", "sequence": n})
                  + "\n")
PY
cat > "$DIR/many.sh" <<SH
ulimit -n 1024
cd "$DIR/many" && env LANG=C.UTF-8 TERM=xterm-256color $BIN --stats f*.ndjson
echo "exit status \$?"
SH
start=$(ms)
run_script "$DIR/many.sh"
wait_for "errors 10,000([^0-9]|$)" 300 && echo "   all 10,000 counted $(( $(ms) - start )) ms after the start"
echo "   RSS: $(rss), open descriptors: $(ls "/proc/$(pid)/fd" | wc -l)"
screen | grep -Eo "[0-9,]+ of [0-9,]+ live[^─]*" | head -1 | sed 's/^/   Sources: /' || true
keys
quit
screen | grep -E "exit status" | sed 's/^/   /' || true

echo "== 19. a directory, /dev/zero and /dev/urandom as FILE beside a good file"
head -c 0 /dev/null > "$DIR/good.ndjson"
for n in 1 2 3; do
    printf '{"v":1,"kind":"error","time":"2026-11-23T10:00:00Z","service.name":"good","exception.type":"Good.Error","exception.message":"read","sequence":%d}\n' "$n" >> "$DIR/good.ndjson"
done
cat > "$DIR/refused.sh" <<SH
env LANG=C.UTF-8 TERM=xterm-256color $BIN --stats "$DIR/many" /dev/zero /dev/urandom "$DIR/good.ndjson"
echo "exit status \$?"
SH
run_script "$DIR/refused.sh"
wait_for "errors 3([^0-9,]|$)" 30 && echo "   the good file's 3 errors counted"
screen | grep -Eo "(many|zero|urandom) +refused[^│]*" | sed 's/^/   Sources: /' || true
before=$(cpu_ms); sleep 5; echo "   CPU over 5 s: $(( $(cpu_ms) - before )) ms"
quit
screen | grep -E "exit status" | sed 's/^/   /' || true
rm -rf "$DIR"
fi

if [[ "$MODE" == all || "$MODE" == cli ]]; then
STORE="$XDG_STATE_HOME/errorwatch/store.sqlite"
# Sends stdin's lines to 127.0.0.1:$1 on one connection.
send_lines() { python3 -c 'import socket, sys; s = socket.create_connection(("127.0.0.1", int(sys.argv[1]))); s.sendall(sys.stdin.buffer.read()); s.close()' "$1"; }

P=$(port)
echo "== 23. events whose time cannot be read: 5 NDJSON lines (tcp:$P) and 5 JSON log lines (a tailed file)"
: > /tmp/errorwatch-hostile-times.log
run --listen "tcp:$P" --tail /tmp/errorwatch-hostile-times.log
for time in '"2026-13-01T00:00:00Z"' 1e308 -1 '"yesterday"' '"-1"'; do
    echo "{\"v\":1,\"kind\":\"error\",\"time\":$time,\"exception.type\":\"BadTimeWire\",\"exception.message\":\"m\"}"
done | send_lines "$P"
for time in '"2026-13-01T00:00:00Z"' 1e308 -1 '"yesterday"' '"-1"'; do
    echo "{\"level\":\"error\",\"time\":$time,\"msg\":\"BadTimeLog\"}"
done >> /tmp/errorwatch-hostile-times.log
wait_for "errors 10([^0-9,]|$)" 30 && echo "   the header reads errors 10"
finish
for type in BadTimeWire error; do
    id=$("$BIN" issues list --store "$STORE" --status all --json | python3 -c 'import json, sys; print(next((i["id"] for i in json.load(sys.stdin) if i["type"].lower().endswith(sys.argv[1].lower())), ""))' "$type")
    [[ -n "$id" ]] || { echo "   $type: no issue in the store"; continue; }
    "$BIN" issues show "$id" --store "$STORE" --json | python3 -c '
import json, sys
issue = json.load(sys.stdin)
mark = (issue.get("latest_occurrence") or {}).get("attributes", {}).get("errorwatch.unreadable_time")
count = issue["count"]
print(f"   {sys.argv[1]}: {count} of 5 counted in the store; the latest marked errorwatch.unreadable_time={mark!r}")' "$type"
done
rm -f /tmp/errorwatch-hostile-times.log

P=$(port)
echo "== 24. errorwatch issues on a terminal, every field hostile (tcp:$P)"
run --listen "tcp:$P"
python3 - "$P" <<'PY'
import json, socket, sys
h = "a\x1b]52;c;cHduZWQ=\x07b\x1b]8;;http://x\x1b\\c\x1bP1$r\x1b\\d\x1b[6n\x1b[2J\x07\u009b31m\x00\r\x08e"
event = {"v": 1, "kind": "error", "time": "2026-11-27T05:00:00Z", "exception.type": "Hostile" + h,
         "exception.message": h, "service.name": h, "service.version": h, "deployment.environment.name": h,
         "host.name": h, "source": h, "exception.stacktrace": h + "\n" + h, "body": h, "user.message": h,
         "attributes": {h: h}}
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall((json.dumps(event) + "\n").encode())
s.close()
PY
wait_for "errors 1([^0-9,]|$)" 30 || true
finish
id=$("$BIN" issues list --store "$STORE" --status all --json | python3 -c 'import json, sys; print(next(i["id"] for i in json.load(sys.stdin) if i["type"].startswith("Hostile")))')
for args in "list --status all" "show $id"; do
    python3 - "$BIN" issues $args --store "$STORE" <<'PY'
import os, pty, sys, tty
pid, fd = pty.fork()
if pid == 0:
    tty.setraw(0)  # no output translation: every byte the CLI writes arrives as written
    os.execv(sys.argv[1], sys.argv[1:])
out = b""
while True:
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
os.waitpid(pid, 0)
text = out.decode("utf-8", errors="surrogateescape")
bad = [c for c in text if (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) <= 0x9F or 0xDC80 <= ord(c) <= 0xDCFF]
shown = "\u241b]52;c;" in text
print(f"   issues {sys.argv[3]}: {len(out)} bytes on a tty, {len(bad)} control characters; OSC 52 shown as glyphs: {shown}")
PY
done

P=$(port)
TYPES=${STORE_TYPES:-5000}
echo "== 25. --store-max-size 1M, $TYPES distinct exception.type values (tcp:$P)"
SMALL=/tmp/errorwatch-hostile-small-$$.sqlite
rm -f "$SMALL" "$SMALL-wal" "$SMALL-shm"
run --listen "tcp:$P" --store "$SMALL" --store-max-size 1M
ondisk() { local total=0 f; for f in "$SMALL" "$SMALL-wal"; do total=$((total + $(stat -c %s "$f" 2>/dev/null || echo 0))); done; echo "$total"; }
largest=0
( $PRODUCER types "$P" "$TYPES" >/dev/null ) &
sender=$!
while kill -0 "$sender" 2>/dev/null; do size=$(ondisk); ((size > largest)) && largest=$size; sleep 0.05; done
for _ in $(seq 1 40); do size=$(ondisk); ((size > largest)) && largest=$size; sleep 0.05; done
start=$(ms)
"${T[@]}" send-keys -t hostile q
until screen | grep -q "peak memory"; do size=$(ondisk); ((size > largest)) && largest=$size; sleep 0.05; done
echo "   q to exit (the last write and its pruning): $(( $(ms) - start )) ms"
echo "   file + WAL: at most $largest bytes while written, $(ondisk) at exit (cap 1,048,576)"
rm -f "$SMALL" "$SMALL-wal" "$SMALL-shm"
fi

if [[ "$MODE" != otlp && "$MODE" != ndjson && "$MODE" != files && "$MODE" != sentry && "$MODE" != cli ]]; then
P=$(port)
echo "== 1. 4,000 connections x 64,994 bytes of an unfinished line (tcp:$P)"
run --listen "tcp:$P"
coproc HALF { $PRODUCER halflines "$P" 4000 64994; }
read -r result <&"${HALF[0]}"; echo "   $result"
echo "   RSS while held: $(rss)"
screen | grep -Eo "(full|evicted) [0-9a-z ]+[^│]*" | head -1 | sed 's/^/   Sources: /' || true
keys
exec {HALF[1]}>&-
wait "$HALF_PID" || true
finish

P=$(port)
echo "== 3. 200,000 distinct exception.type values (tcp:$P)"
run --listen "tcp:$P"
start=$(ms)
$PRODUCER types "$P" 200000 | sed 's/^/   /'
wait_for "errors 200,000|errors 200000" 300 && echo "   total shown exact after $(( $(ms) - start )) ms"
echo "   RSS after: $(rss)"
keys
finish

echo "== 4. storm: 10,000,000 errors/s asked for 20 s"
run --storm-rate 10000000 --storm-duration 20s
"${T[@]}" send-keys -t hostile S
sleep 5
echo "   RSS during storm: $(rss)"
keys
sleep 12
echo "   RSS near the end: $(rss)"
finish
fi

if [[ "$MODE" != files && "$MODE" != sentry && "$MODE" != cli ]]; then
P=$(port)
echo "== 5. 300 trickling connections + a good client (otlp:$P)"
run --listen "otlp:$P"
$PRODUCER otlptrickle "$P" 300 60 | sed 's/^/   /'
echo "   RSS after: $(rss)"
sleep 1.5  # the receiver's row is refreshed once a second
screen | grep -Eo "evicted [0-9]+[^│]*" | head -1 | sed 's/^/   Sources: /' || true
keys
quit

P=$(port)
echo "== 6. one request naming 35,000 resources (otlp:$P)"
run --listen "otlp:$P"
$PRODUCER otlpwide "$P" 35000 | sed 's/^/   /'
echo "   RSS after: $(rss)"
keys
quit

P=$(port)
echo "== 7. 64 connections pipelining for 30 s without reading answers (otlp:$P)"
run --listen "otlp:$P"
coproc PIPE { $PRODUCER otlppipeline "$P" 64 30; }
read -r result <&"${PIPE[0]}"; echo "   $result"
echo "   RSS while held: $(rss)"
keys
exec {PIPE[1]}>&-
wait "$PIPE_PID" || true
quit

P=$(port)
echo "== 8. 256 connections x a 4 MiB body (otlp:$P)"
run --listen "otlp:$P"
$PRODUCER otlpbig "$P" 256 4194000 | sed 's/^/   /'
echo "   RSS after: $(rss)"
keys
quit
fi


if [[ "$MODE" == all || "$MODE" == ndjson ]]; then
P=$(port)
echo "== 2. 30,000 one-shot connections (tcp:$P)"
run --listen "tcp:$P"
$PRODUCER oneshot "$P" 30000 | sed 's/^/   /'
echo "   RSS after: $(rss)"
keys
finish

P=$(port)
echo "== 9. 300 connections trickling unfinished lines + a good producer's 20 connections x 5 lines (tcp:$P)"
run --listen "tcp:$P"
coproc TRICKLE { $PRODUCER trickle "$P" 300 20; }
read -r result <&"${TRICKLE[0]}"; start=$(ms); echo "   $result"
wait_for "errors 100([^0-9,]|$)" 30 && echo "   all 100 good lines counted $(( $(ms) - start )) ms after they were written"
echo "   RSS while held: $(rss)"
screen | grep -Eo "(evicted|full) [0-9a-z ]+[^│]*" | head -1 | sed 's/^/   Sources: /' || true
keys
exec {TRICKLE[1]}>&-
wait "$TRICKLE_PID" || true
quit

# The dashboard reading a file through a pipe (`cat FILE | errorwatch -`).
run_piped() {
    "${T[@]}" kill-server >/dev/null 2>&1 || true
    sleep 0.3  # a new server at once may race the old one's exit ("server exited unexpectedly")
    "${T[@]}" -f /dev/null new-session -d -s hostile -x 120 -y 40 \
        "env LANG=C.UTF-8 TERM=xterm-256color sh -c 'cat $1 | $BIN --stats -' ; sleep 600"
    "${T[@]}" set-option -t hostile status off >/dev/null
}

echo "== 10. the query /(a+)+\$/ over 20 lines of 30,000 a's and a b (a pipe)"
python3 -c 'import sys; [print("a" * 30000 + "b") for _ in range(20)]' > /tmp/errorwatch-hostile-aaa.log
run_piped /tmp/errorwatch-hostile-aaa.log
wait_for "Alerts"
"${T[@]}" send-keys -t hostile / '(a+)+$' Enter
keys
quit

echo "== 11. 200 MiB of random bytes through a pipe"
head -c 200M /dev/urandom > /tmp/errorwatch-hostile-garbage.bin
run_piped /tmp/errorwatch-hostile-garbage.bin
start=$(ms)
wait_for "ended" 120 && echo "   read to its end in $(( $(ms) - start )) ms"
screen | grep -Eo "stdin[^│]*" | head -1 | sed 's/^/   Sources: /' || true
keys
quit

echo "== 12. a tailed path replaced by a link to /dev/zero: CPU over 5 s"
echo "INFO started" > /tmp/errorwatch-hostile-tail.log
run --tail /tmp/errorwatch-hostile-tail.log
rm /tmp/errorwatch-hostile-tail.log; ln -s /dev/zero /tmp/errorwatch-hostile-tail.log
before=$(awk '{print $14 + $15}' "/proc/$(pid)/stat"); sleep 5; after=$(awk '{print $14 + $15}' "/proc/$(pid)/stat")
echo "   CPU: $(( (after - before) * 10 )) ms in 5 s"
screen | grep -Eo "it is a device[^│]*" | head -1 | sed 's/^/   Sources: /' || true
quit
rm -f /tmp/errorwatch-hostile-tail.log /tmp/errorwatch-hostile-aaa.log /tmp/errorwatch-hostile-garbage.bin
fi

if [[ "$MODE" == all || "$MODE" == sentry ]]; then
P=$(port)
echo "== 20. one envelope of an error with 100,000 frames (sentry:$P)"
run --listen "sentry:$P"
echo "   RSS before: $(rss)"
$PRODUCER sentryframes "$P" 100000 1 | sed 's/^/   /'
echo "   peak (VmHWM): $(hwm); RSS after: $(rss)"
keys
quit

P=$(port)
echo "== 21. three envelopes of 100,000 frames at once (sentry:$P)"
run --listen "sentry:$P"
$PRODUCER sentryframes "$P" 100000 3 | sed 's/^/   /'
echo "   peak (VmHWM): $(hwm); RSS after: $(rss)"
keys
quit

P=$(port)
echo "== 22. 5 s of wrong sentry_keys on one connection (sentry:$P, --sentry-key right)"
run --listen "sentry:$P" --sentry-key right
$PRODUCER sentrywrongkey "$P" 5 | sed 's/^/   /'
sleep 1.5  # the receiver's row is refreshed once a second
screen | grep -Eo "client 127[^│]*" | head -1 | sed 's/^/   Sources: /' || true
echo "   RSS after: $(rss)"
quit
fi
