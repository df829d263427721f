#!/usr/bin/env python3
"""Hostile producers for Benchmarks/scripts/hostile-inputs.sh: each mode attacks a listening dashboard and prints
what it did as `key=value` lines.

  halflines PORT N BYTES   open N connections, each sends BYTES of a line without its newline, then holds them
                           until stdin closes (prints how many the listener accepted and how many it closed)
  oneshot PORT N           N connections in a row, each sends one error line and closes (prints seconds per 5,000)
  types PORT N             N error lines with N distinct exception.type values over 4 connections

  trickle PORT N GOOD      N connections each trickle an unfinished line (a byte a second) and reopen as they are
                           closed; then a good producer opens GOOD connections and sends 5 lines on each (prints
                           when its lines were written; the dashboard's count says when they were read)

OTLP/HTTP attacks (issue 26), on a dashboard listening on otlp:PORT; bodies are protobuf, encoded here by hand:
  otlptrickle PORT N GOOD  N connections each trickle a body (a byte a second) and reopen as they are closed, while
                           a good client sends GOOD one-record requests on fresh connections (prints how many were
                           answered 200 within a second and the worst answer time)
  otlpwide PORT N          one request naming N resources, one record each (prints its status and answer time)
  otlppipeline PORT N SECS N connections pipeline requests without ever reading an answer, for SECS seconds
  otlpbig PORT N BYTES     N connections each send a BYTES body at once (prints the answers' statuses)

Sentry attacks (issue 34), on a dashboard listening on sentry:PORT:
  sentryframes PORT N K    K connections at once each send one envelope whose error has N frames (about 170 bytes
                           each, with context lines and variables; prints the body size, statuses and answer time)
  sentrywrongkey PORT SECS one keep-alive connection sends envelopes with a wrong sentry_key for SECS seconds as
                           fast as it is answered (prints how many and the statuses, with the first Retry-After)
"""
import json
import select
import socket
import sys
import threading
import time


def line(sequence, error_type="Hostile.Error"):
    return (json.dumps({"v": 1, "kind": "error", "time": "2026-11-23T10:00:00Z", "service.name": "hostile",
                        "exception.type": error_type, "exception.message": "attack", "sequence": sequence})
            + "\n").encode()


def halflines(port, count, size):
    held = []
    refused = 0
    payload = b'{"v":1,"kind":"error","exception.message":"' + b"x" * (size - 44)
    for _ in range(count):
        try:
            s = socket.create_connection(("127.0.0.1", port))
            s.setblocking(False)
            try:
                s.send(payload)
            except (BlockingIOError, BrokenPipeError, ConnectionResetError):
                pass
            held.append(s)
        except OSError:
            refused += 1
    time.sleep(1)
    closed = 0
    for s in held:
        try:
            if s.recv(1, socket.MSG_DONTWAIT) == b"":
                closed += 1
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
    print(f"opened={len(held)} refused_at_connect={refused} closed_by_listener={closed}", flush=True)
    sys.stdin.read()
    for s in held:
        s.close()


def oneshot(port, count):
    start = time.monotonic()
    batch = time.monotonic()
    for n in range(1, count + 1):
        while True:
            try:
                s = socket.create_connection(("127.0.0.1", port))
                break
            except OSError:
                time.sleep(0.001)
        s.sendall(line(n))
        s.close()
        if n % 5000 == 0:
            now = time.monotonic()
            print(f"batch_{n}_seconds={now - batch:.2f}", flush=True)
            batch = now
    print(f"sent={count} seconds={time.monotonic() - start:.2f}", flush=True)


