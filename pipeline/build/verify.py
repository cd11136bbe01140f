"""``pokertables verify``: prove the artifacts folder is intact and its content is right.

Two layers: every manifest entry is checked (exists, size, sha256, dataset shapes and dtypes),
then content invariants are checked per artifact (category counts, distinct scores, class
weights, paytable combination totals). Problems are collected, never raised.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.build import invariants as inv
from pipeline.build.store import MANIFEST, read_manifest, sha256_file
from pipeline.core.constants import N_SCORES, TOP_SCORE
from pipeline.errors import ArtifactError


@dataclass
class VerifyReport:
    """Result of a verification: ``problems`` (file, message) and the files that passed."""

    problems: list[tuple[str, str]] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)
    notes: list[tuple[str, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when no problem was found."""
        return not self.problems

    def as_json(self) -> dict[str, Any]:
        """JSON-ready summary."""
        return {"ok": self.ok, "checked": self.checked,
                "problems": [{"file": f, "problem": m} for f, m in self.problems],
                "notes": [{"file": f, "note": m} for f, m in self.notes]}


def _h5(path: Path) -> Any:
    import h5py

    return h5py.File(path, "r")


def _check_score_table(path: Path, k: int) -> list[str]:
    out = []
    with _h5(path) as f:
        score = f["score"]
        off = score.id.get_offset()
        n = score.shape[0]
    mm = np.memmap(path, dtype=np.uint16, mode="r", offset=off, shape=(n,))
    counts = np.bincount(mm, minlength=N_SCORES + 1)
    del mm
    if n != inv.ROWS[k]:
        out.append(f"/score has {n} rows, expected C(52,{k}) = {inv.ROWS[k]}")
    if counts[0]:
        out.append(f"/score holds {counts[0]} zero (unset) entries")
    if counts.shape[0] > N_SCORES + 1:
        out.append(f"/score holds values above {N_SCORES}")
    distinct = int((counts[1:N_SCORES + 1] > 0).sum())
    if distinct != inv.DISTINCT_SCORES[k]:
        out.append(f"{distinct} distinct scores, expected {inv.DISTINCT_SCORES[k]}")
    five = path.parent / "five.h5"
    if five.exists():
        with _h5(five) as f:
            cat = f["classes/category"][:]
            stored = f[f"classes/count{k}"][:] if f"classes/count{k}" in f else None
        per_cat = np.bincount(cat, weights=counts[1:N_SCORES + 1], minlength=9).astype(np.int64)
        ref = {5: inv.FIVE_CARD_CATEGORY_COUNTS, 7: inv.SEVEN_CARD_CATEGORY_COUNTS}.get(k)
        if ref is not None and tuple(int(x) for x in per_cat) != ref:
            out.append(f"category counts {per_cat.tolist()} differ from the published {list(ref)}")
        if k == 7 and counts[TOP_SCORE] != inv.SEVEN_CARD_ROYALS:
            out.append(f"{counts[TOP_SCORE]} royal flushes, expected {inv.SEVEN_CARD_ROYALS}")
        if stored is not None and not np.array_equal(stored, counts[1:N_SCORES + 1]):
            out.append(f"per-score counts differ from five.h5:/classes/count{k}")
    return out


def _check_vp_classes(path: Path) -> list[str]:
    out = []
    with _h5(path) as f:
        w = f["weight"][:].astype(np.int64)
        n = f["hands"].shape[0]
    if n != inv.VP_CLASSES:
        out.append(f"{n} deal classes, expected {inv.VP_CLASSES}")
    if int(w.sum()) != inv.VP_WEIGHT_TOTAL:
        out.append(f"class weights sum to {int(w.sum())}, expected {inv.VP_WEIGHT_TOTAL}")
    return out


def _check_paytable(path: Path) -> list[str]:
    out = []
    with _h5(path) as f:
        if "final_counts" not in f:
            return ["no /final_counts dataset"]
        counts = f["final_counts"][:]
        attrs = dict(f.attrs)
    den = attrs.get("denominator", attrs.get("total_combinations"))
    if den is None:
        return ["no denominator attribute to check /final_counts against"]
    total = sum(int(x) for x in np.asarray(counts).ravel())
    if total != int(den):
        out.append(f"final-hand combinations sum to {total}, expected the denominator {int(den)}")
    return out


