"""Equity of every seat in Omaha (4/5/6 cards, hi and hi-lo), short-deck hold'em and stud games.

The question and the answer are hold'em's (:func:`pipeline.equity.engine.equity_seats` hands
over when a game is named, or when the hero has four hole cards): seats are hands, ranges or
random; stud seats are each seat's known cards (down and up), dealt up to seven; folded up
cards are dead cards. The method follows hold'em's rule: exact (every deal, counted in
integers) when the cost estimate is at most :data:`EXACT_SECONDS` (or :data:`EXACT_HARD_SECONDS`
with ``exact=True``), Monte Carlo with a standard error otherwise, with the same stopping rules
and seeds. Kernels: :mod:`pipeline.equity.games.kernels`.

Pot shares: a pot goes to the best high hand; in hi-lo games, when some hand makes an eight-or-
better low, half goes to the best high and half to the best low. Ties split their part evenly,
so a seat that ties for the low and loses the high wins a quarter of the pot.
"""

from __future__ import annotations

import functools
import math
import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numba
import numpy as np

from pipeline.core.cards import BINOM, card_text, format_cards, parse_cards
from pipeline.core.constants import MAX_PLAYERS, SHARE_SCALE
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
    exact_kernel,
    mc_chunks,
    mc_chunks_literal,
)
from pipeline.equity.games.ranges import parse_game_range
from pipeline.equity.games.spec import Game
from pipeline.equity.montecarlo.driver import (
    DEFAULT_SAMPLES,
    MAX_TRIES,
    drive_rounds,
    stop_note,
)
from pipeline.equity.montecarlo.stopping import check_method
from pipeline.equity.spots.result import EquityResult, seat_row
from pipeline.errors import InputError, clip

#: Exact counting is chosen when its estimated time is at most this (s) ...
EXACT_SECONDS = 2.0
#: ... and ``exact=True`` refuses spots estimated above this (s).
EXACT_HARD_SECONDS = 600.0
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
#: Position of the game code among mc_chunks_literal's arguments.
LITERAL_ARG = 3
#: A seat given as bare cards.
_ONLY_CARDS = re.compile(r"(?:(?:10|[2-9tjqka])[cdhs])+", re.IGNORECASE)
_RANDOM = ("random", "any", "anytwo", "anyhand")


@dataclass
class GameSeats:
    """Seats as the kernels read them, plus what the answer shows of each."""

    hands: np.ndarray   # int64[N, 7] rows, padded with -1
    hlen: np.ndarray    # int64[N]
    hmask: np.ndarray   # int64[N] card bitmaps
    hw: np.ndarray      # float64[N] weights in (0, 1]
    off: np.ndarray     # int64[P + 1]
    fill: np.ndarray    # int64[P] cards each seat is still dealt
    labels: list[str]
    random: list[bool]
    single: list[list[int] | None]


def _check_deck(cards: Sequence[int], game: Game, what: str) -> None:
    for c in cards:
        if c >> 2 < game.lowest_rank:
            raise InputError(f"card {card_text(c)} in {what} is not in the {game.name} deck "
                             f"(ranks 6 to A)")


def _seat(text: str, game: Game, i: int) -> tuple[np.ndarray, np.ndarray, int, str, bool]:
    """(rows, weights, cards to deal, label, random) of one seat's text."""
    t = "".join(text.split())
    if t.lower() in _RANDOM:
        return np.zeros((1, 0), np.int64), np.ones(1), game.hole, "random", True
    who = "the hero" if i == 0 else f"seat {i + 1}"
    if _ONLY_CARDS.fullmatch(t):
        cards = parse_cards(t)
        _check_deck(cards, game, who)
        if game.stud:
            if not 1 <= len(cards) <= game.hole:
                raise InputError(f"{game.name}: {who} has 1 to {game.hole} known cards, got "
                                 f"{len(cards)}: {clip(text)}")
        elif len(cards) != game.hole:
            raise InputError(f"{game.name} hands have {game.hole} hole cards; {who} has "
                             f"{len(cards)}: {clip(text)}")
        return (np.array([cards], np.int64), np.ones(1), game.hole - len(cards),
                format_cards(cards), False)
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
    return rows, w, 0, (format_cards(rows[0]) if len(rows) == 1 else text.strip()), False


