"""The read side: :class:`Tables` opens built artifacts read-only through memory maps, and the
lookup kernels score hands against them. Never imports the build side.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.core.lazy import lazy_exports
from pipeline.errors import ArtifactError

if TYPE_CHECKING:
    from pipeline.query.tables import Tables

#: loaded on first use, so importing ``pipeline.query.artifacts`` does not open Tables' imports
_EXPORTS = {"Tables": "pipeline.query.tables:Tables"}

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())


__all__ = ["ArtifactError", "Tables"]
