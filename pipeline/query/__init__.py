"""The read side: :class:`Tables` opens built artifacts read-only through memory maps, and the
lookup kernels score hands against them. Never imports the build side.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from pipeline.errors import ArtifactError

if TYPE_CHECKING:
    from pipeline.query.tables import Tables

#: loaded on first use, so importing ``pipeline.query.artifacts`` does not open Tables' imports
_EXPORTS = {"Tables": "pipeline.query.tables:Tables"}


def __getattr__(name: str) -> Any:
    target = _EXPORTS.get(name)
    if target is None:
        raise AttributeError(f"module 'pipeline.query' has no attribute {name!r}")
    module, _, attr = target.partition(":")
    value = getattr(importlib.import_module(module), attr)
    globals()[name] = value
    return value


__all__ = ["ArtifactError", "Tables"]
