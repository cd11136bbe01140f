"""Build stages. Each module here is one stage (or one family of stages) and declares, through
:class:`Stage`, the artifacts it reads and writes and the config it depends on; the code in
its key is found by walking its module's imports (:mod:`pipeline.build.keys`).

Pipeline order (the folder listing reads the same way):

    five        -> five.h5, parquet/hand_classes, parquet/five_card_hands
    six         -> six.h5
    seven       -> seven.h5
    seven_parquet -> parquet/seven_card_hands/category=<n>/ (Hive-partitioned dataset)
    eval_tables -> eval_tables.h5 (the cache-resident evaluator's small tables)
    rules       -> rules/<name>/five.h5 (+ seven.h5) per known rule set (pipeline.registry)
    vp_classes  -> vp_classes.h5, parquet/vp_deal_classes
    paytable:*  -> paytables/<slug>.h5, parquet/paytables/paytable=<slug>/ (one per known paytable)
    vp_summary  -> parquet/paytable_summary
    casino:*    -> casino/<slug>.h5, parquet/casino/{return_tables,strategy}/game=<slug>/ (one per
                   known casino game; slow games only when named: ``on_request``)
    preflop     -> preflop.h5, parquet/preflop, preflop_equity.png (heads-up exact, 2-9 MC)
    preflop_matchups -> preflop_matchups.h5, parquet/preflop_matchups, preflop_matchups.png
    abstraction:* -> abstraction/<street>.h5, parquet/abstraction/<street>.parquet (off by default)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pipeline.build.config import STAGE_MODULES, BuildConfig
from pipeline.build.executor import Executor, LocalExecutor
from pipeline.errors import ConfigError, InputError


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
    sources: tuple[Path, ...] = ()        # other files it reads (e.g. a paytable TOML)
    #: the stage's module: the code in its key is this module's import graph (set by :func:`plan`)
    module: str = ""
    #: (seconds, bytes written) on the 2-core reference machine, for ``build --dry-run`` when
    #: this folder's manifest has no build of the stage yet (:mod:`pipeline.build.estimate`)
    estimate: tuple[float, int] | None = None
    #: built only when named in full (``pokertables build casino:<slug>``), never by a plain
    #: build or by its family's name: a stage that takes minutes where its siblings take seconds
    on_request: bool = False


def _check_sections(config: BuildConfig, modules: dict[str, Any]) -> None:
    """Reject config sections no stage owns and keys a stage does not take.

    A stage module's section is its ``SECTION`` (default: its name); its ``KEYS``, when it
    declares them, are the keys that section may hold.
    """
    where = config.path or "build config"
    owners = {getattr(mod, "SECTION", name): mod for name, mod in modules.items()}
    for section, values in config.sections.items():
        mod = owners.get(section)
        if mod is None:
            raise ConfigError(f"{where}: unknown section [{section}] (sections: {', '.join(owners)})")
        keys = getattr(mod, "KEYS", None)
        if keys is None:
            continue
        unknown = sorted(set(values) - set(keys) - {"enabled"})
        if unknown:
            raise ConfigError(f"{where}: [{section}] unknown key {unknown[0]!r} "
                              f"(keys: {', '.join(sorted(set(keys) | {'enabled'}))})")


def plan(config: BuildConfig, names: list[str] | None = None) -> list[Stage]:
    """All enabled stages in build order, or those whose name (or family) is in ``names``.

    Raises :class:`ConfigError` for a config section or key no stage takes and
    :class:`InputError` for an unknown stage name.
    """
    modules = {name: importlib.import_module(f"{__name__}.{name}") for name in STAGE_MODULES}
    _check_sections(config, modules)
    all_stages: list[Stage] = []
    for mod_name, mod in modules.items():
        on = config.enabled(getattr(mod, "SECTION", mod_name), getattr(mod, "ENABLED_BY_DEFAULT", True))
        named = bool(names) and any(n == mod_name or n.startswith(f"{mod_name}:") for n in names or ())
        if not on and not named:
            continue
        all_stages.extend(s if s.module else replace(s, module=mod.__name__) for s in mod.stages(config))
    if not names:
        return [s for s in all_stages if not s.on_request]
    known = {s.name for s in all_stages} | set(STAGE_MODULES)
    for n in names:
        if n not in known:
            raise InputError(f"unknown stage {n!r}; stages: {', '.join(STAGE_MODULES)}")
    return [s for s in all_stages
            if s.name in names or (s.name.split(":")[0] in names and not s.on_request)]
