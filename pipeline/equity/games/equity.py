"""Equity of every seat in Omaha (4/5/6 cards, hi and hi-lo), short-deck hold'em and stud games.

The question and the answer are hold'em's (:class:`pipeline.equity.question.Question`, checked
there; :mod:`pipeline.equity.solve_games` plans): seats are hands, ranges or random; stud seats
are each seat's known cards (down and up), dealt up to seven; folded up cards are dead cards.
Here: the seats as the kernels read them, the exact count's cost estimate, the exact count and
Monte Carlo. Kernels: :mod:`pipeline.equity.games.kernels`.

Pot shares: a pot goes to the best high hand; in hi-lo games, when some hand makes an eight-or-
better low, half goes to the best high and half to the best low. Ties split their part evenly,
so a seat that ties for the low and loses the high wins a quarter of the pot.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numba
import numpy as np

from pipeline.core.cards import BINOM
from pipeline.core.constants import SHARE_SCALE
from pipeline.core.folder_cache import folder_cache
from pipeline.core.parallel import run_chunks
from pipeline.equity.games.evaluate import (
    OMAHA,
    OMAHA_HILO,
    RAZZ,
    OmahaTables,
    ShortDeckTables,
    omaha_tables,
    razz_tables,
    short_deck_tables,
)
from pipeline.equity.games.kernels import (
    HIGH,
    LOSE,
    LOW,
    N_COLS,
    POT,
    SHARE,
    TIE,
    WIN,
    exact_tasks,
    mc_range,
)
from pipeline.equity.games.omaha_mc import MC_KERNELS
from pipeline.equity.games.ranges import parse_game_range
from pipeline.equity.games.spec import Game
from pipeline.equity.montecarlo.driver import (
    DEFAULT_SAMPLES,
    MAX_TRIES,
    drive_rounds,
    stop_note,
)
from pipeline.equity.spots.answer import Counts, Method, SeatRow, Solution
from pipeline.equity.spots.seats import Seat
from pipeline.errors import InputError, clip

if TYPE_CHECKING:
    from pipeline.query.tables import Tables

#: Game ranges parsed per process.
RANGE_CACHE = 256
#: Artifacts folders whose games' tables (short deck, razz, Omaha) are kept per process.
FOLDERS_KEPT = 4
#: Seconds per hand evaluation (one two-plus-three Omaha hand, or one seven-card score), and per
#: deal for dealing it, on one thread: the exact-or-sample cost model.
EVAL_SECONDS = 3e-9
DEAL_SECONDS = 60e-9
#: Evaluations per seat and deal of the seven-card games (one score; razz counts ranks).
SEVEN_EVALS = 4
#: Seconds per assignment of the ranges' hands (listing the live deck for it).
ASSIGN_SECONDS = 200e-9
#: Most parallel tasks one exact run is split into (memory: one accumulator per task).
MAX_TASKS = 1 << 12
#: Tasks per assignment when there are few assignments, so both cores work.
SPLITS = 64


@dataclass(frozen=True)
class GameSeats:
    """Seats as the kernels read them, plus what the answer shows of each."""

    hands: np.ndarray   # int64[N, 7] rows, padded with -1
    hlen: np.ndarray    # int64[N]
    hmask: np.ndarray   # int64[N] card bitmaps
    hw: np.ndarray      # float64[N] weights in (0, 1]
    off: np.ndarray     # int64[P + 1]
    fill: np.ndarray    # int64[P] cards each seat is still dealt
    labels: tuple[str, ...]
    single: tuple[bool, ...]

    @property
    def n_seats(self) -> int:
        """Seats at the table."""
        return len(self.labels)


@functools.lru_cache(maxsize=RANGE_CACHE)
def game_range(text: str, game: Game, who: str) -> tuple[np.ndarray, np.ndarray]:
    """(rows of cards, weights) of a range of ``game``'s hands (read-only, cached: the question
    reads it to find a one-hand range, the solver again); ``who`` names the seat in errors."""
    if game.ranges == "omaha":
        rows, w = parse_game_range(text, game.hole, game.name)
    elif game.ranges == "holdem":
        from pipeline.equity.hands.starting_hands import HOLE_CARDS
        from pipeline.equity.ranges.parse import parse_range

        if "%" in text:
            raise InputError(f"{game.name} range of {who}: a top-% token orders hold'em hands; "
                             f"name the hands instead: {clip(text)}")
        try:
            r = parse_range(text)
        except InputError as exc:
            raise InputError(f"{game.name} range of {who}: {exc}") from None
        rows = np.sort(HOLE_CARDS[r.hands].astype(np.int64), axis=1)
        keep = rows.min(axis=1) >> 2 >= game.lowest_rank
        rows, w = rows[keep], r.weights[keep]
        if not len(rows):
            raise InputError(f"{game.name} range {clip(text)} has no hand in the 36-card deck")
    else:
        raise InputError(f"{game.name} seats are cards (down and up cards, e.g. \"As Kd Qh\"), "
                         f"not ranges: got {clip(text)} for {who}")
    rows = np.asarray(rows, np.int64)
    w = np.asarray(w, np.float64)
    rows.flags.writeable = False
    w.flags.writeable = False
    return rows, w


def _seat_rows(seat: Seat, game: Game, i: int) -> tuple[np.ndarray, np.ndarray, int]:
    """(rows, weights, cards still to deal) of one checked seat."""
    if seat.random:
        return np.zeros((1, 0), np.int64), np.ones(1), game.hole
    if seat.hand:
        return np.array([seat.hand], np.int64), np.ones(1), game.hole - len(seat.hand)
    return (*game_range(seat.text, game, "the hero" if i == 0 else f"seat {i + 1}"), 0)


def game_seats(game: Game, seats: Sequence[Seat], board: Sequence[int],
               dead: Sequence[int]) -> tuple[GameSeats, np.ndarray]:
    """The kernels' seats and the live deck (every card not on the board, dead or in a one-hand
    seat) of a checked question's seats: ranges lose the hands the known cards take."""
    known = 0
    for c in (*board, *dead, *(c for s in seats for c in s.hand)):
        known |= 1 << c
    rows_all, w_all, off, fill = [], [], [0], []
    for i, seat in enumerate(seats):
        rows, w, k = _seat_rows(seat, game, i)
        masks = np.array([sum(1 << int(c) for c in r) for r in rows], np.int64)
        if len(rows) > 1:
            keep = (masks & known) == 0
            if not keep.any():
                raise InputError("range {label} of seat {n} has no hand left once the board, dead "
                                 "cards and named hands are removed", field="hero" if i == 0 else "vs",
                                 label=clip(seat.label), n=i + 1)
            rows, w, masks = rows[keep], w[keep], masks[keep]
        padded = np.full((len(rows), 7), -1, np.int64)
        padded[:, :rows.shape[1]] = rows
        rows_all.append((padded, np.full(len(rows), rows.shape[1], np.int64), masks))
        w_all.append(np.asarray(w, np.float64))
        off.append(off[-1] + len(rows))
        fill.append(k)
    out = GameSeats(np.concatenate([r[0] for r in rows_all]),
                    np.concatenate([r[1] for r in rows_all]),
                    np.concatenate([r[2] for r in rows_all]), np.concatenate(w_all),
                    np.array(off, np.int64), np.array(fill, np.int64),
                    tuple(s.label for s in seats), tuple(bool(s.hand) for s in seats))
    deck = np.array([c for c in range(4 * game.lowest_rank, 52) if not known >> c & 1], np.int64)
    return out, deck


