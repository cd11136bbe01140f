"""The solver digest: which video poker code made an artifact (light: imports no numba)."""

from __future__ import annotations

import hashlib
from pathlib import Path


def solver_digest() -> str:
    """sha256 over the video poker modules' source: an artifact made by other code is stale."""
    h = hashlib.sha256()
    for p in sorted(Path(__file__).resolve().parent.glob("*.py")):
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()
