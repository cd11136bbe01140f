"""The build configuration (``configs/build.toml``): which stages run and their settings.

Every key of every section is checked against :data:`SCHEMA` when the file is loaded, before
any work: an unknown key or an out-of-range value is a :class:`ConfigError` naming it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.core.constants import MAX_PLAYERS, MAX_SAMPLES, MAX_SEED
from pipeline.core.files import read_toml_file
from pipeline.errors import ConfigError, clip

DEFAULT_CONFIG = Path("configs/build.toml")
#: Stage modules (``pipeline.build.stages.<name>``) in build order, each also the name of its
#: config section; each exposes ``stages(config) -> list[Stage]``.
STAGE_MODULES = ("five", "six", "seven", "seven_parquet", "eval_tables", "rules", "vp_classes", "paytable",
                 "vp_summary", "casino", "preflop", "preflop_matchups", "abstraction")
#: the repository an editable install of the package lives in
PACKAGE_ROOT = Path(__file__).resolve().parents[2]
#: zstd's compression levels
ZSTD_LEVELS = (1, 22)
#: most Monte Carlo deals a preflop column may take (bounds the build's work)
MAX_PREFLOP_SAMPLES = MAX_SAMPLES
#: most histogram bins of the abstraction tables (a turn row is one byte per bin)
MAX_BINS = 1000
#: most buckets per street (bucket ids are uint16)
MAX_BUCKETS = 65_535
#: most clustering iterations
MAX_ITERATIONS = 1000
#: most opponent clusters of the river's OCHS figures (group labels are one byte)
MAX_OCHS_CLUSTERS = 169
#: most river classes the OCHS k-means iterates on (123,156,254: all of them)
MAX_RIVER_SAMPLE = 123_156_254
#: preflop seeds are offset per opponent count, so leave room below the uint64 limit
MAX_PREFLOP_SEED = MAX_SEED >> 2

Check = Callable[[Any], str | None]  # returns what is wrong, or None


def _bool(v: Any) -> str | None:
    return None if isinstance(v, bool) else "must be true or false"


def _int(lo: int, hi: int) -> Check:
    def check(v: Any) -> str | None:
        if isinstance(v, bool) or not isinstance(v, int):
            return f"must be an integer {lo}..{hi}"
        return None if lo <= v <= hi else f"must be {lo}..{hi}"
    return check


def _fraction(v: Any) -> str | None:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v < 1:
        return "must be a number between 0 and 1 (exclusive)"
    return None


def _names(v: Any) -> str | None:
    if not isinstance(v, list) or not all(isinstance(x, str) and 0 < len(x) <= 100 for x in v):
        return "must be a list of names, e.g. [\"short-deck\"]"
    return None


def _streets(v: Any) -> str | None:
    known = ("preflop", "flop", "turn", "river")
    if not isinstance(v, list) or not v or not all(isinstance(x, str) and x in known for x in v) \
            or len(set(v)) != len(v):
        return f"must be a non-empty list of distinct streets from {', '.join(known)}"
    return None


def _opponents(v: Any) -> str | None:
    hi = MAX_PLAYERS - 1
    if not isinstance(v, list) or not v or not all(type(x) is int and 2 <= x <= hi for x in v) \
            or len(set(v)) != len(v):
        return f"must be a non-empty list of distinct opponent counts 2..{hi}"
    return None


_TOGGLE: dict[str, Check] = {"enabled": _bool}
#: section -> key -> check. Sections of stages not listed here may only hold ``enabled`` checks
#: plus their own keys (a new stage adds its schema here).
SCHEMA: dict[str, dict[str, Check]] = {
    "five": _TOGGLE, "six": _TOGGLE, "seven": _TOGGLE, "vp_classes": _TOGGLE, "vp_summary": _TOGGLE,
    "seven_parquet": {**_TOGGLE, "zstd_level": _int(*ZSTD_LEVELS)},
    "rules": {**_TOGGLE, "sets": _names},
    "paytables": {**_TOGGLE, "slugs": _names},
    "casino": {**_TOGGLE, "slugs": _names, "on_request": _names},
    "preflop": {**_TOGGLE, "heads_up": _bool, "opponents": _opponents, "stderr_target": _fraction,
                "seed": _int(0, MAX_PREFLOP_SEED), "first_round": _int(1, MAX_PREFLOP_SAMPLES),
                "max_samples": _int(1, MAX_PREFLOP_SAMPLES)},
    "abstraction": {**_TOGGLE, "bins": _int(1, MAX_BINS), "streets": _streets,
                    "flop_buckets": _int(1, MAX_BUCKETS), "turn_buckets": _int(1, MAX_BUCKETS),
                    "river_buckets": _int(1, MAX_BUCKETS), "ochs_clusters": _int(1, MAX_OCHS_CLUSTERS),
                    "river_sample": _int(1, MAX_RIVER_SAMPLE),
                    "seed": _int(0, MAX_SEED), "iterations": _int(1, MAX_ITERATIONS)},
}


@dataclass(frozen=True)
class BuildConfig:
    """Parsed build settings; ``root`` is the folder the config's relative paths start from."""

    root: Path
    artifacts: Path
    sections: dict[str, dict[str, Any]] = field(default_factory=dict)
    path: Path | None = None    # the file it was read from (None: no file, all defaults)

    def section(self, name: str) -> dict[str, Any]:
        """The ``[name]`` table of the config (empty if absent)."""
        return dict(self.sections.get(name, {}))

    def enabled(self, name: str, default: bool = True) -> bool:
        """Whether stage ``name`` is switched on (``default`` when the config does not say)."""
        return bool(self.sections.get(name, {}).get("enabled", default))


