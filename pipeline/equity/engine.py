"""Equity for every seat: up to 10 players, each a hand, a weighted range or a random hand.

The method is chosen by what is known and what it costs:

1. preflop, no dead cards, everyone else random: read ``preflop.h5`` (exact heads-up counts;
   2..9 opponents from its Monte Carlo columns with their standard error);
2. preflop heads-up range vs range: the matchup table ``preflop_matchups.h5`` (exact);
3. one hand against named hands and up to 3 random hands: exact counting
   (:mod:`pipeline.equity.exact.count`: board orbits x inclusion-exclusion over random hands);
4. ranges, when the cost model says about 2 s or less: every board x every non-conflicting
   assignment (:mod:`pipeline.equity.exact.ranges`; small heads-up spots after the flop in
   numpy, without loading numba: :mod:`pipeline.equity.exact.small_spots`);
5. otherwise Monte Carlo (:mod:`pipeline.equity.montecarlo.driver`) for a sample count, a target
   standard error or a time limit.

Convention (PokerStove/Equilab): each non-conflicting assignment of hands to seats counts
with the product of its weights; equity = wins + split shares (a k-way tie pays 1/k).
"""

from __future__ import annotations

import functools
import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from pipeline.core.cards import format_cards, parse_cards
from pipeline.core.constants import DECK_SIZE, MAX_PLAYERS, SHARE_SCALE
from pipeline.equity.hands.starting_hands import HOLE_CARDS, HOLE_MASKS
from pipeline.equity.montecarlo.stopping import DEFAULT_SAMPLES, check_method
from pipeline.equity.ranges.parse import Range, parse_range, ranges_fit
from pipeline.equity.spots.result import EquityResult, seat_row
from pipeline.equity.spots.seats import Seats
from pipeline.errors import ArtifactError, InputError, clip

if TYPE_CHECKING:
    from pipeline.equity.spots.question import Spot

#: Exact methods are chosen automatically when their estimated time is at most this (s).
EXACT_SECONDS = 2.0
#: ``exact=True`` refuses spots estimated above this (s).
EXACT_HARD_SECONDS = 600.0
#: Parsed range texts kept per process.
RANGE_CACHE = 512
#: Lookups per second the exact counter's cost estimate is converted with.
ENGINE_LOOKUPS_PER_S = 2.0e8


#: A seat given as bare cards: card names only (a range token always has a rank pattern).
_ONLY_CARDS = re.compile(r"(?:(?:10|[2-9tjqka])[cdhs])+", re.IGNORECASE)
#: Hole cards of a hold'em hand and of an Omaha hand.
HOLDEM_HOLE, OMAHA_HOLE = 2, 4


@functools.lru_cache(maxsize=RANGE_CACHE)
def hole_cards_given(hero: str) -> int | None:
    """How many cards ``hero`` names when it is bare cards (``AsKs``, ``As Kd Qh Jc``), else None.

    Two cards are a hold'em hand, four an Omaha hand; any other count is refused here, so a
    typo does not turn into a range."""
    text = "".join(hero.split())
    if not _ONLY_CARDS.fullmatch(text):
        return None
    n = len(parse_cards(text))
    if n not in (HOLDEM_HOLE, OMAHA_HOLE):
        raise InputError(f"expected 2 hole cards (hold'em) or 4 (Omaha), got {n}: {clip(hero)}; "
                         "other games: --game omaha5, omaha6, stud, stud-hi-lo, razz, ...")
    return n


@dataclass
class Table:
    """A parsed question: seats in order (ranges after card removal), random flags, cards."""

    seats: list[Range]
    random: list[bool]
    board: list[int]
    dead: list[int]

    @property
    def n_random(self) -> int:
        """Seats holding a random hand."""
        return sum(self.random)

    def labels(self) -> list[str]:
        """Text of each seat for output."""
        return ["random" if rnd else s.label() for s, rnd in zip(self.seats, self.random)]


def _strength(tables: Any) -> Callable[..., np.ndarray]:
    def get(opponents: int = 1) -> np.ndarray:
        from pipeline.equity.tables.preflop import hand_strength

        try:
            return hand_strength(tables, opponents)
        except ArtifactError as exc:
            raise InputError(f"a top-% range needs the preflop table: {exc}") from None
    return get


