"""Bankroll figures of a paytable under optimal play: hit frequency, standard deviation, the exact
variance of N-play, and risk of ruin (within H hands and in the long run).

N-play (N hands on the same deal, each drawing from its own deck): given the deal D and the
(common) hold, the N results are independent, so with X one hand's pay

    Var(total) = N * E[Var(X | D)] + N^2 * Var(E[X | D]),

E[Var(X|D)] = E[X^2] - E[E[X|D]^2] and Var(E[X|D]) = E[E[X|D]^2] - E[X]^2. The per-deal first and
second moments come from the best hold's final-hand counts of each class (``strategy/
best_counts``), so every term is an exact Fraction.

Risk of ruin (a bankroll of B bets, one line, pay in bets per bet; ruin = fewer than one bet
left): a dynamic programme over the exact per-hand pay distribution. Money is counted in units of
1/S bet, S the lcm of the pays' denominators (1 for whole-number pays), so every bankroll is a
whole number of units: r_h(b) = sum_k p_k r_{h-1}(b - S + S pay_k) for b >= S, r(b) = 1 for
b < S, on bankrolls 0..M units. Above M the value is bounded by 0 and by r_{h-1}(M) (ruin falls
as the bankroll grows), which gives a lower and an upper bound; M grows until they agree to
``RUIN_TOL``. Every step sets the values below ``floor`` (the smallest normal double over the
smallest pay probability, times 4) to zero: with them, the DP's front (bankrolls just inside
reach, values sliding from 1e-300 to 0) runs on subnormal doubles, each operation about 100
times slower (3.6 s of the 4.9 s of a paytable's build), and the error this adds is below
``hands * floor`` (~1e-290), far inside the reported ``error_bound`` (which adds 1e-12).

Long run: with rho the root in (0, 1) of sum_k p_k z^pay_k = z (bisection to ``RHO_TOL``; it
exists when the return exceeds 1, else ruin is certain), rho^X is a martingale of the bankroll X.
Ruin stops the walk below one bet but never more than one bet below it, so optional stopping
gives rho^B <= P(ruin from B) <= rho^(B-1); with whole-number pays the walk lands exactly on
zero and P = rho^B. The figure reported is the middle of the bracket, with its half-width.
"""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb, lcm
from typing import Any

import numba as nb
import numpy as np

from pipeline.videopoker.paytables.paytable import Paytable
from pipeline.videopoker.solver.solve import draw_denominators

BANKROLL_ATTR = "bankroll"   # JSON of bankroll_figures stored on paytables/<slug>.h5 by the build
N_PLAY = (1, 3, 5, 10, 50, 100)
RUIN_BANKROLLS = (100, 200, 400, 800, 1600)
RUIN_HANDS = (1000, 10000)
RUIN_TOL = 1e-9
#: the DP's first top state: the largest bankroll plus this many of the largest pay
RUIN_TOP_PAYS = 4
#: times the top state may double while the bounds still disagree
RUIN_DOUBLINGS = 6
#: most multiply-adds the DP may spend (hands x bankroll states x pay lines; ~1 ns each), so
#: huge pays answer in seconds with a note instead of running for minutes
MAX_RUIN_WORK = 4_000_000_000
RHO_TOL = 1e-15
_HELD = np.array([m.bit_count() for m in range(32)], dtype=np.int64)


def _weighted_sums(weight: np.ndarray, x: np.ndarray, powers: tuple[int, ...]) -> list[int]:
    """``sum(weight * x ** p)`` for each ``p``, exact: Python ints over the distinct values of
    ``x`` (far fewer than the classes), each with its total weight. A float64 total weight is
    exact: all weights add up to at most C(54, 5) < 2^53."""
    vals, inv = np.unique(x, return_inverse=True)
    wsum = np.bincount(inv.ravel(), weights=weight, minlength=len(vals))
    pairs = [(int(c), int(v)) for c, v in zip(wsum, vals)]
    return [sum(c * v ** p for c, v in pairs) for p in powers]