def parse_game_seats(game: Game, texts: Sequence[str], board: list[int],
                     dead: list[int]) -> tuple[GameSeats, np.ndarray]:
    """The seats and the live deck (every card not on the board, dead or in a one-hand seat)."""
    parsed = [_seat(t, game, i) for i, t in enumerate(texts)]
    owner: dict[int, str] = {}
    groups = [("the board", board), ("dead", dead)] + [
        (f"seat {i + 1} ({p[3]})", p[0][0].tolist()) for i, p in enumerate(parsed) if len(p[0]) == 1]
    for name, cards in groups:
        for c in cards:
            if c in owner:
                raise InputError(f"card {card_text(c)} appears twice (in {owner[c]} and {name})")
            owner[c] = name
    known = sum(1 << c for c in owner)
    rows_all, w_all, off, fill = [], [], [0], []
    for i, (rows, w, k, label, _) in enumerate(parsed):
        masks = np.array([sum(1 << int(c) for c in r) for r in rows], np.int64)
        if len(rows) > 1:
            keep = (masks & known) == 0
            if not keep.any():
                raise InputError(f"range {clip(label)} of seat {i + 1} has no hand left once "
                                 "the board, dead cards and named hands are removed")
            rows, w, masks = rows[keep], w[keep], masks[keep]
        padded = np.full((len(rows), 7), -1, np.int64)
        padded[:, :rows.shape[1]] = rows
        rows_all.append((padded, np.full(len(rows), rows.shape[1], np.int64), masks))
        w_all.append(np.asarray(w, np.float64))
        off.append(off[-1] + len(rows))
        fill.append(k)
    seats = GameSeats(np.concatenate([r[0] for r in rows_all]),
                      np.concatenate([r[1] for r in rows_all]),
                      np.concatenate([r[2] for r in rows_all]), np.concatenate(w_all),
                      np.array(off, np.int64), np.array(fill, np.int64),
                      [p[3] for p in parsed], [p[4] for p in parsed],
                      [p[0][0].tolist() if len(p[0]) == 1 and not p[4] else None for p in parsed])
    deck = np.array([c for c in range(4 * game.lowest_rank, 52) if not known >> c & 1], np.int64)
    return seats, deck


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


@functools.lru_cache(maxsize=4)
def _short_deck(path: str) -> ShortDeckTables:
    """The short-deck seven-card tables, built once per artifacts folder (about 0.1 s)."""
    from pipeline.query.tables import Tables

    return short_deck_tables(np.asarray(Tables(path, rules="short-deck").table(5)))


#: The razz table's stand-in for the other games (read-only, as the real one).
_NO_RAZZ = np.zeros(1, np.uint16)
_NO_RAZZ.flags.writeable = False


@functools.lru_cache(maxsize=4)
def _razz(path: str) -> np.ndarray:
    """Razz's rank-multiset scores from the ace-to-five rule set's table, once per artifacts
    folder (about 0.1 s)."""
    from pipeline.query.tables import Tables

    return razz_tables(np.asarray(Tables(path, rules="ace-to-five").table(5)))


@functools.lru_cache(maxsize=4)
def _omaha(path: str) -> OmahaTables:
    """Omaha's pair-by-triple score table, built once per artifacts folder (about 10 ms)."""
    from pipeline.query.tables import Tables

    ev = Tables(path).eval_tables()
    return omaha_tables(ev.offsets, ev.ranks)


def _tables(tables: Any, game: Game) -> tuple[np.ndarray, ...]:
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