@functools.lru_cache(maxsize=RANGE_CACHE)
def _parsed(text: str) -> Range:
    """A range without ``N%`` tokens, parsed once per process (small spots are asked again and
    again; their parse cost more than their enumeration). Read-only, since it is shared."""
    r = parse_range(text)
    r.hands.flags.writeable = False
    r.weights.flags.writeable = False
    return r


@functools.lru_cache(maxsize=RANGE_CACHE)
def _cards(text: str) -> tuple[int, ...]:
    """Board or dead cards parsed once per text (InputError for bad text is not cached)."""
    return tuple(parse_cards(text)) if text and text.strip() else ()


def parse_table(tables: Any, hero: str, vs: Sequence[str], opponents: int | None,
                board: str, dead: str) -> Table:
    """Parse every seat and the cards; remove board, dead and named-hand cards from ranges."""
    b = list(_cards(board))
    if len(b) not in (0, 3, 4, 5):
        raise InputError(f"the board must have 0, 3, 4 or 5 cards, got {len(b)}: {format_cards(b)}")
    d = list(_cards(dead))
    texts = [hero, *vs]
    strength = _strength(tables)
    seats: list[Range] = []
    rnd: list[bool] = []
    for t in texts:
        r = _parsed(t) if "%" not in t else parse_range(t, strength)
        rnd.append(r.is_random and "".join(t.split()).lower() in ("random", "any", "anytwo"))
        seats.append(r)
    if opponents is None:
        opponents = 0 if vs else 1
    if opponents < 0:
        raise InputError(f"-n must be 0 or more random opponents, got {clip(str(opponents))}")
    if opponents > MAX_PLAYERS - len(texts):
        # checked before any seat is made: -n 10**20 must not build 10**20 seats
        raise InputError(f"at most {MAX_PLAYERS - 1} opponents in all ({MAX_PLAYERS} players), "
                         f"got -n {clip(str(opponents))} and {len(vs)} --vs")
    for _ in range(opponents):
        seats.append(_parsed("random"))
        rnd.append(True)
    if len(seats) < 2:
        raise InputError("need at least one opponent (-n K or --vs RANGE)")
    if len(seats) > MAX_PLAYERS:
        raise InputError(f"at most {MAX_PLAYERS - 1} opponents in all ({MAX_PLAYERS} players), "
                         f"got {len(seats) - 1}")
    owner: dict[int, str] = {}
    groups = [("the board", b), ("dead", d)] + [
        (f"seat {i + 1} ({s.label()})", s.cards()) for i, s in enumerate(seats) if s.is_single]
    for name, cards in groups:
        for c in cards:
            if c in owner:
                raise InputError(f"card {format_cards([c])} appears twice (in {owner[c]} and {name})")
            owner[c] = name
    known = 0
    for c in owner:
        known |= 1 << c
    why = "the board, dead cards and named hands"
    seats = [s if s.is_single else s.without(known, why) for s in seats]
    return Table(seats, rnd, b, d)


def _seats_arrays(seats: Sequence[Range]) -> Seats:
    """The kernels' view of the seats (a fresh copy: Monte Carlo rescales its weights)."""
    off = np.zeros(len(seats) + 1, np.int64)
    off[1:] = np.cumsum([s.combos for s in seats])
    hands = np.concatenate([s.hands for s in seats]) if seats else np.zeros(0, np.int64)
    w = np.concatenate([s.weights for s in seats]) if seats else np.zeros(0)
    return Seats(off, np.ascontiguousarray(HOLE_CARDS[hands, 0]),
                 np.ascontiguousarray(HOLE_CARDS[hands, 1]), np.ascontiguousarray(w),
                 np.ascontiguousarray(HOLE_MASKS[hands]), 0)


@functools.lru_cache(maxsize=RANGE_CACHE)
def _exact_seats(seats: tuple[Range, ...]) -> Seats:
    """:func:`_seats_arrays` for the exact kernels, which only read it: built once per tuple
    of (cached, card-removed) ranges."""
    return _seats_arrays(seats)


