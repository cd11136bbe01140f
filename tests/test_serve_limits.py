"""The server's limits against a real server on loopback (issue 38): connections no client can
exhaust, one deadline for every answer, light endpoints kept light, artifacts proven while
served, jobs capped and reporting progress, Ctrl-C that stops. The server runs with small caps
so each test is a few seconds."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from serve_harness import Client, free_port, running_server

from pipeline.serve.connections import REPLACE_AFTER
from pipeline.serve.security import Limits

#: the caps of this module's server: small, so hitting one is fast
LIMITS = Limits(header_seconds=2.0, body_seconds=3.0, client_connections=32, max_connections=64,
                answer_seconds=3.0, heavy_slots=2, heavy_queue=4, queue_seconds=1.0, job_seconds=3.0)
#: sockets of the idle flood (the issue's 256 locked the old server out)
IDLE_SOCKETS = 300
#: seconds the server is given to accept the flood's last sockets after the client opened them
FLOOD_SETTLE = 0.5
#: a partial request head, as the flood sent it
PARTIAL_HEAD = b"GET /api/health HTTP/1.1\r\nHost: localhost\r\n"


@pytest.fixture(scope="module")
def server(artifacts: Path) -> Iterator[Client]:
    from pipeline.answers import Context, vp

    # the video-poker solve's kernels compiled (or loaded) now, in this process: a first compile
    # cannot be stopped, and would still be busy after a test's 503
    vp.analyze(Context(artifacts), "jacks-or-better-9-6", pay=["full house=8"])
    with running_server(artifacts, LIMITS, warm_up=False) as client:  # compiles only what is asked
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
        # the flood is in place; then a normal client comes. The server may accept the last
        # flood sockets a while after their connect returned here, and a socket it accepted
        # under REPLACE_AFTER s ago is given time to send its request, not replaced
        time.sleep(REPLACE_AFTER + FLOOD_SETTLE)
        assert eval_answers(server) < 1.0
        assert eval_answers(server) < 1.0
        until = opened + LIMITS.header_seconds + 2.0
        for i, s in enumerate(socks):
            got = read_until_closed(s, until)
            assert got is not None, f"idle socket {i} still open {LIMITS.header_seconds:g} s after"
            if got.startswith(b"HTTP/1.1 503"):  # refused while the flood was opening
                assert "busy" in json_error(got, 503)
            elif got:  # a partial head is told why (408), as JSON; an empty socket is just closed
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


# ---------------------------------------------------------------- 2. one deadline, where the work runs
#: a break-even table of 101 rows, each an exact solve (about a second each): minutes of work
BREAKEVEN_TABLE = {"kind": "vp/breakeven", "body": {"paytable": "jacks-or-better-9-6", "table": True,
                                                    "start": "800", "stop": "900", "step": "1"}}
#: the window after the 503s in which the server's CPU must be idle again (the issue: 2 s)
IDLE_AFTER = 2.0
#: CPU seconds per wall second that count as idle (the test's own polling costs a little)
IDLE_CPU = 0.15


def cpu_seconds() -> float:
    """User + system CPU of this process (the test server runs in it), all threads."""
    t = os.times()
    return t.user + t.system


def test_heavy_batches_stop_at_the_cap_and_free_the_cpu(server: Client) -> None:
    batch = {"requests": [BREAKEVEN_TABLE] * 3}
    t0 = time.monotonic()
    with ThreadPoolExecutor(2) as pool:
        replies = list(pool.map(lambda _: server.post("/api/batch", batch), range(2)))
    answered = time.monotonic()
    for r in replies:
        assert r.status == 503 and "time cap" in r.body["error"], r.raw[:200]
    assert answered - t0 < LIMITS.answer_seconds + 3.0
    time.sleep(max(0.0, answered + IDLE_AFTER - time.monotonic()))
    before, w0 = cpu_seconds(), time.monotonic()
    time.sleep(1.0)
    used = (cpu_seconds() - before) / (time.monotonic() - w0)
    assert used < IDLE_CPU, f"{used:.2f} CPU s per s still busy {IDLE_AFTER:g} s after the 503s"
    # both heavy slots are free again: a small heavy question gets one at once
    t1 = time.monotonic()
    r = server.post("/api/equity", {"hero": "AsKs", "vs": ["QhQd"], "board": "2c 7d 9h"})
    assert r.status == 200 and r.body["method"] == "exact", r.raw[:200]
    assert time.monotonic() - t1 < LIMITS.queue_seconds


# ---------------------------------------------------------------- 5. jobs: progress and cap for every kind
def test_a_breakeven_job_reports_progress_stops_at_its_cap_and_its_time_freezes(server: Client) -> None:
    r = server.post("/api/jobs", BREAKEVEN_TABLE)
    assert r.status == 200, r.raw[:200]
    job = f"/api/jobs/{r.body['id']}"
    seen = 0.0
    end = time.monotonic() + LIMITS.job_seconds + 5.0
    while True:
        s = server.get(job).body
        seen = max(seen, s["progress"])
        if s["state"] not in ("waiting", "running") or time.monotonic() > end:
            break
        time.sleep(0.1)
    assert s["state"] == "error" and "time cap" in s["error"], s
    assert 0.0 < seen < 1.0, seen
    assert s["seconds"] < LIMITS.job_seconds + 2.0
    time.sleep(0.5)
    assert server.get(job).body["seconds"] == s["seconds"]


# ---------------------------------------------------------------- 6. Ctrl-C stops whatever is in flight
#: seconds from Ctrl-C to the process gone (the issue's bound)
STOP_SECONDS = 5.0


@pytest.mark.full_tier  # starts a `pokertables serve` process, which warms its kernels: seconds
def test_ctrl_c_stops_the_server_with_heavy_work_in_flight(artifacts: Path) -> None:
    port = free_port()
    p = subprocess.Popen([sys.executable, "-m", "pipeline", "--artifacts", str(artifacts), "serve",
                          "--port", str(port)], cwd=Path(__file__).resolve().parent.parent, text=True,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    client = Client(port)
    try:
        end = time.monotonic() + 120
        while time.monotonic() < end:
            try:
                if client.get("/api/health").status == 200:
                    break
            except OSError:
                time.sleep(0.1)
        # the table's kernels compiled (or loaded) first: a numba compile cannot be stopped
        short = {**BREAKEVEN_TABLE["body"], "stop": "801"}
        assert client.post("/api/vp/breakeven", short).status == 200
        with ThreadPoolExecutor(2) as pool:
            # both heavy slots busy with minutes of break-even tables
            for _ in range(2):
                pool.submit(client.post, "/api/batch", {"requests": [BREAKEVEN_TABLE] * 3})
            time.sleep(1.5)
            t0 = time.monotonic()
            p.send_signal(signal.SIGINT)
            _, err = p.communicate(timeout=60)
            gone = time.monotonic() - t0
    finally:
        if p.poll() is None:
            p.kill()
    assert gone < STOP_SECONDS, f"{gone:.1f} s from Ctrl-C to exit"
    assert p.returncode == 0, err
    assert "Traceback" not in err and err.rstrip().endswith("serve: stopped"), err[-500:]


# ---------------------------------------------------------------- 4. artifacts proven while served
#: the files of the small artifacts folder the proof test serves (what an eval needs)
SERVED = ("eval_tables.h5", "five.h5", "seven.h5")
#: seven cards whose score seven.h5 gives (a royal flush: the best score)
SEVEN = "As Ks Qs Js Ts 2c 3d"


def test_a_served_file_changed_through_a_hard_link_is_refused(artifacts: Path, tmp_path: Path) -> None:
    import h5py

    from pipeline.answers import Context
    from pipeline.answers.hands import eval_hand
    from pipeline.errors import ArtifactError

    served, other = tmp_path / "served", tmp_path / "other"
    served.mkdir()
    other.mkdir()
    manifest = json.loads((artifacts / "manifest.json").read_text())
    manifest["files"] = {rel: info for rel, info in manifest["files"].items() if rel in SERVED}
    for rel in SERVED:
        shutil.copyfile(artifacts / rel, served / rel)  # copies: the shared build is never edited
    (served / "manifest.json").write_text(json.dumps(manifest))
    for rel in (*SERVED, "manifest.json"):
        os.link(served / rel, other / rel)  # two folders sharing their files, as `reuse` makes them
    with running_server(served, LIMITS, warm_up=False) as server:
        r = server.post("/api/eval", {"cards": SEVEN})
        assert r.status == 200 and r.body["score"] == 7462, r.raw[:200]
        # the other folder's seven.h5 edited in place, its size and mtime restored
        path = other / "seven.h5"
        before = os.stat(path)
        with h5py.File(path, "r+") as f:
            f["score"][0] = 1
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
        after = os.stat(path)
        assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
        r = server.post("/api/eval", {"cards": SEVEN})
        assert r.status == 503, r.raw[:200]
        with pytest.raises(ArtifactError) as cli:  # what the command line says of the same folder
            eval_hand(Context(served), SEVEN)
        assert r.body["error"] == str(cli.value) and "seven.h5" in r.body["error"], r.body
        assert server.post("/api/eval", {"cards": SEVEN}).status == 503  # refused until rebuilt
        assert server.get("/api/health").status == 200


# ---------------------------------------------------------------- 3. light means light
#: Omaha6 ranges split into their double-suited hands: about 50 MB of arrays each
WIDE_OMAHA = ("AKxxxxds", "AQxxxxds", "AJxxxxds", "ATxxxxds")
#: how far the server's memory may stay above where it started (the issue's bound)
RSS_SLACK_MB = 50
#: pay-edit holds sent at once, and the slowest median table read allowed meanwhile (seconds)
PAY_EDITS = 60
EVAL_SECONDS = 0.05


def rss_mb() -> float:
    """Resident memory of this process (the test server runs in it), MiB."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / (1 << 20)