def _evals(game: Game) -> int:
    """Hand evaluations per seat and deal."""
    return math.comb(game.hole, 2) * 10 if not game.stud and game.hole > 2 else SEVEN_EVALS


def _deal_count(seats: GameSeats, m: int, bneed: int) -> int:
    """Deals of the cards to come for one assignment, from a live deck of ``m`` cards."""
    total = math.comb(m, bneed)
    m -= bneed
    for k in seats.fill.tolist():
        total *= math.comb(m, k)
        m -= k
    return total


@folder_cache(maxsize=FOLDERS_KEPT)
def _short_deck(path: str) -> ShortDeckTables:
    """The short-deck seven-card tables, built once per artifacts folder (about 0.1 s)."""
    from pipeline.query.tables import Tables

    return short_deck_tables(np.asarray(Tables(path, rules="short-deck").table(5)))


#: The razz table's stand-in for the other games (read-only, as the real one).
_NO_RAZZ = np.zeros(1, np.uint16)
_NO_RAZZ.flags.writeable = False


@folder_cache(maxsize=FOLDERS_KEPT)
def _razz(path: str) -> np.ndarray:
    """Razz's rank-multiset scores from the ace-to-five rule set's table, once per artifacts
    folder (about 0.1 s)."""
    from pipeline.query.tables import Tables

    return razz_tables(np.asarray(Tables(path, rules="ace-to-five").table(5)))


