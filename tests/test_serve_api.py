"""The server answers what the CLI answers: the same questions asked through ``pokertables ...
--json`` (in this process) and through HTTP to a real uvicorn server on loopback give identical
JSON, timings aside (exact counts identical; Monte Carlo identical for the same seed). Plus the
endpoints only the server has (batch, jobs, health, /docs with local assets), ``pokertables
serve`` itself (port in use, missing artifacts, Ctrl-C) and a small bounded load test."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from cli_runner import ROOT, one_error_line, run_main
from serve_harness import Client, free_port, running_server

#: keys whose values are wall-clock times, different on every run
TIMING_KEYS = frozenset({"seconds"})


def untimed(x: Any) -> Any:
    """``x`` without its timing fields, at any depth."""
    if isinstance(x, dict):
        return {k: untimed(v) for k, v in x.items() if k not in TIMING_KEYS}
    if isinstance(x, list):
        return [untimed(v) for v in x]
    return x


@pytest.fixture(scope="module")
def server(artifacts: Path) -> Iterator[Client]:
    with running_server(artifacts) as client:
        yield client


#: (CLI arguments, endpoint, body): the same question both ways
QUESTIONS: list[tuple[list[str], str, dict[str, Any]]] = [
    (["equity", "QQ+,AKs", "--vs", "JJ-88,AQs+,KQs"], "/api/equity",
     {"hero": "QQ+,AKs", "vs": ["JJ-88,AQs+,KQs"]}),
    (["equity", "AK,QQ", "--board", "Ks 9d 4c"], "/api/equity", {"hero": "AK,QQ", "board": "Ks 9d 4c"}),
    (["equity", "AsKs", "--vs", "QhQd", "--board", "2c 7d 9h"], "/api/equity",
     {"hero": "AsKs", "vs": ["QhQd"], "board": "2c 7d 9h"}),
    (["equity", "AhKh", "--vs", "2c2d", "--board", "Qh 7h 3s 9c", "--dead", "As"], "/api/equity",
     {"hero": "AhKh", "vs": ["2c2d"], "board": "Qh 7h 3s 9c", "dead": "As"}),
    (["equity", "AsKs", "--vs", "QhQd", "--samples", "20000", "--seed", "5"], "/api/equity",
     {"hero": "AsKs", "vs": ["QhQd"], "samples": 20000, "seed": 5}),
    (["equity", "AsKs", "--vs", "QQ", "--vs", "JTs", "--samples", "20000", "--seed", "11"], "/api/equity",
     {"hero": "AsKs", "vs": ["QQ", "JTs"], "samples": 20000, "seed": 11}),
    (["equity", "TT", "-n", "3", "--samples", "10000", "--seed", "3"], "/api/equity",
     {"hero": "TT", "opponents": 3, "samples": 10000, "seed": 3}),
    (["equity", "AK,QQ", "--board", "Ks 9d 4c", "--breakdown"], "/api/equity",
     {"hero": "AK,QQ", "board": "Ks 9d 4c", "breakdown": 0}),
    (["equity", "As Ks Qd Jd", "--vs", "Th Tc 9s 8s", "--samples", "5000", "--seed", "2"], "/api/equity",
     {"hero": "As Ks Qd Jd", "vs": ["Th Tc 9s 8s"], "samples": 5000, "seed": 2}),
    (["preflop", "AsAd"], "/api/preflop", {"hand": "AsAd"}),
    (["preflop", "QQ+", "--vs", "AKs"], "/api/preflop", {"hand": "QQ+", "vs": "AKs"}),
    (["range", "QQ+,AKs,KK:0.5", "--board", "Ks 9d 4c"], "/api/range",
     {"range": "QQ+,AKs,KK:0.5", "board": "Ks 9d 4c"}),
    (["range", "15%"], "/api/range", {"range": "15%"}),
    (["hits", "QQ+,AKs", "--board", "Ks 9d 4c"], "/api/hits", {"range": "QQ+,AKs", "board": "Ks 9d 4c"}),
    (["hits", "JJ+,AQs+,T9s", "--board", "Th 9h 2c 3d", "--dead", "As"], "/api/hits",
     {"range": "JJ+,AQs+,T9s", "board": "Th 9h 2c 3d", "dead": "As"}),
    (["eval", "Ah Kd Jc Jh 9s"], "/api/eval", {"cards": "Ah Kd Jc Jh 9s"}),
    (["eval", "As Ks Qs Js Ts 2c 3d"], "/api/eval", {"cards": "As Ks Qs Js Ts 2c 3d"}),
    (["vp", "grade", "Js Jd 5h 8c Qs", "Js Qs"], "/api/vp/grade", {"deal": "Js Jd 5h 8c Qs", "hold": "Js Qs"}),
    (["vp", "grade", "Jk 2c 2d 7h 9s", "Jk 2c 2d", "-p", "joker-poker-kings"], "/api/vp/grade",
     {"deal": "Jk 2c 2d 7h 9s", "hold": "Jk 2c 2d", "paytable": "joker-poker-kings"}),
    (["vp", "hold", "Jh Qh Kh Ah 2c", "-p", "deuces-wild-full-pay"], "/api/vp/hold",
     {"deal": "Jh Qh Kh Ah 2c", "paytable": "deuces-wild-full-pay"}),
    (["vp", "deal", "--seed", "42", "--count", "5"], "/api/vp/deal", {"seed": 42, "count": 5}),
    (["vp", "deal", "-p", "joker-poker-kings", "--seed", "7"], "/api/vp/deal",
     {"paytable": "joker-poker-kings", "seed": 7}),
    (["vp", "analyze", "jacks-or-better-9-6"], "/api/vp/analyze", {"paytable": "jacks-or-better-9-6"}),
    (["vp", "chart", "jacks-or-better-9-6"], "/api/vp/chart", {"paytable": "jacks-or-better-9-6"}),
    (["vp", "compare", "jacks-or-better-9-6", "deuces-wild-full-pay"], "/api/vp/compare",
     {"paytables": ["jacks-or-better-9-6", "deuces-wild-full-pay"]}),
    (["casino", "analyze", "3cp", "--pay", "straight=2"], "/api/casino/analyze",
     {"game": "3cp", "pay": ["straight=2"]}),
    (["casino", "strategy", "let it ride"], "/api/casino/strategy", {"game": "let it ride"}),
    (["casino", "grade", "mississippi stud", "As Kd | 9c; wagered=4", "3x"], "/api/casino/grade",
     {"game": "mississippi stud", "hand": "As Kd | 9c; wagered=4", "decision": "3x"}),
    (["casino", "breakeven", "caribbean progressive", "--line", "meter"], "/api/casino/breakeven",
     {"game": "caribbean progressive", "line": "meter"}),
]


def cli_json(capsys: pytest.CaptureFixture[str], artifacts: Path, args: list[str],
             stdin: str | None = None) -> Any:
    code, out, err = run_main(capsys, "--artifacts", str(artifacts), *args, "--json", stdin=stdin)
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize(("args", "path", "body"), QUESTIONS, ids=[" ".join(q[0])[:50] for q in QUESTIONS])
def test_same_answer_through_cli_and_http(server: Client, artifacts: Path,
                                          capsys: pytest.CaptureFixture[str], args: list[str],
                                          path: str, body: dict[str, Any]) -> None:
    via_cli = cli_json(capsys, artifacts, args)
    r = server.post(path, body)
    assert r.status == 200, r.body
    assert untimed(r.body) == untimed(via_cli)


def test_question_count_meets_the_issue() -> None:
    assert len(QUESTIONS) >= 20


def test_showdown_and_vp_list_match_the_cli(server: Client, artifacts: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    lines = ["2H 3D 5S 9C KD 2C 3H 4S 8C AH", "2H 4S 4C 2D 4H 2S 8S AS QS 3S", "2H 3D 5S 9C KD 2D 3H 5C 9S KH"]
    via_cli = cli_json(capsys, artifacts, ["showdown"], stdin="\n".join(lines) + "\n")
    r = server.post("/api/showdown", {"lines": lines})
    assert r.status == 200 and r.body == via_cli
    assert r.body["verdicts"] == ["White wins.", "Black wins.", "Tie."]
    listed = cli_json(capsys, artifacts, ["vp", "list"])
    assert server.get("/api/vp/games").body == listed
    found = server.get("/api/vp/games?q=9/6%20jacks").body
    assert [g["slug"] for g in found] == ["jacks-or-better-9-6"]


def test_monte_carlo_is_repeatable_for_a_seed(server: Client) -> None:
    body = {"hero": "AsKs", "vs": ["QQ"], "board": "2c 7d 9h", "samples": 30000, "seed": 99}
    a, b = server.post("/api/equity", body).body, server.post("/api/equity", body).body
    assert untimed(a) == untimed(b) and a["method"] == "monte-carlo"
    c = server.post("/api/equity", {**body, "seed": 100}).body
    assert c["counts"] != a["counts"]


def test_vp_deal_is_seeded_and_repeatable(server: Client) -> None:
    a = server.post("/api/vp/deal", {"seed": 123, "count": 50}).body
    assert a == server.post("/api/vp/deal", {"seed": 123, "count": 50}).body
    assert len(a["deals"]) == 50 and len(set(a["deals"])) == 50
    for d in a["deals"]:
        cards = d.split()
        assert len(cards) == 5 and len(set(cards)) == 5
    fresh = server.post("/api/vp/deal", {}).body
    assert isinstance(fresh["seed"], int) and len(fresh["deals"]) == 1


def test_vp_deal_deals_the_games_deck_and_refuses_bad_counts(artifacts: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    two_jokers = cli_json(capsys, artifacts, ["vp", "deal", "-p", "double-joker-full-pay", "--seed", "5",
                                              "--count", "2000"])
    cards = [c for d in two_jokers["deals"] for c in d.split()]
    assert len(set(cards)) == 53  # 52 cards and the joker text, which both jokers print as
    assert max(d.split().count("Jk") for d in two_jokers["deals"]) == 2
    plain = cli_json(capsys, artifacts, ["vp", "deal", "--seed", "5", "--count", "2000"])
    assert "Jk" not in " ".join(plain["deals"])
    for args, needle in ((["--count", "0"], "count 0"), (["--count", "10001"], "count 10001"),
                         (["--seed", "-1"], "seed -1")):
        code, _, err = run_main(capsys, "--artifacts", str(artifacts), "vp", "deal", *args)
        assert code == 2 and needle in one_error_line(err)


def test_casino_deal_is_seeded_and_game_names_are_never_paths(server: Client) -> None:
    a, b = (server.post("/api/casino/deal", {"game": "caribbean stud", "seed": 9}) for _ in range(2))
    assert a.status == 200 and a.body == b.body and a.body["options"] == ["fold", "raise"]
    assert len(a.body["hand"].split(" | ")[0].split()) == 5
    r = server.post("/api/casino/analyze", {"game": "pipeline/data/casino/three-card-poker.toml"})
    assert r.status == 400 and "not a known game" in r.body["error"]


def test_batch_answers_each_question_or_its_error(server: Client) -> None:
    r = server.post("/api/batch", {"requests": [
        {"kind": "eval", "body": {"cards": "As Ks Qs Js Ts"}},
        {"kind": "equity", "body": {"hero": "AsAs"}},
        {"kind": "vp/grade", "body": {"deal": "Js Jd 5h 8c Qs", "hold": "Js Jd"}},
        {"kind": "eval", "body": {"cards": "As", "nonsense": 1}},
    ]})
    assert r.status == 200
    a = r.body["answers"]
    assert a[0]["score"] == 7462
    assert "As" in a[1]["error"]
    assert a[2]["optimal"] is True and a[2]["cost_exact"] == "0/1"
    assert "nonsense" in a[3]["error"]


def test_a_job_reports_progress_and_its_answer(server: Client) -> None:
    r = server.post("/api/jobs", {"kind": "vp/analyze", "body": {"paytable": "jacks-or-better-9-6"}})
    assert r.status == 200
    job = r.body["id"]
    for _ in range(600):
        s = server.get(f"/api/jobs/{job}").body
        if s["state"] in ("done", "error"):
            break
        assert 0 <= s["progress"] <= 1
        time.sleep(0.1)
    assert s["state"] == "done" and s["progress"] == 1
    direct = server.post("/api/vp/analyze", {"paytable": "jacks-or-better-9-6"}).body
    assert s["result"]["return_exact"] == direct["return_exact"]
    assert server.get("/api/jobs/no-such-job").status == 400


def test_health_openapi_and_local_docs(server: Client) -> None:
    h = server.get("/api/health").body
    assert h["ok"] is True and h["version"]
    spec = server.get("/openapi.json").body
    assert {"/api/equity", "/api/vp/grade", "/api/vp/deal", "/api/batch", "/api/jobs"} <= set(spec["paths"])
    props = spec["components"]["schemas"]["EquityBody"]["properties"]
    assert {"hero", "vs", "board", "dead", "opponents", "samples", "seed", "breakdown"} <= set(props)
    page = server.get("/docs").raw.decode()
    assert "/docs-assets/swagger-ui-bundle.js" in page and "cdn" not in page.lower()
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css"):
        assert server.get(f"/docs-assets/{asset}").status == 200


def test_small_load_has_no_failures(server: Client) -> None:
    """A bounded load on loopback (the bench runs the full 50 clients x 2,000 requests)."""
    mix = [("/api/equity", {"hero": "QQ+,AKs", "vs": ["JJ-88,AQs+,KQs"]}),
           ("/api/eval", {"cards": "Ah Kd Jc Jh 9s"}),
           ("/api/vp/grade", {"deal": "Js Jd 5h 8c Qs", "hold": "Js Qs"}),
           ("/api/vp/deal", {"seed": 1, "count": 3}),
           ("/api/range", {"range": "QQ+,AKs"})]
    expected = {p: untimed(server.post(p, b).body) for p, b in mix}

    def one(i: int) -> bool:
        p, b = mix[i % len(mix)]
        r = server.post(p, b)
        return r.status == 200 and untimed(r.body) == expected[p]

    with ThreadPoolExecutor(10) as pool:
        results = list(pool.map(one, range(200)))
    assert all(results), results.count(False)


# ---------------------------------------------------------------- docs/serve.md
#: the marker of docs/serve.md's blocks that need a server (test_docs leaves them to this file)
SERVER_BLOCK = "<!-- not run: needs pokertables serve"
DOC_PORT = "localhost:8765"


def served_examples(tmp: Path) -> list[Any]:
    """docs/serve.md's curl examples (the blocks marked :data:`SERVER_BLOCK`)."""
    from doc_examples import examples

    page = ROOT / "docs" / "serve.md"
    copy = tmp / "serve.md"
    copy.write_text("\n".join(ln for ln in page.read_text().splitlines() if not ln.startswith(SERVER_BLOCK)))
    return [ex for ex in examples(copy) if DOC_PORT in ex.command]


