"""Stage keys derived from the code itself: the import graph of a stage's module.

A stage's outputs depend on the source of every ``pipeline`` module its module imports,
directly or through other modules, at module level or inside functions; on its settings, the
sha256 of its input artifacts and source files; and on the versions of the libraries that
compute and write the numbers. :func:`stage_parts` gathers those facts and :func:`parts_key`
hashes them, so no stage lists its code by hand and none can drift stale.

Which modules a stage's module reaches, and what each one's code means, come from
:mod:`pipeline.core.codegraph` (the sources' syntax trees: comments, docstrings and
``__version__`` do not count).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path
from typing import Any

from pipeline.core.codegraph import ImportGraph, sha256_bytes
from pipeline.core.files import read_small_file

#: Libraries whose version enters every key: they compute or write the artifacts' bytes.
KEY_LIBRARIES = ("numpy", "numba", "h5py", "pyarrow")


def library_versions() -> dict[str, str]:
    """Versions of Python (major.minor) and of the libraries that write the artifacts."""
    out = {"python": f"{sys.version_info.major}.{sys.version_info.minor}"}
    for lib in KEY_LIBRARIES:
        try:
            out[lib] = metadata.version(lib)
        except metadata.PackageNotFoundError:
            out[lib] = "absent"
    return out


def source_label(path: Path) -> str:
    """How a source file is named in a key: its folder and file name, not where it lives."""
    p = Path(path)
    return f"{p.parent.name}/{p.name}"


#: the config key that switches a stage on or off
ENABLED = "enabled"


def stage_parts(module: str, settings: dict[str, Any], inputs: dict[str, str | None],
                sources: Iterable[Path], graph: ImportGraph,
                versions: dict[str, str] | None = None) -> dict[str, Any]:
    """Everything a stage's outputs depend on, as JSON-ready digests.

    ``module`` is the stage's module; ``inputs`` maps each input artifact to its manifest sha256.
    """
    # whether a stage is switched on decides if it runs, never what it writes
    shaping = {k: v for k, v in settings.items() if k != ENABLED}
    return {
        "settings": sha256_bytes(json.dumps(shaping, sort_keys=True, default=str).encode()),
        "code": {m: graph.digest(m) for m in graph.closure(module)},
        "inputs": dict(sorted(inputs.items())),
        "sources": {source_label(p): sha256_bytes(read_small_file(p, "source file")) for p in sources},
        "versions": versions if versions is not None else library_versions(),
    }


def parts_key(name: str, parts: dict[str, Any]) -> str:
    """The stage key: one sha256 over the stage's name and all its parts."""
    return sha256_bytes(json.dumps({"name": name, **parts}, sort_keys=True).encode())


def stale_reasons(parts: dict[str, Any], old: dict[str, Any] | None) -> list[str]:
    """Why a stage built with ``old`` parts (from the manifest) differs from ``parts``.

    Each reason is ``settings``, ``code: <modules>``, ``input: <file>``, ``source: <file>`` or
    ``versions: <library old -> new>``; an entry from before parts were recorded gives
    ``key (built before per-part digests were recorded)``.
    """
    if not old:
        return ["key (built before per-part digests were recorded)"]
    reasons: list[str] = []
    if parts["settings"] != old.get("settings"):
        reasons.append("settings")
    code_old = old.get("code", {})
    changed = sorted(m for m in set(parts["code"]) | set(code_old)
                     if parts["code"].get(m) != code_old.get(m))
    if changed:
        reasons.append("code: " + ", ".join(changed))
    for kind, label in (("inputs", "input"), ("sources", "source")):
        new_d, old_d = parts[kind], old.get(kind, {})
        for f in sorted(set(new_d) | set(old_d)):
            if new_d.get(f) != old_d.get(f):
                reasons.append(f"{label}: {f}")
    v_new, v_old = parts["versions"], old.get("versions", {})
    diff = [f"{lib} {v_old.get(lib, '-')} -> {v_new.get(lib, '-')}"
            for lib in sorted(set(v_new) | set(v_old)) if v_new.get(lib) != v_old.get(lib)]
    if diff:
        reasons.append("versions: " + ", ".join(diff))
    return reasons