def _check_rule_table(path: Path) -> list[str]:
    from math import comb

    out = []
    with _h5(path) as f:
        score = f["score"][:]
        k = int(f["score"].attrs["k"])
        n = int(f["score"].attrs["deck_size"])
    if score.shape[0] != comb(n, k):
        out.append(f"/score has {score.shape[0]} rows, expected C({n},{k}) = {comb(n, k)}")
    if score.size and score.min() == 0:
        out.append("/score holds zero (unset) entries")
    five = path.parent / "five.h5"
    with _h5(five) as f:
        classes = f["classes/score"].shape[0]
        stored = f[f"classes/count{k}"][:] if f"classes/count{k}" in f else None
    counts = np.bincount(score, minlength=classes + 1)[1:]
    if k == 5 and int((counts > 0).sum()) != classes:
        out.append(f"{int((counts > 0).sum())} distinct scores but {classes} classes")
    if stored is not None and not np.array_equal(stored, counts[:classes]):
        out.append(f"per-score counts differ from {five.name}:/classes/count{k}")
    return out


#: artifact path pattern -> content check returning problem messages
CHECKS: dict[str, Callable[[Path], list[str]]] = {
    "five.h5": lambda p: _check_score_table(p, 5),
    "six.h5": lambda p: _check_score_table(p, 6),
    "seven.h5": lambda p: _check_score_table(p, 7),
    "vp_classes.h5": _check_vp_classes,
    "paytables/*.h5": _check_paytable,
    "rules/*/*.h5": _check_rule_table,
}


def verify(folder: Path | str, content: bool = True) -> VerifyReport:
    """Check every manifest entry of ``folder`` and (if ``content``) each artifact's invariants."""
    import h5py

    folder = Path(folder)
    rep = VerifyReport()
    if not (folder / MANIFEST).exists():
        rep.problems.append((MANIFEST, f"no manifest in {folder}: nothing has been built; run "
                                       f"`pokertables -a {folder} build`"))
        return rep
    try:
        manifest = read_manifest(folder)
    except ArtifactError as exc:
        rep.problems.append((MANIFEST, f"unreadable manifest: {exc}"))
        return rep
    files: dict[str, Any] = manifest.get("files", {})
    for rel, info in sorted(files.items()):
        p = folder / rel
        if not p.exists():
            rep.problems.append((rel, "missing (listed in the manifest)"))
            continue
        size = p.stat().st_size
        if size != info["bytes"]:
            rep.problems.append((rel, f"size {size} bytes, manifest says {info['bytes']}"))
            continue
        digest = sha256_file(p)
        if digest != info["sha256"]:
            rep.problems.append((rel, f"sha256 {digest[:16]}… differs from the manifest's "
                                      f"{info['sha256'][:16]}… (content changed or corrupt)"))
            continue
        try:
            if p.suffix == ".h5":
                with h5py.File(p, "r") as f:
                    for name, ds in info.get("datasets", {}).items():
                        if name not in f:
                            rep.problems.append((rel, f"dataset /{name} missing"))
                        elif list(f[name].shape) != ds["shape"] or str(f[name].dtype) != ds["dtype"]:
                            rep.problems.append((rel, f"/{name} is {list(f[name].shape)} {f[name].dtype}, "
                                                      f"manifest says {ds['shape']} {ds['dtype']}"))
            if content:
                for pattern, check in CHECKS.items():
                    if fnmatch.fnmatch(rel, pattern):
                        rep.problems.extend((rel, m) for m in check(p))
        except Exception as exc:  # noqa: BLE001 - a corrupt file may fail in any way
            rep.problems.append((rel, f"cannot be read: {type(exc).__name__}: {exc}"))
            continue
        rep.checked.append(rel)
    for p in sorted(folder.rglob("*")):
        rel = p.relative_to(folder).as_posix()
        if p.is_file() and rel not in files and rel not in (MANIFEST, ".build.lock") \
                and not rel.endswith(".md"):
            rep.notes.append((rel, "not in the manifest (left by an interrupted build; the next "
                                   "build replaces it)"))
    return rep
