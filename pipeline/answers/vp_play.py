"""The video-poker trainer's answers: ``vp draw`` (the hold played out: replacement cards from the
same seeded deck on every line, the final hands, their pays in credits, the exact EV of the hold)
and the session tally (exact sums of what the page's hands cost and paid).

A deal is hand ``n`` of seed ``S``: the ``n``-th deal of ``vp deal --seed S --count n``. The
cards left after the deal are drawn, for line ``k`` of a multi-play round, by a generator seeded
with the text ``"pokertables vp draw S n k"`` (Python's ``random`` seeds text through SHA-512, so
the draws are the same on every machine and version): line 1 is the single-play draw, and every
line draws independently from the same 47 (48, 49 with jokers) cards.

>>> from pipeline.answers import Context
>>> d = draw(Context("artifacts"), seed=42, hand=1, hold="Qc Ks")
>>> d["deal"], d["lines"][0]["final"], d["lines"][0]["hand"], d["won"], d["expected_exact"]
('Qc 3s 2d Ks 6d', 'Qc 2c 8c Ks Jh', None, 0, '8011/3243')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from pipeline.answers import Context
from pipeline.answers.equity import number
from pipeline.answers.vp import (
    COINS,
    DEAL_CARDS,
    DEFAULT_GAME,
    MAX_DEALS,
    frac,
    grade,
    load_game,
    parse_held,
)
from pipeline.errors import InputError

#: the multi-play round sizes a trainer offers (and the most lines one draw plays)
LINE_CHOICES = (1, 3, 5, 10, 50, 100)
MAX_LINES = max(LINE_CHOICES)
#: what the seed text of one line's draw starts with
DRAW_SEED = "pokertables vp draw"


def deal_at(deck_size: int, seed: int, hand: int) -> list[int]:
    """The card ids of hand ``hand`` (1-based) of seed ``seed``: ``vp deal``'s ``hand``-th deal."""
    if isinstance(hand, bool) or not 1 <= hand <= MAX_DEALS:
        raise InputError(f"hand {hand}: give 1 to {MAX_DEALS:,}")
    if seed < 0:
        raise InputError(f"seed {seed}: give a whole number 0 or above")
    rng = random.Random(seed)
    deck = range(deck_size)
    for _ in range(hand - 1):
        rng.sample(deck, DEAL_CARDS)
    return rng.sample(deck, DEAL_CARDS)


def hold_positions(text: str, cards: list[int], deck_size: int) -> list[int]:
    """0-based positions held, from the hold as typed (:func:`pipeline.answers.vp.parse_held`:
    cards, positions ``1,2,5``, a 0/1 flag per position, ``draw five`` or ``all``)."""
    return sorted(cards.index(c) for c in parse_held(text, cards, deck_size))


def draw(ctx: Context, seed: int, hand: int, hold: str, paytable: str = DEFAULT_GAME,
         pay: Sequence[str] = (), lines: int = 1, coins: int = COINS) -> dict[str, Any]:
    """``vp draw --json``: hand ``hand`` of ``seed`` with ``hold`` kept, played on ``lines``
    lines of ``coins`` coins each. Each line: the final hand, its pay line (``hand``, ``None``
    for nothing) and ``pays`` per coin, ``won`` in credits. ``won`` is the round's total, ``bet``
    its credits; ``grade`` is ``vp grade``'s answer for the hold (exact EV per coin, best hold,
    cost), ``expected`` the exact expected credits of the round (EV x coins x lines) and
    ``chart_line`` the line of ``vp chart`` that decides the deal (``line``, ``hold``)."""
    from pipeline.videopoker.paytables.deal_text import vp_cards_text
    from pipeline.videopoker.solver.classify import classify_deals

    if lines not in LINE_CHOICES:
        raise InputError(f"lines {lines}: play {', '.join(map(str, LINE_CHOICES))} lines")
    if isinstance(coins, bool) or not 1 <= coins <= COINS:
        raise InputError(f"coins {coins}: bet 1 to {COINS} coins a line")
    pt = load_game(paytable, pay)
    cards = deal_at(pt.deck_size, seed, hand)
    held = hold_positions(hold, cards, pt.deck_size)
    rest = [c for c in range(pt.deck_size) if c not in cards]
    finals = []
    for k in range(1, lines + 1):
        new = iter(random.Random(f"{DRAW_SEED} {seed} {hand} {k}").sample(rest, DEAL_CARDS - len(held)))
        finals.append([cards[t] if t in held else next(new) for t in range(DEAL_CARDS)])
    cats = classify_deals(pt, np.sort(np.array(finals, np.uint8), axis=1))
    nothing = len(pt.lines)
    rows = []
    won = Fraction(0)
    for final, cat in zip(finals, cats.tolist()):
        p = pt.lines[cat].pays if cat < nothing else Fraction(0)
        won += p * coins
        rows.append({"final": vp_cards_text(final), "hand": pt.lines[cat].label if cat < nothing else None,
                     "pays": float(p), "won": number(p * coins)})
    deal_text = vp_cards_text(cards)
    g = grade(ctx, deal_text, " ".join(vp_cards_text([cards[t]]) for t in held) or "none",
              paytable, pay=pay)
    expected = Fraction(g["ev_exact"]) * coins * lines
    from pipeline.answers.vp_chart import chart_line
    return {"name": pt.name, "slug": pt.slug, "paytable_id": pt.digest[:16], "seed": seed,
            "hand": hand, "deal": deal_text, "held": [t + 1 for t in held], "lines": rows,
            "coins": coins, "bet": coins * lines, "won": number(won),
            "expected": float(expected), "expected_exact": frac(expected), "grade": g,
            "chart_line": chart_line(ctx, pt, cards)}


def tally(hands: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The session's exact totals from the page's played hands (each: ``ev_exact`` and
    ``best_ev_exact`` per coin, ``bet`` and ``won`` in credits, ``coins`` and ``lines``):
    mistakes, cost in credits and as % of the credits bet, return achieved by the holds (EV)
    against the optimal holds' and the actual return (credits won / bet)."""
    bet = won = Fraction(0)
    ev = best = Fraction(0)
    mistakes = 0
    for i, h in enumerate(hands):
        try:
            e, b = Fraction(h["ev_exact"]), Fraction(h["best_ev_exact"])
            stake = int(h["coins"]) * int(h["lines"])
            w = Fraction(str(h["won"]))
        except (KeyError, ValueError, ZeroDivisionError, TypeError):
            raise InputError(f"hands[{i}]: give ev_exact, best_ev_exact, coins, lines and won") from None
        if stake <= 0 or e > b or w < 0:
            raise InputError(f"hands[{i}]: coins and lines above 0, ev_exact at most best_ev_exact")
        mistakes += e != b
        bet += stake
        won += w
        ev += e * stake
        best += b * stake
    cost = best - ev
    out: dict[str, Any] = {"hands": len(hands), "mistakes": mistakes, "bet": number(bet),
                           "won": number(won), "cost": float(cost), "cost_exact": frac(cost)}
    if bet:
        out.update(cost_percent=float(100 * cost / bet), return_achieved=float(ev / bet),
                   return_achieved_exact=frac(ev / bet), return_optimal=float(best / bet),
                   return_optimal_exact=frac(best / bet), return_actual=float(won / bet),
                   return_actual_exact=frac(won / bet))
    return out


__all__ = ["draw", "tally", "deal_at", "hold_positions", "LINE_CHOICES"]