def test_docs_curl_examples_print_what_the_page_says(server: Client, artifacts: Path, tmp_path: Path) -> None:
    import shutil

    from doc_examples import matches, recorded_failure, run

    if not (shutil.which("curl") and shutil.which("jq")):
        pytest.skip("curl and jq are needed to replay docs/serve.md")
    exs = served_examples(tmp_path)
    assert len(exs) >= 15
    for i, ex in enumerate(exs):
        assert recorded_failure(ex) is None
        ex.command = ex.command.replace(DOC_PORT, f"localhost:{server.port}")
        folder = tmp_path / str(i)
        folder.mkdir()
        got = run(ex, folder, artifacts)
        assert matches(ex.expected, got), "\n".join([f"serve.md:{ex.line}: $ {ex.command}", "--- page",
                                                      *ex.expected, "--- printed", *got])


# ---------------------------------------------------------------- the serve command itself
def serve_process(*args: str) -> subprocess.Popen[str]:
    """``pokertables serve`` in a child with Ctrl-C's default action (a shell's background
    children ignore SIGINT, which would hide what Ctrl-C does)."""
    return subprocess.Popen([sys.executable, "-m", "pipeline", *args], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def test_serve_port_in_use_is_one_error_line(artifacts: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        p = serve_process("--artifacts", str(artifacts), "serve", "--port", str(port))
        _, err = p.communicate(timeout=120)
    assert p.returncode == 2
    assert "in use" in one_error_line(err) and str(port) in err


def test_serve_missing_artifacts_is_one_error_line(tmp_path: Path) -> None:
    p = serve_process("--artifacts", str(tmp_path / "none"), "serve", "--port", str(free_port()))
    _, err = p.communicate(timeout=120)
    assert p.returncode == 2
    assert "none" in one_error_line(err)


@pytest.mark.full_tier  # starts a server process and warms its kernels: seconds
def test_serve_answers_then_stops_cleanly_on_ctrl_c(artifacts: Path) -> None:
    port = free_port()
    p = serve_process("--artifacts", str(artifacts), "serve", "--port", str(port))
    client = Client(port)
    try:
        for _ in range(1200):
            try:
                if client.get("/api/health").status == 200:
                    break
            except OSError:
                time.sleep(0.1)
        assert client.post("/api/eval", {"cards": "As Ks Qs Js Ts"}).body["score"] == 7462
    finally:
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    assert "Traceback" not in err and err.rstrip().endswith("serve: stopped")
