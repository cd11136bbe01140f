"""Paytable sweeps: the exact return of many variants of a game, for finding a target return.

A sweep file (``configs/sweeps/<name>.toml``) either varies the pays of some lines of a base
paytable over ranges (every combination is a variant)::

    name = "Jacks or Better pay sweep"
    base = "jacks-or-better-9-6"          # a known paytable slug or a TOML path
    [pays]                                # line label = {from, to[, step]} or {values = [...]}
    "full house" = { from = 5, to = 9 }
    "flush" = { values = [4, 5, 6] }

or lists paytable files (``paytables = ["a.toml", "b.toml"]``, relative to the sweep file).

Without wild cards the pay category of a deal and the subset counts depend only on the
lines, not on the pays: they are computed once, and so are a deal's 32 hold counts for all
the variants of a task, each variant then only picking its best hold
(:func:`pipeline.videopoker.solver.solve.final_counts_many`). Variants are solved
as pure tasks on an executor (local or Dask); each returns its exact final-hand counts, from
which return, variance and hit frequency are exact fractions.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from math import prod
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.core.files import read_toml_file
from pipeline.core.tasks import Tasks
from pipeline.errors import ConfigError
from pipeline.videopoker.paytables.paytable import Paytable, check_pay, load_paytable, slugify
from pipeline.videopoker.solver.analysis import analyze, check_pays, checked_total, compute_counts
from pipeline.videopoker.solver.deals import DealClasses
from pipeline.videopoker.solver.solve import final_counts_many

#: variants per task on Dask: a few, so one task is ~1 s of work and the scheduler overhead is
#: noise (the local executor runs a sweep as one task)
VARIANTS_PER_TASK = 4
#: most variants one sweep may ask for: each is a full exact solve (0.1-3 s), so this is hours
#: at most; checked before any work starts
MAX_SWEEP_VARIANTS = 5_000
_KEYS = {"name", "base", "pays", "paytables"}


@dataclass(frozen=True)
class Axis:
    """One swept line: its index in the base paytable, its label and the pays it takes."""

    line: int
    label: str
    values: tuple[Fraction, ...]

    @property
    def column(self) -> str:
        """Column name of this line's pay in the sweep table (``full_house``)."""
        return slugify(self.label).replace("-", "_")


@dataclass(frozen=True)
class Sweep:
    """A parsed sweep: variants of ``base`` along ``axes``, or the listed ``files``."""

    name: str
    slug: str
    base: Paytable | None
    axes: tuple[Axis, ...] = ()
    files: tuple[Path, ...] = ()

    def variants(self) -> list[Paytable]:
        """Every variant, in a fixed order (the last axis varies fastest)."""
        if self.files:
            return [load_paytable(p) for p in self.files]
        assert self.base is not None
        out = []
        for combo in itertools.product(*(a.values for a in self.axes)):
            lines = list(self.base.lines)
            for a, pay in zip(self.axes, combo):
                lines[a.line] = replace(lines[a.line], pays=pay)
            tag = " ".join(f"{a.label} {_text(p)}" for a, p in zip(self.axes, combo))
            out.append(replace(self.base, lines=tuple(lines), name=f"{self.base.name} [{tag}]"))
        return out


def _text(p: Fraction) -> str:
    return str(p.numerator) if p.denominator == 1 else str(float(p))


def _pay(value: object, where: str) -> Fraction:
    """A pay or step of a sweep file, checked exactly as a paytable's pays are."""
    return check_pay(value, lambda msg: ConfigError(f"{where}: {msg}"))


def _axis_values(spec: object, where: str) -> tuple[Fraction, ...]:
    if not isinstance(spec, dict):
        raise ConfigError(f"{where}: give {{from = A, to = B}} (optional step) or {{values = [...]}}")
    if "values" in spec:
        vals = spec["values"]
        if not isinstance(vals, list) or not vals:
            raise ConfigError(f"{where}: values must be a non-empty list")
        if len(vals) > MAX_SWEEP_VARIANTS:
            raise ConfigError(f"{where}: {len(vals):,} values; at most {MAX_SWEEP_VARIANTS:,} variants per sweep")
        return tuple(_pay(v, where) for v in vals)
    if "from" not in spec or "to" not in spec:
        raise ConfigError(f"{where}: missing 'from'/'to' (or 'values')")
    lo, hi = _pay(spec["from"], where), _pay(spec["to"], where)
    step = _pay(spec.get("step", 1), where)
    if step <= 0 or hi < lo:
        raise ConfigError(f"{where}: need from <= to and step > 0, got {spec}")
    n = int((hi - lo) / step) + 1
    if n > MAX_SWEEP_VARIANTS:
        raise ConfigError(f"{where}: from {_text(lo)} to {_text(hi)} by {_text(step)} is {n:,} values; "
                          f"at most {MAX_SWEEP_VARIANTS:,} variants per sweep")
    return tuple(lo + i * step for i in range(n))


def _present(p: Path) -> bool:
    """Something is at ``p`` (a file of any kind, or a symlink even if dangling)."""
    return p.exists() or p.is_symlink()