@functools.lru_cache(maxsize=RANGE_CACHE)
def _deck_without(mask: int) -> np.ndarray:
    """Sorted card ids not in the bitmap ``mask``, shared between calls: callers only read it
    (left writable, since a read-only array would compile every kernel a second time)."""
    return np.array([c for c in range(DECK_SIZE) if not mask >> c & 1], np.int64)


def _check_fits(table: Table) -> None:
    """InputError when no assignment gives every range seat a hand without a shared card."""
    ranged = tuple(s for s, r in zip(table.seats, table.random) if not r)
    if ranges_fit(ranged) is False:
        raise InputError("the ranges cannot all be dealt at once: every assignment of hands "
                         "shares a card")
    need = 5 - len(table.board) + 2 * len(table.seats)
    free = 52 - len(table.board) - len(table.dead)
    if need > free:
        raise InputError(f"deck exhausted: {len(table.seats)} hands and {5 - len(table.board)} "
                         f"board cards need {need} cards but only {free} are left")


def equity_seats(tables: Any, hero: str, vs: Sequence[str] = (), opponents: int | None = None,
                 board: str = "", dead: str = "", exact: bool | None = None,
                 samples: int | None = None, stderr: float | None = None,
                 time_limit: float | None = None, seed: int | None = None,
                 progress: Callable[[float, str], None] | None = None,
                 from_tables: bool = False, game: str | None = None) -> EquityResult:
    """Win/tie/lose/equity of every seat; see the module docstring for the method chosen.

    ``exact=True`` insists on an exact method, ``samples``/``stderr``/``time_limit`` ask for
    Monte Carlo; ``from_tables`` (the ``preflop`` command) answers only from the tables or by
    exact enumeration, never by sampling. ``game`` names another game (``omaha``, ``omaha5``,
    ``omaha6``, ``omaha-hi-lo``, ``short-deck``, ``stud``, ``stud-hi-lo``, ``razz``:
    :mod:`pipeline.equity.games.equity`); without it four hole cards mean Omaha.
    """
    t0 = time.perf_counter()
    mc_asked = check_method(exact, samples, stderr, time_limit, seed)
    other = None
    if game is not None or hole_cards_given(hero) == OMAHA_HOLE:
        # only then: the other games' module loads their numba kernels
        from pipeline.equity.games.spec import GAMES, get_game

        other = get_game(game) if game is not None else GAMES["omaha"]
    if other is not None:
        from pipeline.equity.games.equity import game_equity

        if from_tables:
            raise InputError("the preflop tables are hold'em tables: give 2 hole cards")
        return game_equity(tables, other, hero, list(vs), opponents=opponents, board=board,
                           dead=dead, exact=exact, samples=samples, stderr=stderr,
                           time_limit=time_limit, seed=seed, progress=progress)
    table = parse_table(tables, hero, vs, opponents, board, dead)
    _check_fits(table)
    if progress is not None:
        progress(0.0, "")  # the question is valid: the caller may announce slow work now
    preflop = not table.board and not table.dead
    res: EquityResult | None = None
    if preflop and not mc_asked:
        res = _from_preflop_tables(tables, table, exact)
    if res is None and not mc_asked:
        res = _exact(tables, table, exact or from_tables)
        if res is not None and preflop and len(table.seats) == 2 and not any(table.random):
            res.note = "preflop_matchups.h5 is not built: enumerated every board instead"
    if res is None:
        if exact or from_tables:
            if table.n_random > 3:
                raise InputError(f"exact enumeration handles at most 3 random opponents (got "
                                 f"{table.n_random}); use Monte Carlo (--samples, --stderr or --time)")
            raise InputError("exact enumeration of this spot would take too long; use Monte "
                             "Carlo (--samples, --stderr or --time)")
        res = _monte_carlo(tables, table, samples, stderr, time_limit,
                           seed if seed is not None else int.from_bytes(os.urandom(4), "little"),
                           progress)
    res.seconds = time.perf_counter() - t0
    return res


