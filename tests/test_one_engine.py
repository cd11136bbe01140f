"""One equity engine behind every door: ``pipeline.hand_equity``, ``equity_seats``, the
``pokertables equity`` command and (four hole cards) Omaha give the same answer to the same
question: identical exact counts, and for Monte Carlo identical numbers for the same seed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from cli_runner import run_main

import pipeline
from pipeline.equity.engine import equity_seats

#: (hero, vs seats, random opponents, board, dead, Monte Carlo deals or None, seed)
QUESTIONS: list[tuple[str, list[str], int | None, str, str, int | None, int | None]] = [
    ("AsKs", ["QdQc"], None, "", "", None, None),                     # preflop, two hands
    ("AsKs", [], None, "", "", None, None),                           # vs random, preflop.h5
    ("AsKs", [], 3, "", "", None, None),                              # vs 3, preflop.h5 column
    ("AsKs", ["QdQc", "JhTh"], None, "", "", None, None),             # three hands preflop
    ("7d8d", [], 1, "6d9d2h", "", None, None),                        # flop vs random
    ("7d8d", [], 3, "6d9d2hKc", "", None, None),                      # turn vs 3 random
    ("AsAc", ["KdKh"], 2, "6d9d2h", "", None, None),                  # named + random
    ("KdKc", ["AhKs", "QsJs"], None, "Kh9s4c2h", "", None, None),     # turn, three hands
    ("2c2d", [], 2, "Ts9s4d5c", "As", None, None),                    # dead card
    ("AhQh", ["JsJd"], None, "", "2c 3c", None, None),                # preflop with dead cards
    ("QsJs", ["AhKd"], None, "Th9h2c3d4s", "", None, None),           # river
    ("AsKs", ["QQ+,AKs"], None, "", "", None, None),                  # range, matchup table
    ("AsKs", ["QQ,JJ"], None, "2c7h8h", "", None, None),              # range on a flop
    ("AsKs", [], 1, "2c7h8h", "", 20_000, 7),                         # Monte Carlo, seeded
    ("AsKs", [], 5, "", "", 20_000, 11),                              # 5 random, sampled
    ("7d8d", ["AsAc"], 2, "6d9d2h", "", 20_000, 3),                   # named + random, sampled
    ("QhQd", ["AK", "random"], None, "", "", 20_000, 5),              # ranges, sampled
    ("JcTc", ["99+"], 1, "9c8d2s", "", 20_000, 13),                   # range + random, sampled
    ("As Ad Ks Kd", [], 1, "2c 7h 9s Qd 3c", "", None, None),        # Omaha river, exact
    ("As Ad Ks Kd", ["Qh Qs Jh Js"], None, "2c 7h 9s Qd 3c", "", None, None),
    ("As Ad Ks Kd", [], 2, "2c 7h 9s", "", 5_000, 17),                # Omaha flop, sampled
    ("Ah Kh Qd Jd", ["Tc Ts 9c 9s"], None, "", "", 5_000, 19),        # Omaha preflop, sampled
]


def _same(d: dict[str, Any]) -> dict[str, Any]:
    """The answer without its wall-clock time."""
    d = dict(d)
    d.pop("seconds", None)
    return d


def _cli(capsys: pytest.CaptureFixture[str], artifacts: Any, hero: str, vs: list[str],
         opponents: int | None, board: str, dead: str, samples: int | None,
         seed: int | None) -> dict[str, Any]:
    args = ["--artifacts", str(artifacts), "equity", hero, "--json"]
    for v in vs:
        args += ["--vs", v]
    if opponents is not None:
        args += ["-n", str(opponents)]
    if board:
        args += ["--board", board]
    if dead:
        args += ["--dead", dead]
    if samples is not None:
        args += ["--samples", str(samples), "--seed", str(seed)]
    code, out, err = run_main(capsys, *args)
    assert code == 0, err
    answer: dict[str, Any] = json.loads(out)
    return answer


@pytest.mark.parametrize("q", QUESTIONS, ids=lambda q: f"{q[0]} vs {q[1] or q[2]} on {q[3] or '-'}")
def test_every_door_gives_the_same_answer(tables: Any, artifacts: Any, capsys: pytest.CaptureFixture[str],
                                          q: tuple[str, list[str], int | None, str, str, int | None,
                                                   int | None]) -> None:
    hero, vs, opponents, board, dead, samples, seed = q
    api = pipeline.hand_equity(tables, hero, board=board, opponents=opponents, vs=vs, dead=dead,
                               samples=samples, seed=seed).to_json()
    seats = equity_seats(tables, hero, vs, opponents=opponents, board=board, dead=dead,
                         samples=samples, seed=seed).to_json()
    cli = _cli(capsys, artifacts, hero, vs, opponents, board, dead, samples, seed)
    assert _same(api) == _same(seats) == _same(cli)
    if len(hero.split()) == 4:
        assert api["game"] == "omaha"
    if samples is not None:
        assert api["method"] == "monte-carlo"
        assert api["samples"] == samples and api["seed"] == seed
    elif api["method"] == "monte-carlo":
        # preflop vs several random hands: the preflop table's Monte Carlo column, read
        assert api["source"].startswith("preflop.h5") and api["stderr"] < 0.001
    else:
        # exact answers count deals: win + tie + lose is the deal count, in integers
        c = api["counts"]
        assert c["win"] + c["tie"] + c["lose"] == api["deals"] > 0


def test_a_seed_is_a_sample(tables: Any) -> None:
    a = pipeline.hand_equity(tables, "AsKs", board="2c7h8h", samples=20_000, seed=7)
    b = pipeline.hand_equity(tables, "AsKs", board="2c7h8h", samples=20_000, seed=8)
    assert a.equity != b.equity
