"""Issue 12 (items 3, 4): derived strategy charts judged exactly, cross-play of strategies,
bankroll figures (hit frequency, N-play variance, risk of ruin) against an independent Monte
Carlo of the game built on the 5-card evaluator."""

from __future__ import annotations

import dataclasses
import json
import math
import random
import subprocess
from fractions import Fraction
from math import comb
from pathlib import Path

import h5py
import numba as nb
import numpy as np
import pyarrow.parquet as pq
import pytest
from cli_runner import run_cli, run_here, run_main

from pipeline.core.cards import BINOM
from pipeline.videopoker.charts.chart import chart_maker, exact_return
from pipeline.videopoker.paytables.paytable import ROYAL, load_paytable
from pipeline.videopoker.solver.analysis import compute_counts
from pipeline.videopoker.solver.bankroll import (
    bankroll_figures,
    deal_moments,
    hit_frequency,
    long_run_ruin,
    n_play_variance,
    ruin_table,
)
from pipeline.videopoker.solver.holds import hold_table
from pipeline.videopoker.tools.strategy_io import cross_play, default_chart, read_strategy_data

ROOT = Path(__file__).resolve().parent.parent
PAYTABLES = ROOT / "pipeline" / "data" / "paytables"
CHART_GAMES = ("jacks-or-better-9-6", "deuces-wild-full-pay", "double-joker-full-pay")
MAX_LINES = 40
MAX_COST = Fraction(2, 10_000)          # 0.02 percentage points
Z = 5.0                                 # Monte Carlo bound in standard errors
#: Jacks or Better 8/5's exact optimal return (97.2984%, as published)
JOB85_RETURN = "1616226757427/1661102543100"


def _pt(slug: str):  # type: ignore[no-untyped-def]
    return load_paytable(PAYTABLES / f"{slug}.toml")


def _cli(*args: str, artifacts: Path) -> subprocess.CompletedProcess[str]:
    return run_cli("--artifacts", str(artifacts), *args)


# ------------------------------------------------------------------ charts

@pytest.mark.parametrize("slug", CHART_GAMES)
def test_chart_short_and_within_two_hundredths_of_a_point(artifacts: Path, slug: str) -> None:
    pt = _pt(slug)
    h5 = artifacts / "paytables" / f"{slug}.h5"
    data = read_strategy_data(pt, h5)
    chart = default_chart(data)
    # wild Double Joker needs more lines than the others to come within 0.02 points (issue 20)
    assert 5 <= len(chart.lines) <= (60 if slug == "double-joker-full-pay" else MAX_LINES)
    assert chart.lines[-1].text == "discard everything"
    assert Fraction(0) <= chart.cost <= MAX_COST, float(chart.cost)
    with h5py.File(h5, "r") as f:
        s = f["strategy"]
        ev, weight, exported = s["ev"][:], s["weight"][:].astype(np.int64), s["chart_hold"][:]
        optimal = Fraction(f.attrs["return_exact"])
        assert Fraction(s["chart_hold"].attrs["chart_return_exact"]) == chart.return_exact
    # the exported holds are the chart's, in HDF5 and in the Parquet column
    assert np.array_equal(exported, chart.holds)
    col = pq.read_table(artifacts / "parquet" / "paytables" / f"paytable={slug}" / "part-0.parquet",
                        columns=["chart_hold"]).column("chart_hold").to_numpy()
    assert np.array_equal(col, exported)
    # independent recomputation from strategy/ev: a float sum, and exact per-hold EVs
    rows = np.arange(len(weight))
    approx = math.fsum((weight * ev[rows, exported]).tolist()) / comb(pt.deck_size, 5)
    assert abs(approx - float(chart.return_exact)) < 1e-12
    assert exact_return(ev, weight, s_best(h5), pt) == optimal == chart.optimal_exact
    assert chart.optimal_exact - chart.return_exact == chart.cost
    counted = Fraction(sum(ln.deals for ln in chart.lines))
    assert counted == comb(pt.deck_size, 5)


