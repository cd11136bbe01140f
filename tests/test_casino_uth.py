"""Ultimate Texas Hold'em (issue 40): the solver's pieces against brute force, without the full
solve (tens of seconds on 2 cores: ``make bench`` checks the published 2.19% and times it).

* a river state's counts against a direct loop over its 990 dealer hands scored by phevaluator;
* a flop state's values against a direct loop over its 1,081 turn-river pairs x 990 dealer
  hands (numpy scorer);
* the whole solver (suit-symmetric flop classes, per-flop turn-river orbits, pre-flop
  aggregation, return table) on reduced decks against a brute force that deals every card,
  under optimal play and under the practical rule sets;
* the river counts over every deal against a published table (Stephen How's two-way bad beat
  bonus: deals by the losing hand's category, 2,781,381,002,400 in all);
* the practical rules on hand-picked hands; the game file; the return rows; grading through
  the command line.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations

import numba as nb
import numpy as np
import pytest
from cli_runner import run_main
from eval_once import eval_tables
from uth_brute import brute_force, wizard_flop, wizard_river

from pipeline.abstraction.strength import canonical_boards
from pipeline.casino.catalog import load_game
from pipeline.casino.families.uth import return_rows
from pipeline.casino.hands import five_card_ranking
from pipeline.casino.uth.analysis import Analysis, analyse
from pipeline.casino.uth.rules import UthRules
from pipeline.casino.uth.showdown import river_counts, showdown_scratch
from pipeline.casino.uth.simple_rules import WIZARD, flop_rule_bets
from pipeline.casino.uth.solve import Deck, solve_totals
from pipeline.casino.uth.states import flop_values, river_values
from pipeline.core.cards import parse_cards
from pipeline.core.evalkeys import score_keys
from pipeline.errors import InputError

#: reduced decks: 9-A in clubs and diamonds plus T-A in hearts (straights, flushes, straight
#: flushes, royals; a suit group of order 2), and J-A in four suits (quads, full houses; all 24)
DECK_FLUSHES = [4 * r + s for r in range(7, 13) for s in range(2)] + [4 * r + 2 for r in range(8, 13)]
DECK_QUADS = [4 * r + s for r in range(9, 13) for s in range(4)]


@pytest.fixture(scope="module")
def rules() -> UthRules:
    return UthRules.of(load_game("uth"))


def test_game_file_reads_as_published(rules: UthRules) -> None:
    game = load_game("ultimate texas hold'em")
    assert game.slug == "ultimate-texas-holdem" and load_game("uth").slug == game.slug
    assert rules.preflop_bets == (3, 4) and (rules.flop_bet, rules.river_bet) == (2, 1)
    assert rules.scale == 2  # the flush pays 3:2
    assert rules.blind_scaled().tolist() == [1000, 100, 20, 6, 3, 2, 0]
    assert rules.qual_score == 1278  # the weakest pair: 1,277 high-card classes below it
    line = rules.line_of_score()
    assert (line[7462], line[7461], line[1277], line[1278]) == (0, 1, 6, 6)


def test_a_blind_pay_beyond_exact_range_is_refused() -> None:
    with pytest.raises(InputError, match="exact integer range"):
        UthRules.of(load_game("uth", ["royal flush=50000", "flush=1.001"]))


def _ph(cards: list[int]) -> int:
    """phevaluator's strength, negated so higher is stronger."""
    from phevaluator import evaluate_cards

    return -evaluate_cards(*("23456789TJQKA"[c >> 2] + "cdhs"[c & 3] for c in cards))


def test_river_state_counts_match_a_direct_loop_over_dealer_hands(rules: UthRules) -> None:
    rng = np.random.default_rng(40)
    for _ in range(4):
        cards = [int(c) for c in rng.choice(52, 7, replace=False)]
        hole, board = cards[:2], cards[2:]
        me = _ph(cards)
        rest = [c for c in range(52) if c not in cards]
        wq = wn = lq = ln = 0
        for d in combinations(rest, 2):
            them = _ph([*d, *board])
            qualifies = -them <= 6185  # phevaluator: classes 1..6185 are a pair or better
            wq += me > them and qualifies
            wn += me > them and not qualifies
            lq += me < them and qualifies
            ln += me < them and not qualifies
        pay = rules.blind_pays[int(rules.line_of_score()[score_keys(
            np.array([sum(int(eval_tables().card_keys[c]) for c in cards)]),
            np.array([sum(1 << c for c in cards)]), eval_tables())[0]])]
        play = wq * (2 + pay) + wn * (1 + pay) - 3 * lq - 2 * ln
        sv = river_values(hole, board, rules, eval_tables())
        assert sv.deals == 990
        assert sv.per_ante("play 1x") == Fraction(play) / 990
        assert sv.per_ante("fold") == -2


