"""The stage commit: a stage's outputs and the manifest change together, or not at all.

A finished stage sits in its staging folder. Committing it (1) writes and fsyncs a journal
holding the new manifest and the list of outputs, (2) renames each output into place, (3) writes
the manifest (with each output's ctime and inode, which the renames set) and (4) removes the
journal. A kill anywhere leaves either no journal (nothing was replaced) or a complete one; the
next build calls :func:`recover` under the lock before anything else, which finishes the commit
when every output is in place with the journal's bytes, and otherwise rolls the stage back (drops
its manifest entries, so it is rebuilt).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

from pipeline.build.store import MANIFEST, fsync_dir, move_file, write_json_atomic
from pipeline.errors import BuildError
from pipeline.query.artifacts import read_manifest, sha256_file, stat_signature

JOURNAL = ".commit-journal.json"


def _move(src: Path, dst: Path) -> None:
    """One output's rename into place (a function of its own so tests can crash between two)."""
    move_file(src, dst)


def stamp(manifest: dict[str, Any], folder: Path, outputs: list[str]) -> None:
    """Record each output's ctime and inode (set by its rename) so readers need not re-hash it."""
    for out in outputs:
        st = (folder / out).stat()
        info = manifest["files"][out]
        _, info["mtime_ns"], info["ctime_ns"], info["inode"] = stat_signature(st)


def _reason(exc: BaseException) -> str:
    return str(exc) if isinstance(exc, BuildError) else (getattr(exc, "strerror", None) or str(exc))


def commit_stage(folder: Path, staging: Path, stage: str, outputs: tuple[str, ...],
                 manifest: dict[str, Any], retired: tuple[str, ...] = ()) -> None:
    """Move ``outputs`` from ``staging`` into ``folder`` and write ``manifest``, as one step.

    ``retired`` are files an older version of the stage wrote and this one no longer does
    (already dropped from ``manifest``): they are deleted once the new manifest is in place.
    """
    journal = {"stage": stage, "staging": staging.relative_to(folder).as_posix(),
               "outputs": list(outputs), "manifest": manifest}
    try:
        write_json_atomic(folder / JOURNAL, journal)
    except (OSError, BuildError) as exc:
        raise BuildError(f"cannot record the commit of stage {stage} ({_reason(exc)}); "
                         "nothing was replaced") from None
    touched = set()
    for out in outputs:
        _move(staging / out, folder / out)
        touched.add((folder / out).parent)
    for d in touched:
        fsync_dir(d)
    stamp(manifest, folder, list(outputs))
    try:
        write_json_atomic(folder / MANIFEST, manifest)
    except (OSError, BuildError) as exc:
        raise BuildError(f"stage {stage}: new outputs are in place but the manifest could not be "
                         f"written ({_reason(exc)}); the next `pokertables build` finishes the "
                         f"commit from {folder / JOURNAL}") from None
    os.unlink(folder / JOURNAL)
    for rel in retired:  # a kill before this leaves an untracked file that verify names
        with contextlib.suppress(FileNotFoundError):
            (folder / rel).unlink()
    fsync_dir(folder)


def recover(folder: Path) -> str | None:
    """Finish or roll back a commit a killed build left (call under the lock); say what was done."""
    path = folder / JOURNAL
    if not path.exists():
        return None
    import json

    try:
        journal = json.loads(path.read_bytes())
        stage, outputs, new = journal["stage"], list(journal["outputs"]), journal["manifest"]
        staging = folder / journal["staging"]
        new["files"][outputs[0]]
    except (OSError, ValueError, KeyError, TypeError, IndexError, RecursionError):
        # journals are written atomically before any rename: an unreadable one replaced nothing
        path.unlink()
        return "removed an unreadable commit journal (nothing had been replaced)"
    for out in outputs:
        src = staging / out
        if src.is_file():
            _move(src, folder / out)
    done = all((folder / o).is_file() and (folder / o).stat().st_size == new["files"][o]["bytes"]
               and sha256_file(folder / o) == new["files"][o]["sha256"] for o in outputs)
    if done:
        stamp(new, folder, outputs)
        write_json_atomic(folder / MANIFEST, new)
        what = f"finished the interrupted commit of stage {stage}"
    else:
        old = read_manifest(folder, strict=False)
        old.get("stages", {}).pop(stage, None)
        for o in outputs:
            old.get("files", {}).pop(o, None)
        write_json_atomic(folder / MANIFEST, old)
        what = f"rolled back the interrupted commit of stage {stage} (it will be rebuilt)"
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    fsync_dir(folder)
    return what
