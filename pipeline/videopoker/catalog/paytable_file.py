"""``paytables/<slug>.h5``: the one module that writes and opens a paytable's artifact.

The build (stage ``paytable:<slug>``) writes it through :func:`write_paytable_file`; every reader
(the analysis commands, charts, the catalog, the summary stage) goes through the functions
here, so the file's layout is known in one place. Which file is current for a paytable is
:func:`current_artifact` (manifest, then :func:`paytable_digest_of`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import h5py
import numpy as np

from pipeline.core.cards import CARD_ID_FORMULA, COLEX_FORMULA
from pipeline.videopoker.paytables.paytable import Paytable
from pipeline.videopoker.solver.digest import built_by_this_solver, solver_digest
from pipeline.videopoker.solver.holds import Rows

if TYPE_CHECKING:  # modules that load numba: imported by the functions that need them
    from pipeline.videopoker.charts.chart import Chart, StrategyData
    from pipeline.videopoker.solver.analysis import Analysis

#: the group holding the break-even searches the build made (JSON per line, in its attributes)
BREAKEVEN_GROUP = "breakeven"
BREAKEVEN_MEANING = ("vp breakeven at its defaults (target 1 = an even game, step 1 credit, "
                     "max pay 100000), per line: the search's grid points, bounds and strategy "
                     "changes as JSON, exact fractions as num/den")

TIE_BREAKS_TEXT = {
    "fewest-cards": ("among holds with exactly equal EV: keep the fewest cards, then the lowest "
                     "hold mask (bit t = t-th card of the deal in ascending card id order)"),
    "low-variance": ("among holds with exactly equal EV: the lower variance of the pay, then the "
                     "fewest cards, then the lowest hold mask (bit t = t-th card of the deal in "
                     "ascending card id order)"),
    "lowest-mask": ("among holds with exactly equal EV: the lowest hold mask, whatever the "
                    "number of cards kept (bit t = t-th card of the deal in ascending card id "
                    "order; Wizard of Odds' enumeration order)"),
}
TIE_BREAK = TIE_BREAKS_TEXT["fewest-cards"]
SECOND_HOLD_TEXT = ("second_hold: the best hold (same tie-break) among the holds whose EV is "
                    "strictly below the best EV, 255 if none; error_cost = best EV - its EV")
HOLD_BITS = "bit t set = keep the t-th card of the deal's cards in ascending card id order"
CHART_HOLD_MEANING = ("hold mask the derived strategy chart picks (bit t = keep the t-th card of "
                      "the deal in ascending card id order); weight x ev[chart_hold] summed over "
                      "the classes / C(deck, 5) = the chart's exact return")


def write_paytable_file(a: Analysis, chart: Chart, bankroll: dict[str, Any], path: Path,
                        breakeven: dict[str, Any] | None = None) -> None:
    """The whole artifact into ``path`` (normally a temporary file): analysis, chart, bankroll
    and the stored break-even searches (``{line label: record}``)."""
    from pipeline.videopoker.solver.bankroll import BANKROLL_ATTR

    write_artifact(a, path)
    write_chart(path, chart)
    with h5py.File(path, "a") as f:
        f.attrs[BANKROLL_ATTR] = json.dumps(bankroll)
        if breakeven is not None:
            g = f.create_group(BREAKEVEN_GROUP)
            g.attrs["meaning"] = BREAKEVEN_MEANING
            for label, record in breakeven.items():
                g.attrs[label] = json.dumps(record)


def write_artifact(a: Analysis, path: Path) -> None:
    """Write ``paytables/<slug>.h5`` (into ``path``, normally a temporary file)."""
    from pipeline.videopoker.solver.solve import NO_HOLD

    pt = a.paytable
    k_cat = pt.n_categories
    with h5py.File(path, "w") as f:
        f.attrs.update({
            "title": f"video poker analysis of {pt.name}",
            "name": pt.name, "slug": pt.slug, "wild": pt.wild, "deck_size": pt.deck_size,
            # the file name only: the artifact must not depend on where the checkout lives
            "paytable_file": Path(pt.source).name, "paytable_sha256": pt.digest,
            "labels": pt.labels, "pays": [str(p) for p in pt.pays],
            "return": float(a.return_exact),
            "return_exact": f"{a.return_exact.numerator}/{a.return_exact.denominator}",
            "variance": float(a.variance),
            "variance_exact": f"{a.variance.numerator}/{a.variance.denominator}",
            "total_combinations": str(a.denominator),
            "tie_break": TIE_BREAKS_TEXT[pt.tie_break], "tie_break_rule": pt.tie_break,
            "jokers": pt.jokers if pt.wild == "joker" else 0, "source": pt.reference,
            "card_ids": CARD_ID_FORMULA + {52: "", 53: "; 52 = joker",
                                           54: "; 52, 53 = jokers"}[pt.deck_size],
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
        s.attrs["tie_break"] = TIE_BREAKS_TEXT[pt.tie_break]
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
        # --- mistake costs (issue 12): the cheapest real mistake per class ---
        s["second_hold"] = a.second
        s["second_hold"].attrs["meaning"] = SECOND_HOLD_TEXT + "; " + HOLD_BITS
        s["second_ev"] = a.ev[np.arange(len(a.best)), np.where(a.second == NO_HOLD, a.best, a.second)]
        s["second_ev"].attrs["meaning"] = "EV (per coin) of second_hold"
        s["second_ev_numerator"] = a.second_num
        s["second_ev_numerator"].attrs["denominator"] = str(a.ev_denominator)
        s["error_cost"] = a.error_cost()
        s["error_cost"].attrs["meaning"] = ("best EV - second EV per coin: what the cheapest "
                                            "mistake on this deal costs (exact: (best_ev_numerator "
                                            "- second_ev_numerator) / denominator)")
        ds = f.create_dataset("final_counts", data=np.array(a.final_counts, dtype=np.int64))
        ds.attrs.update({"labels": pt.labels, "denominator": str(a.denominator),
                         "meaning": "final-hand combinations under optimal play at the common "
                                    "denominator C(deck,5) * lcm(C(R,d), d=0..5)"})


def write_chart(path: Path, chart: Chart) -> None:
    """Add ``strategy/chart_hold`` (and the chart as JSON) to a paytable artifact."""
    from pipeline.videopoker.charts.chart import DEFAULT_MAX_LINES, TIE_RULE

    with h5py.File(path, "a") as f:
        s = f["strategy"]
        if "chart_hold" in s:
            del s["chart_hold"]
        s["chart_hold"] = chart.holds
        r = chart.return_exact
        s["chart_hold"].attrs.update({
            "meaning": CHART_HOLD_MEANING, "tie_rule": TIE_RULE, "lines": len(chart.lines),
            "max_lines": DEFAULT_MAX_LINES,
            "chart_return_exact": f"{r.numerator}/{r.denominator}",
            "patterns": chart.patterns,
            "chart": json.dumps([{"text": ln.text, "codes": ln.codes, "classes": ln.classes,
                                  "deals": ln.deals, "loss": ln.loss} for ln in chart.lines])})


def current_artifact(pt: Paytable, artifacts: Path) -> Path | None:
    """The built ``paytables/<slug>.h5`` for exactly this paytable file and solver, if any.

    The match is found from the files' attributes, then proven against the manifest through
    :func:`pipeline.query.artifacts.open_checked` (a changed file raises ``ArtifactError``);
    a file the manifest does not list is not trusted and not used.
    """
    from pipeline.query.artifacts import open_checked, read_manifest

    artifacts = Path(artifacts)
    folder = artifacts / "paytables"
    if not pt.digest or not folder.is_dir():
        return None
    manifest = read_manifest(artifacts)
    digest = solver_digest()
    # a built-in game's file is named after its slug: look there first
    own = folder / f"{pt.slug}.h5"
    for p in [own] * own.is_file() + sorted(set(folder.glob("*.h5")) - {own}):
        rel = p.relative_to(artifacts).as_posix()
        if rel not in manifest.get("files", {}):
            continue
        if not built_by_this_solver(manifest, rel, digest):
            continue
        if paytable_digest_of(p) == pt.digest:
            return open_checked(artifacts, rel, manifest)
    return None


def paytable_digest_of(path: Path) -> str | None:
    """The sha256 of the paytable file the artifact was built from (None if unreadable)."""
    try:
        with h5py.File(path, "r") as f:
            d = f.attrs.get("paytable_sha256")
    except OSError:
        return None
    return str(d) if d is not None else None


def read_summary(path: Path) -> tuple[Fraction, float, list[int], int]:
    """(exact return, variance, final-hand counts, their denominator)."""
    with h5py.File(path, "r") as f:
        at = f.attrs
        ds = f["final_counts"]
        return (Fraction(str(at["return_exact"])), float(at["variance"]), [int(x) for x in ds[:]],
                int(ds.attrs["denominator"]))


def read_attrs(path: Path) -> dict[str, Any]:
    """The file's top-level attributes (name, labels, pays, return, variance, ...)."""
    with h5py.File(path, "r") as f:
        return dict(f.attrs)


