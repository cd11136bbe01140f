"""Hostile requests to a real server on loopback: each gets a 4xx (or 503) with a one-line JSON
``error`` naming the bad value, never a traceback, and the server goes on answering. The server
runs with tight caps (1 heavy slot, short time caps) so floods and slow questions are cheap here."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from serve_harness import Client, Reply, running_server

from pipeline.serve.security import Limits

#: the caps of the hostile server: small, so a test that hits one is fast
LIMITS = Limits(body_seconds=1.0, answer_seconds=3.0, heavy_slots=1, heavy_queue=2, queue_seconds=0.5,
                max_samples=2_000_000)
MB = 1 << 20
ARRAY = 10**6


@pytest.fixture(scope="module")
def server(artifacts: Path) -> Iterator[Client]:
    with running_server(artifacts, LIMITS) as client:
        yield client


def still_answers(server: Client) -> None:
    r = server.post("/api/eval", {"cards": "As Ks Qs Js Ts"})
    assert r.status == 200 and r.body["score"] == 7462


def refused(r: Reply, needle: str = "") -> str:
    """A 4xx/503 with one ``{"error": ...}`` line and no traceback; the message."""
    assert 400 <= r.status < 500 or r.status == 503, (r.status, r.raw[:300])
    assert isinstance(r.body, dict) and set(r.body) == {"error"}, r.raw[:300]
    msg = r.body["error"]
    assert "\n" not in msg and "Traceback" not in msg and len(msg) < 1000, msg
    assert needle.lower() in msg.lower(), (needle, msg)
    return str(msg)


#: (name, path, body: JSON value or raw bytes, text the error must contain)
HOSTILE: list[tuple[str, str, Any, str]] = [
    # malformed JSON
    ("truncated object", "/api/equity", b'{"hero": "AsKs"', "JSON"),
    ("not JSON", "/api/equity", b"hero=AsKs", "JSON"),
    ("open array", "/api/equity", b"[1, 2", "JSON"),
    ("bad bytes", "/api/eval", b"\xff\xfe\x00{", "JSON"),
    ("missing value", "/api/eval", b'{"cards": }', "JSON"),
    ("empty body", "/api/eval", b"", "body"),
    ("array not object", "/api/eval", [1, 2, 3], "body"),
    ("deep nesting", "/api/eval", b"[" * 100_000 + b"]" * 100_000, ""),
    # wrong types and fields
    ("hero a number", "/api/equity", {"hero": 12}, "hero"),
    ("vs a string", "/api/equity", {"hero": "AsKs", "vs": "QQ"}, "vs"),
    ("samples text", "/api/equity", {"hero": "AsKs", "samples": "lots"}, "samples"),
    ("negative seed", "/api/equity", {"hero": "AsKs", "samples": 1000, "seed": -1}, "seed"),
    ("breakdown seat 99", "/api/equity", {"hero": "AsKs", "breakdown": 99}, "breakdown"),
    ("unknown field", "/api/eval", {"cards": "As Ks Qs Js Ts", "path": "/etc/passwd"}, "path"),
    ("missing field", "/api/vp/grade", {"deal": "Js Jd 5h 8c Qs"}, "hold"),
    # 10 MB strings, 10^6-element arrays
    ("10 MB hero", "/api/equity", {"hero": "A" * (10 * MB)}, "limit"),
    ("10 MB showdown line", "/api/showdown", {"lines": ["2H " * (10 * MB // 3)]}, "limit"),
    ("10^6 seats", "/api/equity", {"hero": "AsKs", "vs": ["QQ"] * ARRAY}, "limit"),
    ("10^6 showdown lines", "/api/showdown", {"lines": ["x"] * ARRAY}, "limit"),
    ("10^6 batch", "/api/batch", {"requests": [{}] * ARRAY}, "limit"),
    ("string over the field cap", "/api/range", {"range": "AA," * 2000}, "range"),
    ("200,000 showdown lines", "/api/showdown", {"lines": [""] * 200_000}, "lines"),
    ("1,001 batch questions", "/api/batch",
     {"requests": [{"kind": "eval", "body": {"cards": "As Ks Qs Js Ts"}}] * 1001}, "requests"),
    ("10 seats of vs", "/api/equity", {"hero": "AsKs", "vs": ["random"] * 10}, "vs"),
    # impossible card sets
    ("hero card twice", "/api/equity", {"hero": "AsAs"}, "As"),
    ("hero and villain share", "/api/equity", {"hero": "AsKs", "vs": ["AsQd"]}, "As"),
    ("six board cards", "/api/equity", {"hero": "AsKs", "board": "2c 3c 4c 5c 6c 7c"}, "board"),
    ("not a card", "/api/equity", {"hero": "AsZz"}, "Zz"),
    ("board holds hero card", "/api/equity", {"hero": "AsKs", "board": "As 7d 2c"}, "As"),
    ("too many opponents", "/api/equity", {"hero": "AsKs", "vs": ["QQ"], "opponents": 9}, "opponents"),
    ("eval four cards", "/api/eval", {"cards": "As Ks Qs Js"}, "4"),
    ("vp deal of six cards", "/api/vp/grade", {"deal": "Js Jd 5h 8c Qs 2c", "hold": "Js"}, "6"),
    ("vp hold not in the deal", "/api/vp/grade", {"deal": "Js Jd 5h 8c Qs", "hold": "Ah"}, "Ah"),
    ("hits with no live combo", "/api/hits", {"range": "AA", "board": "As Ah Ad", "dead": "Ac"}, ""),
    # huge sample counts and time
    ("10^12 samples", "/api/equity", {"hero": "AsKs", "samples": 10**12}, "samples"),
    ("over the server's samples", "/api/equity", {"hero": "AsKs", "samples": 3_000_000}, "limit"),
    ("time of a day", "/api/equity", {"hero": "AsKs", "samples": None, "time": 86400}, "time"),
    ("10^6 vp deals", "/api/vp/deal", {"count": ARRAY}, "count"),
    ("chart of 10^6 lines", "/api/vp/chart", {"paytable": "jacks-or-better-9-6", "max_lines": ARRAY}, "max_lines"),
    # paths and config folders from HTTP
    ("paytable path", "/api/vp/analyze", {"paytable": "/etc/passwd"}, "not a known game"),
    ("paytable toml", "/api/vp/grade", {"deal": "Js Jd 5h 8c Qs", "hold": "Js", "paytable": "../x.toml"},
     "not a known game"),
    ("strategy path", "/api/vp/analyze", {"paytable": "jacks-or-better-9-6", "strategy": "/tmp/a.toml"},
     "not a known game"),
    ("rules path", "/api/eval", {"cards": "As Ks Qs Js Ts", "rules": "/etc/passwd"}, "rule set"),
    ("rules relative path", "/api/showdown", {"lines": [], "rules": "../../rules.toml"}, "rule set"),
    ("compare with a path", "/api/vp/compare", {"paytables": ["jacks-or-better-9-6", "~/x.toml"]},
     "not a known game"),
    ("config folder field", "/api/vp/list", {"config_dir": "/tmp"}, ""),
    # jobs
    ("job of an unknown kind", "/api/jobs", {"kind": "shell", "body": {}}, "kind"),
    ("job with a bad body", "/api/jobs", {"kind": "vp/analyze", "body": {"paytable": 5}}, "paytable"),
]


@pytest.mark.parametrize(("name", "path", "body", "needle"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_request_is_refused_and_the_server_goes_on(server: Client, name: str, path: str,
                                                           body: Any, needle: str) -> None:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    r = server.request("POST", path, raw=raw)
    refused(r, needle)
    still_answers(server)


def test_the_issue_asks_at_least_40() -> None:
    assert len(HOSTILE) >= 40  # besides the Host, raw-socket, time-cap and flood tests below


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8765", "127.0.0.1.evil.example",
                                  "localhost.evil.example", ""])
def test_non_local_host_is_refused(server: Client, host: str) -> None:
    r = server.request("GET", "/api/health", headers={"Host": host})
    refused(r, "host")
    r = server.request("POST", "/api/eval", {"cards": "As Ks Qs Js Ts"}, headers={"Host": host})
    assert r.status == 421
    still_answers(server)


@pytest.mark.parametrize("origin", ["https://evil.example", "http://127.0.0.1.evil.example:8765",
                                    "http://localhost.evil.example", "null"])
def test_another_sites_page_is_refused(server: Client, origin: str) -> None:
    r = server.request("POST", "/api/eval", {"cards": "As Ks Qs Js Ts"}, headers={"Origin": origin})
    assert r.status == 403
    refused(r, "origin")
    own = f"http://127.0.0.1:{server.port}"
    assert server.request("POST", "/api/eval", {"cards": "As Ks Qs Js Ts"},
                          headers={"Origin": own}).status == 200


def test_a_form_post_is_not_json(server: Client) -> None:
    """A cross-site form can post urlencoded or plain text without a preflight: not accepted."""
    for kind in ("application/x-www-form-urlencoded", "text/plain"):
        r = server.request("POST", "/api/eval", raw=b'{"cards": "As Ks Qs Js Ts"}',
                           headers={"Content-Type": kind})
        refused(r, "")
    still_answers(server)


def test_local_host_names_are_accepted(server: Client) -> None:
    for host in ("localhost", f"localhost:{server.port}", f"127.0.0.1:{server.port}", "[::1]"):
        assert server.request("GET", "/api/health", headers={"Host": host}).status == 200


def raw_exchange(port: int, data: bytes, wait: float) -> bytes:
    """Send ``data`` on a fresh connection, then read what comes back within ``wait`` s."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as s:
        s.sendall(data)
        out = b""
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                out += chunk
        except TimeoutError:
            pass
    return out


