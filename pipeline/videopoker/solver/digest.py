"""The solver digest: which code made a paytable artifact (light: imports no numba).

It covers exactly the modules the ``paytable`` build stage imports, transitively (the same
import-graph walk that keys the stage), so a reader trusts an artifact exactly when a build
would call it up to date, and an unrelated edit (say to the sweep module) stales nothing.

Walking the import graph parses every module of the closure (a few hundred ms), too slow for
every ``vp`` command. The digest is a pure function of the package's source files (their
paths and bytes), so it is cached under a fingerprint of exactly those: the sha256 of every
``pipeline/**/*.py`` file (a few ms to hash). Any edit, added or removed file changes the
fingerprint and the walk runs again; the cache is a one-entry JSON file in the package's
``__pycache__`` folder (next to Python's own byte-code caches of these sources), skipped
when that folder cannot be written.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from pipeline.core.kernel_cache import digest_sources

#: the build stage whose code makes the paytable artifacts
PAYTABLE_STAGE = "pipeline.build.stages.paytable"
#: the folder holding the ``pipeline`` package (what ``ImportGraph`` reads by default): one
#: level up per part of this module's dotted name, so moving the module cannot point it elsewhere
SOURCE_ROOT = Path(__file__).resolve().parents[len(__name__.split(".")) - 1]
CACHE_FILE = Path(__file__).resolve().parent / "__pycache__" / "solver_digest.json"
#: how the digest is computed; a cache entry of another scheme (written by a process still
#: running older code of this module) is never used
SCHEME = 2


def source_fingerprint(root: Path = SOURCE_ROOT) -> str:
    """sha256 over the relative path and bytes of every ``.py`` file of the ``pipeline``
    package under ``root`` (everything the import-graph walk can read)."""
    return digest_sources(root / "pipeline", skip=())


def walk_digest(root: Path = SOURCE_ROOT) -> str:
    """The digest computed from scratch: the code identity (:func:`code_hash`) of every module
    the paytable stage imports, each by its meaning (the same digests its stage key uses)."""
    from pipeline.core.codegraph import ImportGraph, code_hash  # reads sources as text

    graph = ImportGraph(root)
    return code_hash({m: graph.digest(m) for m in graph.closure(PAYTABLE_STAGE)})


#: The running package's digest, once computed: the code this process runs was imported when it
#: started, so an edit to the files afterwards does not change what it would build (a long-lived
#: server would otherwise hash every source file on each request, about 15 ms).
_RUNNING: dict[str, str] = {}


def solver_digest(root: Path = SOURCE_ROOT, cache: Path | None = CACHE_FILE) -> str:
    """sha256 over the sources of every module the paytable stage imports (:func:`walk_digest`),
    reused from ``cache`` while :func:`source_fingerprint` is unchanged; the running package's
    (the defaults) once per process."""
    running = root == SOURCE_ROOT and cache == CACHE_FILE
    if running and "digest" in _RUNNING:
        return _RUNNING["digest"]
    digest = _solver_digest(root, cache)
    if running:
        _RUNNING["digest"] = digest
    return digest


def _solver_digest(root: Path, cache: Path | None) -> str:
    fingerprint = source_fingerprint(root)
    if cache is not None:
        try:
            entry = json.loads(cache.read_text())
            if entry.get("scheme") == SCHEME and entry.get("fingerprint") == fingerprint \
                    and isinstance(entry.get("digest"), str):
                return str(entry["digest"])
        except (OSError, ValueError, AttributeError):
            pass  # no cache yet, or unreadable: compute
    digest = walk_digest(root)
    if cache is not None:
        _write_cache(cache, {"scheme": SCHEME, "fingerprint": fingerprint, "digest": digest})
    return digest


def built_by_this_solver(manifest: dict[str, Any], rel: str, digest: str) -> bool:
    """Whether the manifest says ``rel`` was made by a paytable stage whose code is the running
    solver's (``digest`` from :func:`solver_digest`). The code identity lives in the manifest's
    stage record, not in the artifact's bytes, so a comment edit changes no file."""
    stage = manifest.get("files", {}).get(rel, {}).get("stage")
    parts = manifest.get("stages", {}).get(stage, {}).get("parts") if isinstance(stage, str) else None
    code = parts.get("code") if isinstance(parts, dict) else None
    if not isinstance(code, dict):
        return False
    from pipeline.core.codegraph import code_hash

    return code_hash({str(k): str(v) for k, v in code.items()}) == digest


def _write_cache(cache: Path, entry: dict[str, Any]) -> None:
    """Atomic replace (concurrent readers see the old or the new entry); a read-only source
    tree just keeps no cache."""
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=cache.name, suffix=".tmp", dir=cache.parent)
    except OSError:
        return
    try:
        with os.fdopen(fd, "w") as f:
            json.dump(entry, f)
        os.replace(tmp, cache)
    except OSError:
        Path(tmp).unlink(missing_ok=True)