def read_bankroll(path: Path) -> dict[str, Any] | None:
    """The bankroll figures the build stored, if any."""
    from pipeline.videopoker.solver.bankroll import BANKROLL_ATTR

    with h5py.File(path, "r") as f:
        raw = f.attrs.get(BANKROLL_ATTR)
    return json.loads(raw) if raw is not None else None


def read_best(path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(class weights, best hold, its final-hand counts) per deal class."""
    with h5py.File(path, "r") as f:
        s = f["strategy"]
        return s["weight"][:], s["best_hold"][:], s["best_counts"][:]


@contextmanager
def open_strategy(path: Path) -> Iterator[Any]:
    """The ``strategy`` group, open for reading a few columns."""
    with h5py.File(path, "r") as f:
        yield f["strategy"]


def read_break_even(path: Path) -> dict[str, Any] | None:
    """The break-even searches the build stored, ``{line label: record}`` (None if none)."""
    with h5py.File(path, "r") as f:
        if BREAKEVEN_GROUP not in f:
            return None
        g = f[BREAKEVEN_GROUP]
        return {str(k): json.loads(v) for k, v in g.attrs.items() if k != "meaning"}


def read_final_counts(path: Path) -> tuple[list[int], int]:
    """(final-hand counts, denominator) from a paytable artifact."""
    with h5py.File(path, "r") as f:
        ds = f["final_counts"]
        return [int(x) for x in ds[:]], int(ds.attrs["denominator"])


@contextmanager
def artifact_counts(path: Path) -> Iterator[tuple[Rows, list[Rows]]]:
    """(pay categories, subset counts) of a paytable artifact as open HDF5 datasets, so one
    deal's holds read their 32 rows and nothing else."""
    with h5py.File(path, "r") as f:
        yield f["pay_category"], [f[f"counts/held{k}"] for k in range(5)]


def read_counts(path: Path) -> tuple[np.ndarray, list[np.ndarray]]:
    """(pay categories, subset counts) from a paytable artifact."""
    with h5py.File(path, "r") as f:
        return f["pay_category"][:], [f[f"counts/held{k}"][:] for k in range(5)]


def read_strategy_data(pt: Paytable, path: Path) -> StrategyData:
    """Chart inputs from a built ``paytables/<slug>.h5``."""
    from pipeline.videopoker.charts.chart import StrategyData

    with h5py.File(path, "r") as f:
        s = f["strategy"]
        idx = s["index5"][:]
        return StrategyData(pt, s["hands"][:], s["weight"][:].astype(np.int64), s["ev"][:],
                            s["best_hold"][:], f["pay_category"][:][idx])


def read_chart_parts(path: Path) -> tuple[np.ndarray, list[dict[str, Any]], int, Fraction] | None:
    """(chart hold per class, its lines as stored, patterns, the exact return written), or None
    when the build exported no chart."""
    with h5py.File(path, "r") as f:
        if "strategy/chart_hold" not in f:
            return None
        ds = f["strategy/chart_hold"]
        return (ds[:], json.loads(ds.attrs["chart"]), int(ds.attrs["patterns"]),
                Fraction(str(ds.attrs["chart_return_exact"])))


__all__ = ["current_artifact", "write_paytable_file", "paytable_digest_of",
           "read_summary", "read_attrs",
           "read_bankroll", "read_best", "open_strategy", "read_final_counts", "artifact_counts",
           "read_break_even", "BREAKEVEN_GROUP",
           "read_counts", "read_strategy_data", "read_chart_parts"]