def test_flop_state_values_match_a_direct_loop(rules: UthRules) -> None:
    t = eval_tables()
    keys = t.card_keys.astype(np.int64)
    hole, flop = parse_cards("Ah 5h"), parse_cards("Kh 5d 9h")
    rest = [c for c in range(52) if c not in hole + flop]
    blind = rules.blind_scaled()
    line_of = rules.line_of_score()
    bet = check = 0
    for tr in combinations(rest, 2):
        board = [*flop, *tr]
        left = [c for c in rest if c not in tr]
        dealer = np.array(list(combinations(left, 2)))
        bk, bm = sum(int(keys[c]) for c in board), sum(1 << c for c in board)
        me = int(score_keys(np.array([bk + keys[hole].sum()]), np.array([bm | (1 << hole[0]) | (1 << hole[1])]), t)[0])
        them = score_keys(bk + keys[dealer].sum(axis=1), bm | (1 << dealer[:, 0]) | (1 << dealer[:, 1]), t)
        q = them >= rules.qual_score
        win, lose = me > them, me < them
        b = int(blind[line_of[me]])

        def value(play: int) -> int:
            return int((win & q).sum() * (2 * (1 + play) + b) + (win & ~q).sum() * (2 * play + b)
                       - (lose & q).sum() * 2 * (2 + play) - (lose & ~q).sum() * 2 * (1 + play))

        bet += value(2)
        check += max(value(1), -4 * len(dealer))
    sv = flop_values(hole, flop, rules, t)
    assert sv.deals == 1081 * 990 and sv.values == {"check": check, "bet 2x": bet}
    assert sv.best == "bet 2x"


#: discountgambling.net (Stephen How), "Bad Beat Bonus @ Ultimate Texas Hold'Em" (2012): deals
#: (player hole, dealer hole, unordered board) by the category of the losing hand, high card
#: first, then the pushes; 2,781,381,002,400 in all
BAD_BEAT = [791_967_420_480, 1_366_512_556_968, 399_099_149_640, 64_049_759_448, 18_271_076_976,
            19_434_208_592, 8_435_225_376, 471_040_512, 10_300_592]
BAD_BEAT_PUSHES = 113_130_263_816


@nb.njit(cache=True)
def _losing_hands(boards: np.ndarray, weight: np.ndarray, cat: np.ndarray, qual: int, card_keys: np.ndarray,
                  offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray) -> np.ndarray:
    """Deals (player hole, dealer hole, board) where the player's hand loses, by its category
    (0..8), then the ties (9), from the solver's river counts over the canonical boards
    weighted by orbit size."""
    pa, pb, score, keys, wq, wn, lq, ln, less_c, eq_c, nq_c, kc = showdown_scratch()
    live = np.empty(52, np.int64)
    out = np.zeros(10, np.int64)
    for i in range(boards.shape[0]):
        bm = np.int64(0)
        bk = np.int64(0)
        for q in range(5):
            bm |= np.int64(1) << boards[i, q]
            bk += np.int64(card_keys[boards[i, q]])
        m = np.int64(0)  # not a literal 0: river_counts compiles once, as for the solver
        for c in range(52):
            if not (bm >> c) & 1:
                live[m] = c
                m += 1
        n = river_counts(live, m, bk, bm, qual, card_keys, offsets, ranks, flush, pa, pb, score, keys,
                         wq, wn, lq, ln, less_c, eq_c, nq_c, kc)
        for k in range(n):
            out[cat[score[k]]] += weight[i] * (lq[k] + ln[k])
            out[9] += weight[i] * (990 - wq[k] - wn[k] - lq[k] - ln[k])
    return out


def test_river_counts_reproduce_the_published_bad_beat_table(rules: UthRules) -> None:
    """A hand loses as the player's (the dealer's hole beats it) or as the dealer's (the
    player's beats it): the same count, so each category's deals are twice the player-loses
    sum. Every board once per suit orbit (134,459 boards)."""
    boards, w = canonical_boards(5)
    cat = five_card_ranking().category.astype(np.int64)
    got = _losing_hands(boards, w.astype(np.int64), cat, rules.qual_score, *eval_tables())
    assert (2 * got[:9]).tolist() == BAD_BEAT and got[9] == BAD_BEAT_PUSHES
    assert 2 * int(got[:9].sum()) + int(got[9]) == 2_781_381_002_400


