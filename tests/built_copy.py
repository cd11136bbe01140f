"""Scratch artifact folders made from the suite's build: some built files with their manifest
entries and their stages' records, copied or hard-linked, so a build there finds those stages
up to date and verify still checks their content against the manifest."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

#: the files of the ``vp_classes`` stage (the paytable stages' input)
DEAL_CLASSES = ("parquet/vp_deal_classes.parquet", "vp_classes.h5")


def copy_built(src: Path, dst: Path, names: tuple[str, ...], stages: tuple[str, ...] = (),
               link: bool = False) -> dict[str, Any]:
    """Copy (``link``: hard-link) ``names`` from the built folder ``src`` into ``dst`` with their
    manifest entries and the records of ``stages``; returns the manifest written there."""
    dst.mkdir(parents=True, exist_ok=True)
    mf = json.loads((src / "manifest.json").read_text())
    keep = {**mf, "files": {n: mf["files"][n] for n in names},
            "stages": {s: mf["stages"][s] for s in stages}}
    for n in names:
        (dst / n).parent.mkdir(parents=True, exist_ok=True)
        if link:
            os.link(src / n, dst / n)
        else:
            shutil.copy2(src / n, dst / n)
    (dst / "manifest.json").write_text(json.dumps(keep))
    return keep


def stage_files(src: Path, stage: str) -> tuple[str, ...]:
    """The files the manifest of ``src`` lists for ``stage``, sorted."""
    mf = json.loads((src / "manifest.json").read_text())
    return tuple(sorted(rel for rel, info in mf["files"].items() if info.get("stage") == stage))


def artifact_files(folder: Path) -> dict[str, tuple[int, int]]:
    """Size and mtime of every file under ``folder`` that a build or a command could write:
    the "nothing written" check of bad input and in-memory solves. Left out: the build lock
    (any concurrent user of the folder, such as the other test worker checking the session's
    build, takes it) and the readers' proof cache (a reader records there the files it proved)."""
    from pipeline.build.locks import COMMIT_LOCK, LOCK
    from pipeline.query.artifacts import VERIFIED

    return {p.relative_to(folder).as_posix(): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in folder.rglob("*") if p.is_file() and p.name not in (LOCK, COMMIT_LOCK, VERIFIED)}