def deal_moments(pt: Paytable, weight: np.ndarray, best: np.ndarray, best_counts: np.ndarray
                 ) -> tuple[Fraction, Fraction, Fraction]:
    """(E[X], E[X^2], E[E[X|D]^2]) under optimal play, exact, from per-class best-hold counts."""
    ways, _, _ = draw_denominators(pt.deck_size)
    units, scale = pt.pay_units()
    counts = best_counts.astype(np.int64)
    s1 = counts @ units                                   # < 2^50: pay units x C(R, d)
    squares = [int(u) * int(u) for u in units]
    # a class's counts add up to C(R, d) <= C(R, 5): int64 when that times the largest square fits
    exact64 = max(squares) * comb(pt.deck_size - 5, 5) < 2 ** 63
    s2 = counts @ np.array(squares, np.int64) if exact64 else counts.astype(object) @ squares
    d = 5 - _HELD[best.astype(np.int64)]
    e1 = e2 = e11 = Fraction(0)
    for k in range(6):
        sel = np.flatnonzero(d == k)
        if not len(sel):
            continue
        w = weight[sel]
        den = int(ways[k])
        a1, a11 = _weighted_sums(w, s1[sel], (1, 2))
        a2 = _weighted_sums(w, s2[sel], (1,))[0] if exact64 else \
            int(np.dot(w.astype(object), s2[sel]))
        e1 += Fraction(a1, den * scale)
        e2 += Fraction(a2, den * scale * scale)
        e11 += Fraction(a11, den * den * scale * scale)
    total = comb(pt.deck_size, 5)
    return e1 / total, e2 / total, e11 / total


def hit_frequency(pt: Paytable, weight: np.ndarray, best: np.ndarray, best_counts: np.ndarray
                  ) -> Fraction:
    """P(the final hand pays anything) under optimal play, exact, from per-class counts."""
    _, mult, big = draw_denominators(pt.deck_size)
    paying = np.array([p > 0 for p in pt.pays])
    d = 5 - _HELD[best.astype(np.int64)]
    hits = best_counts[:, paying].astype(np.int64).sum(axis=1) * mult[d]
    return Fraction(_weighted_sums(weight, hits, (1,))[0], comb(pt.deck_size, 5) * big)


def n_play_variance(e1: Fraction, e2: Fraction, e11: Fraction, n: int) -> Fraction:
    """Exact variance of the total pay of N hands played on one deal (bet units of one hand)."""
    return n * (e2 - e11) + n * n * (e11 - e1 * e1)


@nb.njit(cache=True)
def _ruin_dp(probs: np.ndarray, pays: np.ndarray, bet: int, top: int, checkpoints: np.ndarray,
             upper: bool, floor: float) -> np.ndarray:
    """r_h(b) for b = 0..top units at every checkpoint h (``pays`` and ``bet`` in units; ruin
    below one bet); above ``top`` r = r(top) (upper) or 0. Values below ``floor`` become 0
    after every step, so no product or sum is ever subnormal (see the module docstring).

    Only bankrolls below ``end`` are computed: cur is 0 from ``nz`` up, and every term of
    nxt[b] reads cur at b - bet or above (pays are >= 0), the upper edge at ``top``, so from
    nz + bet up nxt is exactly 0 (while the ruin front climbs from bet to top, most are)."""
    cur = np.zeros(top + 1)
    cur[:bet] = 1.0
    nxt = np.empty(top + 1)
    out = np.empty((checkpoints.shape[0], top + 1))
    c = 0
    h = 0
    ubet = np.uint64(bet)
    ut = np.uint64(top)
    nz = bet                              # cur[b] == 0 for every b >= nz
    while c < checkpoints.shape[0]:
        while c < checkpoints.shape[0] and checkpoints[c] == h:
            # a loop, not out[c] = cur: an array assigned to a slice compiles numba's
            # shape-mismatch message (string formatting, about 2 CPU s in each process)
            for col in range(top + 1):
                out[c, col] = cur[col]
            c += 1
        if c == checkpoints.shape[0]:
            break
        end = np.uint64(min(top + 1, nz + bet))
        # pay by pay over all bankrolls: contiguous loops the compiler vectorises (unsigned
        # indices, so no negative-index wraparound code). Each nxt[b] still adds its terms in
        # pay order, starting from 0.0, so the sums equal a per-bankroll loop's bit for bit.
        nxt[:] = 0.0
        for k in range(probs.shape[0]):
            p = probs[k]
            # t = b - bet + pay >= 0 for every b >= bet; the last b whose t stays <= top
            inside = np.uint64(min(top, max(top + bet - pays[k], bet - 1)))
            for b in range(ubet, min(inside + np.uint64(1), end)):
                nxt[b] += p * cur[b - ubet + np.uint64(pays[k])]
            if upper:
                edge = p * cur[top]
                for b in range(max(inside + np.uint64(1), ubet), min(ut + np.uint64(1), end)):
                    nxt[b] += edge
        nxt[:bet] = 1.0
        nz = bet
        for b in range(end):
            if nxt[b] < floor:
                nxt[b] = 0.0
            else:
                nz = b + 1
        cur, nxt = nxt, cur
        h += 1
    return out


