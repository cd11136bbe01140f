"""Issue 20, items 5 and 15: equity questions a hostile user asks get the right answer or one
clear error within seconds; Omaha honours the stopping rules and seeds as hold'em does."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from cli_runner import run_cli, run_main

ROOT = Path(__file__).resolve().parent.parent
NINE = ["--vs", "AA,KK,QQ,JJ"] * 8


def _cli(*args: str, timeout: float = 60) -> tuple[subprocess.CompletedProcess[str], float]:
    """The command's result and how long it took."""
    t0 = time.perf_counter()
    r = run_cli(*args, timeout=timeout)
    return r, time.perf_counter() - t0


ERRORS = [
    (["equity", "AsKs", "-n", "99999999999999999999"], "at most 9 opponents in all"),
    (["equity", "AsKs", "--stderr", "1e-300"], "--stderr must be a number from 1e-05"),
    (["equity", "AsKs", "--stderr", "nan"], "'nan'"),
    (["equity", "AsKs", "--time", "nan"], "'--time': 'nan' is not a number"),
    (["equity", "AsKs", "--time", "inf"], "'--time': 'inf' is not a number"),
    (["equity", "AsKsQhJh", "--samples", "0"], "--samples must be 1"),
    (["equity", "AsKsQhJh", "--stderr", "nan"], "'--stderr': 'nan' is not a number"),
    (["equity", "AsKsQhJh", "--time", "-1"], "--time must be"),
    (["equity", "AsKsQhJh", "--samples", "10", "--stderr", "0.01"], "choose one of"),
    (["equity", "AA,KK,QQ,JJ", *NINE, "--time", "2"], "hardly ever fit together"),
    # the seed and --exact checks every door shares (hold'em, Omaha, the other games)
    (["equity", "AsKs", "--seed", "-1"], "--seed must be 0 .. 2^63-1, got '-1'"),
    (["equity", "AsKsQhJh", "--seed", str(2 ** 63)], f"got '{2 ** 63}'"),
    (["equity", "AsKs", "--exact", "--samples", "10"], "choose either --exact or Monte Carlo"),
    (["equity", "--game", "razz", "AsKs2c", "--vs", "3h4h5h", "--exact", "--time", "1"],
     "choose either --exact or Monte Carlo"),
]


@pytest.mark.parametrize("args,needle", ERRORS, ids=[" ".join(a)[:40] for a, _ in ERRORS])
def test_bad_equity_numbers_are_one_error_fast(artifacts: Path, args: list[str], needle: str) -> None:
    r, seconds = _cli("-a", str(artifacts), *args, timeout=30)
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert r.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: "), (r.stdout, lines)
    assert needle in lines[0], lines
    assert seconds < 15, seconds


def test_omaha_equity_refuses_a_bad_seed_and_exact_with_a_rule(artifacts: Path) -> None:
    """The Python door the command line does not use (:func:`omaha_equity`) checks as it does."""
    from pipeline.equity.hand_api import omaha_equity
    from pipeline.errors import InputError
    from pipeline.query.tables import Tables

    tables = Tables(artifacts)
    with pytest.raises(InputError, match="got '-1'"):
        omaha_equity(tables, "As Ad Ks Kd", seed=-1)
    with pytest.raises(InputError, match=r"choose either exact or Monte Carlo \(samples/stderr/time\)"):
        omaha_equity(tables, "As Ad Ks Kd", exact=True, samples=10)


