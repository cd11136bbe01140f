"""Stage ``six``: best-of-6 score of all 20,358,520 six-card hands (turn analysis).

reads:   nothing
writes:  six.h5 (/score uint16[20,358,520] by colex)
config:  [six]
"""

from __future__ import annotations

from pipeline.build.config import BuildConfig
from pipeline.build.score_files import write_score_file
from pipeline.build.stages import Context, Stage
from pipeline.core.evaluate import build_rank_tables

#: settings of this stage's config section besides ``enabled``
KEYS: tuple[str, ...] = ()


def stages(config: BuildConfig) -> list[Stage]:
    """The single ``six`` stage."""
    return [Stage("six", ("six.h5",), run, settings=config.section("six"))]


def run(ctx: Context) -> None:
    """Build six.h5."""
    ctx.progress("scoring 20,358,520 six-card hands", 0.1)
    write_score_file(ctx.path("six.h5"), 6, build_rank_tables())
