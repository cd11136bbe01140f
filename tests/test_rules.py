"""Issue 6: rule sets beyond standard high poker, checked against independent brute force."""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections import Counter
from math import comb
from pathlib import Path

import h5py
import numpy as np
import pytest
from cli_runner import run_here, run_main

from pipeline.query.tables import Tables
from pipeline.rules import load_rules
from pipeline.rules.tables import build_five

ROOT = Path(__file__).resolve().parent.parent
RANKS = "23456789TJQKA"


def brute_category(cards: tuple[int, ...], deck_low: int, straights: bool = True,
                   flushes: bool = True, wheel: bool = True) -> str:
    """Independent classifier: names the category of five cards by direct inspection."""
    ranks = sorted(c // 4 for c in cards)
    suits = {c % 4 for c in cards}
    counts = sorted(Counter(ranks).values(), reverse=True)
    flush = flushes and len(suits) == 1
    uniq = sorted(set(ranks))
    straight = False
    if straights and len(uniq) == 5:
        straight = uniq[4] - uniq[0] == 4 or (wheel and uniq == [deck_low, deck_low + 1, deck_low + 2,
                                                                  deck_low + 3, 12])
    if straight and flush:
        return "straight flush"
    if counts[0] == 4:
        return "four of a kind"
    if counts[:2] == [3, 2]:
        return "full house"
    if flush:
        return "flush"
    if straight:
        return "straight"
    if counts[0] == 3:
        return "three of a kind"
    if counts[:2] == [2, 2]:
        return "two pair"
    if counts[0] == 2:
        return "pair"
    return "high card"


CATS = ["high card", "pair", "two pair", "three of a kind", "straight", "flush", "full house",
        "four of a kind", "straight flush"]


@pytest.mark.parametrize("name,cards", [("short-deck", 36), ("hk-stud", 28)])
def test_small_deck_category_counts_match_brute_force(name: str, cards: int) -> None:
    rules = load_rules(name)
    low = RANKS.index(rules.ranks[0])
    deck = range(4 * low, 52)
    expected = Counter(brute_category(h, low) for h in itertools.combinations(deck, 5))
    assert sum(expected.values()) == comb(cards, 5)
    t = build_five(rules)
    got = np.bincount(t.category[t.score5.astype(np.int64) - 1], minlength=9)
    assert {CATS[i]: int(n) for i, n in enumerate(got) if n} == dict(expected)


def test_lowball_category_counts_by_counting_argument() -> None:
    # ace-to-five ignores straights and flushes: their hands fall back to "high card";
    # deuce-to-seven loses only the four-card wheel straights (A-2-3-4-5): 4^5 hands,
    # 4 of them suited (wheel straight flushes become ace-high flushes)
    std = {"high card": 1_302_540, "pair": 1_098_240, "two pair": 123_552, "three of a kind": 54_912,
           "straight": 10_200, "flush": 5_108, "full house": 3_744, "four of a kind": 624,
           "straight flush": 40}
    # recompute the standard counts independently from rank patterns
    pat = {"four of a kind": 13 * 12 * 4, "full house": 13 * 12 * 4 * 6,
           "three of a kind": 13 * comb(12, 2) * 4 * 16, "two pair": comb(13, 2) * 11 * 36 * 4,
           "pair": 13 * comb(12, 3) * 6 * 64, "straight flush": 10 * 4,
           "straight": 10 * (4 ** 5 - 4), "flush": 4 * (comb(13, 5) - 10)}
    pat["high card"] = (comb(13, 5) - 10) * (4 ** 5 - 4)
    assert pat == std
    a5 = build_five(load_rules("ace-to-five"))
    got = np.bincount(a5.category[a5.score5.astype(np.int64) - 1], minlength=9)
    assert got[4] == got[5] == got[8] == 0
    assert got[0] == std["high card"] + std["straight"] + std["flush"] + std["straight flush"]
    d27 = build_five(load_rules("deuce-to-seven"))
    got = np.bincount(d27.category[d27.score5.astype(np.int64) - 1], minlength=9)
    assert got[4] == std["straight"] - (4 ** 5 - 4)
    assert got[8] == std["straight flush"] - 4
    assert got[5] == std["flush"] + 4
    assert got[0] == std["high card"] + (4 ** 5 - 4)
    assert len(a5.names) == 6175 and len(d27.names) == 7462


def test_standard_rule_file_reproduces_five_h5(artifacts: Path) -> None:
    t = build_five(load_rules("standard"))
    with h5py.File(artifacts / "five.h5", "r") as f:
        assert np.array_equal(f["score"][:], t.score5)
        assert [n.decode() for n in f["classes/name"][:]] == t.names


def test_rule_builds_leave_standard_files_byte_identical(built_here: Path) -> None:
    from pipeline.build.config import load_config
    from pipeline.build.runner import run_build
    from pipeline.build.store import read_manifest, sha256_file

    before = {n: sha256_file(built_here / n) for n in ("five.h5", "six.h5")}
    run_build(load_config(ROOT / "configs" / "build.toml", built_here), ["rules"], force=True, wait=True)
    after = {n: sha256_file(built_here / n) for n in before}
    assert before == after
    mf = read_manifest(built_here)["files"]
    assert all(mf[n]["sha256"] == after[n] for n in after)


@pytest.fixture(scope="module")
def short(artifacts: Path) -> Tables:
    return Tables(artifacts, rules="short-deck")


def test_short_deck_rules(short: Tables) -> None:
    flush = short.score5("2h 7h 9h Jh Kh".replace("2h", "6h"))
    full = short.score5("Ks Kd Kh 9c 9h")
    assert flush > full
    assert short.category(short.score5("As 6d 7h 8c 9s")) == 4  # A-6-7-8-9 is a straight
    assert short.score5("As 6d 7h 8c 9s") < short.score5("6s 7d 8h 9c Ts")  # and the lowest one
    with pytest.raises(ValueError, match="not in the short-deck deck"):
        short.score5("2s 6d 7h 8c 9s")
    # 7 cards: best five of seven, and batch == single
    rng = np.random.default_rng(3)
    hands = np.array([rng.choice(np.arange(16, 52), 7, replace=False) for _ in range(300)])
    batch = short.score7(hands)
    assert [short.score7([int(c) for c in h]) for h in hands[:50]] == batch[:50].tolist()
    for h, s in zip(hands[:100], batch[:100]):
        assert s == max(short.score5([int(c) for c in sub]) for sub in itertools.combinations(h, 5))


def test_lowball_and_stud_extremes(artifacts: Path) -> None:
    d27 = Tables(artifacts, rules="deuce-to-seven")
    best = d27.score5("7s 5d 4h 3c 2c")
    assert best == len(d27.classes["name"]) - 1
    assert d27.name(d27.score5("As 2d 3h 4c 5c")).startswith("A-5-4-3-2")  # ace-high, no straight
    assert d27.score5("As 2d 3h 4c 5c") < d27.score5("Ks Qd Jh 9c 8c")
    a5 = Tables(artifacts, rules="ace-to-five")
    assert a5.score5("As 2s 3s 4s 5s") == len(a5.classes["name"]) - 1  # suited wheel is the nuts
    assert a5.score5("As 2d 3h 4c 5c") == a5.score5("As 2s 3s 4s 5s")
    assert a5.score5("6s 4d 3h 2c Ac") > a5.score5("6s 5d 3h 2c Ac")
    hk = Tables(artifacts, rules="hk-stud")
    # spades > hearts > clubs > diamonds breaks otherwise equal hands
    assert hk.score5("As Kd Qh Jc 9d") > hk.score5("Ah Ks Qs Js 9s")
    # A-8-9-T-J is the second-highest straight
    wheel = hk.score5("As 8d 9h Tc Jd")
    assert hk.category(wheel) == 4
    assert hk.score5("Ks Qd Jh Tc 9d") < wheel < hk.score5("As Kd Qh Jc Td")


def test_cli_rules_flags(artifacts: Path, capsys: pytest.CaptureFixture[str]) -> None:  # needs the built tables
    r = run_here(capsys, "-a", str(artifacts), "eval", "As 6d 7h 8c 9s", "--rules", "short-deck", "--json")
    assert r.returncode == 0, r.stderr
    assert '"rules": "short-deck"' in r.stdout and '"category_name": "straight"' in r.stdout
    # the refusal in this process (a real process's exit 2 for bad input: test_cli_plo_equity)
    code, _, err = run_main(capsys, "-a", str(artifacts), "eval", "As 6d 7h 8c 9s", "--rules", "nope")
    assert code == 2 and "unknown rule set 'nope'" in err


def test_bad_rule_files(tmp_path: Path) -> None:
    cases = {
        'name = "x"\nranks = "2345"\n': "ranks",
        'name = "x"\ncolour = 1\n': "unknown key",
        'name = "x"\nace_low_straight = "middle"\n': "ace_low_straight",
        'name = "x"\nsuit_order = "cdh"\n': "suit_order",
        'name = "x"\norder = ["pair"]\n': "order",
        'name = "x\n': "malformed TOML",
    }
    for text, needle in cases.items():
        p = tmp_path / "bad.toml"
        p.write_text(text)
        with pytest.raises(ValueError, match=needle):
            load_rules(p)


def test_omaha_matches_brute_force(tables: Tables) -> None:
    from pipeline.equity.games.omaha import score_omaha

    rng = np.random.default_rng(11)
    deals = np.array([rng.choice(52, 9, replace=False) for _ in range(400)])
    got = score_omaha(tables, deals[:, :4], deals[:, 4:])
    for d, s in zip(deals, got):
        best = max(tables.score5([int(x) for x in (*p, *q)])
                   for p in itertools.combinations(d[:4], 2) for q in itertools.combinations(d[4:], 3))
        assert s == best
    # exactly two hole cards: A-K of spades with three board spades is the flush
    assert score_omaha(tables, "As Ks Qd Jd", "Ts 2s 3s 4h 5h") == tables.score5("As Ks Ts 3s 2s")
    # four spades in hand + one on board is no flush; Q-J + T-9-8 makes the best straight
    s = score_omaha(tables, "As Ks Qs Js", "Ts 2d 3h 8c 9d")
    assert s == tables.score5("Qs Js Ts 9d 8c")


def test_omaha_exact_river_agrees_with_monte_carlo(tables: Tables) -> None:
    from pipeline.equity.hand_api import omaha_equity

    ex = omaha_equity(tables, "As Ad Ks Kd", "2c 7h 9s Qd 3c")
    assert ex.method == "exact" and ex.deals == comb(43, 4)
    assert ex.counts["win"] + ex.counts["tie"] + ex.counts["lose"] == ex.deals
    mc = omaha_equity(tables, "As Ad Ks Kd", "2c 7h 9s Qd 3c", exact=False, samples=200_000, seed=5)
    assert mc.stderr is not None and abs(mc.equity - ex.equity) < 4 * mc.stderr


def test_cli_plo_equity(artifacts: Path, capsys: pytest.CaptureFixture[str]) -> None:  # needs the built tables
    # the answer in this process, the refusal (exit 2, hold'em and Omaha named) in a real one
    code, text, err = run_main(capsys, "-a", str(artifacts), "equity", "As Ad Ks Kd", "--board",
                               "2c 7h 9s Qd 3c", "--json")
    assert code == 0, err
    import json

    out = json.loads(text)
    assert out["method"] == "exact" and out["deals"] == comb(43, 4) and out["game"] == "omaha"
    assert abs(out["win"] + out["tie"] + out["lose"] - 1) < 1e-12
    r = subprocess.run([sys.executable, "-m", "pipeline", "-a", str(artifacts), "equity", "As Ad Ks"], cwd=ROOT,
                       capture_output=True, text=True)
    assert r.returncode == 2 and "2 hole cards (hold'em) or 4 (Omaha)" in r.stderr


def test_cli_showdown_rules(artifacts: Path, capsys: pytest.CaptureFixture[str]) -> None:  # needs the built tables
    lines = ("As Kd Qh Jc 9d Ah Ks Qs Js 9s\n"     # equal ranks: the spade-topped hand wins
             "As 8d 9h Tc Jd Ks Qd Jh Ts 9d\n"     # A-8-9-T-J beats K-high straight
             "2h 8d 9h Tc Jd Ks Qd Jh Ts 9d\n")    # 2h is not in the 28-card deck
    r = subprocess.run([sys.executable, "-m", "pipeline", "-a", str(artifacts), "showdown", "--rules", "hk-stud"],
                       cwd=ROOT,
                       input=lines, capture_output=True, text=True)
    assert r.returncode == 2
    assert r.stdout.splitlines() == ["Black wins.", "Black wins."]
    assert "line 3: card 2h is not in the hk-stud deck" in r.stderr
    code, out, err = run_main(capsys, "-a", str(artifacts), "showdown", stdin=lines.splitlines()[0] + "\n")
    assert code == 0 and out.splitlines() == ["Tie."], err  # standard rules: suits never break ties


def test_omaha_agrees_with_phevaluator(tables: Tables) -> None:
    from itertools import starmap

    from phevaluator import _pheval

    from pipeline.equity.games.omaha import score_omaha

    rng = np.random.default_rng(21)
    deals = np.argsort(rng.random((100_000, 52)), axis=1)[:, :9]
    ours = score_omaha(tables, deals[:, :4], deals[:, 4:])
    rows = np.concatenate([deals[:, 4:], deals[:, :4]], axis=1).tolist()  # board first
    ph = np.fromiter(starmap(_pheval.evaluate_omaha_cards, rows), np.int64, count=len(rows))
    assert np.array_equal(7463 - ph, ours)