@folder_cache(maxsize=FOLDERS_KEPT)
def _omaha(path: str) -> OmahaTables:
    """Omaha's pair-by-triple score table, built once per artifacts folder (about 10 ms)."""
    from pipeline.query.tables import Tables

    ev = Tables(path).eval_tables()
    return omaha_tables(ev.offsets, ev.ranks)


def _tables(tables: Tables, game: Game) -> tuple[np.ndarray, ...]:
    """The evaluator arrays the kernels take: short-deck ones only for short deck, Omaha's only
    for Omaha, razz's only for razz (the other games get stand-ins of the same types, so the
    same compiled kernel)."""
    ev = tables.eval_tables()
    sd = _short_deck(str(tables.path)) if game.lowest_rank else ShortDeckTables(
        np.zeros(52, np.int64), np.zeros(1, np.uint16), np.zeros(1, np.uint16))
    om = _omaha(str(tables.path)) if game.code in (OMAHA, OMAHA_HILO) else OmahaTables(
        np.zeros(1, np.int64), np.zeros(1, np.uint16))
    razz = _razz(str(tables.path)) if game.code == RAZZ else _NO_RAZZ
    return (ev.card_keys, ev.offsets, ev.ranks, ev.flush, *om, *sd, razz)


def exact_cost(game: Game, seats: GameSeats, deck: np.ndarray, bneed: int) -> tuple[float, int]:
    """(estimated seconds, assignments of the ranges' hands) of counting every deal exactly."""
    P = seats.n_seats
    multi = [p for p in range(P) if seats.off[p + 1] - seats.off[p] > 1]
    n_assign = math.prod(int(seats.off[p + 1] - seats.off[p]) for p in range(P))
    m = len(deck) - sum(game.hole for _ in multi)
    deals = n_assign * _deal_count(seats, m, bneed)
    threads = max(1, int(numba.get_num_threads()))
    cost = (deals * (P * _evals(game) * EVAL_SECONDS + DEAL_SECONDS)
            + n_assign * ASSIGN_SECONDS) / threads
    return cost, n_assign


def run_exact(game: Game, seats: GameSeats, deck: np.ndarray, board: Sequence[int], bneed: int,
              n_assign: int, tables: Tables) -> Solution:
    """Every deal counted in integers (weighted sums for weighted ranges)."""
    tasks = min(MAX_TASKS, n_assign * SPLITS)
    P = seats.n_seats
    acc_i = np.zeros((tasks, P, N_COLS), np.int64)
    acc_f = np.zeros((tasks, P, N_COLS), np.float64)
    args = (game.code, np.array(board, np.int64), bneed, deck, seats.hands, seats.hlen,
            seats.hmask, seats.hw, seats.off, seats.fill, n_assign, BINOM, *_tables(tables, game),
            acc_i, acc_f)
    _threaded(exact_tasks, tasks, (tasks, *args))
    return _exact_result(game, seats, acc_i.sum(axis=0), acc_f.sum(axis=0))


def _threaded(kernel: Callable[..., None], n: int, args: tuple[object, ...]) -> None:
    """``kernel(counter, *args)`` once on each of numba's number of threads (at most ``n``):
    the calls take the ``n`` tasks by number from the shared ``counter`` as they get free, so
    a slower thread holds up no other, and one call per thread keeps the cost of calling a
    kernel from Python (tens of microseconds) off every task."""
    threads = max(1, min(n, int(numba.get_num_threads())))
    counter = np.zeros(1, np.int64)
    run_chunks(lambda _: kernel(counter, *args), threads, threads)


