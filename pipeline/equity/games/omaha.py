"""Omaha: a hand is exactly two of four hole cards plus exactly three of five board cards.

``score_omaha`` looks each of the 6 × 10 = 60 combinations up in the five-card table and
keeps the best; batches run in one parallel numba kernel. ``omaha_equity`` gives PLO
win/tie/lose against random or named opponents: exact on the river against one random or
any named hands, Monte Carlo (redeal on collision, seeded, with standard error) otherwise.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from typing import Any

import numba as nb
import numpy as np

from pipeline.core.bits import cttz64
from pipeline.core.cards import BINOM, format_cards, parse_cards
from pipeline.core.combos import colex_chunk, next_combination
from pipeline.core.constants import DECK_SIZE, MAX_OPPONENTS, SHARE_SCALE
from pipeline.core.deal import partial_shuffle
from pipeline.core.rng import seed_state
from pipeline.equity.montecarlo.driver import (
    DEFAULT_SAMPLES,
    N_COLS,
    drive_rounds,
    stop_note,
)
from pipeline.equity.montecarlo.stopping import check_method
from pipeline.equity.spots.result import EquityResult, seat_row
from pipeline.errors import InputError

HOLE_PAIRS = np.array([(a, b) for a in range(4) for b in range(a + 1, 4)], dtype=np.int64)
BOARD_TRIPLES = np.array([(a, b, c) for a in range(5) for b in range(a + 1, 5)
                          for c in range(b + 1, 5)], dtype=np.int64)


@nb.njit(cache=True, nogil=True)
def _omaha_one(hole: np.ndarray, board: np.ndarray, five: np.ndarray, binom: np.ndarray,
               pairs: np.ndarray, triples: np.ndarray) -> int:
    """Best of the 60 two-plus-three hands (see :func:`_omaha_scratch`)."""
    return _omaha_scratch(hole, board, five, binom, pairs, triples, np.empty(10, np.int64))


@nb.njit(cache=True, nogil=True)
def _omaha_scratch(hole: np.ndarray, board: np.ndarray, five: np.ndarray, binom: np.ndarray,
                   pairs: np.ndarray, triples: np.ndarray, tm: np.ndarray) -> int:
    """Best of the 60 two-plus-three hands, ``tm`` being scratch for the 10 board-triple bitmaps.

    Each hand's colex index is read off its bitmap: walking the set bits low to high gives
    the cards in ascending order, so nothing is sorted."""
    for t in range(10):
        tm[t] = (np.int64(1) << board[triples[t, 0]]) | (np.int64(1) << board[triples[t, 1]]) \
            | (np.int64(1) << board[triples[t, 2]])
    best = 0
    for p in range(6):
        pm = (np.int64(1) << hole[pairs[p, 0]]) | (np.int64(1) << hole[pairs[p, 1]])
        for t in range(10):
            bits = pm | tm[t]
            idx = np.int64(0)
            for j in range(1, 6):
                idx += binom[cttz64(bits), j]
                bits &= bits - 1
            s = five[idx]
            if s > best:
                best = s
    return best


@nb.njit(cache=True, parallel=True)
def score_omaha_rows(holes: np.ndarray, boards: np.ndarray, five: np.ndarray, binom: np.ndarray,
                     pairs: np.ndarray, triples: np.ndarray, out: np.ndarray) -> None:
    """out[i] = best Omaha score of holes[i] (4 ids) with boards[i] (5 ids)."""
    n = holes.shape[0]
    chunk = 2048
    for ch in nb.prange((n + chunk - 1) // chunk):
        tm = np.empty(10, np.int64)  # one scratch buffer per chunk, not per hand
        for i in range(ch * chunk, min(n, (ch + 1) * chunk)):
            out[i] = _omaha_scratch(holes[i], boards[i], five, binom, pairs, triples, tm)


def score_omaha(tables: Any, hole4: Any, board5: Any) -> Any:
    """Best Omaha score (1..7462) of 4 hole cards with a 5-card board, or of (N,4)/(N,5) batches.

    ``tables`` is a :class:`pipeline.query.tables.Tables`. Single hands may be text or id lists.
    Raises ``ValueError`` on wrong counts or a card used twice.
    """
    five = tables.table(5)
    if isinstance(hole4, np.ndarray) and hole4.ndim == 2:
        holes = np.ascontiguousarray(hole4, dtype=np.int64)
        boards = np.ascontiguousarray(board5, dtype=np.int64)
        if holes.shape[1] != 4 or boards.shape != (holes.shape[0], 5):
            raise InputError(f"expected (N,4) holes and (N,5) boards, got {holes.shape} and {boards.shape}")
        both = np.concatenate([holes, boards], axis=1)
        if both.min(initial=0) < 0 or both.max(initial=0) > 51:
            raise InputError("card ids must be 0..51")
        srt = np.sort(both, axis=1)
        dup = (srt[:, 1:] == srt[:, :-1]).any(axis=1)
        if dup.any():
            i = int(np.flatnonzero(dup)[0])
            raise InputError(f"row {i} uses a card twice: {format_cards(both[i])}")
        out = np.empty(holes.shape[0], np.uint16)
        score_omaha_rows(holes, boards, five, BINOM, HOLE_PAIRS, BOARD_TRIPLES, out)
        return out
    h = parse_cards(hole4, count=4)
    b = parse_cards(board5, count=5)
    parse_cards(h + b)  # a card in both raises
    return int(_omaha_one(np.array(h, np.int64), np.array(b, np.int64), five, BINOM,
                          HOLE_PAIRS, BOARD_TRIPLES))


@nb.njit(cache=True, parallel=True)
def _exact_river_vs_all(hero: int, board: np.ndarray, deck: np.ndarray, five: np.ndarray,
                        binom: np.ndarray, pairs: np.ndarray, triples: np.ndarray,
                        out: np.ndarray) -> None:
    """For every 4-card opponent hand from ``deck``: -1/0/1 = opponent better/equal/worse."""
    nchunks = 64
    for ch in nb.prange(nchunks):
        start, stop, pos = colex_chunk(out.shape[0], nchunks, ch, 0, 4, deck.shape[0], binom)
        opp = np.empty(4, np.int64)
        tm = np.empty(10, np.int64)
        for idx in range(start, stop):
            if idx > start:
                next_combination(pos)
            for i in range(4):
                opp[i] = deck[pos[i]]
            s = _omaha_scratch(opp, board, five, binom, pairs, triples, tm)
            out[idx] = 1 if hero > s else (0 if hero == s else -1)


@nb.njit(cache=True, parallel=True)
def _mc_round(sizes: np.ndarray, seed: int, stream0: int, hero_hole: np.ndarray, board: np.ndarray,
              named: np.ndarray, n_random: int, deck: np.ndarray, five: np.ndarray,
              binom: np.ndarray, pairs: np.ndarray, triples: np.ndarray) -> np.ndarray:
    """int64[chunks, N_COLS]: the hero's (wins, ties, losses, share sum, share-squared sum) of
    chunk ``stream0 + i`` (``sizes[i]`` deals on generator stream ``stream0 + i`` of
    :mod:`pipeline.core.rng`: a partial Fisher-Yates of the live deck per deal); shares in
    units of 1/2520 of the pot. Chunked as the hold'em kernels are, so one driver
    (:func:`pipeline.equity.montecarlo.driver.drive_rounds`) runs both to any stopping rule."""
    need_board = 5 - board.shape[0]
    n_named = named.shape[0]
    nch = sizes.shape[0]
    result = np.zeros((nch, N_COLS), np.int64)
    for ch in nb.prange(nch):
        st = seed_state(seed, stream0 + ch)
        dk = deck.copy()
        n = dk.shape[0]
        full = np.empty(5, np.int64)
        for i in range(board.shape[0]):
            full[i] = board[i]
        opp = np.empty((n_named + n_random, 4), np.int64)
        for j in range(n_named):
            for t in range(4):
                opp[j, t] = named[j, t]
        need = need_board + 4 * n_random
        tm = np.empty(10, np.int64)
        w = 0
        ti = 0
        lo_ = 0
        eq = 0
        eq2 = 0
        for _ in range(sizes[ch]):
            partial_shuffle(st, dk, n, need)
            for i in range(need_board):
                full[board.shape[0] + i] = dk[i]
            for j in range(n_random):
                for t in range(4):
                    opp[n_named + j, t] = dk[need_board + 4 * j + t]
            hero = _omaha_scratch(hero_hole, full, five, binom, pairs, triples, tm)
            best_other = 0
            ties = 0
            for j in range(opp.shape[0]):
                s = _omaha_scratch(opp[j], full, five, binom, pairs, triples, tm)
                if s > best_other:
                    best_other = s
                    ties = 1 if s == hero else 0
                elif s == best_other and s == hero:
                    ties += 1
            if hero > best_other:
                w += 1
                eq += SHARE_SCALE
                eq2 += SHARE_SCALE * SHARE_SCALE
            elif hero == best_other:
                ti += 1
                sh = SHARE_SCALE // (ties + 1)
                eq += sh
                eq2 += sh * sh
            else:
                lo_ += 1
        result[ch, 0] = w
        result[ch, 1] = ti
        result[ch, 2] = lo_
        result[ch, 3] = eq
        result[ch, 4] = eq2
    return result


def omaha_equity(tables: Any, hole: str, board: str = "", opponents: int = 1,
                 vs: list[str] | None = None, dead: str = "", exact: bool | None = None,
                 samples: int | None = None, seed: int | None = None, stderr: float | None = None,
                 time_limit: float | None = None,
                 progress: Callable[[float, str], None] | None = None) -> EquityResult:
    """PLO win/tie/lose/equity of 4 hole cards vs ``opponents`` random hands plus ``vs`` named ones.

    Returns the same :class:`EquityResult` as hold'em (``game='omaha'``).
    Exact on a complete board against one random opponent or named hands only (``exact=None``
    picks exact whenever that holds); otherwise Monte Carlo with hold'em's stopping rules and
    seed semantics: ``samples`` deals (default ``DEFAULT_SAMPLES``), a target ``stderr`` or a
    ``time_limit``; no seed draws a fresh one (reported in the answer).
    """
    t0 = time.perf_counter()
    mc_asked = check_method(exact, samples, stderr, time_limit, seed)
    h = parse_cards(hole, count=4)
    b = parse_cards(board, count=(0, 3, 4, 5)) if board else []
    named = [parse_cards(v, count=4) for v in (vs or [])]
    d = parse_cards(dead) if dead else []
    used = h + b + [c for v in named for c in v] + d
    parse_cards(used)  # any card twice raises, naming it
    n_random = opponents
    total_opp = n_random + len(named)
    if total_opp < 1 or total_opp > MAX_OPPONENTS:
        raise InputError(f"opponents must be 1..{MAX_OPPONENTS} in all, got {total_opp}")
    deck = np.array(sorted(set(range(DECK_SIZE)) - set(used)), dtype=np.int64)
    if len(deck) < (5 - len(b)) + 4 * n_random:
        raise InputError(f"deck exhausted: {len(deck)} cards left for {5 - len(b)} board cards and "
                         f"{n_random} random hands")
    feasible = len(b) == 5 and (n_random == 0 or (n_random == 1 and not named))
    if exact and not feasible:
        raise InputError("exact Omaha equity is available on the river against one random hand "
                         "or named hands; use --samples for Monte Carlo")
    if progress is not None:
        progress(0.0, "")  # the question is valid: the caller may announce slow work now
    five = tables.table(5)
    hero_hole = np.array(h, np.int64)
    se: float | None = None
    n_samples: int | None = None
    note: str | None = None
    deals: int | None = None
    if (exact or exact is None) and feasible and not mc_asked:
        bb = np.array(b, np.int64)
        hero = _omaha_one(hero_hole, bb, five, BINOM, HOLE_PAIRS, BOARD_TRIPLES)
        if n_random == 1:
            m = math.comb(len(deck), 4)
            out = np.empty(m, np.int8)
            _exact_river_vs_all(hero, bb, deck, five, BINOM, HOLE_PAIRS, BOARD_TRIPLES, out)
            win, tie, lose = int((out == 1).sum()), int((out == 0).sum()), int((out == -1).sum())
            eq = (win + tie / 2) / m
        else:
            scores = [_omaha_one(np.array(v, np.int64), bb, five, BINOM, HOLE_PAIRS, BOARD_TRIPLES)
                      for v in named]
            top = max(scores)
            m = 1
            win = int(hero > top)
            tie = int(hero == top)
            lose = int(hero < top)
            eq = 1.0 / (1 + scores.count(top)) if tie else float(win)
        method = "exact"
        deals = m
        counts = {"win": win, "tie": tie, "lose": lose}
        pw, pt, pl = win / m, tie / m, lose / m
    else:
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "little")
        nm = np.array(named, np.int64).reshape(len(named), 4)
        bd = np.array(b, np.int64)

        def play(sizes: np.ndarray, stream0: int) -> tuple[np.ndarray, int]:
            acc = _mc_round(sizes, seed, stream0, hero_hole, bd, nm, n_random, deck, five, BINOM,
                            HOLE_PAIRS, BOARD_TRIPLES)
            return acc.sum(axis=0)[None, :], int(sizes.sum())

        if not mc_asked:
            samples = DEFAULT_SAMPLES
        tot = drive_rounds(play, 1, samples, stderr, time_limit, progress=progress)
        n = tot.deals
        w, t, lo, s1, _ = (int(x) for x in tot.sums[0])
        eq = s1 / (SHARE_SCALE * n)
        se = float(tot.stderr()[0])
        note = stop_note(tot, stderr, time_limit)
        method = "monte-carlo"
        n_samples = n
        counts = {"win": w, "tie": t, "lose": lo}
        pw, pt, pl = w / n, t / n, lo / n
    rows = [seat_row("hero", format_cards(h), 1, pw, pt, pl, eq, se, hand=format_cards(h))]
    for i, v in enumerate(named):
        rows.append(seat_row(f"vs{i + 1}", format_cards(v), 1, None, None, None, None, None,
                             hand=format_cards(v)))
    for i in range(n_random):
        rows.append(seat_row(f"vs{len(named) + i + 1}", "random", math.comb(len(deck), 4), None,
                             None, None, None, None))
    if n_random and not named:
        # random seats are exchangeable: they split what the hero leaves
        for r in rows[1:]:
            r["equity"] = (1.0 - eq) / n_random
    return EquityResult(hole=h, board=b, dead=d, vs=named, opponents=n_random + len(named), method=method,
                        win=pw, tie=pt, lose=pl, equity=eq, stderr=se, note=note,
                        seconds=time.perf_counter() - t0, deals=deals, samples=n_samples,
                        seed=seed if method != "exact" else None, counts=counts, players=rows,
                        game="omaha")