def s_best(h5: Path) -> np.ndarray:
    with h5py.File(h5, "r") as f:
        return f["strategy/best_hold"][:]


def test_chart_holds_have_the_exact_evs_the_return_uses(artifacts: Path) -> None:
    """The EV of the chart's hold, recomputed exactly from the subset counts, is the one summed."""
    pt = _pt("jacks-or-better-9-6")
    h5 = artifacts / "paytables" / "jacks-or-better-9-6.h5"
    with h5py.File(h5, "r") as f:
        hands, holds, ev = f["strategy/hands"][:], f["strategy/chart_hold"][:], f["strategy/ev"][:]
    pay_cat, counts = compute_counts(pt)
    rng = random.Random(12)
    for i in rng.sample(range(len(hands)), 40):
        cards = [int(c) for c in hands[i]]
        rows = hold_table(pt, cards, pay_cat, counts)
        kept = [cards[t] for t in range(5) if holds[i] >> t & 1]
        row = next(r for r in rows if r["held"] == len(kept)
                   and [cards[p - 1] for p in r["positions"]] == kept)
        assert Fraction(row["ev_exact"]) == Fraction(round(ev[i, holds[i]] * comb(47, 5 - len(kept))),
                                                     comb(47, 5 - len(kept)))


def test_fewer_lines_cost_more(artifacts: Path) -> None:
    pt = _pt("jacks-or-better-9-6")
    h5 = artifacts / "paytables" / "jacks-or-better-9-6.h5"
    data = read_strategy_data(pt, h5)
    make = chart_maker(data)   # both line counts from one search start, as the build does
    short = make(15)
    assert len(short.lines) <= 15
    full = make(MAX_LINES)
    assert short.cost > full.cost
    # the second line count starts from the improved order again, not from the 15-line chart:
    # it is the chart a fresh derivation gives, the one the build exported
    with h5py.File(h5, "r") as f:
        assert np.array_equal(full.holds, f["strategy/chart_hold"][:])