def game_equity(tables: Any, game: Game, hero: str, vs: Sequence[str] = (),
                opponents: int | None = None, board: str = "", dead: str = "",
                exact: bool | None = None, samples: int | None = None,
                stderr: float | None = None, time_limit: float | None = None,
                seed: int | None = None,
                progress: Callable[[float, str], None] | None = None) -> EquityResult:
    """Win/tie/lose and pot equity of every seat of ``game``; see the module docstring."""
    t0 = time.perf_counter()
    mc_asked = check_method(exact, samples, stderr, time_limit, seed)
    b = parse_cards(board) if board and board.strip() else []
    d = parse_cards(dead) if dead and dead.strip() else []
    if game.stud and b:
        raise InputError(f"{game.name} has no board: give each seat's known cards (down and "
                         "up) and folded up cards as --dead")
    if not game.stud and len(b) not in (0, 3, 4, 5):
        raise InputError(f"the board must have 0, 3, 4 or 5 cards, got {len(b)}: {format_cards(b)}")
    _check_deck(b, game, "the board")
    _check_deck(d, game, "the dead cards")
    if opponents is None:
        opponents = 0 if vs else 1
    if opponents < 0:
        raise InputError(f"-n must be 0 or more random opponents, got {clip(str(opponents))}")
    if opponents + len(vs) + 1 > MAX_PLAYERS:
        raise InputError(f"at most {MAX_PLAYERS - 1} opponents in all ({MAX_PLAYERS} players), "
                         f"got -n {clip(str(opponents))} and {len(vs)} --vs")
    texts = [hero, *vs, *(["random"] * opponents)]
    if len(texts) < 2:
        raise InputError("need at least one opponent (-n K or --vs HAND)")
    seats, deck = parse_game_seats(game, texts, b, d)
    P = len(texts)
    bneed = game.board - len(b)
    multi = [p for p in range(P) if seats.off[p + 1] - seats.off[p] > 1]
    need = bneed + int(seats.fill.sum()) + sum(game.hole for _ in multi)
    if need > len(deck):
        raise InputError(f"deck exhausted: {P} seats and {bneed} board cards need {need} cards "
                         f"but only {len(deck)} are left")
    if progress is not None:
        progress(0.0, "")
    n_assign = math.prod(int(seats.off[p + 1] - seats.off[p]) for p in range(P))
    m = len(deck) - sum(game.hole for _ in multi)
    deals = n_assign * _deal_count(seats, m, bneed)
    threads = max(1, int(numba.get_num_threads()))
    cost = (deals * (P * _evals(game) * EVAL_SECONDS + DEAL_SECONDS)
            + n_assign * ASSIGN_SECONDS) / threads
    limit = EXACT_HARD_SECONDS if exact else EXACT_SECONDS
    arrays = _tables(tables, game)
    board0 = np.array(b, np.int64)
    if not mc_asked and cost <= limit:
        tasks = min(MAX_TASKS, n_assign * SPLITS)
        acc_i, acc_f = exact_kernel(game.code, board0, bneed, deck, seats.hands, seats.hlen,
                                    seats.hmask, seats.hw, seats.off, seats.fill, n_assign,
                                    tasks, BINOM, *arrays)
        res = _exact_result(game, seats, acc_i, acc_f, b, d)
    elif exact:
        raise InputError(f"exact {game.name} equity of this spot would take too long (about "
                         f"{cost:,.0f} s); use Monte Carlo (--samples, --stderr or --time)")
    else:
        res = _monte_carlo(game, seats, deck, board0, bneed, arrays, samples, stderr, time_limit,
                           seed if seed is not None else int.from_bytes(os.urandom(4), "little"),
                           progress, b, d)
    res.seconds = time.perf_counter() - t0
    return res


def _literal_kernel(code: int) -> Callable[..., Any]:
    """:func:`mc_chunks_literal` for one game code: once compiled (or loaded from the cache),
    its compiled entry point itself, since asking the dispatcher resolves the literal
    argument again on every call (tens of milliseconds a round)."""
    for sig, compiled in mc_chunks_literal.overloads.items():
        entry = getattr(compiled, "entry_point", None)
        if getattr(sig[LITERAL_ARG], "literal_value", None) == code and callable(entry):
            return entry
    return mc_chunks_literal


