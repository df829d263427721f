#!/usr/bin/env python3
"""Hostile producers for Benchmarks/scripts/hostile-inputs.sh: each mode attacks a listening dashboard and prints
what it did as `key=value` lines.

  halflines PORT N BYTES   open N connections, each sends BYTES of a line without its newline, then holds them
                           until stdin closes (prints how many the listener accepted and how many it closed)
  oneshot PORT N           N connections in a row, each sends one error line and closes (prints seconds per 5,000)
  types PORT N             N error lines with N distinct exception.type values over 4 connections
"""
import json
import socket
import sys
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


def types(port, count):
    sockets = [socket.create_connection(("127.0.0.1", port)) for _ in range(4)]
    start = time.monotonic()
    for n in range(count):
        sockets[n % 4].sendall(line(n, f"Hostile.Type{n}"))
    for s in sockets:
        s.close()
    print(f"sent={count} seconds={time.monotonic() - start:.2f}", flush=True)


if __name__ == "__main__":
    mode, port = sys.argv[1], int(sys.argv[2])
    if mode == "halflines":
        halflines(port, int(sys.argv[3]), int(sys.argv[4]))
    elif mode == "oneshot":
        oneshot(port, int(sys.argv[3]))
    elif mode == "types":
        types(port, int(sys.argv[3]))
