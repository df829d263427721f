#!/usr/bin/env python3
"""Hostile OTLP/gRPC clients for Benchmarks/scripts/hostile-inputs.sh (issue 34), against a dashboard listening on
otlp-grpc:PORT. HTTP/2 is written by hand (no HTTP/2 or gRPC package needed): header blocks are HPACK literals
without indexing, the server's answers are read as frames only (trailers and resets per stream, not decoded). Each
mode prints what it did as `key=value` lines.

  stall PORT N STREAMS       N connections, each sends its preface and opens STREAMS Export calls that never send
                             their message, then holds them until stdin closes (prints how many calls the receiver
                             answered or reset within 3 s)
  silent PORT N              N connections that never send the HTTP/2 preface, held until stdin closes (prints how
                             many the receiver had closed by then)
  big PORT N STREAMS BYTES   N connections x STREAMS concurrent Export calls, each sending a BYTES-long message at
                             once (within HTTP/2 flow control); prints how many calls were answered (trailers) and
                             how long that took; the statuses are the dashboard's to count
"""
import select
import socket
import struct
import sys
import time

from hostile_producer import field, key_value, string_value, varint

EXPORT_LOGS = "/opentelemetry.proto.collector.logs.v1.LogsService/Export"
DATA, HEADERS, RST_STREAM, SETTINGS, PING, GOAWAY, WINDOW_UPDATE = 0, 1, 3, 4, 6, 7, 8
END_STREAM, END_HEADERS, ACK = 0x1, 0x4, 0x1
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"


def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def preface():
    return PREFACE + frame(SETTINGS, 0, 0) + frame(SETTINGS, ACK, 0)


def open_call(stream, port):
    block = b""
    for name, value in [(":method", "POST"), (":scheme", "http"), (":path", EXPORT_LOGS),
                        (":authority", f"127.0.0.1:{port}"), ("content-type", "application/grpc"), ("te", "trailers")]:
        block += b"\x00" + bytes([len(name)]) + name.encode() + bytes([len(value)]) + value.encode()
    return frame(HEADERS, END_HEADERS, stream, block)


def error_logs(size):
    """An ExportLogsServiceRequest of about `size` bytes: one ERROR record (so accepted calls are counted errors)."""
    resource = field(1, key_value("service.name", "grpc-big")) + field(1, key_value("service.instance.id", "g-1"))
    body = "x" * max(size - 120, 1)
    record = varint(2 << 3) + varint(17) + field(5, string_value(body))
    return field(1, field(1, resource) + field(2, field(2, record)))


class Frames:
    """Splits what a connection received into frames; answers PINGs."""

    def __init__(self, sock):
        self.sock, self.pending = sock, b""

    def read(self):
        try:
            chunk = self.sock.recv(1 << 16)
        except BlockingIOError:
            return []
        except OSError:
            chunk = b""
        if not chunk:
            return None
        self.pending += chunk
        frames = []
        while len(self.pending) >= 9:
            length = int.from_bytes(self.pending[:3], "big")
            if len(self.pending) < 9 + length:
                break
            kind, flags = self.pending[3], self.pending[4]
            stream = int.from_bytes(self.pending[5:9], "big") & 0x7FFFFFFF
            payload = self.pending[9:9 + length]
            self.pending = self.pending[9 + length:]
            if kind == PING and not flags & ACK:
                try:
                    self.sock.send(frame(PING, ACK, 0, payload))
                except OSError:
                    pass
            frames.append((kind, flags, stream, payload))
        return frames


def hold_until_stdin_closes(socks):
    sys.stdout.flush()
    sys.stdin.read()
    for s in socks:
        s.close()


def stall(port, count, streams):
    socks, readers = [], {}
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(preface() + b"".join(open_call(2 * i + 1, port) for i in range(streams)))
        s.setblocking(False)
        socks.append(s)
        readers[s] = Frames(s)
    ended, closed = 0, 0
    deadline = time.monotonic() + 3
    while readers and time.monotonic() < deadline:
        readable, _, _ = select.select(list(readers), [], [], 0.2)
        for s in readable:
            frames = readers[s].read()
            if frames is None:
                closed += 1
                del readers[s]
                continue
            ended += sum(1 for k, f, _, _ in frames if (k == HEADERS and f & END_STREAM) or k == RST_STREAM)
    print(f"connections={count} calls_opened={count * streams} answered_or_reset_within_3s={ended} "
          f"connections_closed={closed}", flush=True)
    hold_until_stdin_closes(socks)


