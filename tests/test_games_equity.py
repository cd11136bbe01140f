"""Equity of every game against a brute force with pokerkit's evaluators (tests/games_oracle.py):
30+ exact spots per game (2-6 seats, every street, dead cards, ranges, random seats) equal count
for count; Monte Carlo within 3 standard errors of the exact answer; the command line and the
Python API give identical numbers; bad forms get one error naming the form and the game."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import Any

import pytest
from cli_runner import run_main
from games_oracle import RULES, best, brute_force

from pipeline.core.cards import card_text, format_cards
from pipeline.equity.engine import equity_seats
from pipeline.errors import InputError

pokerkit = pytest.importorskip("pokerkit")

#: Spots per game.
SPOTS = 30
#: Oracle work one spot may cost: deals x seats x 5-card combinations per seat.
BUDGET = 220_000
FLOP_GAMES = {"holdem": 2, "short-deck": 2, "omaha": 4, "omaha5": 5, "omaha6": 6, "omaha-hi-lo": 4}
STUD_GAMES = ("stud", "stud-hi-lo", "razz")
ALL_GAMES = (*FLOP_GAMES, *STUD_GAMES)


def _text(cards: tuple[int, ...] | list[int]) -> str:
    return "".join(card_text(c) for c in cards)


def _combos_per_seat(game: str) -> int:
    high, low, omaha, _ = RULES[game]
    hole = FLOP_GAMES.get(game, 7)
    n = comb(hole, 2) * 10 if omaha else comb(hole + (5 if game in FLOP_GAMES else 0) - 0, 5)
    return n * (2 if low else 1)


def make_spot(game: str, i: int) -> dict[str, Any]:
    """Spot ``i`` of ``game``: a seeded random deal that the oracle can afford."""
    rng = random.Random(f"{game}-{i}")
    low = 4 if game == "short-deck" else 0
    for _ in range(1000):
        deck = list(range(4 * low, 52))
        rng.shuffle(deck)
        if game in FLOP_GAMES:
            hole = FLOP_GAMES[game]
            street = (5, 4, 3)[i % 3]
            n = 2 if street == 3 else rng.randint(2, 6 if hole <= 4 else 4)
            board = tuple(deck[:street])
            pos = street
            dead = tuple(deck[pos:pos + (rng.choice((0, 1, 3)) if i % 4 == 1 else 0)])
            pos += len(dead)
            seats: list[list[tuple[int, ...]]] = []
            texts: list[str] = []
            fill = []
            for p in range(n):
                kind = rng.random() if p else 0.0
                if kind > 0.8 and game == "short-deck" and street == 5 and n == 2:
                    seats.append([()])
                    texts.append("random")
                    fill.append(hole)
                    continue
                if kind > 0.6:
                    k = rng.randint(2, 3)
                    hands = [tuple(sorted(deck[pos + j * hole: pos + (j + 1) * hole])) for j in range(k)]
                    pos += k * hole
                    seats.append(hands)
                    texts.append(",".join(_text(h) for h in hands))
                else:
                    h = tuple(deck[pos:pos + hole])
                    pos += hole
                    seats.append([h])
                    texts.append(_text(h))
                fill.append(0)
            live = 52 - 4 * low - pos
            if live < 5 - street + sum(fill):
                continue
            deals = comb(live, 5 - street) * max(1, comb(live - 5 + street, sum(fill)))
            assigns = 1
            for s in seats:
                assigns *= len(s)
        else:
            street = (7, 6)[i % 2]
            n = rng.randint(2, 4 if street == 7 else 3)
            board = ()
            dead = tuple(deck[:rng.choice((0, 2, 4))])
            pos = len(dead)
            seats, texts, fill = [], [], []
            for p in range(n):
                known = street if p == 0 else rng.randint(street - 2 if street == 7 else street - 1, street)
                h = tuple(deck[pos:pos + known])
                pos += known
                seats.append([h])
                texts.append(_text(h))
                fill.append(7 - known)
            live = 52 - pos
            deals = 1
            for k in fill:
                deals *= comb(live, k)
                live -= k
            assigns = 1
        if deals * assigns * n * _combos_per_seat(game) <= BUDGET:
            return {"game": game, "seats": seats, "texts": texts, "fill": fill, "board": board,
                    "dead": dead, "low": low}
    raise AssertionError(f"no affordable spot for {game} {i}")


def _ask(tables: Any, spot: dict[str, Any], **kw: Any) -> Any:
    return equity_seats(tables, spot["texts"][0], spot["texts"][1:], opponents=0,
                        board=format_cards(spot["board"]), dead=format_cards(spot["dead"]),
                        game=spot["game"], **kw)


@pytest.mark.parametrize("game", ALL_GAMES)
def test_exact_spots_equal_the_pokerkit_brute_force(tables: Any, game: str) -> None:
    for i in range(SPOTS):
        spot = make_spot(game, i)
        res = _ask(tables, spot, exact=True)
        ref = brute_force(game, spot["seats"], spot["fill"], spot["board"], spot["dead"], spot["low"])
        assert res.method == "exact" and res.deals == ref.deals, (spot, res.deals, ref.deals)
        for p, row in enumerate(res.players):
            got = (round(row["win"] * ref.deals), round(row["tie"] * ref.deals),
                   round(row["lose"] * ref.deals))
            want = (ref.win[p], ref.tie[p], ref.lose[p])
            assert got == want, (game, i, p, spot["texts"], got, want)
            if "equity_fraction" in row:
                assert Fraction(row["equity_fraction"]) == ref.share[p] / ref.deals
            else:  # hold'em rows: the float; the hero's exact fraction is in counts
                assert row["equity"] == pytest.approx(float(ref.share[p] / ref.deals), abs=1e-12)
        c = res.counts
        assert Fraction(c["equity_numerator"], c["equity_denominator"]) == ref.share[0] / ref.deals


@pytest.mark.parametrize("game", ALL_GAMES)
def test_monte_carlo_is_within_three_stderr(tables: Any, game: str) -> None:
    for i in (0, 1, 4):
        spot = make_spot(game, i)
        ex = _ask(tables, spot, exact=True)
        mc = _ask(tables, spot, samples=20_000, seed=100 + i)
        assert mc.method == "monte-carlo" and mc.samples == 20_000
        for a, b in zip(ex.players, mc.players):
            assert abs(a["equity"] - b["equity"]) <= 3 * b["stderr"] + 1e-12, (game, i, a, b)


@pytest.mark.parametrize("game", ALL_GAMES)
def test_the_command_line_and_the_api_agree(tables: Any, artifacts: Any,
                                            capsys: pytest.CaptureFixture[str], game: str) -> None:
    for i, extra in ((0, []), (2, ["--samples", "3000", "--seed", "9"])):
        spot = make_spot(game, i)
        args = ["-a", str(artifacts), "equity", spot["texts"][0], "--game", game, "--json", "-n", "0"]
        for v in spot["texts"][1:]:
            args += ["--vs", v]
        if spot["board"]:
            args += ["--board", format_cards(spot["board"])]
        if spot["dead"]:
            args += ["--dead", format_cards(spot["dead"])]
        code, out, err = run_main(capsys, *args, *extra)
        assert code == 0, err
        cli = json.loads(out)
        kw: dict[str, Any] = {"samples": 3000, "seed": 9} if extra else {}
        api = json.loads(json.dumps(_ask(tables, spot, **kw).to_json()))
        cli.pop("seconds")
        api.pop("seconds")
        assert cli == api and cli.get("game", "holdem") == game


def test_oracle_is_pokerkits_hands() -> None:
    """The oracle's best-of-combinations equals pokerkit's own hand classes."""
    rng = random.Random(5)
    for _ in range(40):
        c = rng.sample(range(52), 11)
        hole, board = tuple(c[:4]), tuple(c[4:9])
        seven = tuple(c[:7])
        t = _text
        for kind, cls, h, b, om in (
                ("high", pokerkit.OmahaHoldemHand, hole, board, 2),
                ("high", pokerkit.StandardHighHand, seven, (), None),
                ("razz", pokerkit.RegularLowHand, seven, (), None)):
            other = tuple(c[4:8]) if om else tuple(c[4:11])
            ours = best(kind, h, b, om), best(kind, other, b, om)
            theirs = cls.from_game(t(h), t(b)), cls.from_game(t(other), t(b))
            assert (ours[0] > ours[1]) == (theirs[0] > theirs[1])
            assert (ours[0] == ours[1]) == (theirs[0] == theirs[1])


def test_a_quartered_pot_pays_a_quarter(tables: Any) -> None:
    """Omaha hi-lo river: two wheels tie for the low and lose the high to quad jacks: each
    wins a quarter of the pot."""
    res = equity_seats(tables, "As 2s Kd Kc", ["Ah 2h Qd Qc", "Js Jh Ts 9s"], board="3c 4d 5h Jc Jd",
                       game="omaha-hi-lo")
    fr = [Fraction(p["equity_fraction"]) for p in res.players]
    assert res.deals == 1 and fr == [Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)]
    assert [p["low"] for p in res.players] == [0.25, 0.25, 0.0]


def test_four_hole_cards_without_a_game_are_omaha(tables: Any) -> None:
    a = equity_seats(tables, "As Ad Ks Kd", ["Qh Qd Jh Td"], board="Qs 7h 2d")
    b = equity_seats(tables, "As Ad Ks Kd", ["Qh Qd Jh Td"], board="Qs 7h 2d", game="omaha")
    assert a.game == "omaha" and a.method == "exact" and a.counts == b.counts
    assert all(p["equity"] is not None and p["win"] is not None for p in a.players)


def test_omaha_ranges(tables: Any) -> None:
    """AAxx vs a hand: the range's hands are every hand with two or more of the live aces;
    QQxxds: two or more queens, two suits of two cards each (listed here by brute force)."""
    res = equity_seats(tables, "As Ad Ks Kd", ["AA"], board="2c 7h 9s Qd 3c", game="omaha")
    assert res.players[1]["combos"] == comb(41, 2)
    assert res.players[1]["range"] == "AA"
    ds = equity_seats(tables, "As Ad Ks Kd", ["QQxxds"], board="2c 7h 9s Qd 3c", game="omaha")
    gone = {51, 49, 47, 45, 0, 22, 31, 41, 4}  # the hero and the board
    want = 0
    for h in combinations([c for c in range(52) if c not in gone], 4):
        suits = sorted([c & 3 for c in h].count(s) for s in {c & 3 for c in h})
        want += sum(c >> 2 == 10 for c in h) >= 2 and suits == [2, 2]
    assert ds.players[1]["combos"] == want > 0


@pytest.mark.parametrize("game, args, words", [
    ("omaha", ["As Ad Ks Kd", "--vs", "AAz"], ["omaha", "AAz"]),
    ("stud", ["As Ad Ks", "--vs", "QQ+"], ["stud", "QQ+"]),
    ("short-deck", ["As 2d"], ["short-deck", "2d"]),
    ("razz", ["As Ad Ks", "--board", "2c 3c 4c"], ["razz", "board"]),
    ("poker", ["As Ad"], ["poker", "game"]),
    ("omaha6", ["As Ad Ks Kd"], ["omaha6", "6 hole cards"]),
])
def test_bad_forms_get_one_error_naming_the_form_and_game(
        artifacts: Any, capsys: pytest.CaptureFixture[str], game: str, args: list[str],
        words: list[str]) -> None:
    code, out, err = run_main(capsys, "-a", str(artifacts), "equity", *args, "--game", game)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error:"), err
    assert all(w in lines[0] for w in words), lines[0]


def test_api_raises_input_error_for_bad_game(tables: Any) -> None:
    with pytest.raises(InputError, match="unknown game"):
        equity_seats(tables, "AsKs", game="pineapple")


def test_the_http_api_agrees(tables: Any, artifacts: Any) -> None:
    """POST /api/equity with ``game`` answers what the Python API answers."""
    from serve_harness import running_server

    with running_server(artifacts) as client:
        for game in ("omaha-hi-lo", "razz"):
            spot = make_spot(game, 3)
            body = {"hero": spot["texts"][0], "vs": spot["texts"][1:], "opponents": 0,
                    "board": format_cards(spot["board"]), "dead": format_cards(spot["dead"]),
                    "game": game}
            got = client.post("/api/equity", body)
            assert got.status == 200, got.raw
            web = got.body
            api = json.loads(json.dumps(_ask(tables, spot).to_json()))
            web.pop("seconds")
            api.pop("seconds")
            assert web == api


#: Omaha range forms and their hand counts (counted by brute force in test_omaha_range_counts).
OMAHA_FORMS = ["AAxx", "AA", "AKQJ", "AsAdxx", "AAxxds", "AKQJss", "AAxx!AAAx", "KKQQ:0.5,AAxx",
               "Ac2c3d4d,AAKK"]


@pytest.mark.parametrize("text", OMAHA_FORMS)
def test_omaha_range_forms_round_trip(artifacts: Any, capsys: pytest.CaptureFixture[str],
                                      text: str) -> None:
    """``range --game omaha --json --list`` lists the hands as text that reads back as the
    same hands and weights; the count matches a brute force over every four-card hand."""
    from pipeline.equity.games.ranges import parse_game_range

    code, out, err = run_main(capsys, "-a", str(artifacts), "range", text, "--game", "omaha",
                              "--json", "--list")
    assert code == 0, err
    got = json.loads(out)
    rows, w = parse_game_range(text, 4)
    back_rows, back_w = parse_game_range(got["text"], 4)
    assert got["combos"] == len(rows) and rows.tolist() == back_rows.tolist()
    assert w.tolist() == back_w.tolist()


def test_omaha_range_counts() -> None:
    """Pattern semantics by brute force over all 270,725 four-card hands."""
    from pipeline.equity.games.ranges import parse_game_range

    def rank_count(h: tuple[int, ...], r: str) -> int:
        return sum(c >> 2 == "23456789TJQKA".index(r) for c in h)

    def suits(h: tuple[int, ...]) -> list[int]:
        return sorted(([c & 3 for c in h].count(s) for s in range(4)), reverse=True)

    want = {"AAxx": 0, "AKQJ": 0, "AAxxds": 0, "AKQJss": 0, "AAxx!AAAx": 0}
    for h in combinations(range(52), 4):
        aa = rank_count(h, "A") >= 2
        akqj = all(rank_count(h, r) == 1 for r in "AKQJ")
        want["AAxx"] += aa
        want["AAxxds"] += aa and suits(h)[:2] == [2, 2]
        want["AKQJ"] += akqj
        want["AKQJss"] += akqj and suits(h)[1] < 2 <= suits(h)[0]
        want["AAxx!AAAx"] += rank_count(h, "A") == 2
    for text, n in want.items():
        assert len(parse_game_range(text, 4)[0]) == n, text


def test_weighted_ranges_weigh_each_assignment(tables: Any) -> None:
    """An assignment counts with the product of its hands' weights: the exact answer equals
    the brute force of each assignment, weighted and summed."""
    from pipeline.core.cards import parse_cards

    hero = tuple(parse_cards("As Ad Ks Kd"))
    a, b = tuple(parse_cards("Qh Qd Jh Td")), tuple(parse_cards("9c 9h 8c 7d"))
    board = tuple(parse_cards("Qs 7h 2d 3c"))
    res = equity_seats(tables, "As Ad Ks Kd", ["QhQdJhTd:0.25,9c9h8c7d"], board="Qs 7h 2d 3c",
                       game="omaha")
    parts = [(0.25, brute_force("omaha", [[hero], [a]], [0, 0], board, ())),
             (1.0, brute_force("omaha", [[hero], [b]], [0, 0], board, ()))]
    total = sum(w * t.deals for w, t in parts)
    for p, row in enumerate(res.players):
        want = sum(w * float(t.share[p]) for w, t in parts) / total
        assert row["equity"] == pytest.approx(want, abs=1e-12)
        assert row["win"] == pytest.approx(sum(w * t.win[p] for w, t in parts) / total, abs=1e-12)
    assert res.deals is None and res.method == "exact"


@pytest.mark.parametrize("game, hero, vs", [
    ("omaha", "As Ad Ks Kd", "Qh Qd Jh Td"), ("omaha-hi-lo", "As 2s 3d Kd", "Ah Kh Qc Jc"),
    ("short-deck", "As Ks", "Qh Qd"), ("stud", "As Ad Kc 9h 7s", "Qh Jh Th 8h 2c")])
def test_preflop_and_early_streets_sampled_near_exact(tables: Any, game: str, hero: str,
                                                      vs: str) -> None:
    """Every deal from the start (preflop; stud's fifth street) counted exactly, and Monte
    Carlo within three standard errors of it."""
    ex = equity_seats(tables, hero, [vs], game=game, exact=True)
    mc = equity_seats(tables, hero, [vs], game=game, samples=40_000, seed=3)
    assert ex.method == "exact" and ex.deals > 100_000
    for a, b in zip(ex.players, mc.players):
        assert abs(a["equity"] - b["equity"]) <= 3 * b["stderr"], (a, b)


def test_razz_scores_are_the_ace_to_five_rule_sets(tables: Any) -> None:
    """Razz hands score by the ace-to-five rule set's built table: 5, 6 and 7 random cards
    order (and tie) exactly as pokerkit's low hands do, and a 5-card hand scores what the rule
    set's table gives that very hand."""
    import numpy as np

    from pipeline.core.cards import colex_index
    from pipeline.equity.games.equity import _razz
    from pipeline.equity.games.evaluate import razz_score

    razz = _razz(str(tables.path))
    five = tables.__class__(tables.path, rules="ace-to-five").table(5)
    rng = random.Random(11)
    for n in (5, 6, 7):
        hands = [rng.sample(range(52), n) for _ in range(400)]
        ours = [razz_score(np.array([h], np.int64), 0, n, razz) for h in hands]
        theirs = [pokerkit.RegularLowHand.from_game(_text(h)) for h in hands]
        for i in range(len(hands) - 1):
            assert (ours[i] > ours[i + 1]) == (theirs[i] > theirs[i + 1]), (hands[i], hands[i + 1])
            assert (ours[i] == ours[i + 1]) == (theirs[i] == theirs[i + 1])
        if n == 5:
            assert ours == [int(five[colex_index(h)]) for h in hands]