def test_slow_partial_body_gets_408(server: Client) -> None:
    head = (b"POST /api/eval HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{\"cards\": ")
    t0 = time.monotonic()
    out = raw_exchange(server.port, head, wait=LIMITS.body_seconds + 10)
    assert out.startswith(b"HTTP/1.1 408"), out[:200]
    assert time.monotonic() - t0 < LIMITS.body_seconds + 5
    still_answers(server)


def test_declared_huge_body_is_refused_before_reading(server: Client) -> None:
    head = (b"POST /api/eval HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 10000000000\r\n\r\n")
    out = raw_exchange(server.port, head, wait=10)
    assert out.startswith(b"HTTP/1.1 413"), out[:200]
    still_answers(server)


def test_chunked_body_over_the_cap_gets_413(server: Client) -> None:
    chunk = b"x" * 65536
    body = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(LIMITS.max_body // len(chunk) + 2))
    data = (b"POST /api/eval HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n" + body + b"0\r\n\r\n")
    out = raw_exchange(server.port, data, wait=10)
    assert out.startswith(b"HTTP/1.1 413"), out[:200]
    still_answers(server)


def test_wrong_method_and_unknown_path_are_4xx(server: Client) -> None:
    assert 400 <= server.get("/api/equity").status < 500
    assert 400 <= server.get("/api/../../etc/passwd").status < 500
    assert 400 <= server.get("/static/../../../etc/passwd").status < 500
    still_answers(server)


def test_monte_carlo_past_the_time_cap_is_stopped(server: Client) -> None:
    t0 = time.monotonic()
    r = server.post("/api/equity", {"hero": "AsKs", "vs": ["QQ", "JTs", "random"], "stderr": 1e-5})
    refused(r, "time cap")
    assert r.status == 503 and time.monotonic() - t0 < LIMITS.answer_seconds + 10
    still_answers(server)


def test_a_flood_of_heavy_requests_gets_503_not_a_pile_up(server: Client) -> None:
    body = {"hero": "AsKs", "vs": ["QQ"], "time": 1.5}  # Monte Carlo for 1.5 s: holds the one slot

    with ThreadPoolExecutor(8) as pool:
        replies = list(pool.map(lambda _: server.post("/api/equity", body), range(8)))
    codes = sorted(r.status for r in replies)
    assert codes.count(200) >= 1 and codes.count(503) >= 4, codes
    for r in replies:
        if r.status == 503:
            refused(r, "busy")
    still_answers(server)