def ruin_table(pays: list[Fraction], probs: list[Fraction], bankrolls: tuple[int, ...],
               hands: tuple[int, ...]) -> dict[str, Any]:
    """Risk of ruin within each number of hands for each bankroll (bets), with its error bound.

    ``probs`` is the exact per-hand pay distribution; pays may be fractional (money is counted in
    units of 1/lcm(denominators) bet).
    """
    bet = lcm(*(p.denominator for p in pays))
    pay_u = np.array([int(p * bet) for p in pays], np.int64)
    top = bet * max(bankrolls) + RUIN_TOP_PAYS * int(pay_u.max())

    def work(states: int) -> int:
        return 2 * max(hands) * (states + 1) * len(pays)

    if work(top) > MAX_RUIN_WORK:
        return {"note": f"risk of ruin within {max(hands):,} hands skipped: {top + 1:,} bankroll "
                        f"states would take over {MAX_RUIN_WORK:,} steps (pays too large or too "
                        "finely divided)"}
    pr = np.array([float(p) for p in probs])
    floor = 4 * np.finfo(np.float64).tiny / float(pr[pr > 0].min())
    cps = np.array(sorted(set(hands)), np.int64)
    for _ in range(RUIN_DOUBLINGS):
        lo = _ruin_dp(pr, pay_u, bet, top, cps, False, floor)
        hi = _ruin_dp(pr, pay_u, bet, top, cps, True, floor)
        cols = [bet * b for b in bankrolls]
        gap = float((hi[:, cols] - lo[:, cols]).max())
        if gap <= RUIN_TOL or work(2 * top) > MAX_RUIN_WORK:
            break
        top *= 2
    rows = []
    for c, h in enumerate(cps.tolist()):
        for b in bankrolls:
            u = bet * b
            rows.append({"bankroll": b, "hands": h, "risk_of_ruin": float((lo[c, u] + hi[c, u]) / 2)})
    return {"rows": rows, "error_bound": gap + 1e-12, "states": top + 1}


def long_run_ruin(pays: list[Fraction], probs: list[Fraction]) -> tuple[float, float]:
    """(rho, its bracket width): rho^B <= P(ever ruined from B bets) <= rho^(B-1), with
    equality on the left for whole-number pays; rho = 1 (ruin certain) when return <= 1."""
    ret = sum((p * q for p, q in zip(pays, probs)), Fraction(0))
    if ret <= 1:
        return 1.0, 0.0
    pay_f = [float(p) for p in pays]
    pr = [float(q) for q in probs]

    def f(z: float) -> float:
        return sum(q * z ** k for q, k in zip(pr, pay_f)) - z

    lo, hi = 0.0, 1.0 - 1e-12          # f(lo) > 0 (no pay has prob 1), f < 0 just below 1
    while hi - lo > RHO_TOL:
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2, hi - lo


