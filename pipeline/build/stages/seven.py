"""Stage ``seven``: best-of-7 score of all 133,784,560 seven-card hands, the O(1) bitmap lookup.

reads:   nothing
writes:  seven.h5 (/score uint16[133,784,560] by colex), filled in place through a memory map
config:  [seven]
"""

from __future__ import annotations

from pipeline.build.config import BuildConfig
from pipeline.build.score_files import write_score_file
from pipeline.build.stages import Context, Stage
from pipeline.core.evaluate import build_rank_tables

#: settings of this stage's config section besides ``enabled``
KEYS: tuple[str, ...] = ()


def stages(config: BuildConfig) -> list[Stage]:
    """The single ``seven`` stage."""
    return [Stage("seven", ("seven.h5",), run, settings=config.section("seven"))]


def run(ctx: Context) -> None:
    """Build seven.h5."""
    ctx.progress("scoring 133,784,560 seven-card hands", 0.05)
    write_score_file(ctx.path("seven.h5"), 7, build_rank_tables())