def test_wide_omaha_ranges_leave_the_server_small(server: Client) -> None:
    assert server.post("/api/range", {"range": "AKQJxx", "game": "omaha6"}).status == 200  # code paths
    start = rss_mb()
    for text in WIDE_OMAHA:
        r = server.post("/api/range", {"range": text, "game": "omaha6"})
        assert r.status in (200, 503) and isinstance(r.body, dict), r.raw[:200]
        if r.status == 200:
            assert r.body["combos"] == 2_270_560, r.body
    time.sleep(0.5)
    grown = rss_mb() - start
    assert grown < RSS_SLACK_MB, f"the server kept {grown:.0f} MB after {len(WIDE_OMAHA)} ranges"


def test_pay_edit_holds_leave_table_reads_fast(server: Client) -> None:
    bodies = [{"deal": "Jh Qh Kh Ah 2c", "paytable": "jacks-or-better-9-6", "pay": [f"full house={10 + i}"]}
              for i in range(PAY_EDITS)]
    with ThreadPoolExecutor(PAY_EDITS) as pool:
        holds = [pool.submit(server.post, "/api/vp/hold", b) for b in bodies]
        time.sleep(0.3)
        took = sorted(eval_answers(server) for _ in range(9))
        replies = [h.result() for h in holds]
    assert took[len(took) // 2] <= EVAL_SECONDS, took
    for r in replies:
        assert r.status in (200, 503) and isinstance(r.body, dict), r.raw[:200]
    assert any(r.status == 200 for r in replies)