# --------------------------------------------------------------------------- result assembly
def _result(table: Table, method: str, rows: list[dict[str, Any]], counts: dict[str, int] | None,
            deals: int | None = None, samples: int | None = None, seed: int | None = None,
            source: str | None = None, note: str | None = None) -> EquityResult:
    hero = table.seats[0]
    h = rows[0]
    vs_cards = [s.cards() for s, r in zip(table.seats[1:], table.random[1:]) if not r and s.is_single]
    # every opponent counts, a range or a hand as much as a random seat; `vs` names the ones
    # that are not random (a hand by its cards, a range by its text)
    vs_text = [format_cards(s.cards()) if s.is_single else s.text
               for s, r in zip(table.seats[1:], table.random[1:]) if not r]
    return EquityResult(
        hole=hero.cards() if hero.is_single else [], board=table.board, dead=table.dead,
        vs=vs_cards, vs_text=vs_text, opponents=len(table.seats) - 1, method=method, win=h["win"], tie=h["tie"],
        lose=h["lose"], equity=h["equity"], stderr=h["stderr"], seconds=0.0, deals=deals,
        samples=samples, seed=seed, counts=counts or {}, players=rows,
        hero_range=None if hero.is_single else hero.text, source=source, note=note)


def _rows(table: Table, nums: Sequence[tuple[float | None, float | None, float | None, float,
                                             float | None]]) -> list[dict[str, Any]]:
    out = []
    for i, (s, rnd, n) in enumerate(zip(table.seats, table.random, nums)):
        label = "random" if rnd else s.label()
        out.append(seat_row("hero" if i == 0 else f"vs{i}", label, s.combos, n[0], n[1], n[2],
                            n[3], n[4], hand=label if s.is_single and not rnd else None))
    return out


def _symmetric_random(table: Table, known: dict[int, float]) -> dict[int, float]:
    """Equity of random seats: they are exchangeable, so they split what the others leave."""
    rest = 1.0 - sum(known.values())
    rnd = [i for i in range(len(table.seats)) if i not in known]
    return {i: rest / len(rnd) for i in rnd}


# --------------------------------------------------------------------------- 1 + 2: tables
def _from_preflop_tables(tables: Any, table: Table, exact: bool | None) -> EquityResult | None:
    import pipeline.equity.tables.preflop as pq

    others_random = all(table.random[1:])
    n = len(table.seats) - 1
    hero = table.seats[0]
    if others_random and not table.random[0]:
        if n > 1 and exact:
            return None
        try:
            num = pq.vs_random(tables, hero.hands, hero.weights, n)
        except ArtifactError:
            return None
        eq = _symmetric_random(table, {0: num.equity})
        rows = [(num.win, num.tie, num.lose, num.equity, num.stderr)]
        for i in range(1, n + 1):
            if n == 1:
                rows.append((num.lose, num.tie, num.win, eq[i], None))
            else:
                rows.append((None, None, None, eq[i], None))
        if n == 1:
            return _result(table, "exact", _rows(table, rows), num.counts, deals=num.deals,
                           source="preflop.h5 (exact heads-up counts)")
        return _result(table, "monte-carlo", _rows(table, rows), None,
                       source=f"preflop.h5 (Monte Carlo column vs {n}, stderr from the table)")
    if n == 1:
        # heads-up, every seat a range ("random" is the range of all 1,326 hands): the
        # matchup table weighs each pair of disjoint hands alike, which is the random deal
        mt = pq.matchup_tables(tables)
        if mt is None:
            return None
        a, b = table.seats
        h, v = pq.range_vs_range(mt, a.hands, a.weights, b.hands, b.weights)
        rows = [(h.win, h.tie, h.lose, h.equity, None), (v.win, v.tie, v.lose, v.equity, None)]
        return _result(table, "exact", _rows(table, rows), h.counts, deals=h.deals,
                       source="preflop_matchups.h5 (exact heads-up matchup table)")
    return None


