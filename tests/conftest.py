"""Shared fixtures: the suite builds the default artifacts into a folder of its own
(``.test-artifacts/``, git-ignored and kept between runs), linking from ``artifacts/`` every
stage already built there with the same key, so after ``make tables`` the suite builds nothing
and it never writes into the repository's ``artifacts/``."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# A shell that sets PYTHONDONTWRITEBYTECODE (the Makefile unexports it) would make this run and
# every CLI subprocess a test starts recompile the ~400 modules they import, a second or more
# each time, hundreds of times: let Python cache bytecode whoever starts pytest.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# one BLAS thread in this process and every command a test starts, as the CLI itself sets
# (pipeline.cli): each worker already has a core to itself, and an idle BLAS thread spinning
# on the other core at each numpy import costs about 0.1 s of CPU there, per process
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# pipeline names numba's cache folder by its sources' digest (pipeline.core.kernel_cache) when
# it is imported: first, before a test module imports numba
import pipeline  # noqa: E402, F401

#: Fixtures that build the default artifacts (and wait on the build lock).
BUILDS = frozenset({"artifacts", "built_here"})
#: Fixtures that solve for tens of seconds in a folder of their own (a 100-variant sweep).
HEAVY = frozenset({"swept"})

ROOT = Path(__file__).resolve().parent.parent
#: where the suite builds the default artifacts: persistent, so an unchanged build costs nothing
TEST_ARTIFACTS = ROOT / ".test-artifacts"
#: the build config ``make tables`` uses: its artifacts folder's up-to-date stages are hard-linked
CONFIG = ROOT / "configs" / "build.toml"
#: Names a built artifacts folder to test against as it is, without building (development only).
FROZEN_ENV = "POKERTABLES_TEST_ARTIFACTS"


#: Files that run for 20 s or more once the artifacts exist (clean clone, 2 cores): the groups
#: of files that wait for the build start with them, so no long file is left for the end of the
#: run while the other worker has nothing left to do. An ordering hint only: a stale entry costs
#: seconds, never a result.
LONG_FILES = frozenset({"test_dask.py", "test_docs.py", "test_browser.py", "test_games_equity.py",
                        "test_abstraction_strength.py", "test_bucket_file.py", "test_sweep.py"})


#: Files whose tests share a session fixture that costs seconds to set up (the browser and its
#: server; the preflop abstraction build), by the file they run beside: ``--dist loadfile``
#: gives each such group to one xdist worker (:func:`pytest_xdist_make_scheduler`), so the
#: fixture is set up once per run, not once per file and worker.
SHARED_WITH = {"test_browser_equity.py": "test_browser.py", "test_browser_vp.py": "test_browser.py",
               "test_browser_newcomer.py": "test_browser.py",
               # the preflop abstraction build and its pass over every board (full_pass.py)
               "test_abstraction_stage.py": "test_bucket_file.py",
               "test_abstraction_strength.py": "test_bucket_file.py",
               # the bounds-checked tier's child runs beside the browser files (tests/bounds_tier.py)
               "test_wild.py": "test_browser.py"}


def _scope_file(path: str) -> str:
    """The test file whose xdist work unit ``path`` (a test file's node id) joins."""
    name = Path(path).name
    return str(Path(path).with_name(SHARED_WITH[name])) if name in SHARED_WITH else path


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """``--dist loadfile``, one work unit per file except the :data:`SHARED_WITH` groups."""
    if config.getoption("dist", None) != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class GroupedFiles(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _scope_file(super()._split_scope(nodeid))

    return GroupedFiles(config, log)  # type: ignore[arg-type]


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


def _beside(item: pytest.Item) -> bool:
    return item.get_closest_marker("beside_browser") is not None


def _order_for_the_build(items: list[pytest.Item]) -> None:
    """Order test files so both xdist workers stay busy while the artifacts are built.

    The first worker to need the artifacts builds them under the build lock (minutes on a clean
    clone, mostly on one core); a worker that needs them meanwhile just waits. So the run starts
    with one file that needs them (its worker starts the build at once), then every file that
    needs none, then files that need them for some tests (those tests last within the file),
    then the rest; larger files first within each group, as xdist's own reordering would
    (switched off with ``--no-loadscope-reorder`` so this order holds), and the
    :data:`LONG_FILES` ahead of the last two groups. A :data:`SHARED_WITH` group counts as one
    file; a ``beside_browser`` test comes last in its group (it collects the child run the
    browser files' server fixture started: tests/bounds_tier.py).
    """
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(_scope_file(item.nodeid.split("::", 1)[0]), []).append(item)
    for its in files.values():
        its.sort(key=lambda item: (_beside(item), _needs_build(item)))  # stable otherwise
    need = {f: sum(map(_needs_build, its)) for f, its in files.items()}
    builders = [f for f in files if need[f]]
    first = builders[:1]
    rest = [f for f in files if f not in first]
    free = sorted((f for f in rest if not need[f]), key=lambda f: -len(files[f]))
    mixed = sorted((f for f in rest if need[f] and need[f] < len(files[f])),
                   key=lambda f: need[f] - len(files[f]))
    built = sorted((f for f in rest if need[f] and need[f] == len(files[f])), key=lambda f: -len(files[f]))
    after = sorted(mixed + built, key=lambda f: Path(f).name not in LONG_FILES)  # stable
    items[:] = [item for f in first + free + after for item in files[f]]


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """The default build in :data:`TEST_ARTIFACTS`, brought up to date once per session."""
    from pipeline.build.config import load_config
    from pipeline.build.runner import run_build

    given = os.environ.get(FROZEN_ENV)
    if given:
        # a development shortcut (never set by make or CI): while several people edit the
        # engine at once, every edit makes the heavy stages stale; test against a copy as it is
        return Path(given)
    from pipeline.build.locks import build_lock
    from pipeline.equity.warm import warm

    cfg = load_config(CONFIG, TEST_ARTIFACTS)
    # both workers call this: the second waits on the lock, then finds everything up to date
    run_build(cfg, wait=True, reuse=load_config(CONFIG).artifacts)
    # then, as `make tables` does, compile the query kernels once on both cores (numba's cache is
    # shared), rather than each on demand by the first test that asks, sometimes by both
    # workers at once; the second worker waits on the lock and finds warm's stamp
    with build_lock(cfg.artifacts, wait=True):
        warm(cfg.artifacts)
    return cfg.artifacts


@pytest.fixture(scope="session")
def built_here(artifacts: Path) -> Path:
    """:func:`artifacts`, for a test that runs a build in it: skipped when the session tests a
    frozen copy (:data:`FROZEN_ENV`), which is used as it is and never built."""
    if os.environ.get(FROZEN_ENV):
        pytest.skip(f"{FROZEN_ENV} names a frozen copy, which a test must not build")
    return artifacts


@pytest.fixture(scope="session")
def page_server(artifacts: Path, request: pytest.FixtureRequest,
                tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real server (``create_app`` on uvicorn) on a free loopback port, once per session for
    the browser files (:data:`SHARED_WITH`): its address. When this process also runs the
    bounds-checked tier (scheduled last in the browser files' group), its child starts now, at
    a lower priority, in the time the pages leave a core idle (tests/bounds_tier.py)."""
    import bounds_tier
    from serve_harness import running_server

    if (os.environ.get(bounds_tier.CHILD) != "1"
            and request.config.getoption("dist", "no") in ("no", "loadfile")
            and any(item.name == bounds_tier.TEST_NAME for item in request.session.items)):
        bounds_tier.start(tmp_path_factory.mktemp("bounds-tier"))
    try:
        with running_server(artifacts) as client:
            yield f"http://{client.host}:{client.port}"
    finally:
        bounds_tier.stop()


@pytest.fixture(scope="session")
def chromium() -> Iterator[object]:
    """Headless Debian chromium with a fresh profile, once per session for the browser files
    (:func:`test_browser.start_chromium`; requested only where that file found a browser)."""
    from test_browser import start_chromium

    with start_chromium() as d:
        yield d


@pytest.fixture(scope="session")
def tables(artifacts: Path):
    """A :class:`pipeline.query.tables.Tables` over the built artifacts."""
    from pipeline.query.tables import Tables

    return Tables(artifacts)


def abstraction_config(folder: Path, where: Path) -> Path:
    """The build config of :func:`preflop_abstraction` (written outside the folder, which holds
    only what the build wrote, so `verify` finds no stray file)."""
    cfg = where / "build.toml"
    cfg.write_text(f'artifacts = "{folder}"\n[abstraction]\nstreets = ["preflop"]\n')
    return cfg


@pytest.fixture(scope="session")
def preflop_abstraction(artifacts: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the session's seven.h5 and eval_tables.h5 (hard links) and the preflop
    abstraction tables built in it (the smallest street, yet 20-30 s on a clean clone: a pass
    over every river board, and its kernels compile), once per run for every test that reads
    them (none writes in it).

    Built in this process, with the pass recorded (:mod:`full_pass`) for :func:`full_pass`. The
    files that use it run on one xdist worker (:data:`SHARED_WITH`); under another scheduling
    the first worker builds it under a lock in the run's shared temporary folder, the other
    waits and reads the same folder."""
    import fcntl

    from built_copy import copy_built
    from full_pass import recording

    import pipeline.build.stages.abstraction as stage
    from pipeline.build.config import load_config
    from pipeline.build.runner import run_build

    # an xdist worker's base folder is <run>/popen-gwN: <run> is shared by the run's workers
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    folder, done = shared / "preflop-abstraction", shared / "preflop-abstraction.done"
    with open(shared / "preflop-abstraction.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not done.is_file():
            folder.mkdir(exist_ok=True)
            copy_built(artifacts, folder, ("seven.h5", "eval_tables.h5"), ("seven", "eval_tables"), link=True)
            cfg = abstraction_config(folder, tmp_path_factory.mktemp("abstraction-config"))
            with pytest.MonkeyPatch.context() as mp:
                mp.setattr(stage, "river_and_preflop", recording(stage.river_and_preflop))
                results = run_build(load_config(cfg), ["abstraction"])
            assert {r.name: r.status for r in results} == {"abstraction:preflop": "built"}, results
            done.touch()
    return folder


@pytest.fixture(scope="session")
def full_pass(preflop_abstraction: Path, artifacts: Path) -> object:
    """:class:`full_pass.FullPass` of the pass over every river board: the preflop abstraction
    build's (when this process built it), else one made now (23 CPU s)."""
    import h5py
    from full_pass import RECORDED, FullPass

    from pipeline.abstraction.strength import river_and_preflop
    from pipeline.query.artifacts import map_dataset

    with h5py.File(preflop_abstraction / "abstraction" / "preflop.h5", "r") as f:
        bins = int(f.attrs["bins"])
    if RECORDED:
        assert RECORDED[-1].bins == bins
        return RECORDED[-1]
    # memory-mapped read-only, as the build reads it: the build's specialization of the kernel
    return FullPass.of(bins, *river_and_preflop(map_dataset(artifacts / "seven.h5", "score"), bins))
