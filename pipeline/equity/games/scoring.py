"""Hand scoring of one deal for every game the equity engine deals (:mod:`.kernels` deals):
one scorer per game family, each compiled once, and :func:`score_deal`, every family's body
inlined, for the exact kernel."""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.equity.games.evaluate import (
    LOW_BASE,
    OMAHA,
    OMAHA_HILO,
    RAZZ,
    SHORT_DECK,
    STUD_HILO,
    board_id,
    flush_triples,
    low8_mask,
    low_triples,
    omaha_score,
    razz_score,
    seven_high,
    short_deck_score,
)

#: Board cards of the flop games.
BOARD = 5


@nb.njit(cache=True, inline="always")
def _score_omaha(game: int, board: np.ndarray, cards: np.ndarray, ncards: np.ndarray,
                hi: np.ndarray, lo: np.ndarray, card_keys: np.ndarray, offsets: np.ndarray,
                ranks: np.ndarray, flush: np.ndarray, om_ids: np.ndarray, om_best: np.ndarray,
                sd_key: np.ndarray, sd_nonflush: np.ndarray, sd_flush: np.ndarray,
                razz: np.ndarray, tm: np.ndarray, tl: np.ndarray, seven: np.ndarray) -> None:
    """:func:`score_deal` for Omaha (high only; 4, 5 or 6 hole cards)."""
    P = cards.shape[0]
    bid = board_id(board)
    fsuit, nfl = flush_triples(board, tm)
    for p in range(P):
        # constant hand sizes: the compiler unrolls each case's loops
        if ncards[p] == 4:
            h, low = omaha_score(cards, p, 4, False, om_ids, om_best, bid, fsuit, nfl, tm, tl,
                                 flush)
        elif ncards[p] == 5:
            h, low = omaha_score(cards, p, 5, False, om_ids, om_best, bid, fsuit, nfl, tm, tl,
                                 flush)
        else:
            h, low = omaha_score(cards, p, 6, False, om_ids, om_best, bid, fsuit, nfl, tm, tl,
                                 flush)
        hi[p] = h
        lo[p] = low


@nb.njit(cache=True, inline="always")
def _score_omaha_hilo(game: int, board: np.ndarray, cards: np.ndarray, ncards: np.ndarray,
                      hi: np.ndarray, lo: np.ndarray, card_keys: np.ndarray,
                      offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray,
                      om_ids: np.ndarray, om_best: np.ndarray, sd_key: np.ndarray,
                      sd_nonflush: np.ndarray, sd_flush: np.ndarray, razz: np.ndarray,
                      tm: np.ndarray, tl: np.ndarray, seven: np.ndarray) -> None:
    """:func:`score_deal` for Omaha hi-lo (four hole cards, high and low)."""
    P = cards.shape[0]
    bid = board_id(board)
    fsuit, nfl = flush_triples(board, tm)
    low_triples(board, tl)
    for p in range(P):
        h, low = omaha_score(cards, p, 4, True, om_ids, om_best, bid, fsuit, nfl, tm, tl, flush)
        hi[p] = h
        lo[p] = low


@nb.njit(cache=True, inline="always")
def _score_other(game: int, board: np.ndarray, cards: np.ndarray, ncards: np.ndarray,
                hi: np.ndarray, lo: np.ndarray, card_keys: np.ndarray, offsets: np.ndarray,
                ranks: np.ndarray, flush: np.ndarray, om_ids: np.ndarray, om_best: np.ndarray,
                sd_key: np.ndarray, sd_nonflush: np.ndarray, sd_flush: np.ndarray,
                razz: np.ndarray, tm: np.ndarray, tl: np.ndarray, seven: np.ndarray) -> None:
    """:func:`score_deal` for the games other than Omaha: short deck, stud, stud hi-lo, razz."""
    P = cards.shape[0]
    if game == SHORT_DECK:
        for p in range(P):
            for i in range(BOARD):
                seven[i] = board[i]
            seven[5] = cards[p, 0]
            seven[6] = cards[p, 1]
            hi[p] = short_deck_score(seven, 7, sd_key, sd_nonflush, sd_flush)
            lo[p] = 0
    else:
        for p in range(P):
            if game == RAZZ:
                hi[p] = razz_score(cards, p, ncards[p], razz)
                lo[p] = 0
            else:
                hi[p] = seven_high(cards, p, ncards[p], card_keys, offsets, ranks, flush)
                if game == STUD_HILO:
                    m = low8_mask(cards, p, ncards[p])
                    lo[p] = LOW_BASE - m if m else 0
                else:
                    lo[p] = 0