def run_monte_carlo(game: Game, seats: GameSeats, deck: np.ndarray, board: Sequence[int],
                    bneed: int, tables: Tables, samples: int | None, stderr: float | None,
                    time_limit: float | None, seed: int,
                    progress: Callable[[float, str], None] | None) -> Solution:
    """Deals until the stopping rule holds (:data:`DEFAULT_SAMPLES` when none is given)."""
    P = seats.n_seats
    board0 = np.array(board, np.int64)
    arrays = _tables(tables, game)
    thr = seats.hw.copy()
    for p in range(P):
        lo, hi = seats.off[p], seats.off[p + 1]
        thr[lo:hi] /= thr[lo:hi].max()
    extra = np.zeros((P, N_COLS), np.int64)
    # Omaha gets kernels compiled for its game codes (a one-time compile each, for the speed
    # that matters most); the other games share one
    kernel = MC_KERNELS.get(game.code, mc_range)

    def play(sizes: np.ndarray, stream0: int) -> tuple[np.ndarray, int]:
        chunks = np.zeros((len(sizes), P, N_COLS), np.int64)
        tries = np.zeros(len(sizes), np.int64)
        _threaded(kernel, len(sizes), (sizes, seed, stream0, game.code, board0, bneed, deck,
                                       seats.hands, seats.hlen, seats.hmask, thr, seats.off,
                                       seats.fill, MAX_TRIES, *arrays, chunks, tries))
        acc = chunks.sum(axis=0)
        if (tries < 0).any():
            raise InputError("the ranges hardly ever fit together without sharing a card "
                             f"(over {MAX_TRIES:,} tries for one deal); narrow them", field="vs")
        extra[:] += acc
        return acc[:, :5], int(tries.sum())

    if samples is None and stderr is None and time_limit is None:
        samples = DEFAULT_SAMPLES
    # the driver's error estimate counts shares in units of 1/SHARE_SCALE; ours are 1/POT
    scale = POT / SHARE_SCALE
    tot = drive_rounds(play, P, samples, None if stderr is None else stderr * scale, time_limit,
                       progress=progress)
    se = tot.stderr() / scale
    n = tot.deals
    rows = tuple(_row(game, seats, p, extra[p], n, float(se[p])) for p in range(P))
    h = extra[0]
    counts = Counts(int(h[WIN]), int(h[TIE]), int(h[LOSE]),
                    assignment_draws=tot.tries if tot.tries > n else None)
    note = stop_note(tot, None if stderr is None else stderr * scale, time_limit)
    if note and stderr is not None:
        note = note.replace(str(stderr * scale), str(stderr))
    return Solution(Method.MONTE_CARLO, rows, counts, samples=n, seed=seed, note=note)


def _exact_result(game: Game, seats: GameSeats, acc_i: np.ndarray, acc_f: np.ndarray) -> Solution:
    unit = bool(np.all(seats.hw == 1.0))
    deals = int(acc_i[0, WIN] + acc_i[0, TIE] + acc_i[0, LOSE])
    acc = acc_i if unit else acc_f
    total = float(acc[0, WIN] + acc[0, TIE] + acc[0, LOSE])
    if total == 0:
        raise InputError("the ranges cannot all be dealt at once: every assignment of hands "
                         "shares a card", field="vs")
    rows = tuple(_row(game, seats, p, acc[p], total, None,
                      str(Fraction(int(acc[p, SHARE]), POT * deals)) if unit else None)
                 for p in range(seats.n_seats))
    if not unit:  # weighted: fractions of the weighted total
        return Solution(Method.EXACT, rows)
    h = acc_i[0]
    counts = Counts(int(h[WIN]), int(h[TIE]), int(h[LOSE]), int(h[SHARE]), POT * deals,
                    int(h[HIGH]) if game.hilo else None, int(h[LOW]) if game.hilo else None)
    return Solution(Method.EXACT, rows, counts, deals=deals)


def _row(game: Game, seats: GameSeats, p: int, a: np.ndarray, total: float, se: float | None,
         fraction: str | None = None) -> SeatRow:
    """Seat ``p``'s row from its column sums ``a`` (win, tie, lose, pot shares of the whole, the
    high and the low in units of :data:`POT`) over ``total`` deals or weight."""
    n = int(seats.off[p + 1] - seats.off[p])
    win = float(a[WIN] / total)
    # win is a scoop in a hi-lo game: the whole pot alone
    scoop, high, low = ((win, float(a[HIGH] / (POT * total)), float(a[LOW] / (POT * total)))
                        if game.hilo else (None, None, None))
    return SeatRow("hero" if p == 0 else f"vs{p}", seats.labels[p], n, win, float(a[TIE] / total),
                   float(a[LOSE] / total), float(a[SHARE] / (POT * total)), se,
                   hand=seats.labels[p] if seats.single[p] else None, scoop=scoop, high=high,
                   low=low, equity_fraction=fraction)


__all__ = ["GameSeats", "exact_cost", "game_range", "game_seats", "run_exact", "run_monte_carlo"]