def _compare(cards: list[int], rules: UthRules, river: int, flop: int) -> Analysis:
    """The solver on ``cards`` against the brute force: every hole's pre-flop values and every
    return-table count, exactly."""
    t = eval_tables()
    tot = solve_totals(rules, t, Deck.of(cards), river_rule=river, flop_rule=flop, blocks=3)
    an = analyse(tot, rules.line_names, rules.preflop_bets)
    ref = brute_force(cards, rules, t, wizard_river if river else None, wizard_flop if flop else None)
    holes = {a + b * (b - 1) // 2: (a, b) for a, b in ref["values"]}
    for i, h in enumerate(an.holes.tolist()):
        assert dict(zip((0, *an.choices), an.values[i].tolist())) == ref["values"][holes[h]]
    mine = Counter()
    for r in an.rows:
        mine[(r.street, r.play, r.result, r.dealer_qualifies, r.blind_line, r.net)] += r.combinations
    assert mine == ref["table"]
    assert an.deals == len(holes) * Deck.of(cards).deals_per_hole()
    return an


@pytest.mark.parametrize("cards", [DECK_FLUSHES, DECK_QUADS], ids=["flushes", "quads"])
def test_reduced_deck_solve_matches_brute_force(cards: list[int], rules: UthRules) -> None:
    an = _compare(cards, rules, 0, 0)
    rows = return_rows(an, rules.line_names)
    assert sum(r.combinations for r in rows) == an.deals
    assert sum(r.net_win * r.combinations for r in rows) == sum(r.net * r.combinations for r in an.rows)
    by = {r.outcome: r for r in rows}
    if cards is DECK_FLUSHES:
        royal = by["4x pre-flop: royal flush wins, dealer qualified"]
        assert (royal.net_win, royal.total_bet) == (Fraction(505), Fraction(6))
    assert by["1x river: dealer wins, dealer qualified"].net_win == -3
    assert by["fold at the river"].net_win == -2 and by["fold at the river"].total_bet == 2


def test_practical_rules_match_their_brute_force(rules: UthRules) -> None:
    _compare(DECK_FLUSHES, rules, WIZARD, WIZARD)


@pytest.mark.parametrize(("hole", "flop", "bets"), [
    ("2c 2d", "Kh 8s 5c", False),    # pocket deuces alone: check
    ("2c 2d", "Kh Ks 5c", True),     # pocket deuces making two pair
    ("3c 3d", "Kh 8s 5c", True),     # any other hidden pair
    ("Ac 7d", "7h 8s 5c", True),     # a hole card pairing the flop
    ("Ac 7d", "Kh Ks 5c", False),    # the pair is on the board
    ("Th 4c", "Kh 8h 2h", True),     # four to a flush with a hidden ten
    ("9h 4c", "Kh 8h 2h", False),    # ... with nothing above a nine
    ("9h 4h", "Kh 8h 2h", True),     # a flush
    ("9c Td", "Jh Qs Kc", True),     # a straight
    ("Ah 2d", "3h 4s 5c", True),     # the wheel
    ("Ah Kd", "Qh Js 9c", False),    # a draw
])
def test_flop_rule_examples(hole: str, flop: str, bets: bool) -> None:
    h, f = parse_cards(hole), parse_cards(flop)
    assert flop_rule_bets(WIZARD, h[0], h[1], np.array(f, np.int64)) is bets
    assert wizard_flop((h[0], h[1]), tuple(f)) is bets


def test_grade_at_each_street(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(capsys, "casino", "grade", "uth", "As Kd | 7c 8h 2s Tc 4d", "fold")
    assert code == 0 and "fold costs 0.384848 per unit bet = 127/330 (best is play 1x)" in out
    code, out, _ = run_main(capsys, "casino", "grade", "uth", "7s 6d | 7c 8h 2s", "check")
    assert code == 0 and "best is bet 2x" in out
    code, _, err = run_main(capsys, "casino", "grade", "uth", "7s 6d | 7c 8h 2s 9d", "check")
    assert code == 2 and err.startswith("error:") and "0, 3 or 5 board" in err


#: the exact figures of optimal play (Wizard of Odds: house edge 2.185%, quoted as 2.19%; element
#: of risk 0.53%; standard deviation 4.94); counts of the return table's largest rows
EXACT_EDGE = Fraction(50_643_648_973, 2_317_817_502_000)
ROW_COUNTS = {"fold at the river": 5_336_312_786_640,
              "4x pre-flop: dealer wins, dealer qualified": 3_931_554_359_920,
              "4x pre-flop: royal flush wins, dealer qualified": 596_356_920}


def test_published_figures_from_the_stored_build() -> None:
    """The full solve is built on request (`pokertables build casino:ultimate-texas-holdem`,
    about a minute): checked here when the repository's artifacts hold it, and by `make bench`."""
    from pathlib import Path

    from pipeline.casino.artifact import current_artifact, read_analysis, read_summary

    game = load_game("uth")
    art = current_artifact(game, Path(__file__).resolve().parent.parent / "artifacts")
    if art is None:
        pytest.skip("ultimate-texas-holdem is built on request (`pokertables build casino:ultimate-texas-holdem`)")
    a = read_analysis(art)
    assert a.house_edge == EXACT_EDGE and a.combinations == 27_813_810_024_000
    assert (f"{float(a.house_edge):.3%}", f"{float(a.element_of_risk):.2%}") == ("2.185%", "0.53%")
    assert round(a.standard_deviation, 2) == 4.94
    rows = {r.outcome: r.combinations for r in a.rows}
    assert {k: rows[k] for k in ROW_COUNTS} == ROW_COUNTS
    costs = {s["name"]: Fraction(s["cost_exact"]) for s in read_summary(art)["strategies"]}
    assert costs["pre-flop chart only"] == 0 and 0 < costs["river rules only"] < costs["practical"]
