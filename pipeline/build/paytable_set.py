"""Which paytables a build config builds, and the artifact paths of each (shared by the
``paytable:<slug>`` stages and the ``vp_summary`` stage that gathers them)."""

from __future__ import annotations

from pathlib import Path

from pipeline.build.config import BuildConfig
from pipeline.errors import ConfigError
from pipeline.registry import PAYTABLES, entries


def paytable_files(config: BuildConfig) -> list[tuple[str, Path]]:
    """``(slug, path)`` of every paytable to build, sorted by slug.

    Raises :class:`ConfigError` when two files in one folder give the same slug or for an unknown
    slug in ``slugs``.
    """
    section = config.section("paytables")
    if not section.get("enabled", True):
        return []
    known = entries(PAYTABLES)
    if "slugs" not in section:
        return list(known.items())
    for slug in section["slugs"]:
        if slug not in known:
            raise ConfigError(f"{config.path or 'build config'}: [paytables] slugs: unknown paytable "
                              f"{slug!r}; known: {', '.join(known)}")
    return sorted((str(s), known[s]) for s in section["slugs"])


def outputs_for(slug: str) -> tuple[str, str]:
    """Artifact paths (relative to artifacts/) written by ``paytable:<slug>``."""
    return (f"paytables/{slug}.h5", f"parquet/paytables/paytable={slug}/part-0.parquet")
