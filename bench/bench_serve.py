"""Section ``serve`` of `make bench`: ``pokertables serve`` measured at the HTTP client.

A server process (``pokertables serve`` on a free loopback port, over ``artifacts/``) is started
and waited for; then, in the same run:

* per request kind (preflop range vs range, exact flop spot, Monte Carlo 1 M deals, hits, vp
  grade, vp deal): p50/p99 latency of ``ROUNDS[kind]`` sequential requests after a warm-up, and
  requests/s through the server vs the same question through the CLI, one process per question
  (``CLI_RUNS`` runs, median);
* a bounded load test: ``CLIENTS`` concurrent clients, ``LOAD_REQUESTS`` mixed requests on one
  keep-alive connection each; failures (anything but 200 with the expected answer), p50/p99,
  requests/s and the server's peak RSS (``VmHWM``).

Targets (issue 30): preflop range vs range p50 <= 5 ms, vp grade p50 <= 20 ms, 0 load failures;
(issue 39) vp compare of 3 games p50 <= 200 ms, vp breakeven of a stored line p50 <= 20 ms.

Run alone: ``python bench/run.py serve``.
"""

from __future__ import annotations

import http.client
import json
import socket
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
ARTIFACTS = ROOT / "artifacts"

#: (kind, endpoint, body, the same question as CLI arguments)
KINDS: list[tuple[str, str, dict[str, Any], list[str]]] = [
    ("preflop range vs range", "/api/equity", {"hero": "QQ+,AKs", "vs": ["JJ-88,AQs+,KQs"]},
     ["equity", "QQ+,AKs", "--vs", "JJ-88,AQs+,KQs"]),
    ("exact flop spot", "/api/equity", {"hero": "AK,QQ", "board": "Ks 9d 4c"},
     ["equity", "AK,QQ", "--board", "Ks 9d 4c"]),
    ("Monte Carlo 1 M deals", "/api/equity",
     {"hero": "AsKs", "vs": ["QQ"], "samples": 1_000_000, "seed": 1},
     ["equity", "AsKs", "--vs", "QQ", "--samples", "1000000", "--seed", "1"]),
    ("hits", "/api/hits", {"range": "QQ+,AKs,T9s", "board": "Ks 9d 4c"},
     ["hits", "QQ+,AKs,T9s", "--board", "Ks 9d 4c"]),
    ("vp grade", "/api/vp/grade", {"deal": "Js Jd 5h 8c Qs", "hold": "Js Qs"},
     ["vp", "grade", "Js Jd 5h 8c Qs", "Js Qs"]),
    ("vp deal", "/api/vp/deal", {"seed": 7, "count": 10}, ["vp", "deal", "--seed", "7", "--count", "10"]),
    ("vp compare 3 games", "/api/vp/compare",
     {"paytables": ["jacks-or-better-9-6", "deuces-wild-full-pay", "double-double-bonus-9-6"]},
     ["vp", "compare", "jacks-or-better-9-6", "deuces-wild-full-pay", "double-double-bonus-9-6"]),
    ("vp breakeven royal", "/api/vp/breakeven", {"paytable": "double-double-bonus-9-6"},
     ["vp", "breakeven", "double-double-bonus-9-6"]),
]
#: sequential requests timed per kind (Monte Carlo 1 M deals costs ~0.1 s of 2 cores each)
ROUNDS = {"Monte Carlo 1 M deals": 20}
DEFAULT_ROUNDS = 200
WARMUP = 3
CLI_RUNS = 3
#: the load test
CLIENTS = 50
LOAD_REQUESTS = 2_000
#: the load test's mix: cheap questions a page or a script asks all the time
LOAD_MIX = ["preflop range vs range", "exact flop spot", "hits", "vp grade", "vp deal"]
#: targets of issue 30 (ms at the HTTP client)
TARGETS_MS = {"preflop range vs range": 5.0, "vp grade": 20.0,
              # issue 39: the page's compare and break-even read what the build stored
              "vp compare 3 games": 200.0, "vp breakeven royal": 20.0}
