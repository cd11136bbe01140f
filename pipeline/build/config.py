"""The build configuration (``configs/build.toml``): which stages run and their settings.

Each ``[section]`` belongs to one stage module (:mod:`pipeline.build.stages`), which checks its
keys; an unknown top-level key is rejected here.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.errors import ConfigError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DEFAULT_CONFIG = Path("configs/build.toml")
#: keys allowed at the top of the file (everything else is a ``[section]``)
TOP_KEYS = ("artifacts",)


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

    def enabled(self, name: str) -> bool:
        """Whether stage ``name`` is switched on (default on)."""
        return bool(self.sections.get(name, {}).get("enabled", True))


def load_config(path: Path | str | None = None, artifacts: Path | str | None = None) -> BuildConfig:
    """Read a build config TOML; ``artifacts`` overrides its output folder.

    Raises :class:`ConfigError` naming the file for malformed TOML or an unknown top-level key.
    """
    p = Path(path) if path else DEFAULT_CONFIG
    if not p.exists():
        if path:
            raise ConfigError(f"config file {p} does not exist")
        data: dict[str, Any] = {}
        root = Path.cwd()
        found: Path | None = None
    else:
        try:
            data = tomllib.loads(p.read_text())
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{p}: malformed TOML: {exc}") from None
        root = p.resolve().parent.parent if p.resolve().parent.name == "configs" else p.resolve().parent
        found = p
    unknown = sorted(k for k, v in data.items() if not isinstance(v, dict) and k not in TOP_KEYS)
    if unknown:
        raise ConfigError(f"{p}: unknown key {unknown[0]!r} (top-level keys: {', '.join(TOP_KEYS)}; "
                          "stage settings go in [sections])")
    out = Path(artifacts) if artifacts else root / data.get("artifacts", "artifacts")
    sections = {k: v for k, v in data.items() if isinstance(v, dict)}
    return BuildConfig(root=root, artifacts=out, sections=sections, path=found)