def long_run_rows(pays: list[Fraction], rho: float, bankrolls: tuple[int, ...]) -> list[dict[str, float]]:
    """Long-run risk of ruin per bankroll: the middle of [rho^B, rho^(B-1)] (exactly rho^B for
    whole-number pays) and the bracket's half-width."""
    whole = all(p.denominator == 1 for p in pays)
    rows = []
    for b in bankrolls:
        low, high = rho ** b, (rho ** b if whole or rho >= 1 else rho ** (b - 1))
        rows.append({"bankroll": b, "risk_of_ruin": (low + high) / 2, "error_bound": (high - low) / 2})
    return rows


def bankroll_figures(pt: Paytable, final_counts: list[int], denominator: int, weight: np.ndarray,
                     best: np.ndarray, best_counts: np.ndarray) -> dict[str, Any]:
    """Every bankroll figure of a paytable (the ``bankroll`` object of ``vp analyze --json``)."""
    e1, e2, e11 = deal_moments(pt, weight, best, best_counts)
    var1 = e2 - e1 * e1
    probs = [Fraction(c, denominator) for c in final_counts]
    hit = hit_frequency(pt, weight, best, best_counts)
    rho, rho_err = long_run_ruin(pt.pays, probs)
    nplay = []
    for n in N_PLAY:
        v = n_play_variance(e1, e2, e11, n)
        nplay.append({"hands": n, "variance": float(v), "variance_exact": _frac(v),
                      "sd_per_round": float(v) ** 0.5, "sd_per_hand": float(v) ** 0.5 / n})
    ruin = ruin_table(pt.pays, probs, RUIN_BANKROLLS, RUIN_HANDS)
    return {
        "hit_frequency": float(hit), "hit_frequency_exact": _frac(hit),
        "variance": float(var1), "sd_per_hand": float(var1) ** 0.5,
        "deal_covariance": float(e11 - e1 * e1), "deal_covariance_exact": _frac(e11 - e1 * e1),
        "n_play": nplay,
        "risk_of_ruin": {**ruin, "long_run_rho": rho, "long_run_rho_error": rho_err,
                         "long_run": long_run_rows(pt.pays, rho, RUIN_BANKROLLS),
                         "method": "exact DP over the per-hand pay distribution in units of "
                                   "1/lcm(pay denominators) bet, bounds above the top state; long "
                                   "run in [rho^B, rho^(B-1)] (= rho^B for whole-number pays)"},
    }


def _frac(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"



def bankroll_columns(pt: Paytable, final_counts: list[int], denominator: int, strategy: Any
                     ) -> dict[str, float]:
    """Flat bankroll figures of one game (``parquet/paytable_summary`` columns) from the
    artifact's ``strategy`` group."""
    stored = strategy.file.attrs.get(BANKROLL_ATTR)
    figs = json.loads(stored) if stored is not None else bankroll_figures(
        pt, final_counts, denominator, strategy["weight"][:].astype(np.int64),
        strategy["best_hold"][:], strategy["best_counts"][:])
    out = {"hit_frequency": figs["hit_frequency"], "sd_per_hand": figs["sd_per_hand"],
           "deal_covariance": figs["deal_covariance"]}
    for r in figs["n_play"]:
        if r["hands"] > 1:
            out[f"variance_{r['hands']}_play"] = r["variance"]
    rr = figs["risk_of_ruin"]
    for r in rr.get("rows", []):
        out[f"ruin_{r['bankroll']}_bets_{r['hands']}_hands"] = r["risk_of_ruin"]
    for r in rr["long_run"]:
        out[f"ruin_{r['bankroll']}_bets_long_run"] = r["risk_of_ruin"]
    return out