def trickle(port, count, good):
    stop = threading.Event()

    def trickler():
        while not stop.is_set():
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=5)
                s.sendall(b'{"v":1,"kind":"error","exception.message":"')
                while not stop.is_set():
                    s.sendall(b"x")
                    stop.wait(1.0)
            except OSError:
                stop.wait(0.05)

    threads = [threading.Thread(target=trickler, daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    time.sleep(3)  # a load pattern: every slot held and trickling before the good producer comes
    start = time.monotonic()
    sequence = 0
    for _ in range(good):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        for _ in range(5):
            sequence += 1
            s.sendall(line(sequence, "Good.Error"))
        s.close()
    print(f"good_lines={sequence} written_in_seconds={time.monotonic() - start:.2f}", flush=True)
    sys.stdin.read()  # hold the tricklers until the script closes stdin
    stop.set()


def types(port, count):
    sockets = [socket.create_connection(("127.0.0.1", port)) for _ in range(4)]
    start = time.monotonic()
    for n in range(count):
        sockets[n % 4].sendall(line(n, f"Hostile.Type{n}"))
    for s in sockets:
        s.close()
    print(f"sent={count} seconds={time.monotonic() - start:.2f}", flush=True)


def varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def field(number, payload):
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def string_value(text):
    return field(1, text.encode())


def key_value(key, text):
    return field(1, key.encode()) + field(2, string_value(text))


def resource_logs(service, instance, body="x"):
    resource = field(1, key_value("service.name", service)) + field(1, key_value("service.instance.id", instance))
    record = varint(2 << 3) + varint(9) + field(5, string_value(body))
    return field(1, field(1, resource) + field(2, field(2, record)))


def otlp_request(body, keep_alive=True):
    head = ("POST /v1/logs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-protobuf\r\n"
            f"Content-Length: {len(body)}\r\n" + ("" if keep_alive else "Connection: close\r\n") + "\r\n")
    return head.encode() + body


def read_status(sock):
    """The status of one answer on `sock` (0 when the connection closed first)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return 0
        data += chunk
    return int(data.split(b" ", 2)[1])


def otlptrickle(port, count, good):
    head = ("POST /v1/logs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-protobuf\r\n"
            "Content-Length: 100000\r\n\r\n").encode()
    stop = threading.Event()
    reopened = [0]

    def tricklers():
        held = []
        for _ in range(count):
            try:
                s = socket.create_connection(("127.0.0.1", port))
                s.sendall(head)
                held.append(s)
            except OSError:
                pass
        while not stop.is_set():
            time.sleep(1)
            for i, s in enumerate(held):
                try:
                    s.send(b"x", socket.MSG_DONTWAIT)
                    if s.recv(1, socket.MSG_DONTWAIT | socket.MSG_PEEK) == b"":
                        raise ConnectionResetError
                except BlockingIOError:
                    pass
                except OSError:
                    s.close()
                    reopened[0] += 1
                    try:
                        s = socket.create_connection(("127.0.0.1", port))
                        s.sendall(head)
                        held[i] = s
                    except OSError:
                        pass
        for s in held:
            s.close()

    thread = threading.Thread(target=tricklers)
    thread.start()
    time.sleep(3)  # the tricklers hold every slot first
    request = otlp_request(resource_logs("good", "g-1", "a prompt request"), keep_alive=False)
    answered, worst = 0, 0.0
    for _ in range(good):
        start = time.monotonic()
        status = 0
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(request)
            status = read_status(s)
            s.close()
        except OSError:
            pass
        elapsed = time.monotonic() - start
        worst = max(worst, elapsed)
        if status == 200 and elapsed < 1:
            answered += 1
        time.sleep(0.25)
    stop.set()
    thread.join()
    print(f"good_answered_within_1s={answered}/{good} good_worst_ms={worst * 1000:.0f} "
          f"tricklers_reopened={reopened[0]}", flush=True)


def otlpwide(port, count):
    body = b"".join(resource_logs("wide", f"w-{n}") for n in range(count))
    s = socket.create_connection(("127.0.0.1", port), timeout=120)
    start = time.monotonic()
    s.sendall(otlp_request(body))
    status = read_status(s)
    print(f"resources={count} body_bytes={len(body)} status={status} "
          f"answered_ms={(time.monotonic() - start) * 1000:.0f}", flush=True)
    s.close()


def otlppipeline(port, count, seconds):
    request = otlp_request(resource_logs("pipe", "p-1", "never read"))
    socks = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port))
        s.setblocking(False)
        socks.append(s)
    sent = 0
    closed = 0
    deadline = time.monotonic() + seconds
    while socks and time.monotonic() < deadline:
        _, writable, _ = select.select([], socks, [], 0.2)
        for s in writable:
            try:
                sent += s.send(request * 16) // len(request)
            except BlockingIOError:
                pass
            except OSError:
                socks.remove(s)
                closed += 1
    print(f"connections={count} requests_sent={sent} closed_by_receiver={closed}", flush=True)
    sys.stdout.flush()
    sys.stdin.read()
    for s in socks:
        s.close()


def otlpbig(port, count, size):
    body = resource_logs("big", "b-1", "x" * (size - 80))
    request = otlp_request(body, keep_alive=False)
    socks = [socket.create_connection(("127.0.0.1", port)) for _ in range(count)]
    pending = {s: 0 for s in socks}
    for s in socks:
        s.setblocking(False)
    statuses = {}
    answers = {s: b"" for s in socks}
    deadline = time.monotonic() + 120
    while answers and time.monotonic() < deadline:
        writers = [s for s, n in pending.items() if n < len(request)]
        readable, writable, _ = select.select(list(answers), writers, [], 0.2)
        for s in writable:
            try:
                pending[s] += s.send(request[pending[s]:pending[s] + (1 << 20)])
            except BlockingIOError:
                pass
            except OSError:
                pending[s] = len(request)
        for s in readable:
            try:
                chunk = s.recv(65536)
            except OSError:
                chunk = b""
            answers[s] += chunk
            if b"\r\n\r\n" in answers[s] or not chunk:
                status = int(answers[s].split(b" ", 2)[1]) if b" " in answers[s] else 0
                statuses[status] = statuses.get(status, 0) + 1
                del answers[s]
                pending[s] = len(request)
                s.close()
    print("statuses=" + ",".join(f"{k}:{v}" for k, v in sorted(statuses.items())) + f" unanswered={len(answers)}",
          flush=True)


def sentry_envelope(frames):
    """An envelope of one error whose stack has `frames` frames, as sentry-python writes a deep recursion."""
    frame = ('{"function":"recurse","module":"shop.deep","filename":"shop/deep.py","abs_path":"/srv/shop/deep.py",'
             '"lineno":%d,"in_app":true,"context_line":"    return recurse(n - 1)","vars":{"n":"%d"}}')
    stack = ",".join(frame % (i % 1000, i) for i in range(frames))
    event = ('{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc","level":"error","platform":"python",'
             '"release":"hostile@1","exception":{"values":[{"type":"RecursionError","value":"maximum recursion depth",'
             '"stacktrace":{"frames":[' + stack + ']}}]}}').encode()
    header = b'{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc","sdk":{"name":"sentry.python","version":"2.75.0"}}\n'
    return header + b'{"type":"event","length":%d}\n' % len(event) + event + b"\n"


def sentry_request(body, key="hostile", keep_alive=False):
    head = ("POST /api/1/envelope/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-sentry-envelope\r\n"
            f"X-Sentry-Auth: Sentry sentry_key={key}, sentry_version=7, sentry_client=sentry.python/2.75.0\r\n"
            f"Content-Length: {len(body)}\r\n" + ("" if keep_alive else "Connection: close\r\n") + "\r\n")
    return head.encode() + body


def sentryframes(port, frames, count):
    body = sentry_envelope(frames)
    request = sentry_request(body)
    statuses = {}
    lock = threading.Lock()

    def send():
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall(request)
            status = read_status(s)
        with lock:
            statuses[status] = statuses.get(status, 0) + 1

    start = time.monotonic()
    threads = [threading.Thread(target=send) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(f"body={len(body)} bytes statuses=" + ",".join(f"{k}:{v}" for k, v in sorted(statuses.items()))
          + f" answered_in={time.monotonic() - start:.2f}s", flush=True)


def sentrywrongkey(port, seconds):
    request = sentry_request(b'{}\n{"type":"event"}\n{"message":"wrong key"}\n', key="wrong", keep_alive=True)
    statuses = {}
    retry_after = None
    sent = 0
    sock = socket.create_connection(("127.0.0.1", port))
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            sock.sendall(request)
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = sock.recv(65536)
                if not chunk:
                    raise ConnectionError
                data += chunk
        except OSError:
            sock.close()
            sock = socket.create_connection(("127.0.0.1", port))
            continue
        head, _, rest = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        fields = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        length = int(fields.get("content-length", "0"))
        while len(rest) < length:
            rest += sock.recv(65536)
        if status == 429 and retry_after is None:
            retry_after = fields.get("retry-after")
        statuses[status] = statuses.get(status, 0) + 1
        sent += 1
        if fields.get("connection") == "close":
            sock.close()
            sock = socket.create_connection(("127.0.0.1", port))
    sock.close()
    print(f"requests={sent} in {seconds}s statuses=" + ",".join(f"{k}:{v}" for k, v in sorted(statuses.items()))
          + f" first_retry_after={retry_after}", flush=True)


if __name__ == "__main__":
    mode, port = sys.argv[1], int(sys.argv[2])
    if mode == "halflines":
        halflines(port, int(sys.argv[3]), int(sys.argv[4]))
    elif mode == "oneshot":
        oneshot(port, int(sys.argv[3]))
    elif mode == "types":
        types(port, int(sys.argv[3]))
    elif mode == "trickle":
        trickle(port, int(sys.argv[3]), int(sys.argv[4]))
    elif mode == "otlptrickle":
        otlptrickle(port, int(sys.argv[3]), int(sys.argv[4]))
    elif mode == "otlpwide":
        otlpwide(port, int(sys.argv[3]))
    elif mode == "otlppipeline":
        otlppipeline(port, int(sys.argv[3]), float(sys.argv[4]))
    elif mode == "otlpbig":
        otlpbig(port, int(sys.argv[3]), int(sys.argv[4]))
    elif mode == "sentryframes":
        sentryframes(port, int(sys.argv[3]), int(sys.argv[4]))
    elif mode == "sentrywrongkey":
        sentrywrongkey(port, float(sys.argv[3]))