def test_tiny_weights_are_sampled_not_spun(artifacts: Path) -> None:
    """AA at weight 1e-9 against KK is AA against KK: the time limit holds and the answer is
    the plain AA-vs-KK equity (about 81.9 %)."""
    r, seconds = _cli("-a", str(artifacts), "equity", "AA:0.000000001", "--vs", "KK", "--time", "1",
                      "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert seconds < 12 and out["samples"] > 100_000
    assert abs(out["equity"] - 0.8195) < 5 * out["stderr"] + 1e-3, out["equity"]


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[dict[str, Any], float]:
    """The command's JSON answer, run in this process (no process state is under test), and
    how long it took."""
    t0 = time.perf_counter()
    code, out, err = run_main(capsys, *args)
    assert code == 0, err
    return json.loads(out), time.perf_counter() - t0


def test_random_vs_random_is_exact_from_the_matchup_table(artifacts: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["preflop", "random"], ["equity", "random", "--vs", "random"]):
        out, seconds = _main(capsys, "-a", str(artifacts), *args, "--json")
        assert out["method"] == "exact" and out["equity"] == 0.5
        assert out["opponents"] == 1 and seconds < 10
        c = out["counts"]
        assert c["win"] == c["lose"] and c["win"] + c["tie"] + c["lose"] == out["deals"]


def test_omaha_honours_samples_stderr_time_and_seed(artifacts: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    base = ["-a", str(artifacts), "equity", "AsKsQhJh", "--json"]
    ja, _ = _main(capsys, *base, "--samples", "50000", "--seed", "3")
    jb, _ = _main(capsys, *base, "--samples", "50000", "--seed", "3")
    assert ja["samples"] == 50_000 and ja["seed"] == 3 and ja["counts"] == jb["counts"]
    jc, _ = _main(capsys, *base, "--stderr", "0.004", "--seed", "4")
    assert jc["stderr"] <= 0.004 and "stderr was below 0.004" in jc["note"], jc
    jd, seconds = _main(capsys, *base, "--time", "0.5")
    assert "time limit" in jd["note"] and seconds < 12
    je, _ = _main(capsys, *base, "--samples", "20000")
    jf, _ = _main(capsys, *base, "--samples", "20000")
    assert je["seed"] != jf["seed"]  # fresh seeds, as hold'em


def test_a_missed_target_says_so() -> None:
    """The deal cap stops a target rule: the answer says the target was missed."""
    import numpy as np

    from pipeline.equity.montecarlo.driver import N_COLS, drive_rounds, stop_note

    def play(sizes: np.ndarray, stream0: int) -> tuple[np.ndarray, int]:
        n = int(sizes.sum())
        acc = np.zeros((1, N_COLS), np.int64)
        acc[0, 0] = n // 2
        acc[0, 2] = n - n // 2
        acc[0, 3] = (n // 2) * 2520
        acc[0, 4] = (n // 2) * 2520 * 2520
        return acc, n

    tot = drive_rounds(play, 1, target=1e-5, max_samples=200_000)
    assert tot.stopped == "max-samples" and tot.deals <= 200_000 + 16 * 1024
    note = stop_note(tot, 1e-5, None)
    assert note is not None and "before reaching the target" in note


def _cap_deals(monkeypatch: pytest.MonkeyPatch, cap: int) -> None:
    """Lower the Monte Carlo deal cap (``max_samples``, a default argument of ``drive_rounds``
    and ``run_mc``, which every hold'em and Omaha door calls without it) for this test."""
    import inspect

    from pipeline.equity.montecarlo import driver as montecarlo

    for fn in (montecarlo.drive_rounds, montecarlo.run_mc):
        names = [q.name for q in inspect.signature(fn).parameters.values()
                 if q.default is not inspect.Parameter.empty]
        defaults = list(fn.__defaults__ or ())
        assert len(defaults) == len(names) and defaults[names.index("max_samples")] > cap
        defaults[names.index("max_samples")] = cap
        monkeypatch.setattr(fn, "__defaults__", tuple(defaults))


CAP = 40_000


@pytest.mark.parametrize("hand", ["AsKs", "AsKsQhJh"], ids=["holdem", "omaha"])
@pytest.mark.parametrize("rule", [["--stderr", "0.00001"], ["--time", "600"]], ids=["stderr", "time"])
def test_a_missed_target_reaches_the_json_note(artifacts: Path, hand: str, rule: list[str],
                                               monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """Item 5: when --stderr or --time runs into the deal cap (lowered here), the command's
    JSON says so in its note: the deals it stopped at and the stderr it reached, which is
    above the asked target; --time stops at the cap long before its limit."""
    _cap_deals(monkeypatch, CAP)
    t0 = time.perf_counter()
    code, out, err = run_main(capsys, "-a", str(artifacts), "equity", hand, *rule, "--seed", "5",
                              "--json")
    assert code == 0, err
    assert time.perf_counter() - t0 < 300
    doc = json.loads(out)
    deals = doc["samples"]
    assert CAP <= deals <= CAP + 16 * 1024, deals
    note = doc["note"]
    assert note.startswith(f"stopped at the {deals:,}-deal cap before reaching the target: "
                           "the largest stderr is "), note
    if rule[0] == "--stderr":
        assert doc["stderr"] > 0.00001
