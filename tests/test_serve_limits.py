"""The server's limits against a real server on loopback (issue 38): connections no client can
exhaust, one deadline for every answer, light endpoints kept light, artifacts proven while
served, jobs capped and reporting progress, Ctrl-C that stops. The server runs with small caps
so each test is a few seconds."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from serve_harness import Client, running_server

from pipeline.serve.security import Limits

#: the caps of this module's server: small, so hitting one is fast
LIMITS = Limits(header_seconds=2.0, body_seconds=3.0, client_connections=32, max_connections=64,
                answer_seconds=3.0, heavy_slots=2, heavy_queue=4, queue_seconds=1.0, job_seconds=3.0)
#: sockets of the idle flood (the issue's 256 locked the old server out)
IDLE_SOCKETS = 300
#: a partial request head, as the flood sent it
PARTIAL_HEAD = b"GET /api/health HTTP/1.1\r\nHost: localhost\r\n"


@pytest.fixture(scope="module")
def server(artifacts: Path) -> Iterator[Client]:
    with running_server(artifacts, LIMITS) as client:
        yield client


def eval_answers(server: Client) -> float:
    """Seconds a normal request takes (it must succeed)."""
    t0 = time.monotonic()
    r = server.post("/api/eval", {"cards": "As Ks Qs Js Ts"})
    assert r.status == 200 and r.body["score"] == 7462, r.raw[:200]
    return time.monotonic() - t0


def read_until_closed(s: socket.socket, until: float) -> bytes | None:
    """What the server sent before closing ``s``; None if it was still open at ``until``."""
    out = b""
    while True:
        left = until - time.monotonic()
        if left <= 0:
            return None
        s.settimeout(left)
        try:
            chunk = s.recv(65536)
        except TimeoutError:
            return None
        except ConnectionResetError:
            return out
        if not chunk:
            return out
        out += chunk


def json_error(raw: bytes, status: int) -> str:
    """The message of a raw HTTP answer that must be ``status`` with a JSON ``{"error"}`` body."""
    head, _, body = raw.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 %d " % status), raw[:200]
    assert b"application/json" in head.lower(), raw[:200]
    doc = json.loads(body)
    assert set(doc) == {"error"}, doc
    return str(doc["error"])


# ---------------------------------------------------------------- 1. connections
def test_idle_sockets_cannot_lock_out_and_are_closed(server: Client) -> None:
    socks = []
    try:
        for i in range(IDLE_SOCKETS):
            s = socket.create_connection(("127.0.0.1", server.port))
            if i % 2:
                s.sendall(PARTIAL_HEAD)  # half send part of a request head, half nothing
            socks.append(s)
        opened = time.monotonic()
        assert eval_answers(server) < 1.0
        assert eval_answers(server) < 1.0
        until = opened + LIMITS.header_seconds + 2.0
        for i, s in enumerate(socks):
            got = read_until_closed(s, until)
            assert got is not None, f"idle socket {i} still open {LIMITS.header_seconds:g} s after"
            if got:  # a partial head is told why (408), as JSON; an empty socket is just closed
                assert "request head not complete" in json_error(got, 408)
    finally:
        for s in socks:
            s.close()
    assert eval_answers(server) < 1.0


def test_busy_connections_over_the_cap_get_json_503(server: Client) -> None:
    # connections with a request in flight (head sent, body still coming) cannot be replaced
    head = (b"POST /api/eval HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{")
    socks = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(LIMITS.client_connections)]
    try:
        for s in socks:
            s.sendall(head)
        time.sleep(0.3)
        with socket.create_connection(("127.0.0.1", server.port)) as extra:
            got = read_until_closed(extra, time.monotonic() + 2.0)
        assert got is not None and "busy" in json_error(got, 503)
    finally:
        for s in socks:
            s.close()
    time.sleep(0.2)
    assert eval_answers(server) < 1.0


def test_a_malformed_request_head_is_a_json_400(server: Client) -> None:
    with socket.create_connection(("127.0.0.1", server.port)) as s:
        s.sendall(b"GARBAGE\x00 / HTTP/9\r\n\r\n")
        got = read_until_closed(s, time.monotonic() + 2.0)
    assert got is not None and "malformed" in json_error(got, 400)

