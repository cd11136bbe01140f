"""Shared fixtures: the suite runs against the default artifacts folder, building what is stale."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """The repository's artifacts folder, built (incrementally) with the default config."""
    from pipeline.build.config import load_config
    from pipeline.build.runner import run_build

    cfg = load_config(ROOT / "configs" / "build.toml")
    run_build(cfg, wait=True)
    return cfg.artifacts


@pytest.fixture(scope="session")
def tables(artifacts: Path):
    """A :class:`pipeline.query.tables.Tables` over the built artifacts."""
    from pipeline.query.tables import Tables

    return Tables(artifacts)
