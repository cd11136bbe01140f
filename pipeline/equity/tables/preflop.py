"""Preflop answers read from the built tables instead of recomputed.

* ``preflop.h5`` ``/heads_up``: exact win/tie/lose counts of each of the 1,326 hands against
  one random hand (2,097,572,400 deals each); a range's counts are weighted sums of rows.
* ``preflop.h5`` ``/multiway``: Monte Carlo equity/win/tie of each of the 169 classes against
  2..9 random hands with a standard error per class. A range's value is the weighted mean of
  its hands' classes; its standard error is given as the weighted mean of the class errors,
  an upper bound whatever the correlation between classes (the stage's deals serve every
  class at once, so they are correlated).
* ``preflop_matchups.h5`` ``/win``, ``/tie``: exact heads-up counts for every pair of hands
  (1,712,304 boards per disjoint pair); range vs range is a weighted sum over the pairs that
  share no card - at most 1,326 x 1,326 entries, milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING

import numpy as np

from pipeline.core.constants import DECK_SIZE, N_HOLE_PAIRS, SHARE_SCALE
from pipeline.equity.spots.answer import Counts
from pipeline.errors import ArtifactError, InputError

if TYPE_CHECKING:
    from pipeline.query.preflop import PreflopMatchups
    from pipeline.query.tables import Tables

#: Boards for one pair of disjoint hole-card pairs: C(48, 5).
BOARDS_PER_MATCHUP = comb(DECK_SIZE - 4, 5)


@dataclass(slots=True)
class SeatNumbers:
    """One seat's answer from a table: probabilities, and integer counts when exact."""

    win: float | None
    tie: float | None
    lose: float | None
    equity: float
    stderr: float | None
    counts: Counts | None = None
    deals: int | None = None