# --------------------------------------------------------------------------- 3 + 4: exact
def _exact(tables: Any, table: Table, insist: bool | None) -> EquityResult | None:
    limit = EXACT_HARD_SECONDS if insist else EXACT_SECONDS
    singles = all(s.is_single for s, r in zip(table.seats, table.random) if not r)
    # two named hands after the flop go to the range path, which counts them without numba
    face_up = len(table.seats) == 2 and not table.n_random and len(table.board) >= 3
    if singles and not table.random[0] and table.n_random <= 3 and not face_up:
        from pipeline.equity.exact.count import exact_cost
        from pipeline.equity.spots.question import Spot

        # parse_table checked these cards (distinct, enough left): no second parse
        a, b = table.seats[0].cards()
        named = tuple((s.cards()[0], s.cards()[1])
                      for s, r in zip(table.seats[1:], table.random[1:]) if not r)
        spot = Spot((a, b), tuple(table.board), named, tuple(table.dead), table.n_random)
        cost = exact_cost(spot) / ENGINE_LOOKUPS_PER_S
        if cost <= limit:
            return _hand_exact(tables, table, spot)
    ranged = [s for s, r in zip(table.seats, table.random) if not r]
    # one random seat is counted per board (rangerandom); otherwise random seats are ranges
    # of every hand in the deal walk (rangeexact)
    counted = table.n_random == 1 and bool(ranged)
    # the largest range last: the kernels' innermost loop runs over the last seat's hands
    fixed = sorted((i for i in range(len(table.seats)) if not table.random[i]),
                   key=lambda i: table.seats[i].combos)
    order = fixed + [i for i in range(len(table.seats)) if table.random[i]]
    walked = tuple(table.seats[i] for i in (fixed if counted else order))
    seats = _exact_seats(walked)
    gone = 0
    for c in [*table.board, *table.dead, *(c for s in ranged if s.is_single for c in s.cards())]:
        gone |= 1 << c
    avail = _deck_without(gone)
    r = 5 - len(table.board)
    board0 = np.array(table.board, np.int64)
    ev = tables.eval_tables()
    from pipeline.equity.exact.small_spots import headsup_small, is_small

    if not table.n_random and is_small(seats, len(avail), r):
        # numpy only: a small spot must not wait for numba to load (issue 33)
        acc_i, tot_i, acc_f, tot_f = headsup_small(seats, board0, avail, r, *ev)
    else:
        from numba import get_num_threads

        from pipeline.equity.exact.range_random import range_random, range_random_cost
        from pipeline.equity.exact.ranges import range_exact, range_exact_cost
        from pipeline.equity.hands.symmetry import SUIT_PERMS, range_stabilizer

        estimate = range_random_cost if counted else range_exact_cost
        if estimate(seats, len(avail), r, 1) / len(SUIT_PERMS) > limit:
            return None
        perms = range_stabilizer([table.board, table.dead], [(s.hands, s.weights) for s in walked])
        if estimate(seats, len(avail), r, len(perms)) / max(1, get_num_threads()) > limit:
            return None
        kernel = range_random if counted else range_exact
        acc_i, tot_i, acc_f, tot_f = kernel(seats, board0, avail, r, perms, *ev)
    unit = all(s.unit_weights for s in table.seats)
    # unit weights: integer counts over the deals; otherwise weighted sums over their total
    sums, total = (acc_i.tolist(), tot_i) if unit else (acc_f.tolist(), tot_f)
    nums: list[Any] = [None] * len(table.seats)
    for k, p in enumerate(order):
        w, t, lo, sh = sums[k]
        nums[p] = (w / total, t / total, lo / total, sh / (SHARE_SCALE * total), None)
    counts = None
    if unit:
        w, t, lo, sh = sums[order.index(0)]
        counts = {"win": w, "tie": t, "lose": lo, "equity_numerator": sh,
                  "equity_denominator": SHARE_SCALE * tot_i}
    return _result(table, "exact", _rows(table, nums), counts, deals=tot_i if unit else None)


def _hand_exact(tables: Any, table: Table, spot: Spot) -> EquityResult:
    from pipeline.equity.exact.count import exact_counts

    acc, n = exact_counts(spot, tables.table(7), tables.eval_tables())
    # acc rows: hero, then the named hands in seat order
    fixed = [0] + [i for i in range(1, len(table.seats)) if not table.random[i]]
    per: dict[int, tuple[float, float, float, float, None]] = {}
    for k, i in enumerate(fixed):
        w, t, lo, sh = (int(v) for v in acc[k, :4])
        per[i] = (w / n, t / n, lo / n, sh / (SHARE_SCALE * n), None)
    eq = _symmetric_random(table, {i: row[3] for i, row in per.items()})
    hero = per[0]
    nums: list[tuple[float | None, float | None, float | None, float, float | None]] = []
    for i in range(len(table.seats)):
        if i in per:
            nums.append(per[i])
        elif table.n_random == 1 and len(table.seats) == 2:
            nums.append((hero[2], hero[1], hero[0], eq[i], None))
        else:
            nums.append((None, None, None, eq[i], None))
    w, t, lo, sh = (int(v) for v in acc[0, :4])
    counts = {"win": w, "tie": t, "lose": lo, "equity_numerator": sh,
              "equity_denominator": SHARE_SCALE * n}
    return _result(table, "exact", _rows(table, nums), counts, deals=n)


