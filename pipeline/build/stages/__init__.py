"""Build stages. Each module here is one stage (or one family of stages) and declares, through
:class:`Stage`, the artifacts it reads and writes, the config it depends on and its code.

Pipeline order (the folder listing reads the same way):

    five        -> five.h5, parquet/hand_classes, parquet/five_card_hands
    six         -> six.h5
    seven       -> seven.h5
    seven_parquet -> parquet/seven_card_hands/category=<n>/ (Hive-partitioned dataset)
    rules       -> rules/<name>/five.h5 (+ seven.h5) per rule set in configs/rules/
    vp_classes  -> vp_classes.h5, parquet/vp_deal_classes
    paytable:*  -> paytables/<slug>.h5, parquet/paytables/paytable=<slug>/ (one per configs/paytables/*.toml)
    vp_summary  -> parquet/paytable_summary
    preflop     -> preflop.h5, parquet/preflop, preflop_equity.png (heads-up exact, 2-9 MC)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.build.config import BuildConfig
from pipeline.build.executor import Executor, LocalExecutor

#: Stage modules in build order; each exposes ``stages(config) -> list[Stage]``.
STAGE_MODULES = ("five", "six", "seven", "seven_parquet", "rules", "vp_classes", "paytable", "vp_summary", "preflop")


@dataclass
class Context:
    """What a running stage gets: the artifacts folder, the config, a progress reporter and
    the executor its parallel tasks run on (see :mod:`pipeline.build.executor`).

    With ``staging`` set, the stage's own ``outputs`` (and folders holding them) resolve into
    the staging folder, so nothing in the artifacts folder changes until the build runner
    moves the finished outputs into place; every other path is the built artifact.
    """

    artifacts: Path
    config: BuildConfig
    progress: Callable[[str, float], None] = lambda text, fraction: None
    outputs: tuple[str, ...] = ()
    staging: Path | None = None
    executor: Executor = field(default_factory=LocalExecutor)  # where fan-out tasks run

    def path(self, rel: str) -> Path:
        """Absolute path of an artifact given its path relative to the artifacts folder."""
        if self.staging is not None:
            folder = rel.rstrip("/") + "/"
            if rel in self.outputs or any(o.startswith(folder) for o in self.outputs):
                return self.staging / rel
        return self.artifacts / rel


@dataclass(frozen=True)
class Stage:
    """One build step: ``run(ctx)`` writes exactly ``outputs`` (paths relative to artifacts)."""

    name: str
    outputs: tuple[str, ...]
    run: Callable[[Context], dict[str, Any] | None]
    inputs: tuple[str, ...] = ()          # artifacts it reads (their sha256 enters the key)
    settings: dict[str, Any] = field(default_factory=dict)  # config values that shape outputs
    code: tuple[str, ...] = ()            # modules whose source enters the key
    sources: tuple[Path, ...] = ()        # other files it reads (e.g. a paytable TOML)


def plan(config: BuildConfig, names: list[str] | None = None) -> list[Stage]:
    """All enabled stages in build order, or those whose name (or family) is in ``names``.

    Raises ``ValueError`` for an unknown stage name.
    """
    all_stages: list[Stage] = []
    for mod_name in STAGE_MODULES:
        if not config.enabled(mod_name) and not (names and mod_name in names):
            continue
        mod = importlib.import_module(f"{__name__}.{mod_name}")
        all_stages.extend(mod.stages(config))
    if not names:
        return all_stages
    known = {s.name for s in all_stages} | set(STAGE_MODULES)
    for n in names:
        if n not in known:
            raise ValueError(f"unknown stage {n!r}; stages: {', '.join(STAGE_MODULES)}")
    return [s for s in all_stages if s.name in names or s.name.split(":")[0] in names]
