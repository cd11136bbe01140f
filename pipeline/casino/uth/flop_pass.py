"""The solve's one pass: every flop class, every turn-river completion, every hole at once.

For one flop F the pass visits its C(m, 2) completed boards (m cards off the flop) and, on
each, counts every live player hole against every dealer hole (:func:`river_counts`). Per
player hole h it adds those counts up over the completions, twice: as they fall (the hole bet
at the flop or before: the Play bet is linear in them) and only where the river decision is to
play (the hole checked to the river; the other rivers are folds). At the end of the flop the
two sums give, in exact integers, the flop's two values per hole, bet ``flop_bet`` or check,
and the flop decision; both sets of counts then go into the hole's pre-flop totals, weighted
by the number of flops the class stands for. Data the loop touches is per flop (two count
tables of 1,326 holes) and stays in cache; nothing is written per board.

Counts are split by the player's blind line (the row of the blind pay table its final hand
falls in: the Blind pays by it) and by outcome: ``WQ, WN, LQ, LN`` (player wins and the dealer
qualifies / does not, dealer wins and qualifies / does not) and ``BOARDS`` (boards counted;
ties = boards x dealer holes - the other four).

Values are in units of ``1/scale`` of the ante (``scale`` clears the denominators of the blind
pays, 2 for a 3:2 flush), summed over the dealer holes and completions: a flop value is a sum
over C(m, 2) x C(m - 4, 2) deals, an exact integer.

Decision rules plug in by code: ``river_rule`` and ``flop_rule`` 0 play optimally (compare
exact values; an exact tie takes the smaller bet), other codes follow
:mod:`pipeline.casino.uth.simple_rules`.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from pipeline.casino.uth.showdown import river_counts, showdown_scratch
from pipeline.casino.uth.simple_rules import (
    board_outs_scratch,
    flop_rule_bets,
    prepare_river_rule,
    river_rule_plays,
)

#: Count columns per (hole, blind line): player wins / dealer qualifies, wins / not, loses /
#: qualifies, loses / not, boards counted.
WQ, WN, LQ, LN, BOARDS = 0, 1, 2, 3, 4
N_COUNTS = 5
#: Offset of the played rivers' counts in the pass's per-flop table (after every river's).
PLAYED = N_COUNTS
#: Two-card holes in the 52-card id space (colex index ``a + b * (b - 1) / 2``).
N_HOLES = 1326
#: Branches of a hole that checked pre-flop: bet at the flop, or checked to the river and played.
FLOP_BET, RIVER_PLAY = 0, 1
#: Flop value columns written per (flop, hole): bet at the flop, check.
EV_BET, EV_CHECK = 0, 1


@nb.njit(cache=True, inline="always")
def play_value(c: np.ndarray, bet: int, scale: int, blind: int) -> int:
    """Net win (units of 1/scale ante) summed over one count row ``c`` of a blind line paying
    ``blind`` (scaled): ante 1:1 only against a qualifying dealer, Play ``bet`` 1:1 either way,
    Blind by the line when the player wins and lost when the dealer wins; ties push."""
    win_q = scale * (1 + bet) + blind
    win_n = scale * bet + blind
    return np.int64(c[WQ] * win_q + c[WN] * win_n - c[LQ] * scale * (2 + bet) - c[LN] * scale * (1 + bet))


@nb.njit(cache=True, inline="always")
def hole_value(cnt: np.ndarray, h: int, bet: int, scale: int, blind: np.ndarray) -> int:
    """:func:`play_value` summed over the blind lines of hole ``h`` in ``cnt[h, line, :]``."""
    v = np.int64(0)
    for line in range(cnt.shape[1]):
        v += play_value(cnt[h, line], bet, scale, blind[line])
    return v


@nb.njit(cache=True, nogil=True)
def flop_chunk(flops: np.ndarray, weight: np.ndarray, fperms: np.ndarray, lo_f: int, hi_f: int,
               avail: np.ndarray, qual: int, line_of: np.ndarray, blind: np.ndarray, scale: int,
               flop_bet: int, river_bet: int, river_rule: int, flop_rule: int, card_keys: np.ndarray,
               offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray, ev: np.ndarray,
               pre_bet: np.ndarray, pre_chk: np.ndarray, pre_fold: np.ndarray, ties: np.ndarray) -> None:
    """Run the pass (module docstring) over flop rows ``lo_f .. hi_f - 1`` of ``flops`` (3 card
    ids each, all in ``avail``, the game's sorted live deck), each standing for ``weight``
    flops; it releases the GIL, so threads run chunks side by side.

    ``fperms[f, :g]`` are the g suit permutations (``perm[suit]`` = image suit; rows past g
    are -1) that map flop f and the deck onto themselves: only one turn-river pair per orbit
    of that group is dealt, counted with its orbit size, and each hole's counts are then
    averaged over the group (the same symmetrisation as the pre-flop totals', one level down;
    a monotone flop deals a sixth of its boards).

    Writes ``ev[f, h, EV_BET | EV_CHECK]`` (flop values of hole h on flop row f; 0 for holes
    touching the flop) and adds the weighted pre-flop totals: ``pre_bet[h, line, :]`` (every
    deal of the hole), ``pre_chk[h, branch, line, :]`` (the deals played after a pre-flop
    check: bet at the flop, or played at the river, as the flop and river decisions take them)
    and ``pre_fold[h]`` (deals folded at the river). ``ties[0 | 1]`` counts exact ties of the
    river and flop decisions (optimal codes only)."""
    n_lines = blind.shape[0]
    n_avail = avail.shape[0]
    m = n_avail - 3
    pa, pb, score, keys, wq, wn, lq, ln, less_c, eq_c, nq_c, kc = showdown_scratch()
    # per hole and line: the counts as they fall, then those of the played rivers, side by side
    # so one board's two updates of a hole touch one place (folds = boards - played boards)
    cnt = np.zeros((N_HOLES, n_lines, 2 * N_COUNTS), np.int32)
    sym_b = np.zeros((n_lines, N_COUNTS), np.int64)
    sym_c = np.zeros((n_lines, N_COUNTS), np.int64)
    rest = np.empty(n_avail, np.int64)
    live = np.empty(n_avail, np.int64)
    board = np.empty(5, np.int64)
    images = np.empty(fperms.shape[1], np.int64)
    outs = board_outs_scratch()
    for f in range(lo_f, hi_f):
        fmask = np.int64(0)
        fkey = np.int64(0)
        for q in range(3):
            board[q] = flops[f, q]
            fmask |= np.int64(1) << flops[f, q]
            fkey += np.int64(card_keys[flops[f, q]])
        g = 0
        while g < fperms.shape[1] and fperms[f, g, 0] >= 0:
            g += 1
        n_rest = 0
        for i in range(n_avail):
            if not (fmask >> avail[i]) & 1:
                rest[n_rest] = avail[i]
                n_rest += 1
        cnt[:] = 0
        for j in range(m):
            r = rest[j]
            for i in range(j):
                t = rest[i]
                w_tr = pair_orbit(t, r, fperms[f], g)
                if w_tr == 0:
                    continue  # not its orbit's representative
                board[3] = t
                board[4] = r
                bkey = fkey + np.int64(card_keys[t]) + np.int64(card_keys[r])
                bmask = fmask | (np.int64(1) << t) | (np.int64(1) << r)
                # int64 from the start: a literal 0 would type the calls below with
                # Literal[int](0) on numba's first pass and compile them a second time
                n_live = np.int64(0)
                for x in range(m):
                    if x != i and x != j:
                        live[n_live] = rest[x]
                        n_live += 1
                n = river_counts(live, n_live, bkey, bmask, qual, card_keys, offsets, ranks,
                                 flush, pa, pb, score, keys, wq, wn, lq, ln, less_c, eq_c,
                                 nq_c, kc)
                dealers = (n_live - 2) * (n_live - 3) // 2
                fold_value = -2 * scale * dealers
                if river_rule != 0:
                    prepare_river_rule(river_rule, board, live, n_live, bkey, bmask, card_keys,
                                       offsets, ranks, flush, outs)
                for k in range(n):
                    a = pa[k]
                    b = pb[k]
                    h = a + ((b * (b - 1)) >> 1)
                    line = line_of[score[k]]
                    cnt[h, line, WQ] += w_tr * wq[k]
                    cnt[h, line, WN] += w_tr * wn[k]
                    cnt[h, line, LQ] += w_tr * lq[k]
                    cnt[h, line, LN] += w_tr * ln[k]
                    cnt[h, line, BOARDS] += w_tr
                    if river_rule == 0:
                        v = (wq[k] * (scale * (1 + river_bet) + blind[line])
                             + wn[k] * (scale * river_bet + blind[line])
                             - lq[k] * scale * (2 + river_bet) - ln[k] * scale * (1 + river_bet))
                        play = v > fold_value
                        if v == fold_value:
                            ties[0] += w_tr * weight[f]
                    else:
                        play = river_rule_plays(river_rule, a, b, score[k], board, outs)
                    # branch-free: a played river adds its counts, a folded one adds zeros
                    wp = w_tr * np.int64(play)
                    cnt[h, line, PLAYED + WQ] += wp * wq[k]
                    cnt[h, line, PLAYED + WN] += wp * wn[k]
                    cnt[h, line, PLAYED + LQ] += wp * lq[k]
                    cnt[h, line, PLAYED + LN] += wp * ln[k]
                    cnt[h, line, PLAYED + BOARDS] += wp
        dealers = (m - 4) * (m - 5) // 2
        w = weight[f]
        for j in range(m):
            b = rest[j]
            for i in range(j):
                a = rest[i]
                h = a + ((b * (b - 1)) >> 1)
                hole_images(a, b, fperms[f], g, images)
                folds = symmetrise_hole(cnt, images, g, sym_b, sym_c)
                v_bet = np.int64(0)
                v_chk = -folds * 2 * scale * dealers
                for line in range(n_lines):
                    v_bet += play_value(sym_b[line], flop_bet, scale, blind[line])
                    v_chk += play_value(sym_c[line], river_bet, scale, blind[line])
                ev[f, h, EV_BET] = v_bet
                ev[f, h, EV_CHECK] = v_chk
                if flop_rule == 0:
                    bet = v_bet > v_chk
                    if v_bet == v_chk:
                        ties[1] += w
                else:
                    bet = flop_rule_bets(flop_rule, a, b, board)
                for line in range(n_lines):
                    for x in range(N_COUNTS):
                        pre_bet[h, line, x] += w * sym_b[line, x]
                        if bet:
                            pre_chk[h, FLOP_BET, line, x] += w * sym_b[line, x]
                        else:
                            pre_chk[h, RIVER_PLAY, line, x] += w * sym_c[line, x]
                if not bet:
                    pre_fold[h] += w * folds


@nb.njit(cache=True, inline="always")
def _image(c: int, perm: np.ndarray) -> int:
    return 4 * (c >> 2) + perm[c & 3]


@nb.njit(cache=True)
def pair_orbit(t: int, r: int, perms: np.ndarray, g: int) -> int:
    """Orbit size of the card pair {t, r} (t < r) under ``perms[:g]`` if the pair is its
    orbit's colex-least member, else 0."""
    v0 = t + ((r * (r - 1)) >> 1)
    stab = 0
    for p in range(g):
        x = _image(t, perms[p])
        y = _image(r, perms[p])
        if x > y:
            x, y = y, x
        v = x + ((y * (y - 1)) >> 1)
        if v < v0:
            return 0
        if v == v0:
            stab += 1
    return g // stab


@nb.njit(cache=True)
def hole_images(a: int, b: int, perms: np.ndarray, g: int, out: np.ndarray) -> None:
    """``out[p]`` = colex index of the hole {a, b} moved by ``perms[p]``, p < g."""
    for p in range(g):
        x = _image(a, perms[p])
        y = _image(b, perms[p])
        if x > y:
            x, y = y, x
        out[p] = x + ((y * (y - 1)) >> 1)


@nb.njit(cache=True)
def symmetrise_hole(cnt: np.ndarray, images: np.ndarray, g: int, sym_b: np.ndarray, sym_c: np.ndarray) -> int:
    """A hole's counts over every turn-river pair of the flop from the orbit-weighted ones:
    the average of its images' (exact: the sum is g times the true counts). Fills ``sym_b``
    (every river) and ``sym_c`` (the played rivers) and returns the folded rivers."""
    sym_b[:] = 0
    sym_c[:] = 0
    for p in range(g):
        h = images[p]
        for line in range(sym_b.shape[0]):
            for x in range(N_COUNTS):
                sym_b[line, x] += cnt[h, line, x]
                sym_c[line, x] += cnt[h, line, PLAYED + x]
    folds = np.int64(0)
    for line in range(sym_b.shape[0]):
        for x in range(N_COUNTS):
            sym_b[line, x] //= g
            sym_c[line, x] //= g
        folds += sym_b[line, BOARDS] - sym_c[line, BOARDS]
    return folds


__all__ = ["WQ", "WN", "LQ", "LN", "BOARDS", "N_COUNTS", "N_HOLES", "FLOP_BET", "RIVER_PLAY",
           "EV_BET", "EV_CHECK", "play_value", "hole_value", "flop_chunk", "pair_orbit",
           "hole_images", "symmetrise_hole"]