def silent(port, count):
    socks = []
    refused = 0
    for _ in range(count):
        s = socket.socket()
        s.setblocking(False)
        try:
            s.connect(("127.0.0.1", port))
        except BlockingIOError:
            pass
        except OSError:
            refused += 1
            s.close()
            continue
        socks.append(s)
    # Let the receiver admit (and evict) them, then see which are closed.
    time.sleep(2)
    closed = 0
    for s in socks:
        try:
            if s.recv(1, socket.MSG_PEEK) == b"":
                closed += 1
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
    print(f"connections={count} refused_at_connect={refused} closed_by_receiver={closed} "
          f"held={len(socks) - closed}", flush=True)
    hold_until_stdin_closes(socks)


def big(port, count, streams, size):
    message = error_logs(size)
    body = memoryview(b"\x00" + struct.pack(">I", len(message)) + message)
    conns = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(preface() + b"".join(open_call(2 * i + 1, port) for i in range(streams)))
        s.setblocking(False)
        # What each stream has sent; HTTP/2's windows: the connection's starts at 65,535, a stream's at the
        # server's SETTINGS_INITIAL_WINDOW_SIZE (learned below; 65,535 until then).
        conns.append({"sock": s, "reader": Frames(s), "sent": {2 * i + 1: 0 for i in range(streams)},
                      "window": 65535, "initial": 65535, "credit": {}, "ended": set(), "out": bytearray()})
    started = time.monotonic()
    answered = reset = 0
    deadline = started + 120
    live = list(conns)
    while live and time.monotonic() < deadline:
        for c in live:
            # Queue what the windows allow, 16 KiB per frame.
            for stream, sent in c["sent"].items():
                if stream in c["ended"] or sent >= len(body) or len(c["out"]) > (1 << 18):
                    continue
                credit = c["initial"] + c["credit"].get(stream, 0) - sent
                n = min(16384, len(body) - sent, credit, c["window"])
                if n <= 0:
                    continue
                flags = END_STREAM if sent + n == len(body) else 0
                c["out"] += frame(DATA, flags, stream, body[sent:sent + n])
                c["sent"][stream] = sent + n
                c["window"] -= n
        writers = [c["sock"] for c in live if c["out"]]
        readable, writable, _ = select.select([c["sock"] for c in live], writers, [], 0.05)
        for c in live:
            if c["sock"] in writable:
                try:
                    del c["out"][:c["sock"].send(c["out"])]
                except BlockingIOError:
                    pass
                except OSError:
                    c["out"] = bytearray()
            if c["sock"] not in readable:
                continue
            frames = c["reader"].read()
            if frames is None:
                c["closed"] = True
                continue
            for kind, flags, stream, payload in frames:
                if kind == SETTINGS and not flags & ACK:
                    for i in range(0, len(payload), 6):
                        ident, value = struct.unpack(">HI", payload[i:i + 6])
                        if ident == 4:
                            c["initial"] = value
                elif kind == WINDOW_UPDATE:
                    increment = struct.unpack(">I", payload)[0] & 0x7FFFFFFF
                    if stream == 0:
                        c["window"] += increment
                    else:
                        c["credit"][stream] = c["credit"].get(stream, 0) + increment
                elif kind == HEADERS and flags & END_STREAM and stream not in c["ended"]:
                    c["ended"].add(stream)
                    answered += 1
                elif kind == RST_STREAM and stream not in c["ended"]:
                    c["ended"].add(stream)
                    reset += 1
        live = [c for c in live if not c.get("closed") and len(c["ended"]) < streams]
    took = time.monotonic() - started
    print(f"calls={count * streams} message_bytes={len(message)} answered={answered} reset_first={reset} "
          f"unanswered={count * streams - answered - reset} seconds={took:.1f}", flush=True)
    for c in conns:
        c["sock"].close()


if __name__ == "__main__":
    mode, port = sys.argv[1], int(sys.argv[2])
    if mode == "stall":
        stall(port, int(sys.argv[3]), int(sys.argv[4]))
    elif mode == "silent":
        silent(port, int(sys.argv[3]))
    elif mode == "big":
        big(port, int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
    else:
        sys.exit(f"unknown mode {mode}")