def find_sweep(name: str, roots: list[Path]) -> Path:
    """The sweep file for NAME: a path (it has a folder part or ends in ``.toml``, or nothing
    else matches), or ``configs/sweeps/NAME.toml`` under a root. A path is returned whatever is
    there, so :func:`load_sweep` reads it through the one safe reader, which says what is wrong
    with a FIFO, a device, a folder or a missing file (not "unknown sweep")."""
    p = Path(name)
    if p.suffix == ".toml" or "/" in name or os.sep in name:
        return p
    for root in roots:
        cand = root / "configs" / "sweeps" / f"{name}.toml"
        if _present(cand):
            return cand
    if _present(p):
        return p
    known = sorted({q.stem for r in roots for q in (r / "configs" / "sweeps").glob("*.toml")})
    raise ConfigError(f"unknown sweep {name!r} (sweeps: {', '.join(known) or 'none'})")


def load_sweep(path: Path) -> Sweep:
    """Parse and check a sweep file (``ConfigError`` naming the file and the bad entry)."""
    data = read_toml_file(path, "sweep file")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise ConfigError(f"{path}: unknown key {unknown[0]!r} (allowed: {', '.join(sorted(_KEYS))})")
    name = str(data.get("name", path.stem))
    if "paytables" in data:
        files = data["paytables"]
        if not isinstance(files, list) or not files or "base" in data or "pays" in data:
            raise ConfigError(f"{path}: 'paytables' is a non-empty list of files, without base/pays")
        if len(files) > MAX_SWEEP_VARIANTS:
            raise ConfigError(f"{path}: {len(files):,} paytables; at most {MAX_SWEEP_VARIANTS:,} per sweep")
        paths = tuple((path.parent / f).resolve() for f in files)
        for f in paths:  # what is there is read by load_paytable's safe reader
            if not _present(f):
                raise ConfigError(f"{path}: paytable file {f} does not exist")
        return Sweep(name, slugify(path.stem), None, files=paths)
    if "base" not in data or not isinstance(data.get("pays"), dict) or not data["pays"]:
        raise ConfigError(f"{path}: needs base = \"<paytable>\" and a [pays] table (or paytables = [...])")
    base_ref = str(data["base"])
    base_path: Path | None = path.parent / base_ref
    # a file next to the sweep (of any kind: the safe reader judges it), else a slug
    if base_path is None or not _present(base_path) or base_path.is_dir():
        from pipeline.registry import PAYTABLES, entries

        base_path = entries(PAYTABLES).get(base_ref)
    if base_path is None:
        raise ConfigError(f"{path}: base paytable {base_ref!r} not found (a known paytable slug, "
                          "see `pokertables vp list`, or a path relative to the sweep file)")
    base = load_paytable(base_path)
    labels = base.labels[:-1]
    axes = []
    for label, spec in data["pays"].items():
        if label not in labels:
            raise ConfigError(f"{path}: [pays] {label!r} is not a line of {base.name} "
                              f"(lines: {', '.join(labels)})")
        axes.append(Axis(labels.index(label), label, _axis_values(spec, f"{path}: [pays] {label!r}")))
    variants = prod(len(a.values) for a in axes)
    if variants > MAX_SWEEP_VARIANTS:
        raise ConfigError(f"{path}: the [pays] axes make {variants:,} variants; at most "
                          f"{MAX_SWEEP_VARIANTS:,} per sweep (each is a full exact solve)")
    return Sweep(name, slugify(path.stem), base, tuple(axes))


# ----------------------------------------------------------------- tasks (pure: arrays in, ints out)

def solve_shared(variants: list[Paytable], hands: np.ndarray, weight: np.ndarray,
                 index5: np.ndarray, pay_cat: np.ndarray, c0: np.ndarray, c1: np.ndarray,
                 c2: np.ndarray, c3: np.ndarray, c4: np.ndarray) -> list[list[int]]:
    """Final-hand counts of each variant, reusing one set of pay categories and subset counts,
    and each deal's 32 hold counts for all the variants of the task (:func:`final_counts_many`:
    what ``analyze(pt, classes, counts).final_counts`` gives, ~4x faster for 4 variants)."""
    deck = variants[0].deck_size
    for pt in variants:
        check_pays(pt)
    out = final_counts_many(hands, weight, [c0, c1, c2, c3, c4], pay_cat,
                            [pt.pay_units()[0] for pt in variants], deck,
                            [pt.tie_break for pt in variants])
    for fc in out:
        checked_total(fc, deck)
    return out


def solve_full(variants: list[Paytable], hands: np.ndarray, weight: np.ndarray,
               index5: np.ndarray) -> list[list[int]]:
    """Final-hand counts of each variant, each analysed from scratch (wild games, file lists)."""
    classes = DealClasses(variants[0].deck_size, hands, weight, index5)
    return [analyze(pt, classes).final_counts for pt in variants]


