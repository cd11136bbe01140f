"""``pokertables verify``: prove the artifacts folder is intact and its content is right.

Layers: the build plan says which artifacts must exist, and the manifest must list each of
them (and nothing outside the folder, and no file may sit there untracked); every entry is
checked (exists, size, sha256, dataset shapes and dtypes); content invariants are checked per
artifact (category counts, distinct scores, class weights, paytable totals, Parquet copies equal
to their HDF5 tables, preflop without NaN); and the content digests shipped with the package for
the default build catch a manifest forged to match altered bytes (a file whose whole-file
sha256 equals the reference build's holds the reference content, so its item digests are
implied). Problems are collected, never raised.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from pipeline.build import invariants as inv
from pipeline.build.commit import JOURNAL
from pipeline.build.digests import (
    DIGESTED_SUFFIXES,
    ExpectedDigests,
    compare,
    content_digests,
    contiguous_ranges,
    default_stages,
    h5_digests,
    load_expected,
    sha256_file_and_ranges,
)
from pipeline.build.locks import COMMIT_LOCK
from pipeline.build.parquet_checks import check_preflop_h5, parquet_invariants
from pipeline.build.store import (
    LOCK,
    MANIFEST,
    STAGING,
    TMP_PREFIX,
    read_manifest,
    sha256_file,
)
from pipeline.core.constants import N_SCORES, TOP_SCORE
from pipeline.errors import ArtifactError, PokertablesError
from pipeline.query.artifacts import VERIFIED, open_checked, open_h5

if TYPE_CHECKING:
    import pyarrow as pa

#: table entries counted per bincount call (16 MiB of scores: cache-friendly, no big copies)
BINCOUNT_CHUNK = 1 << 23
#: files checked at once (the machine's two cores: hashing and Parquet decoding release the GIL)
WORKERS = 2


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


def _check_score_table(path: Path, k: int) -> list[str]:
    out = []
    with open_h5(path) as f:
        score = f["score"]
        off = score.id.get_offset()
        n = score.shape[0]
    mm = np.memmap(path, dtype=np.uint16, mode="r", offset=off, shape=(n,))
    counts = np.zeros(1 << 16, np.int64)
    for lo in range(0, n, BINCOUNT_CHUNK):  # in pieces: bincount would copy it all to int64 first
        counts += np.bincount(mm[lo:lo + BINCOUNT_CHUNK], minlength=1 << 16)
    del mm
    if n != inv.ROWS[k]:
        out.append(f"/score has {n} rows, expected C(52,{k}) = {inv.ROWS[k]}")
    if counts[0]:
        out.append(f"/score holds {counts[0]} zero (unset) entries")
    if counts[N_SCORES + 1:].any():
        out.append(f"/score holds values above {N_SCORES}")
    counts = counts[:N_SCORES + 1]
    distinct = int((counts[1:N_SCORES + 1] > 0).sum())
    if distinct != inv.DISTINCT_SCORES[k]:
        out.append(f"{distinct} distinct scores, expected {inv.DISTINCT_SCORES[k]}")
    five = path.parent / "five.h5"
    if five.exists():
        with open_h5(five) as f:
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
    with open_h5(path) as f:
        w = f["weight"][:].astype(np.int64)
        n = f["hands"].shape[0]
    if n != inv.VP_CLASSES:
        out.append(f"{n} deal classes, expected {inv.VP_CLASSES}")
    if int(w.sum()) != inv.VP_WEIGHT_TOTAL:
        out.append(f"class weights sum to {int(w.sum())}, expected {inv.VP_WEIGHT_TOTAL}")
    return out


def _check_paytable(path: Path) -> list[str]:
    out = []
    with open_h5(path) as f:
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
    with open_h5(path) as f:
        score = f["score"][:]
        k = int(f["score"].attrs["k"])
        n = int(f["score"].attrs["deck_size"])
    if score.shape[0] != comb(n, k):
        out.append(f"/score has {score.shape[0]} rows, expected C({n},{k}) = {comb(n, k)}")
    if score.size and score.min() == 0:
        out.append("/score holds zero (unset) entries")
    five = path.parent / "five.h5"
    with open_h5(five) as f:
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
    "preflop.h5": check_preflop_h5,
}


#: files of the folder that are bookkeeping, not artifacts
BOOKKEEPING = (MANIFEST, LOCK, COMMIT_LOCK, VERIFIED, JOURNAL)


def expected_outputs(folder: Path, config: Path | str | None, stages: list[str] | None) -> dict[str, str]:
    """Artifact path -> stage name, for every output the build plan says ``folder`` holds."""
    from pipeline.build.config import load_config
    from pipeline.build.stages import plan

    cfg = load_config(config, folder)
    return {out: st.name for st in plan(cfg, stages) for out in st.outputs}


def _outside(folder: Path, rel: str) -> bool:
    """Whether a manifest path leaves the folder by its own text (absolute, ``..``, empty). A
    subfolder the user symlinked elsewhere (another disk) is still the folder's: the build
    writes there on purpose."""
    p = Path(rel)
    return p.is_absolute() or ".." in p.parts or not rel


def _check_file(folder: Path, rel: str, info: dict[str, Any], manifest: dict[str, Any], content: bool,
                expected: dict[str, Any], expected_file: str | None = None) -> tuple[list[str], list[str]]:
    """(problems, notes) of one manifest entry; ``expected_file`` is the shipped whole-file
    sha256 of the reference build, when there is one."""
    p = folder / rel
    if not p.is_file():
        return ["missing (listed in the manifest)" if not p.exists() else "not a regular file"], []
    if p.stat().st_size != info["bytes"]:
        return [f"size {p.stat().st_size} bytes, manifest says {info['bytes']}"], []
    ranges: dict[str, str] | None = None
    proven = False  # bytes equal to the reference build's: its content digests hold
    if content:
        if p.suffix == ".h5" and expected_file is None:
            try:  # one read gives the file's sha256 and every dataset's content digest
                digest, ranges = sha256_file_and_ranges(p, contiguous_ranges(p))
            except OSError:  # not an HDF5 file any more: the sha256 alone will say so
                digest = sha256_file(p)
        else:
            digest = sha256_file(p)
            proven = digest == expected_file
        if digest != info["sha256"]:
            return [(f"sha256 {digest[:16]}… differs from the manifest's {info['sha256'][:16]}… "
                     "(content changed or corrupt)")], []
    else:
        try:  # quick: the readers' check (re-hashes only a file whose size/mtime/ctime/inode moved)
            open_checked(folder, rel, manifest)
        except ArtifactError:
            return ["sha256 differs from the manifest (content changed or corrupt)"], []
    problems: list[str] = []
    notes: list[str] = []
    try:
        if p.suffix == ".h5":
            with open_h5(p) as f:
                for name, ds in info.get("datasets", {}).items():
                    if name not in f:
                        problems.append(f"dataset /{name} missing")
                    elif list(f[name].shape) != ds["shape"] or str(f[name].dtype) != ds["dtype"]:
                        problems.append(f"/{name} is {list(f[name].shape)} {f[name].dtype}, "
                                        f"manifest says {ds['shape']} {ds['dtype']}")
        if content:
            for pattern, check in CHECKS.items():
                if fnmatch.fnmatch(rel, pattern):
                    problems.extend(check(p))
            table: pa.Table | None = None
            hists: dict[str, np.ndarray] = {}
            pre: dict[str, Any] | None = None
            if p.suffix == ".parquet":
                table, hists, more, pre = parquet_invariants(folder, rel, p, digest=not proven)
                problems.extend(more)
            elif p.suffix == ".h5" and not proven:
                pre = h5_digests(p, ranges)
            if rel in expected and not proven:
                got = pre if pre is not None else content_digests(p, table, hists)
                problems.extend(compare(rel, got, expected[rel]))
            elif rel not in expected and rel.endswith(DIGESTED_SUFFIXES):
                notes.append("no shipped digest (content checked by invariants only)")
    except Exception as exc:  # noqa: BLE001 - a corrupt file may fail in any way
        problems.append(f"cannot be read: {type(exc).__name__}: {exc}")
    return problems, notes


def verify(folder: Path | str, content: bool = True, config: Path | str | None = None,
           stages: list[str] | None = None) -> VerifyReport:
    """Check ``folder`` against its manifest, the build plan and the shipped content digests.

    Every output the plan of ``config`` (default ``configs/build.toml``; ``stages`` to expect only
    some stages) says the folder holds must be listed and intact; files the manifest does not
    list, and entries pointing outside the folder, are problems. ``content`` adds a full
    re-hash, the content invariants and the shipped digests; without it files are proven by
    the readers' check (size, mtime, ctime, inode; re-hash only on a change).
    """
    folder = Path(folder)
    rep = VerifyReport()
    if not (folder / MANIFEST).exists():
        rep.problems.append((MANIFEST, f"no manifest in {folder}: nothing has been built; run "
                                       f"`pokertables -a {folder} build`"))
        return rep
    try:
        manifest = read_manifest(folder)
    except (ValueError, ArtifactError) as exc:
        rep.problems.append((MANIFEST, f"unreadable manifest: {exc}"))
        return rep
    files: dict[str, Any] = manifest["files"]
    try:
        plan_out = expected_outputs(folder, config, stages)
    except PokertablesError as exc:
        rep.problems.append(("(config)", f"cannot derive the expected artifacts: {exc}"))
        plan_out = {}
    for rel, stage in sorted(plan_out.items()):
        if rel not in files:
            state = "file present, untracked" if (folder / rel).exists() else "missing"
            rep.problems.append((rel, (f"expected from stage {stage} but not in the manifest ({state}); "
                                       "rebuild with `pokertables build`")))
    inside = {rel: info for rel, info in files.items() if not _outside(folder, rel)}
    for rel in sorted(set(files) - set(inside)):
        rep.problems.append((rel[:200], "manifest entry points outside the artifacts folder"))
    shipped = load_expected() if content else ExpectedDigests({}, {})
    expected, expected_files = shipped.items, shipped.files
    if shipped.configs:
        # the reference digests describe the default config's stages only (a config folder's
        # own paytable or settings build other, equally valid, bytes)
        defaults = default_stages(manifest, shipped.configs)
        expected = {rel: d for rel, d in expected.items()
                    if files.get(rel, {}).get("stage") in defaults}
        expected_files = {rel: d for rel, d in expected_files.items() if rel in expected}
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:  # hashing and reading release the GIL
        # biggest first, so the two workers finish together instead of one waiting on a late giant
        order = sorted(inside, key=lambda r: -int(inside[r].get("bytes", 0)))
        futures = {rel: pool.submit(_check_file, folder, rel, inside[rel], manifest, content, expected,
                                   expected_files.get(rel))
                   for rel in order}
        for rel in sorted(futures):
            fut = futures[rel]
            problems, notes = fut.result()
            rep.problems.extend((rel, m) for m in problems)
            rep.notes.extend((rel, m) for m in notes)
            if not problems:
                rep.checked.append(rel)
    for p in sorted(folder.rglob("*")):
        rel = p.relative_to(folder).as_posix()
        if p.is_dir() or rel in files or rel in BOOKKEEPING or rel.endswith(".md"):
            continue
        if rel.startswith(STAGING + "/") or p.name.startswith(TMP_PREFIX):
            rep.notes.append((rel, "left by an interrupted build (the next build removes it)"))
        else:
            rep.problems.append((rel, ("not in the manifest (untracked file: remove it or rebuild "
                                       "with `pokertables build --force`)")))
    return rep
