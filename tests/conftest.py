"""Shared fixtures: the suite runs against the default artifacts folder, building what is stale."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

#: Fixtures that build into the default artifacts folder (and wait on its build lock).
BUILDS = frozenset({"artifacts", "vp_artifacts"})
#: Fixtures that solve for tens of seconds in a folder of their own (a 100-variant sweep).
HEAVY = frozenset({"swept"})

ROOT = Path(__file__).resolve().parent.parent
#: Names a built artifacts folder to test against as it is, without building (development only).
FROZEN_ENV = "POKERTABLES_TEST_ARTIFACTS"


def _needs_build(item: pytest.Item) -> bool:
    return not BUILDS.isdisjoint(getattr(item, "fixturenames", ()))


def _full_tier_only(item: pytest.Item) -> bool:
    """Left out of ``make check``: needs the full build, a heavy fixture, or says so."""
    names = getattr(item, "fixturenames", ())
    return _needs_build(item) or not HEAVY.isdisjoint(names) or item.get_closest_marker("full_tier") is not None


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--no-artifacts", action="store_true",
                     help="leave out the tests that need the full default build or run for tens of "
                          "seconds (`make check`)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave out the tests that need the built artifacts under ``--no-artifacts``; then order
    the rest (below)."""
    if config.getoption("--no-artifacts"):
        dropped = [item for item in items if _full_tier_only(item)]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
            items[:] = [item for item in items if not _full_tier_only(item)]
    _order_for_the_build(items)


def _order_for_the_build(items: list[pytest.Item]) -> None:
    """Order test files so both xdist workers stay busy while the artifacts are built.

    The first worker to need the artifacts builds them under the build lock (minutes on a clean
    clone, mostly on one core); a worker that needs them meanwhile just waits. So the run starts
    with one file that needs them (its worker starts the build at once), then every file that
    needs none, then files that need them for some tests (those tests last within the file),
    then the rest; larger files first within each group, as xdist's own reordering would
    (switched off with ``--no-loadscope-reorder`` so this order holds).
    """
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::", 1)[0], []).append(item)
    for its in files.values():
        its.sort(key=_needs_build)  # stable: the file's own order within each part
    need = {f: sum(map(_needs_build, its)) for f, its in files.items()}
    builders = [f for f in files if need[f]]
    first = builders[:1]
    free = sorted((f for f in files if not need[f]), key=lambda f: -len(files[f]))
    mixed = sorted((f for f in builders[1:] if need[f] < len(files[f])),
                   key=lambda f: need[f] - len(files[f]))
    built = sorted((f for f in builders[1:] if need[f] == len(files[f])), key=lambda f: -len(files[f]))
    items[:] = [item for f in first + free + mixed + built for item in files[f]]


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """The repository's artifacts folder, built (incrementally) with the default config."""
    from pipeline.build.config import load_config
    from pipeline.build.runner import run_build

    given = os.environ.get(FROZEN_ENV)
    if given:
        # a development shortcut (never set by make or CI): while several people edit the
        # engine at once, every edit makes the heavy stages stale; test against a copy as it is
        return Path(given)
    cfg = load_config(ROOT / "configs" / "build.toml")
    run_build(cfg, wait=True)
    return cfg.artifacts


@pytest.fixture(scope="session")
def tables(artifacts: Path):
    """A :class:`pipeline.query.tables.Tables` over the built artifacts."""
    from pipeline.query.tables import Tables

    return Tables(artifacts)
