"""The solver digest: which code made a paytable artifact (light: imports no numba).

It covers exactly the modules the ``paytable`` build stage imports, transitively (the same
import-graph walk that keys the stage), so a reader trusts an artifact exactly when a build
would call it up to date, and an unrelated edit (say to the sweep module) stales nothing.
"""

from __future__ import annotations

import hashlib

#: the build stage whose code makes the paytable artifacts
PAYTABLE_STAGE = "pipeline.build.stages.paytable"


def solver_digest() -> str:
    """sha256 over the sources of every module the paytable stage imports."""
    from pipeline.build.keys import ImportGraph  # reads sources as text; imports no stage code

    graph = ImportGraph()
    h = hashlib.sha256()
    for module in graph.closure(PAYTABLE_STAGE):
        h.update(module.encode())
        h.update(graph.digest(module).encode())
    return h.hexdigest()