def validate(data: dict[str, Any], where: str, root: Path) -> None:
    """Raise :class:`ConfigError` for the first unknown key or bad value of a build config."""
    for key, value in data.items():
        if key == "artifacts":
            if not isinstance(value, str) or not value.strip():
                raise ConfigError(f"{where}: artifacts must be a folder path, got {clip(value)}")
            continue
        if key not in SCHEMA and key not in STAGE_MODULES:
            known = ", ".join(["artifacts", *STAGE_MODULES])
            raise ConfigError(f"{where}: unknown key {clip(key)} (known: {known})")
        if not isinstance(value, dict):
            raise ConfigError(f"{where}: [{key}] must be a table, got {clip(value)}")
        schema = SCHEMA.get(key)
        for k, v in value.items():
            check = schema.get(k) if schema is not None else _TOGGLE.get(k)
            if check is None:
                if schema is None:
                    continue  # a stage without a schema here yet: its own code reads its keys
                raise ConfigError(f"{where}: [{key}] unknown key {clip(k)} (allowed: {', '.join(schema)})")
            wrong = check(v)
            if wrong:
                raise ConfigError(f"{where}: [{key}] {k} = {clip(v)}: {wrong}")
    pre = data.get("preflop", {})
    if pre.get("first_round", 1) > pre.get("max_samples", MAX_PREFLOP_SAMPLES):
        raise ConfigError(f"{where}: [preflop] first_round = {pre['first_round']} is more than "
                          f"max_samples = {pre['max_samples']}")


def _default_config(artifacts: Path | str | None) -> Path:
    """The config a build without ``--config`` uses: ``configs/build.toml`` of the current folder,
    else of the project whose artifacts folder is named, else of the repository this package was
    installed from; so ``pokertables -a /repo/artifacts build`` run from elsewhere plans exactly
    what ``make tables`` does (issue 20, item 12)."""
    candidates = [DEFAULT_CONFIG]
    if artifacts:
        candidates.append(Path(artifacts).resolve().parent / DEFAULT_CONFIG)
    candidates.append(PACKAGE_ROOT / DEFAULT_CONFIG)
    return next((c for c in candidates if c.is_file()), DEFAULT_CONFIG)


def load_config(path: Path | str | None = None, artifacts: Path | str | None = None) -> BuildConfig:
    """Read and validate a build config TOML; ``artifacts`` overrides its output folder.

    Raises :class:`ConfigError` naming the file for a missing, unreadable, malformed or
    out-of-range config.
    """
    p = Path(path) if path else _default_config(artifacts)
    if not p.exists() and not path:
        data: dict[str, Any] = {}
        root = Path.cwd()
        found: Path | None = None
    else:
        data = read_toml_file(p, "config file")
        root = p.resolve().parent.parent if p.resolve().parent.name == "configs" else p.resolve().parent
        validate(data, str(p), root)
        found = p
    out = Path(artifacts) if artifacts else root / data.get("artifacts", "artifacts")
    sections = {k: v for k, v in data.items() if isinstance(v, dict)}
    return BuildConfig(root=root, artifacts=out, sections=sections, path=found)