# --------------------------------------------------------------------------- 5: Monte Carlo
def _monte_carlo(tables: Any, table: Table, samples: int | None, stderr: float | None,
                 time_limit: float | None, seed: int,
                 progress: Callable[[float, str], None] | None) -> EquityResult:
    order = [i for i in range(len(table.seats)) if not table.random[i]] + \
        [i for i in range(len(table.seats)) if table.random[i]]
    ranged = [table.seats[i] for i in order if not table.random[i]]
    seats = _seats_arrays(ranged)
    seats.n_random = table.n_random
    # a seat keeps a drawn hand with probability weight / (its largest weight): the same
    # distribution as weight alone, but a range of tiny weights (AA:0.000000001) is not a
    # rejection loop of a billion draws
    for p in range(len(ranged)):
        lo, hi = seats.off[p], seats.off[p + 1]
        seats.hand_w[lo:hi] = seats.hand_w[lo:hi] / seats.hand_w[lo:hi].max()
    single_cards = [c for s in ranged if s.is_single for c in s.cards()]
    gone = set(table.board) | set(table.dead) | set(single_cards)
    deck = np.array([c for c in range(52) if c not in gone], np.int64)
    ev = tables.eval_tables()
    bkey = int(sum(int(ev.card_keys[c]) for c in table.board))
    bmask = sum(1 << c for c in table.board)
    if samples is None and stderr is None and time_limit is None:
        samples = DEFAULT_SAMPLES
    # the Monte Carlo kernels load here, not with the engine: a table read never needs them
    from pipeline.equity.montecarlo.driver import run_mc, stop_note

    tot = run_mc(seats, bkey, bmask, 5 - len(table.board), deck, ev.card_keys, ev.offsets,
                 ev.ranks, ev.flush, seed, samples=samples, target=stderr, time_limit=time_limit,
                 progress=progress)
    se = tot.stderr()
    n = tot.deals
    nums: list[Any] = [None] * len(table.seats)
    for k, i in enumerate(order):
        w, t, lo, sh = (int(v) for v in tot.sums[k, :4])
        nums[i] = (w / n, t / n, lo / n, sh / (SHARE_SCALE * n), float(se[k]))
    h = tot.sums[order.index(0)]
    counts = {"win": int(h[0]), "tie": int(h[1]), "lose": int(h[2])}
    note = stop_note(tot, stderr, time_limit)
    res = _result(table, "monte-carlo", _rows(table, nums), counts, samples=n, seed=seed, note=note)
    if tot.tries > n:
        res.counts["assignment_draws"] = tot.tries
    return res


def preflop(tables: Any, hand: str, vs: str | None = None, opponents: int | None = None) -> EquityResult:
    """Preflop equity from the tables only (the ``preflop`` command): a hand or range against
    ``opponents`` random hands (heads-up exact, 2..9 from the Monte Carlo columns) or heads-up
    against the range ``vs`` (exact from the matchup table, or by enumeration when that table
    is not built)."""
    if vs is not None and opponents not in (None, 1):
        raise InputError("--vs RANGE is heads-up: the matchup table holds one opponent")
    if vs is None and opponents is not None and not 1 <= opponents <= 9:
        raise InputError(f"-n must be 1..9 random opponents, got {opponents}")
    return equity_seats(tables, hand, [vs] if vs is not None else [],
                        opponents=None if vs is not None else (opponents or 1),
                        from_tables=True)


__all__ = ["preflop", "equity_seats", "parse_table", "Table", "DEFAULT_SAMPLES", "EXACT_SECONDS"]