def solve_sweep(sweep: Sweep, classes_for: Callable[[int], DealClasses],
                executor: Tasks) -> list[tuple[Paytable, list[int]]]:
    """Every variant with its exact final-hand counts (``classes_for(deck_size)`` gives classes)."""
    variants = sweep.variants()
    # a few variants per task spread a sweep over Dask workers; in this process one task lets
    # every variant share each deal's hold counts (the same counts, in about 60% of the time)
    per_task = VARIANTS_PER_TASK if getattr(executor, "distributed", False) else max(len(variants), 1)
    batches = [variants[i:i + per_task] for i in range(0, len(variants), per_task)]
    out: list[list[int]] = []
    shared_ok = sweep.base is not None and sweep.base.wild == "none"
    cls: dict[int, DealClasses] = {}
    for v in variants:
        if v.deck_size not in cls:
            cls[v.deck_size] = classes_for(v.deck_size)
    if shared_ok:
        assert sweep.base is not None
        pay_cat, counts = compute_counts(sweep.base)
        c = cls[sweep.base.deck_size]
        results = executor.map(solve_shared, batches, hands=c.hands, weight=c.weight, index5=c.index5,
                               pay_cat=pay_cat, c0=counts[0], c1=counts[1], c2=counts[2],
                               c3=counts[3], c4=counts[4])
    else:
        handles = [executor.submit(solve_full, b, hands=cls[b[0].deck_size].hands,
                                   weight=cls[b[0].deck_size].weight,
                                   index5=cls[b[0].deck_size].index5) for b in batches]
        results = [h.result() for h in handles]
    for r in results:
        out.extend(r)
    return list(zip(variants, out))


# ----------------------------------------------------------------- the table and the plot

def sweep_rows(sweep: Sweep, solved: list[tuple[Paytable, list[int]]]) -> dict[str, list[Any]]:
    """Columns of the sweep table: variant, name, the pay of every line, exact return (string,
    numerator, denominator, float), variance (exact, float), hit frequency (exact, float)."""
    cols: dict[str, list[Any]] = {"variant": [], "name": []}
    pay_cols: list[str] = []
    for pt, _ in solved:
        for label in pt.labels[:-1]:
            col = "pays_" + slugify(label).replace("-", "_")
            if col not in cols:
                cols[col] = []
                pay_cols.append(col)
    for k in ("return_exact", "return_numerator", "return_denominator", "return", "variance_exact",
              "variance", "hit_frequency_exact", "hit_frequency", "total_combinations"):
        cols[k] = []
    for i, (pt, final) in enumerate(solved):
        den = sum(final)
        pays = pt.pays
        ret = sum((Fraction(c) * p for c, p in zip(final, pays)), Fraction(0)) / den
        second = sum((Fraction(c) * p * p for c, p in zip(final, pays)), Fraction(0)) / den
        var = second - ret * ret
        hit = Fraction(sum(c for c, p in zip(final, pays) if p > 0), den)
        cols["variant"].append(i)
        cols["name"].append(pt.name)
        mine = {"pays_" + slugify(ln.label).replace("-", "_"): float(ln.pays) for ln in pt.lines}
        for col in pay_cols:
            cols[col].append(mine.get(col))
        cols["return_exact"].append(f"{ret.numerator}/{ret.denominator}")
        cols["return_numerator"].append(ret.numerator)
        cols["return_denominator"].append(ret.denominator)
        cols["return"].append(float(ret))
        cols["variance_exact"].append(f"{var.numerator}/{var.denominator}")
        cols["variance"].append(float(var))
        cols["hit_frequency_exact"].append(f"{hit.numerator}/{hit.denominator}")
        cols["hit_frequency"].append(float(hit))
        cols["total_combinations"].append(den)
    return cols


def plot_sweep(sweep: Sweep, cols: dict[str, list[Any]], path: Path) -> None:
    """PNG: return against each swept line's pay (one panel per line; every variant a dot)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ret = np.array(cols["return"]) * 100
    axes = sweep.axes or ()
    n = max(len(axes), 1)
    fig, panels = plt.subplots(1, n, figsize=(3.4 * n + 1, 4), dpi=110, sharey=True, squeeze=False)
    for ax, axis in zip(panels[0], axes or (None,)):
        if axis is None:
            ax.plot(range(len(ret)), ret, "o")
            ax.set_xticks(range(len(ret)), cols["name"], rotation=60, ha="right", fontsize=7)
        else:
            x = np.array(cols["pays_" + axis.column], dtype=float)
            ax.scatter(x, ret, s=10, alpha=0.5)
            xs = sorted(set(x.tolist()))
            ax.plot(xs, [ret[x == v].mean() for v in xs], "-", color="black", lw=1, label="mean")
            ax.set_xticks(xs)
            ax.set_xlabel(f"{axis.label} pays")
        ax.axhline(100, color="grey", ls="--", lw=0.8)
        ax.grid(alpha=0.3)
    panels[0][0].set_ylabel("return, % (optimal strategy, exact)")
    fig.suptitle(f"{sweep.name}: {len(ret)} variants", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, format="png")
    plt.close(fig)