def _counts(win: int, tie: int, lose: int, deals: int) -> Counts:
    """Integer counts with the equity as a fraction in SHARE_SCALE units (as every exact path)."""
    return Counts(win, tie, lose, SHARE_SCALE * win + SHARE_SCALE // 2 * tie, SHARE_SCALE * deals)


def _read(tables: Tables, names: tuple[str, ...]) -> dict[str, np.ndarray]:
    """Small datasets of preflop.h5 (at most 169 x 8 or 1,326 values), through the tables'
    checked reader (read once per Tables)."""
    return dict(tables.preflop_datasets(names))


#: Equity keys against several opponents: the Monte Carlo equity in units of 1e-9.
STRENGTH_UNIT = 1e-9


def hand_strength(tables: Tables, opponents: int = 1) -> np.ndarray:
    """int64[1326], larger is stronger: the ordering of ``N%`` ranges. Against one random hand
    2 x wins + ties (exact, so hands order by heads-up equity without rounding); against
    ``opponents`` > 1 (``N%vs3``, the Equilab/PokerStove order) each hand's class equity from
    the Monte Carlo column for that many opponents, in units of :data:`STRENGTH_UNIT`."""
    if opponents == 1:
        d = _read(tables, ("heads_up/win", "heads_up/tie"))
        return 2 * d["heads_up/win"].astype(np.int64) + d["heads_up/tie"].astype(np.int64)
    d = _read(tables, ("hands/class", "multiway/opponents", "multiway/equity"))
    cols = [int(c) for c in d["multiway/opponents"]]
    if opponents not in cols:
        raise InputError(f"top-% ordering against {opponents} random hands: preflop.h5 has "
                         f"Monte Carlo columns for {cols} opponents")
    eq = d["multiway/equity"][:, cols.index(opponents)]
    return np.round(eq[d["hands/class"].astype(np.int64)] / STRENGTH_UNIT).astype(np.int64)


def vs_random(tables: Tables, hands: np.ndarray, weights: np.ndarray, opponents: int) -> SeatNumbers:
    """The hero range's numbers against ``opponents`` random hands (exact for one)."""
    if opponents == 1:
        d = _read(tables, ("heads_up/win", "heads_up/tie", "heads_up/lose"))
        win, tie, lose = (d[f"heads_up/{k}"][hands].astype(np.int64) for k in ("win", "tie", "lose"))
        per_hand = win + tie + lose
        if bool(np.all(weights == 1.0)):
            w, t, lo = int(win.sum()), int(tie.sum()), int(lose.sum())
            deals = int(per_hand.sum())
            return SeatNumbers(w / deals, t / deals, lo / deals, (2 * w + t) / (2 * deals), None,
                               _counts(w, t, lo, deals), deals)
        tot = float(weights @ per_hand)
        wf, tf, lf = (float(weights @ a) / tot for a in (win, tie, lose))
        return SeatNumbers(wf, tf, lf, wf + tf / 2, None, None, None)
    d = _read(tables, ("hands/class", "multiway/opponents", "multiway/equity", "multiway/stderr",
                       "multiway/win", "multiway/tie"))
    cols = list(d["multiway/opponents"])
    if opponents not in cols:
        raise ArtifactError(f"preflop.h5 has Monte Carlo columns for {cols} opponents, not "
                            f"{opponents}; add it to [preflop] opponents and rebuild")
    j = cols.index(opponents)
    cls = d["hands/class"][hands].astype(np.int64)
    share = weights / weights.sum()
    eq = float(share @ d["multiway/equity"][cls, j])
    se = float(share @ d["multiway/stderr"][cls, j])
    win = float(share @ d["multiway/win"][cls, j])
    tie = float(share @ d["multiway/tie"][cls, j])
    return SeatNumbers(win, tie, max(0.0, 1.0 - win - tie), eq, se)


def matchup_tables(tables: Tables) -> PreflopMatchups | None:
    """The ``preflop_matchups`` (win, tie) memory maps, or None when that stage is not built."""
    getter = getattr(tables, "preflop_matchups", None)
    if getter is None:
        return None
    try:
        return getter()
    except ArtifactError:
        return None


def range_vs_range(matchups: PreflopMatchups, a_hands: np.ndarray, a_w: np.ndarray, b_hands: np.ndarray,
                   b_w: np.ndarray) -> tuple[SeatNumbers, SeatNumbers]:
    """Both seats' exact heads-up numbers from the matchup table (pairs sharing a card drop out)."""
    from pipeline.equity.hands.starting_hands import HOLE_MASKS

    ok = (HOLE_MASKS[a_hands][:, None] & HOLE_MASKS[b_hands][None, :]) == 0
    if not ok.any():
        raise InputError("the two ranges have no pair of hands without a shared card")
    win = np.asarray(matchups.win)[np.ix_(a_hands, b_hands)].astype(np.int64)
    tie = np.asarray(matchups.tie)[np.ix_(a_hands, b_hands)].astype(np.int64)
    win[~ok] = 0
    tie[~ok] = 0
    pairs = ok.astype(np.int64)
    if bool(np.all(a_w == 1.0)) and bool(np.all(b_w == 1.0)):
        w, t, n = int(win.sum()), int(tie.sum()), int(pairs.sum())
        deals = n * BOARDS_PER_MATCHUP
        lo = deals - w - t
        hero = SeatNumbers(w / deals, t / deals, lo / deals, (2 * w + t) / (2 * deals), None,
                           _counts(w, t, lo, deals), deals)
        vill = SeatNumbers(lo / deals, t / deals, w / deals, (2 * lo + t) / (2 * deals), None,
                           _counts(lo, t, w, deals), deals)
        return hero, vill
    wf = float(a_w @ win @ b_w)
    tf = float(a_w @ tie @ b_w)
    tot = float(a_w @ pairs @ b_w) * BOARDS_PER_MATCHUP
    lf = tot - wf - tf
    return (SeatNumbers(wf / tot, tf / tot, lf / tot, (wf + tf / 2) / tot, None),
            SeatNumbers(lf / tot, tf / tot, wf / tot, (lf + tf / 2) / tot, None))


__all__ = ["hand_strength", "vs_random", "range_vs_range", "matchup_tables",
           "SeatNumbers", "BOARDS_PER_MATCHUP", "N_HOLE_PAIRS"]
