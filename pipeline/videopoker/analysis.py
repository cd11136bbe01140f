"""A paytable's complete analysis, its summary (the published-style return table), the holds
of one deal, and the ``paytables/<slug>.h5`` artifact (written by the stage, read by the CLI).
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from pathlib import Path
from typing import Any

import h5py
import numpy as np

from pipeline.core.cards import CARD_ID_FORMULA, COLEX_FORMULA, card_text, parse_cards
from pipeline.videopoker.classify import classify_deals
from pipeline.videopoker.deals import DealClasses, deal_classes, deck_hands
from pipeline.videopoker.paytable import Paytable
from pipeline.videopoker.solve import draw_denominators, solve_holds
from pipeline.videopoker.subsets import subset_counts

TIE_BREAK = ("among holds with exactly equal EV: keep the fewest cards, then the lowest hold "
             "mask (bit t = t-th card of the deal in ascending card id order)")
HOLD_BITS = "bit t set = keep the t-th card of the deal's cards in ascending card id order"
JOKER_TEXT = "Jk"


def solver_digest() -> str:
    """sha256 over the video poker modules' source: an artifact made by other code is stale."""
    h = hashlib.sha256()
    for p in sorted(Path(__file__).resolve().parent.glob("*.py")):
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def vp_card_text(c: int) -> str:
    """Card text, with ``Jk`` for the joker (card 52)."""
    return JOKER_TEXT if int(c) == 52 else card_text(int(c))


def vp_cards_text(cards: Any) -> str:
    """Space-separated card text of a sequence of ids (joker as ``Jk``)."""
    return " ".join(vp_card_text(c) for c in cards)


def parse_deal(text: str, deck_size: int) -> list[int]:
    """Parse five cards of a deal (``Jk``/``joker`` allowed in the 53-card game); ids in order."""
    ids: list[int] = []
    for word in re.split(r"[\s,;]+", text.strip()):
        if not word:
            continue
        if word.lower() in ("jk", "joker", "jkr"):
            if deck_size != 53:
                raise ValueError(f"bad card {word!r}: the joker is only dealt in joker games")
            if 52 in ids:
                raise ValueError("duplicate card Jk")
            ids.append(52)
        else:
            for c in parse_cards(word):
                if c in ids:
                    raise ValueError(f"duplicate card {card_text(c)}")
                ids.append(c)
    if len(ids) != 5:
        raise ValueError(f"expected 5 cards, got {len(ids)}: {vp_cards_text(ids) or '(none)'}")
    return ids