def _monte_carlo(game: Game, seats: GameSeats, deck: np.ndarray, board0: np.ndarray, bneed: int,
                 arrays: tuple[np.ndarray, ...], samples: int | None, stderr: float | None,
                 time_limit: float | None, seed: int,
                 progress: Callable[[float, str], None] | None, b: list[int],
                 d: list[int]) -> EquityResult:
    P = len(seats.labels)
    thr = seats.hw.copy()
    for p in range(P):
        lo, hi = seats.off[p], seats.off[p + 1]
        thr[lo:hi] /= thr[lo:hi].max()
    extra = np.zeros((P, N_COLS), np.int64)
    # Omaha gets kernels compiled for its game codes (a one-time compile each, for the speed
    # that matters most); the other games share one
    kernel = _literal_kernel(game.code) if game.code in (OMAHA, OMAHA_HILO) else mc_chunks

    def play(sizes: np.ndarray, stream0: int) -> tuple[np.ndarray, int]:
        acc, tries = kernel(sizes, seed, stream0, game.code, board0, bneed, deck, seats.hands,
                               seats.hlen, seats.hmask, thr, seats.off, seats.fill, MAX_TRIES,
                               *arrays)
        if (tries < 0).any():
            raise InputError("the ranges hardly ever fit together without sharing a card "
                             f"(over {MAX_TRIES:,} tries for one deal); narrow them")
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
    rows = []
    for p in range(P):
        a = extra[p]
        rows.append(_row(game, seats, p, a[WIN] / n, a[TIE] / n, a[LOSE] / n, a[SHARE] / (POT * n),
                         float(se[p]), a[HIGH] / (POT * n), a[LOW] / (POT * n)))
    h = extra[0]
    counts = {"win": int(h[WIN]), "tie": int(h[TIE]), "lose": int(h[LOSE])}
    note = stop_note(tot, None if stderr is None else stderr * scale, time_limit)
    if note and stderr is not None:
        note = note.replace(str(stderr * scale), str(stderr))
    res = _result(game, seats, "monte-carlo", rows, counts, b, d, note=note)
    res.samples, res.seed = n, seed
    if tot.tries > n:
        res.counts["assignment_draws"] = tot.tries
    return res


def _exact_result(game: Game, seats: GameSeats, acc_i: np.ndarray, acc_f: np.ndarray,
                  b: list[int], d: list[int]) -> EquityResult:
    P = len(seats.labels)
    unit = bool(np.all(seats.hw == 1.0))
    deals = int(acc_i[0, WIN] + acc_i[0, TIE] + acc_i[0, LOSE])
    acc = acc_i if unit else acc_f
    total = float(acc[0, WIN] + acc[0, TIE] + acc[0, LOSE])
    if total == 0:
        raise InputError("the ranges cannot all be dealt at once: every assignment of hands "
                         "shares a card")
    rows = []
    for p in range(P):
        a = acc[p]
        rows.append(_row(game, seats, p, a[WIN] / total, a[TIE] / total, a[LOSE] / total,
                         a[SHARE] / (POT * total), None, a[HIGH] / (POT * total),
                         a[LOW] / (POT * total)))
        if unit:
            rows[-1]["equity_fraction"] = str(Fraction(int(a[SHARE]), POT * deals))
    counts: dict[str, int] = {}
    if unit:
        h = acc_i[0]
        counts = {"win": int(h[WIN]), "tie": int(h[TIE]), "lose": int(h[LOSE]),
                  "equity_numerator": int(h[SHARE]), "equity_denominator": POT * deals}
        if game.hilo:
            counts.update(high_numerator=int(h[HIGH]), low_numerator=int(h[LOW]))
    res = _result(game, seats, "exact", rows, counts, b, d)
    res.deals = deals if unit else None  # weighted: fractions of the weighted total
    return res


def _row(game: Game, seats: GameSeats, p: int, win: float, tie: float, lose: float, eq: float,
         se: float | None, high: float, low: float) -> dict[str, Any]:
    n = int(seats.off[p + 1] - seats.off[p])
    row = seat_row("hero" if p == 0 else f"vs{p}", seats.labels[p], n, win, tie, lose, eq, se,
                   hand=seats.labels[p] if seats.single[p] is not None else None)
    if game.hilo:
        # win is a scoop here: the whole pot alone
        row.update(scoop=win, high=high, low=low)
    return row


def _result(game: Game, seats: GameSeats, method: str, rows: list[dict[str, Any]],
            counts: dict[str, int], b: list[int], d: list[int],
            note: str | None = None) -> EquityResult:
    h = rows[0]
    vs = [s for s, r in zip(seats.single[1:], seats.random[1:]) if s is not None and not r]
    vs_text = [lab for lab, r in zip(seats.labels[1:], seats.random[1:]) if not r]
    return EquityResult(
        hole=seats.single[0] or [], board=b, dead=d, vs=vs, vs_text=vs_text,
        opponents=len(rows) - 1, method=method, win=h["win"], tie=h["tie"], lose=h["lose"],
        equity=h["equity"], stderr=h["stderr"], seconds=0.0, counts=counts, players=rows,
        hero_range=None if seats.single[0] is not None else seats.labels[0], game=game.name,
        note=note)


__all__ = ["game_equity", "parse_game_seats", "GameSeats", "EXACT_SECONDS"]