def test_vp_chart_cli(artifacts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The chart in this process; the refusal (exit 2, one line) in a real one."""
    r = run_here(capsys, "--artifacts", str(artifacts), "vp", "chart", "jacks-or-better-9-6", "--json")
    assert r.returncode == 0, r.stderr
    info = json.loads(r.stdout)
    assert len(info["lines"]) <= MAX_LINES
    assert Fraction(info["optimal_return_exact"]) - Fraction(info["chart_return_exact"]) == \
        Fraction(info["cost_exact"])
    assert info["lines"][0]["hold"].startswith("royal flush")
    bad = _cli("vp", "chart", "no-such-game", artifacts=artifacts)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "no-such-game" in bad.stderr


# ------------------------------------------------------------------ cross-play

def test_strategy_cross_play(artifacts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d96 = read_strategy_data(_pt("jacks-or-better-9-6"), artifacts / "paytables" / "jacks-or-better-9-6.h5")
    d85 = read_strategy_data(_pt("jacks-or-better-8-5"), artifacts / "paytables" / "jacks-or-better-8-5.h5")
    same = cross_play(d85, d85)
    assert same["cost_exact"] == "0/1" and same["return_exact"] == same["optimal_return_exact"]
    with h5py.File(artifacts / "paytables" / "jacks-or-better-8-5.h5", "r") as f:
        assert Fraction(same["return_exact"]) == Fraction(f.attrs["return_exact"])
    x = cross_play(d96, d85)
    played = Fraction(x["return_exact"])
    assert 0 < Fraction(x["cost_exact"]) == Fraction(x["optimal_return_exact"]) - played
    rows = np.arange(len(d85.weight))
    approx = math.fsum((d85.weight * d85.ev[rows, d96.best]).tolist()) / comb(52, 5)
    assert abs(approx - float(played)) < 1e-12
    assert x["deals_played_differently"] > 0
    r = run_here(capsys, "--artifacts", str(artifacts), "vp", "analyze", str(PAYTABLES / "jacks-or-better-8-5.toml"),
                 "--strategy", "jacks-or-better-9-6", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["played_strategy"]["return_exact"] == x["return_exact"]


def _count_calls(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[int]:
    """Wrap ``module.name`` for the test: the list grows by one at each call."""
    calls: list[int] = []
    real = getattr(module, name)

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counting)
    return calls


@pytest.mark.full_tier  # builds or solves for seconds: not the fast tier
def test_analyze_solves_each_game_once_without_artifacts(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """With no current artifact ``vp analyze`` solves the game once, also with ``--strategy``
    (the cross-play reuses that solve; it used to solve the game a second time)."""
    import pipeline.videopoker.solver.analysis as analysis

    solved = _count_calls(monkeypatch, analysis, "solve_holds")
    code, out, err = run_main(capsys, "-a", str(tmp_path), "vp", "analyze", "jacks-or-better-8-5", "--json")
    assert code == 0, err
    assert len(solved) == 1 and json.loads(out)["return_exact"] == JOB85_RETURN
    code, out, err = run_main(capsys, "-a", str(tmp_path), "vp", "analyze", "jacks-or-better-8-5",
                              "--strategy", "jacks-or-better-9-6", "--json")
    assert code == 0, err
    assert len(solved) == 3  # this game once more, the strategy's game once
    played = json.loads(out)["played_strategy"]
    assert played["optimal_return_exact"] == JOB85_RETURN and played["deals_played_differently"] > 0


@pytest.mark.full_tier  # analyses and derives an edited game's chart: seconds
def test_chart_of_an_edited_game_analyses_it_once(artifacts: Path, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """``vp chart`` of an edited game (no artifact) analyses it once for the chart and its
    figures (the figures used to analyse it again: +0.2-0.4 s), and the chart judges against
    that analysis: its optimal return is ``vp analyze``'s for the same edit."""
    import pipeline.videopoker.solver.analysis as analysis

    analysed = _count_calls(monkeypatch, analysis, "analyze")
    edit = ("--pay", "full house=8")
    code, out, err = run_main(capsys, "-a", str(artifacts), "vp", "chart", "jacks-or-better-9-6", *edit, "--json")
    assert code == 0, err
    assert len(analysed) == 1
    info = json.loads(out)
    assert info["source"] == "computed now (no current artifact)"
    assert sum(Fraction(ln["loss_exact"]) for ln in info["lines"]) == Fraction(info["cost_exact"]) > 0
    code, out, err = run_main(capsys, "-a", str(artifacts), "vp", "analyze", "jacks-or-better-9-6", *edit, "--json")
    assert code == 0, err
    assert json.loads(out)["return_exact"] == info["optimal_return_exact"]


# ------------------------------------------------------------------ bankroll: exact parts

def _arrays(artifacts: Path, slug: str):  # type: ignore[no-untyped-def]
    with h5py.File(artifacts / "paytables" / f"{slug}.h5", "r") as f:
        s = f["strategy"]
        return (s["weight"][:].astype(np.int64), s["best_hold"][:], s["best_counts"][:],
                [int(x) for x in f["final_counts"][:]], int(f["final_counts"].attrs["denominator"]),
                Fraction(f.attrs["return_exact"]), Fraction(f.attrs["variance_exact"]))


def test_hit_frequency_and_moments_job96(artifacts: Path) -> None:
    pt = _pt("jacks-or-better-9-6")
    weight, best, counts, finals, den, ret, var = _arrays(artifacts, "jacks-or-better-9-6")
    hit = hit_frequency(pt, weight, best, counts)
    paying = sum((Fraction(c, den) for c, p in zip(finals, pt.pays) if p > 0), Fraction(0))
    assert hit == paying
    assert round(float(hit), 4) == 0.4546        # Wizard of Odds: 45.46% (45.4565%)
    e1, e2, e11 = deal_moments(pt, weight, best, counts)
    assert e1 == ret and e2 - e1 * e1 == var
    assert n_play_variance(e1, e2, e11, 1) == var
    # N-play variance lies between N * (single-hand variance) and N^2 * it
    for n in (3, 5, 10, 50, 100):
        v = n_play_variance(e1, e2, e11, n)
        assert n * var < v < n * n * var


def test_bankroll_figures_in_analyze_json_and_summary(artifacts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run_here(capsys, "--artifacts", str(artifacts), "vp", "analyze", str(PAYTABLES / "deuces-wild-full-pay.toml"),
                 "--json")
    assert r.returncode == 0, r.stderr
    b = json.loads(r.stdout)["bankroll"]
    assert [x["hands"] for x in b["n_play"]] == [1, 3, 5, 10, 50, 100]
    rr = b["risk_of_ruin"]
    assert rr["error_bound"] < 1e-8 and 0 < rr["long_run_rho"] < 1   # return > 1: ruin not sure
    long = {x["bankroll"]: x["risk_of_ruin"] for x in rr["long_run"]}
    for row in rr["rows"]:
        assert row["risk_of_ruin"] <= long[row["bankroll"]] + 1e-9
    rows = pq.read_table(artifacts / "parquet" / "paytable_summary.parquet").to_pylist()
    dw = next(x for x in rows if x["slug"] == "deuces-wild-full-pay")
    assert dw["hit_frequency"] == pytest.approx(b["hit_frequency"], abs=1e-15)
    assert dw["variance_5_play"] == pytest.approx(b["n_play"][2]["variance"], rel=1e-15)
    job = next(x for x in rows if x["slug"] == "jacks-or-better-9-6")
    assert job["ruin_100_bets_long_run"] == 1.0     # return < 1: ruin is certain in the long run


def test_long_run_rho_is_the_walk_root(artifacts: Path) -> None:
    pt = _pt("deuces-wild-full-pay")
    weight, best, counts, finals, den, _, _ = _arrays(artifacts, "deuces-wild-full-pay")
    figs = bankroll_figures(pt, finals, den, weight, best, counts)
    with h5py.File(artifacts / "paytables" / "deuces-wild-full-pay.h5", "r") as h5:
        stored = json.loads(h5.attrs["bankroll"])      # what the build stored = computed now
    assert stored["n_play"] == figs["n_play"] and stored["risk_of_ruin"] == figs["risk_of_ruin"]
    rho = figs["risk_of_ruin"]["long_run_rho"]
    f = sum(float(Fraction(c, den)) * rho ** int(p) for c, p in zip(finals, pt.pays))
    assert abs(f - rho) < 1e-12
    # finite horizons approach the long-run figure from below
    tab = ruin_table(pt.pays, [Fraction(c, den) for c in finals], (20,), (2000, 20000))
    r2k, r20k = (row["risk_of_ruin"] for row in tab["rows"])
    assert r2k < r20k <= rho ** 20 + 1e-9


# ------------------------------------------------------------------ bankroll: Monte Carlo

@nb.njit(cache=True)
def _draw_pay(cards: np.ndarray, hold: int, deck: np.ndarray, pay_of_hand: np.ndarray,
              binom: np.ndarray, final: np.ndarray) -> int:
    """One hand: keep the held cards, draw the rest uniformly from the 47 unseen, pay it
    (``final``: scratch for the five cards, so no hand allocates)."""
    n = 0
    for t in range(5):
        if (hold >> t) & 1:
            final[n] = cards[t]
            n += 1
    rest = deck.shape[0]
    for j in range(5 - n):
        k = j + np.random.randint(rest - j)
        deck[j], deck[k] = deck[k], deck[j]
        final[n + j] = deck[j]
    final.sort()
    idx = 0
    for t in range(5):
        idx += binom[final[t], t + 1]
    return pay_of_hand[idx]


@nb.njit(cache=True)
def _sample_deal(cum: np.ndarray) -> int:
    u = np.random.randint(cum[-1])
    return np.searchsorted(cum, u, side="right")


@nb.njit(cache=True)
def _deal(hands: np.ndarray, i: int, cards: np.ndarray, deck: np.ndarray) -> None:
    """Class i's five cards into ``cards``, the 47 unseen (ascending) into ``deck``."""
    for t in range(5):
        cards[t] = hands[i, t]
    n = 0
    for c in range(52):
        if c != cards[0] and c != cards[1] and c != cards[2] and c != cards[3] and c != cards[4]:
            deck[n] = c
            n += 1


@nb.njit(cache=True)
def _mc_nplay(seed: int, deals: int, n_hands: int, hands: np.ndarray, cum: np.ndarray,
              best: np.ndarray, pay_of_hand: np.ndarray, binom: np.ndarray) -> np.ndarray:
    """Totals of N hands played on sampled deals: out[j, 0] total, out[j, 1..2] hands 1 and 2."""
    np.random.seed(seed)
    out = np.empty((deals, 3))
    cards = np.empty(5, np.int64)
    deck = np.empty(47, np.int64)
    final = np.empty(5, np.int64)
    for j in range(deals):
        i = _sample_deal(cum)
        _deal(hands, i, cards, deck)
        tot = 0
        for h in range(n_hands):
            p = _draw_pay(cards, best[i], deck, pay_of_hand, binom, final)
            tot += p
            if h < 2:
                out[j, 1 + h] = p
        out[j, 0] = tot
    return out


@nb.njit(cache=True)
def _mc_ruin(seed: int, sessions: int, bankroll: int, hands_max: int, hands: np.ndarray,
             cum: np.ndarray, best: np.ndarray, pay_of_hand: np.ndarray, binom: np.ndarray) -> int:
    np.random.seed(seed)
    ruined = 0
    cards = np.empty(5, np.int64)
    deck = np.empty(47, np.int64)
    final = np.empty(5, np.int64)
    for _ in range(sessions):
        b = bankroll
        for _h in range(hands_max):
            i = _sample_deal(cum)
            _deal(hands, i, cards, deck)
            b += _draw_pay(cards, best[i], deck, pay_of_hand, binom, final) - 1
            if b < 1:
                ruined += 1
                break
    return ruined


@pytest.fixture(scope="module")
def job_game(artifacts: Path):  # type: ignore[no-untyped-def]
    """Jacks or Better 9/6 paid from the 5-card score table (not the video poker classifier)."""
    with h5py.File(artifacts / "five.h5", "r") as f:
        score = f["score"][:].astype(np.int64)
        cat = f["classes/category"][:].astype(np.int64)
        ranks = f["classes/ranks"][:].astype(np.int64)
        names = [x.decode() if isinstance(x, bytes) else str(x) for x in f["classes/name"][:]]
    pay_by_cat = {8: 50, 7: 25, 6: 9, 5: 6, 4: 4, 3: 3, 2: 2, 1: 0, 0: 0}
    pay = np.zeros(len(cat) + 1, np.int64)
    for row in range(len(cat)):
        p = pay_by_cat[int(cat[row])]
        if cat[row] == 1 and ranks[row, 0] >= 9:          # pair of jacks or better
            assert "Pair of" in names[row]
            p = 1
        pay[row + 1] = p
    pay[len(cat)] = 800                                   # the top score is the royal flush
    with h5py.File(artifacts / "paytables" / "jacks-or-better-9-6.h5", "r") as f:
        s = f["strategy"]
        hands, weight, best = s["hands"][:], s["weight"][:].astype(np.int64), s["best_hold"][:]
    # the pay of every 5-card hand (colex), int16: a quarter of the int64 scores' cache misses
    return hands, np.cumsum(weight), best.astype(np.int64), pay[score].astype(np.int16)


def test_n_play_variance_matches_monte_carlo(artifacts: Path, job_game) -> None:  # type: ignore[no-untyped-def]
    hands, cum, best, pay = job_game
    pt = _pt("jacks-or-better-9-6")
    weight, best_h, counts, *_ = _arrays(artifacts, "jacks-or-better-9-6")
    e1, e2, e11 = deal_moments(pt, weight, best_h, counts)
    n_hands, deals = 5, 400_000
    x = _mc_nplay(20261122, deals, n_hands, hands, cum, best, pay, BINOM)
    tot = x[:, 0]
    mean = tot.mean()
    dev = tot - mean
    var = float((dev ** 2).sum() / (deals - 1))
    se_var = math.sqrt(max(float((dev ** 4).mean()) - var * var, 0.0) / deals)
    exact = float(n_play_variance(e1, e2, e11, n_hands))
    assert abs(var - exact) < Z * se_var, (var, exact, se_var)
    # the cross-hand covariance: Var(E[X | deal])
    a, b = x[:, 1] - x[:, 1].mean(), x[:, 2] - x[:, 2].mean()
    prod = a * b
    cov, se_cov = float(prod.mean()), float(prod.std() / math.sqrt(deals))
    assert abs(cov - float(e11 - e1 * e1)) < Z * se_cov, (cov, float(e11 - e1 * e1), se_cov)
    assert abs(mean / n_hands - float(e1)) < Z * tot.std() / n_hands / math.sqrt(deals)


def test_n_play_variance_monte_carlo_light_tail(artifacts: Path, job_game) -> None:  # type: ignore[no-untyped-def]
    """The royal (800) dominates the variance, so its Monte Carlo error is wide; with the royal
    paid 50 (same holds, same final hands) the exact N-play variance is checked tightly."""
    hands, cum, best, pay = job_game
    pt = _pt("jacks-or-better-9-6")
    capped = dataclasses.replace(pt, lines=tuple(
        dataclasses.replace(ln, pays=Fraction(50)) if ln.code == ROYAL else ln for ln in pt.lines))
    weight, best_h, counts, *_ = _arrays(artifacts, "jacks-or-better-9-6")
    e1, e2, e11 = deal_moments(capped, weight, best_h, counts)
    pay_capped = pay.copy()
    pay_capped[pay == 800] = 50
    for n_hands, seed in ((3, 11), (10, 12)):
        deals = 200_000
        tot = _mc_nplay(seed, deals, n_hands, hands, cum, best, pay_capped, BINOM)[:, 0]
        dev = tot - tot.mean()
        var = float((dev ** 2).sum() / (deals - 1))
        se_var = math.sqrt(max(float((dev ** 4).mean()) - var * var, 0.0) / deals)
        exact = float(n_play_variance(e1, e2, e11, n_hands))
        assert se_var < 0.05 * exact
        assert abs(var - exact) < Z * se_var, (n_hands, var, exact, se_var)


def test_risk_of_ruin_matches_monte_carlo(artifacts: Path, job_game) -> None:  # type: ignore[no-untyped-def]
    hands, cum, best, pay = job_game
    pt = _pt("jacks-or-better-9-6")
    _, _, _, finals, den, _, _ = _arrays(artifacts, "jacks-or-better-9-6")
    bankroll, horizon, sessions = 25, 400, 20_000
    dp = ruin_table(pt.pays, [Fraction(c, den) for c in finals], (bankroll,), (horizon,))
    p = dp["rows"][0]["risk_of_ruin"]
    assert 0.2 < p < 0.9 and dp["error_bound"] < 1e-8
    hits = _mc_ruin(7, sessions, bankroll, horizon, hands, cum, best, pay, BINOM)
    se = math.sqrt(p * (1 - p) / sessions)
    assert abs(hits / sessions - p) < Z * se, (hits / sessions, p, se)


def test_ruin_recursion_equals_the_plain_per_bankroll_loop() -> None:
    """The vectorised ruin recursion gives the plain loop's numbers bit for bit: same terms,
    same order (also with pays past the top state and with the capped upper bound)."""
    from pipeline.videopoker.solver.bankroll import _ruin_dp

    def plain(probs: list[float], pays: list[int], bet: int, top: int, hands: list[int],
              upper: bool) -> list[list[float]]:
        cur = [1.0] * bet + [0.0] * (top + 1 - bet)
        out = []
        for h in range(max(hands) + 1):
            if h in hands:
                out.append(list(cur))
            nxt = [1.0] * bet + [0.0] * (top + 1 - bet)
            for b in range(bet, top + 1):
                acc = 0.0
                for p, k in zip(probs, pays):
                    t = b - bet + k
                    if t <= top:
                        acc += p * cur[t]
                    elif upper:
                        acc += p * cur[top]
                nxt[b] = acc
            cur = nxt
        return out

    rng = np.random.default_rng(5)
    for pays, bet, top in (([0, 1, 2, 3, 4, 6, 9, 25, 50, 800], 1, 40), ([0, 2, 5, 30], 1, 60),
                           ([0, 1, 99], 1, 20), ([0, 1, 3, 5, 12], 2, 50), ([0, 3, 5, 9, 400], 4, 70)):
        probs = rng.random(len(pays))
        probs /= probs.sum()
        hands = [0, 1, 7, 30]
        for upper in (False, True):
            want = plain(probs.tolist(), pays, bet, top, hands, upper)
            got = _ruin_dp(probs, np.array(pays, np.int64), bet, top, np.array(hands, np.int64), upper,
                           0.0)
            assert got.tolist() == want
            # with a floor, values below it become 0 after every step: each differs from the
            # plain loop's by at most floor per step, and none is left in (0, floor)
            floor = sorted(x for row in want for x in row if x > 0)[10]   # bites: 10 below it
            cut = _ruin_dp(probs, np.array(pays, np.int64), bet, top, np.array(hands, np.int64),
                           upper, floor)
            for h, row, ref in zip(hands, cut.tolist(), want):
                assert all(x == 0 or x >= floor for x in row)
                assert max(abs(x - y) for x, y in zip(row, ref)) <= h * floor


def test_long_run_ruin_with_fractional_pays_is_bracketed_not_certain() -> None:
    """Issue 20 item 3: a game returning 109% with a 0.5 pay is not ruined for sure. The long-run
    figure brackets the finite-horizon DP (money in half bets) run far enough to converge."""
    from pipeline.videopoker.solver.bankroll import long_run_rows

    pays = [Fraction(0), Fraction(1, 2), Fraction(2), Fraction(5)]
    probs = [Fraction(455, 1000), Fraction(200, 1000), Fraction(245, 1000), Fraction(100, 1000)]
    assert sum(p * q for p, q in zip(pays, probs)) == Fraction(109, 100)
    rho, err = long_run_ruin(pays, probs)
    assert 0 < rho < 1 and err < 1e-12
    rows = long_run_rows(pays, rho, (5, 10, 20))
    dp = ruin_table(pays, probs, (5, 10, 20), (20_000,))
    for row, far in zip(rows, dp["rows"]):
        assert row["risk_of_ruin"] < 0.9
        assert abs(far["risk_of_ruin"] - row["risk_of_ruin"]) <= row["error_bound"] + 1e-9, (row, far)
    # whole-number pays: the bracket closes, P = rho^B
    whole = [Fraction(0), Fraction(1), Fraction(3)]
    wp = [Fraction(6, 10), Fraction(2, 10), Fraction(2, 10)]
    rho_w, _ = long_run_ruin(whole, wp)
    far_w = ruin_table(whole, wp, (10,), (20_000,))["rows"][0]["risk_of_ruin"]
    (row_w,) = long_run_rows(whole, rho_w, (10,))
    assert row_w["error_bound"] == 0 and abs(row_w["risk_of_ruin"] - far_w) < 1e-9


def test_ruin_dp_work_is_bounded_for_huge_pays() -> None:
    """Issue 20 item 16: a 1,000,000-bet royal answers at once with a note, not minutes of DP."""
    import time

    pays = [Fraction(0), Fraction(1), Fraction(1_000_000)]
    probs = [Fraction(1, 2), Fraction(1, 2) - Fraction(1, 40_000), Fraction(1, 40_000)]
    t0 = time.perf_counter()
    out = ruin_table(pays, probs, (100, 1600), (1000, 10000))
    assert time.perf_counter() - t0 < 2
    assert "skipped" in out["note"] and "rows" not in out