@nb.njit(cache=True)
def score_omaha(game: int, board: np.ndarray, cards: np.ndarray, ncards: np.ndarray,
                hi: np.ndarray, lo: np.ndarray, card_keys: np.ndarray, offsets: np.ndarray,
                ranks: np.ndarray, flush: np.ndarray, om_ids: np.ndarray, om_best: np.ndarray,
                sd_key: np.ndarray, sd_nonflush: np.ndarray, sd_flush: np.ndarray,
                razz: np.ndarray, tm: np.ndarray, tl: np.ndarray, seven: np.ndarray) -> None:
    """:func:`score_deal` for Omaha, compiled on its own: Omaha's Monte Carlo kernel's."""
    _score_omaha(game, board, cards, ncards, hi, lo, card_keys, offsets, ranks, flush, om_ids,
                 om_best, sd_key, sd_nonflush, sd_flush, razz, tm, tl, seven)


@nb.njit(cache=True)
def score_omaha_hilo(game: int, board: np.ndarray, cards: np.ndarray, ncards: np.ndarray,
                     hi: np.ndarray, lo: np.ndarray, card_keys: np.ndarray, offsets: np.ndarray,
                     ranks: np.ndarray, flush: np.ndarray, om_ids: np.ndarray, om_best: np.ndarray,
                     sd_key: np.ndarray, sd_nonflush: np.ndarray, sd_flush: np.ndarray,
                     razz: np.ndarray, tm: np.ndarray, tl: np.ndarray, seven: np.ndarray) -> None:
    """:func:`score_deal` for Omaha hi-lo: its Monte Carlo kernel's."""
    _score_omaha_hilo(game, board, cards, ncards, hi, lo, card_keys, offsets, ranks, flush, om_ids,
                      om_best, sd_key, sd_nonflush, sd_flush, razz, tm, tl, seven)


@nb.njit(cache=True)
def score_other(game: int, board: np.ndarray, cards: np.ndarray, ncards: np.ndarray,
                hi: np.ndarray, lo: np.ndarray, card_keys: np.ndarray, offsets: np.ndarray,
                ranks: np.ndarray, flush: np.ndarray, om_ids: np.ndarray, om_best: np.ndarray,
                sd_key: np.ndarray, sd_nonflush: np.ndarray, sd_flush: np.ndarray,
                razz: np.ndarray, tm: np.ndarray, tl: np.ndarray, seven: np.ndarray) -> None:
    """:func:`score_deal` for the other games: the shared Monte Carlo kernel's."""
    _score_other(game, board, cards, ncards, hi, lo, card_keys, offsets, ranks, flush, om_ids,
                 om_best, sd_key, sd_nonflush, sd_flush, razz, tm, tl, seven)


@nb.njit(cache=True)
def score_deal(game: int, board: np.ndarray, cards: np.ndarray, ncards: np.ndarray,
               hi: np.ndarray, lo: np.ndarray, card_keys: np.ndarray, offsets: np.ndarray,
               ranks: np.ndarray, flush: np.ndarray, om_ids: np.ndarray, om_best: np.ndarray,
               sd_key: np.ndarray, sd_nonflush: np.ndarray, sd_flush: np.ndarray,
               razz: np.ndarray, tm: np.ndarray, tl: np.ndarray, seven: np.ndarray) -> None:
    """hi[p], lo[p] of every seat: ``cards[p, :ncards[p]]`` with the 5-card ``board`` (flop
    games) or alone (stud games). ``tm``, ``tl`` (int64[10]) and ``seven`` (int64[7]) are
    scratch, passed whole: a slice per deal would cost reference counting.

    The exact kernel's scorer, one specialization: every game family's body inlined (calling
    the compiled ones instead, a call of 19 arrays per deal, made exact counts 1.1-1.3x
    slower). A Monte Carlo kernel takes its family's scorer compiled on its own
    (:func:`score_omaha`, :func:`score_omaha_hilo`, :func:`score_other`; :func:`mc_chunk`), so
    it compiles no other family's scoring: when Omaha's took score_deal with the game code a
    literal, each compiled every family's."""
    if game == OMAHA:
        _score_omaha(game, board, cards, ncards, hi, lo, card_keys, offsets, ranks, flush,
                     om_ids, om_best, sd_key, sd_nonflush, sd_flush, razz, tm, tl, seven)
    elif game == OMAHA_HILO:
        _score_omaha_hilo(game, board, cards, ncards, hi, lo, card_keys, offsets, ranks, flush,
                          om_ids, om_best, sd_key, sd_nonflush, sd_flush, razz, tm, tl, seven)
    else:
        _score_other(game, board, cards, ncards, hi, lo, card_keys, offsets, ranks, flush,
                     om_ids, om_best, sd_key, sd_nonflush, sd_flush, razz, tm, tl, seven)


__all__ = ["BOARD", "score_deal", "score_omaha", "score_omaha_hilo", "score_other"]