def _num(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else float(x)


@dataclass
class Analysis:
    """Everything one paytable's optimal-strategy analysis produces."""

    paytable: Paytable
    classes: DealClasses
    pay_category: np.ndarray       # uint8[C(deck,5)] by colex
    counts: list[np.ndarray]       # counts[k]: uint32[C(deck,k), K]
    ev: np.ndarray                 # float64[N, 32] EV of every hold of every class
    best: np.ndarray               # uint8[N] best hold mask
    best_num: np.ndarray           # int64[N] exact best EV over L * scale
    best_counts: np.ndarray        # int64[N, K] final-hand counts of the best hold
    final_counts: list[int]        # per category, over ``denominator``
    denominator: int               # C(deck, 5) * L
    ev_denominator: int            # L * scale
    return_exact: Fraction
    variance: Fraction
    seconds: float

    def summary(self) -> dict[str, Any]:
        """The return table as the CLI's JSON object."""
        return summary_dict(self.paytable, self.final_counts, self.denominator, self.seconds)


def check_pays(pt: Paytable) -> None:
    """Reject pays so large that exact EVs would overflow int64 (``ValueError`` naming the line)."""
    units, _ = pt.pay_units()
    _, _, big = draw_denominators(pt.deck_size)
    for ln, u in zip(pt.lines, units):
        # the largest int64 in the solver is a hold's EV times L * scale, at most pay * L
        if int(u) * big >= 2 ** 62:
            raise ValueError(f"{pt.source or pt.name}:{ln.text_line}: pays {ln.pays} too large "
                             "(or too finely fractional) for exact 64-bit arithmetic")


def compute_counts(pt: Paytable) -> tuple[np.ndarray, list[np.ndarray]]:
    """Pay category of every deal and the subset-count arrays for a paytable."""
    check_pays(pt)
    pay_cat = classify_deals(pt, deck_hands(pt.deck_size, 5))
    counts = subset_counts(pay_cat, pt.n_categories, pt.deck_size)
    return pay_cat, counts


def analyze(pt: Paytable, classes: DealClasses | None = None,
            counts: tuple[np.ndarray, list[np.ndarray]] | None = None) -> Analysis:
    """Optimal strategy, exact return, variance and final-hand distribution of a paytable.

    ``classes`` defaults to the derived suit classes of the paytable's deck. ``counts`` may
    pass ``compute_counts`` of a paytable with the same lines (only the pays differing, no wild
    cards): they do not depend on the pays, so a pay sweep computes them once.
    """
    if classes is None:
        classes = deal_classes(pt.deck_size)
    if classes.deck_size != pt.deck_size:
        raise ValueError(f"deal classes are for {classes.deck_size} cards, paytable needs {pt.deck_size}")
    t0 = time.perf_counter()
    if counts is None:
        pay_cat, subsets = compute_counts(pt)
    else:
        check_pays(pt)
        pay_cat, subsets = counts
    pays, scale = pt.pay_units()
    ev, best, best_num, best_counts = solve_holds(classes.hands, subsets, pay_cat, pays, scale,
                                                  pt.deck_size)
    ways, mult, big = draw_denominators(pt.deck_size)
    draws = 5 - np.array([bin(m).count("1") for m in range(32)], dtype=np.int64)
    factor = classes.weight * mult[draws[best]]
    # int64 is safe: each class adds at most 24 * L per category, in all <= C(53,5) * L < 2^63
    final = (best_counts * factor[:, None]).sum(axis=0)
    final_counts = [int(x) for x in final]
    denominator = comb(pt.deck_size, 5) * big
    if sum(final_counts) != denominator:
        raise AssertionError("final-hand counts do not add up to the number of deals x draws")
    pay_list = pt.pays
    ret = sum((Fraction(c) * p for c, p in zip(final_counts, pay_list)), Fraction(0)) / denominator
    second = sum((Fraction(c) * p * p for c, p in zip(final_counts, pay_list)), Fraction(0)) / denominator
    seconds = time.perf_counter() - t0
    return Analysis(pt, classes, pay_cat, subsets, ev, best, best_num, best_counts, final_counts,
                    denominator, big * scale, ret, second - ret * ret, seconds)


def summary_dict(pt: Paytable, final_counts: list[int], denominator: int, seconds: float
                 ) -> dict[str, Any]:
    """JSON shape of ``vp analyze``: name, return, return_exact, variance, total_combinations,
    lines (hand, pays, combinations, probability, return; last is ``nothing``), seconds."""
    pays = pt.pays
    ret = sum((Fraction(c) * p for c, p in zip(final_counts, pays)), Fraction(0)) / denominator
    second = sum((Fraction(c) * p * p for c, p in zip(final_counts, pays)), Fraction(0)) / denominator
    lines = []
    for label, p, c in zip(pt.labels, pays, final_counts):
        lines.append({"hand": label, "pays": _num(p), "combinations": int(c),
                      "probability": c / denominator, "return": float(p * c / denominator)})
    return {"name": pt.name, "return": float(ret),
            "return_exact": f"{ret.numerator}/{ret.denominator}",
            "variance": float(second - ret * ret), "total_combinations": int(denominator),
            "lines": lines, "seconds": round(seconds, 4)}


def hold_table(pt: Paytable, cards: list[int], pay_cat: np.ndarray, counts: list[np.ndarray]
               ) -> list[dict[str, Any]]:
    """All 32 holds of one deal (cards in the user's order), best first.

    Each row: ``hold`` (held cards in the given order, or ``discard all``), ``positions``
    (1-based positions kept), ``held``, ``ev``, ``ev_exact``, ``best``. Equal EVs are ordered
    by the solver's tie-break rule, so the first row is the solver's best hold.
    """
    order = sorted(range(5), key=lambda t: cards[t])
    hand = np.array([[cards[t] for t in order]], dtype=np.uint8)
    pays, scale = pt.pay_units()
    ev, best, _, _ = solve_holds(hand, counts, pay_cat, pays, scale, pt.deck_size)
    rows = []
    for m in range(32):
        kept_sorted = [t for t in range(5) if m >> t & 1]
        positions = sorted(order[t] for t in kept_sorted)
        rows.append({"mask": m, "positions": [p + 1 for p in positions], "held": len(positions),
                     "hold": vp_cards_text(cards[p] for p in positions) or "discard all",
                     "ev": float(ev[0, m])})
    exact = _exact_evs(hand, pt, pay_cat, counts)
    for r in rows:
        r["ev_exact_fraction"] = exact[r["mask"]]
        r["ev_exact"] = f"{exact[r['mask']].numerator}/{exact[r['mask']].denominator}"
    # the solver's tie-break: equal EV -> fewer cards -> lower mask (of the sorted deal)
    rows.sort(key=lambda r: (-r["ev_exact_fraction"], r["held"], r["mask"]))
    if rows[0]["mask"] != int(best[0]):
        raise AssertionError("hold ordering disagrees with the solver's best hold")
    for i, r in enumerate(rows):
        r["best"] = i == 0
        del r["ev_exact_fraction"]
        del r["mask"]
    return rows


def _exact_evs(hand: np.ndarray, pt: Paytable, pay_cat: np.ndarray, counts: list[np.ndarray]
               ) -> list[Fraction]:
    """Exact EV of each of the 32 holds of one sorted deal (Python ints; used for display)."""
    from pipeline.core.cards import COLEX_WEIGHTS

    cards = [int(c) for c in hand[0]]
    g: list[list[int]] = []
    for m in range(32):
        sub = [cards[t] for t in range(5) if m >> t & 1]
        k = len(sub)
        idx = sum(comb(c, i + 1) if c == 52 else COLEX_WEIGHTS[i + 1][c] for i, c in enumerate(sub))
        if k == 5:
            row = [0] * pt.n_categories
            row[int(pay_cat[idx])] = 1
        else:
            row = [int(x) for x in counts[k][idx]]
        g.append(row)
    for b in range(5):
        for m in range(32):
            if not m >> b & 1:
                g[m] = [x - y for x, y in zip(g[m], g[m | 1 << b])]
    pays = pt.pays
    rest = pt.deck_size - 5
    return [sum((Fraction(n) * p for n, p in zip(g[m], pays)), Fraction(0))
            / comb(rest, 5 - bin(m).count("1")) for m in range(32)]


# ---------------------------------------------------------------- the artifact

def write_artifact(a: Analysis, path: Path) -> None:
    """Write ``paytables/<slug>.h5`` (into ``path``, normally a temporary file)."""
    pt = a.paytable
    k_cat = pt.n_categories
    with h5py.File(path, "w") as f:
        f.attrs.update({
            "title": f"video poker analysis of {pt.name}",
            "name": pt.name, "slug": pt.slug, "wild": pt.wild, "deck_size": pt.deck_size,
            # the file name only: the artifact must not depend on where the checkout lives
            "paytable_file": Path(pt.source).name, "paytable_sha256": pt.digest,
            "solver_digest": solver_digest(),
            "labels": pt.labels, "pays": [str(p) for p in pt.pays],
            "return": float(a.return_exact),
            "return_exact": f"{a.return_exact.numerator}/{a.return_exact.denominator}",
            "variance": float(a.variance),
            "variance_exact": f"{a.variance.numerator}/{a.variance.denominator}",
            "total_combinations": str(a.denominator),
            "tie_break": TIE_BREAK,
            "card_ids": CARD_ID_FORMULA + ("; 52 = joker" if pt.deck_size == 53 else ""),
            "index_scheme": "colex", "index_formula": COLEX_FORMULA,
        })
        ds = f.create_dataset("pay_category", data=a.pay_category)
        ds.attrs.update({"meaning": "pay category of every 5-card deal: line index, "
                                    f"{k_cat - 1} = nothing", "labels": pt.labels,
                         "index_scheme": "colex"})
        for k in range(5):
            ds = f.create_dataset(f"counts/held{k}", data=a.counts[k])
            ds.attrs.update({"meaning": f"[i, p] = deals containing the {k} cards of colex index i "
                                        "with pay category p", "index_scheme": "colex",
                             "labels": pt.labels})
        s = f.create_group("strategy")
        s.attrs["classes"] = len(a.classes)
        s.attrs["hold_bits"] = HOLD_BITS
        s.attrs["tie_break"] = TIE_BREAK
        s["hands"] = a.classes.hands
        s["weight"] = a.classes.weight
        s["index5"] = a.classes.index5
        s["best_hold"] = a.best
        s["best_hold"].attrs["meaning"] = HOLD_BITS
        s["ev"] = a.ev
        s["ev"].attrs["meaning"] = "EV (per coin) of hold mask m in column m"
        s["best_ev"] = a.ev[np.arange(len(a.best)), a.best]
        s["best_ev_numerator"] = a.best_num
        s["best_ev_numerator"].attrs["denominator"] = str(a.ev_denominator)
        s["best_counts"] = a.best_counts.astype(np.uint32)
        s["best_counts"].attrs["meaning"] = "final-hand counts of the best hold, out of C(R, drawn)"
        ds = f.create_dataset("final_counts", data=np.array(a.final_counts, dtype=np.int64))
        ds.attrs.update({"labels": pt.labels, "denominator": str(a.denominator),
                         "meaning": "final-hand combinations under optimal play at the common "
                                    "denominator C(deck,5) * lcm(C(R,d), d=0..5)"})


def current_artifact(pt: Paytable, artifacts: Path) -> Path | None:
    """The built ``paytables/<slug>.h5`` for exactly this paytable file and solver, if any."""
    folder = Path(artifacts) / "paytables"
    if not pt.digest or not folder.is_dir():
        return None
    digest = solver_digest()
    for p in sorted(folder.glob("*.h5")):
        try:
            with h5py.File(p, "r") as f:
                if f.attrs.get("paytable_sha256") == pt.digest and \
                        f.attrs.get("solver_digest") == digest:
                    return p
        except OSError:
            continue
    return None


def read_final_counts(path: Path) -> tuple[list[int], int]:
    """(final-hand counts, denominator) from a paytable artifact."""
    with h5py.File(path, "r") as f:
        ds = f["final_counts"]
        return [int(x) for x in ds[:]], int(ds.attrs["denominator"])


def read_counts(path: Path) -> tuple[np.ndarray, list[np.ndarray]]:
    """(pay categories, subset counts) from a paytable artifact."""
    with h5py.File(path, "r") as f:
        return f["pay_category"][:], [f[f"counts/held{k}"][:] for k in range(5)]
