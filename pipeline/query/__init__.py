"""The read side: :class:`Tables` opens built artifacts read-only through memory maps, and the
lookup kernels score hands against them. Never imports the build side.
"""

from pipeline.query.artifacts import ArtifactError
from pipeline.query.tables import Tables

__all__ = ["ArtifactError", "Tables"]
