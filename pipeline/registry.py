"""Where rule sets and paytables are found by name, from any folder.

The built-in files ship inside the package (``pipeline/data/rules/*.toml``,
``pipeline/data/paytables/*.toml``, the casino games' ``pipeline/data/casino/*.toml``). User
folders add to them and override a built-in of the same slug: folders given with
``--config-dir`` (see :func:`set_config_dirs`) come first, then those in the
``POKERTABLES_CONFIG`` environment variable (``os.pathsep``-separated). A user folder holds
``rules/<name>.toml``, ``paytables/<slug>.toml`` and/or ``casino/<slug>.toml``, like the
built-in one.

>>> "short-deck" in rule_set_names()
True
>>> paytable_path("jacks-or-better-9-6").name
'jacks-or-better-9-6.toml'
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from pipeline.errors import ConfigError, InputError

#: The package's own configs.
BUILTIN = Path(__file__).resolve().parent / "data"
#: Environment variable naming user config folders.
ENV_VAR = "POKERTABLES_CONFIG"
RULES = "rules"
PAYTABLES = "paytables"
CASINO = "casino"

_cli_dirs: list[Path] = []


def slugify(stem: str) -> str:
    """File stem -> slug: lower case, runs of other characters become '-'.

    >>> slugify("Jacks or Better 9_6")
    'jacks-or-better-9_6'
    """
    s = re.sub(r"[^a-z0-9_]+", "-", stem.lower()).strip("-")
    return s or "paytable"


def set_config_dirs(dirs: Sequence[str | os.PathLike[str]]) -> None:
    """Use these user config folders (highest priority first) besides ``POKERTABLES_CONFIG``."""
    _cli_dirs[:] = [Path(d) for d in dirs]
    for d in _cli_dirs:
        if not d.is_dir():
            raise InputError(f"config folder {d} does not exist")


def config_dirs() -> list[Path]:
    """User config folders in priority order: ``--config-dir`` ones, then ``POKERTABLES_CONFIG``."""
    env = [Path(p) for p in os.environ.get(ENV_VAR, "").split(os.pathsep) if p]
    return _cli_dirs + env


def search_path(kind: str) -> list[Path]:
    """Folders searched for ``kind`` (``rules`` or ``paytables``), highest priority first."""
    return [d / kind for d in config_dirs()] + [BUILTIN / kind]


def entries(kind: str) -> dict[str, Path]:
    """Every file of ``kind`` by slug; a user folder's file overrides a built-in of the same slug.

    Raises :class:`ConfigError` when two files in one folder give the same slug.
    """
    found: dict[str, Path] = {}
    for folder in reversed(search_path(kind)):
        if not folder.is_dir():
            continue
        here: dict[str, Path] = {}
        for p in sorted(folder.glob("*.toml")):
            slug = slugify(p.stem)
            if slug in here:
                raise ConfigError(f"{here[slug]} and {p} both give the slug {slug!r}; rename one")
            here[slug] = p
        found.update(here)
    return dict(sorted(found.items()))


def rule_set_names() -> list[str]:
    """Names of every known rule set (built-in and user)."""
    return list(entries(RULES))


def paytable_slugs() -> list[str]:
    """Slugs of every known paytable (built-in and user)."""
    return list(entries(PAYTABLES))


def _looks_like_path(text: str) -> bool:
    return text.endswith(".toml") or "/" in text or os.sep in text


def rules_path(name: str) -> Path:
    """The TOML file of a rule set given by name; :class:`InputError` lists the known ones."""
    path = entries(RULES).get(slugify(name)) if name.strip() else None
    if path is None:
        raise InputError(f"unknown rule set {name!r}; known: {', '.join(rule_set_names())}")
    return path


def paytable_path(slug_or_path: str | os.PathLike[str]) -> Path:
    """The TOML file of a paytable given by slug (``jacks-or-better-9-6``) or by file path.

    A text ending in ``.toml`` or holding a path separator is a path (it must exist); any other
    text is a slug. :class:`InputError` names the missing file or lists the known slugs.
    """
    text = os.fspath(slug_or_path)
    if isinstance(slug_or_path, os.PathLike) or _looks_like_path(text):
        p = Path(text)
        if not p.exists():
            raise InputError(f"paytable file {p} does not exist")
        return p
    path = entries(PAYTABLES).get(slugify(text)) if text.strip() else None
    if path is None:
        raise InputError(f"unknown paytable {text!r}; known: {', '.join(paytable_slugs())} "
                         "(or give a path to a .toml file)")
    return path


__all__ = ["BUILTIN", "ENV_VAR", "RULES", "PAYTABLES", "CASINO", "slugify", "set_config_dirs", "config_dirs",
           "search_path", "entries", "rule_set_names", "paytable_slugs", "rules_path", "paytable_path"]