START_SECONDS = 300.0
MS = 1000.0
P99 = 0.99
KIB = 1024


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Conn:
    """One keep-alive HTTP connection (as a script or the page would hold)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        """POST JSON; (status, parsed answer)."""
        data = json.dumps(body).encode()
        try:
            self.c.request("POST", path, body=data, headers={"Content-Type": "application/json"})
            r = self.c.getresponse()
        except (http.client.HTTPException, OSError):
            self.c.close()  # the server closed an idle connection: one fresh try
            self.c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
            self.c.request("POST", path, body=data, headers={"Content-Type": "application/json"})
            r = self.c.getresponse()
        return r.status, json.loads(r.read())

    def close(self) -> None:
        """Close the connection."""
        self.c.close()


def _untimed(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _untimed(v) for k, v in x.items() if k != "seconds"}
    if isinstance(x, list):
        return [_untimed(v) for v in x]
    return x


def _peak_rss_mib(pid: int) -> float:
    """Peak resident set (VmHWM) of a live process, MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / KIB
    return float("nan")


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def _start(port: int) -> subprocess.Popen[str]:
    p = subprocess.Popen([sys.executable, "-m", "pipeline", "--artifacts", str(ARTIFACTS), "serve",
                          "--port", str(port)], cwd=ROOT, text=True,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    end = time.monotonic() + START_SECONDS
    while time.monotonic() < end:
        if p.poll() is not None:
            raise RuntimeError(f"pokertables serve exited: {p.stderr.read() if p.stderr else ''}")
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            c.request("GET", "/api/health")
            if c.getresponse().status == 200:
                return p
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("pokertables serve did not start")


def _cli_seconds(args: list[str]) -> float:
    """Median wall time of the question as one CLI process each."""
    times = []
    for _ in range(CLI_RUNS):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pipeline", "--artifacts", str(ARTIFACTS), *args, "--json"],
                       cwd=ROOT, capture_output=True, check=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _load(port: int, expected: dict[str, Any]) -> tuple[int, list[float], float]:
    """``LOAD_REQUESTS`` mixed requests from ``CLIENTS`` threads: (failures, latencies, seconds)."""
    by_kind = {k: (path, body) for k, path, body, _ in KINDS}
    per_client = LOAD_REQUESTS // CLIENTS

    def client(i: int) -> tuple[int, list[float]]:
        conn = Conn(port)
        fails, lat = 0, []
        try:
            for j in range(per_client):
                kind = LOAD_MIX[(i + j) % len(LOAD_MIX)]
                path, body = by_kind[kind]
                t0 = time.perf_counter()
                try:
                    status, out = conn.post(path, body)
                    ok = status == 200 and _untimed(out) == expected[kind]
                except (OSError, http.client.HTTPException, ValueError):
                    ok = False
                lat.append(time.perf_counter() - t0)
                fails += not ok
        finally:
            conn.close()
        return fails, lat

    t0 = time.perf_counter()
    with ThreadPoolExecutor(CLIENTS) as pool:
        results = list(pool.map(client, range(CLIENTS)))
    wall = time.perf_counter() - t0
    return sum(f for f, _ in results), [x for _, lat in results for x in lat], wall


def run(report: Any) -> None:
    """The serve section."""
    report.head("serve: pokertables serve at the HTTP client (loopback)")
    if not (ARTIFACTS / "eval_tables.h5").exists():
        report.say("artifacts/ not built: run `make tables` first")
        return
    port = _free_port()
    t0 = time.perf_counter()
    server = _start(port)
    report.value("start_s", time.perf_counter() - t0,
                 f"  server started (artifacts opened, kernels warm) in {time.perf_counter() - t0:.1f} s")
    try:
        conn = Conn(port)
        expected: dict[str, Any] = {}
        report.say(f"  {'request':<26}{'p50 ms':>9}{'p99 ms':>9}{'HTTP req/s':>12}{'CLI s/question':>16}"
                   f"{'CLI req/s':>11}{'speed-up':>10}")
        for kind, path, body, args in KINDS:
            for _ in range(WARMUP):
                status, out = conn.post(path, body)
                assert status == 200, out
            expected[kind] = _untimed(out)
            lat = []
            for _ in range(ROUNDS.get(kind, DEFAULT_ROUNDS)):
                t1 = time.perf_counter()
                status, out = conn.post(path, body)
                lat.append(time.perf_counter() - t1)
                assert status == 200, out
            p50, p99 = statistics.median(lat), _pct(lat, P99)
            cli = _cli_seconds(args)
            rate = 1 / statistics.mean(lat)
            report.value(f"{kind}/p50_ms", p50 * MS)
            report.value(f"{kind}/p99_ms", p99 * MS)
            report.value(f"{kind}/cli_s", cli)
            report.say(f"  {kind:<26}{p50 * MS:>9.2f}{p99 * MS:>9.2f}{rate:>12.1f}{cli:>16.3f}"
                       f"{1 / cli:>11.2f}{rate * cli:>9.0f}x")
            if kind in TARGETS_MS:
                report.target(f"serve {kind} p50 <= {TARGETS_MS[kind]:g} ms", p50 * MS <= TARGETS_MS[kind],
                              f"{p50 * MS:.2f} ms")
        conn.close()
        fails, lat, wall = _load(port, expected)
        rss = _peak_rss_mib(server.pid)
        report.value("load/failures", fails)
        report.value("load/p99_ms", _pct(lat, P99) * MS)
        report.value("load/requests_per_s", len(lat) / wall)
        report.value("load/peak_rss_mib", rss)
        report.say(f"  load: {CLIENTS} concurrent clients, {len(lat):,} mixed requests "
                   f"({', '.join(LOAD_MIX)}) in {wall:.1f} s = {len(lat) / wall:,.0f} req/s; "
                   f"p50 {statistics.median(lat) * MS:.1f} ms, p99 {_pct(lat, P99) * MS:.1f} ms; "
                   f"{fails} failures; server peak RSS {rss:,.0f} MiB")
        report.target("serve load test: 0 failures", fails == 0, f"{fails} of {len(lat):,}")
    finally:
        server.terminate()
        server.wait(timeout=60)
