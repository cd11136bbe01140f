"""A build's two lanes (issue 39, fresh-clone wall): the video-poker stages are computed in a
second process while the build process computes the rest; the build process still keys, hashes
and commits every stage, a stage waits for the stages writing its inputs whichever lane they ran
in, and a failure in either lane fails the build with that lane's error."""

from __future__ import annotations

import json
import multiprocessing
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from pipeline.build.config import BuildConfig, load_config
from pipeline.build.lanes import RUN_FIRST, SIDE_LANE, Compiled, family, run_order, side_lane, writers
from pipeline.build.runner import StageResult, run_build
from pipeline.build.stages import Context, Stage, plan
from pipeline.build.store import STAGING
from pipeline.errors import InputError
from pipeline.query.artifacts import MANIFEST
from pipeline.query.tables import Tables

ROOT = Path(__file__).resolve().parent.parent


def test_run_order_starts_what_warm_reads_and_never_a_reader_before_its_writer() -> None:
    stages = plan(load_config(ROOT / "configs" / "build.toml"))
    order = run_order(stages)
    assert sorted(s.name for s in order) == sorted(s.name for s in stages)
    first = [s.name for s in order][:7]
    assert first[:2] == ["seven", "eval_tables"] and {n.split(":")[0] for n in first[2:]} == {"rules"}
    at = {s.name: i for i, s in enumerate(order)}
    needs = writers(stages)
    assert needs["preflop"] == {"seven", "eval_tables"} and needs["vp_summary"] >= {"paytable:jacks-or-better-9-6"}
    for name, ws in needs.items():
        assert all(at[w] < at[name] for w in ws), name
    # the rest keeps the plan's order
    rest = [s.name for s in order if family(s) not in RUN_FIRST]
    assert rest == [s.name for s in stages if family(s) not in RUN_FIRST]
    # the side lane is the video-poker family, and it reads nothing the other lane writes
    side = {s.name for s in stages if side_lane(s)}
    assert {n.split(":")[0] for n in side} == set(SIDE_LANE)
    assert all(needs[n] <= side for n in side)


class _ThreadSide:
    """Stands in for the second process: runs each stage it gets on the calling (helper) thread,
    so a test's stages need not be importable by a fresh interpreter."""

    def __init__(self, config: BuildConfig, config_dirs: list[Path]) -> None:
        self.config = config

    def run(self, stage: Stage, staging: Path, progress: Any) -> Compiled:
        stage.run(Context(self.config.artifacts, self.config, progress, outputs=stage.outputs, staging=staging))
        return Compiled(1.5, {"fake.kernel": 2}, {"fake.kernel": 1.5})

    def stop(self) -> None:
        pass

    def close(self) -> None:
        pass


def _put(ctx: Context, rel: str, text: str) -> None:
    ctx.path(rel).parent.mkdir(parents=True, exist_ok=True)
    ctx.path(rel).write_text(text)


def _write(rel: str, text: str) -> Any:
    return lambda ctx: _put(ctx, rel, text)


@pytest.fixture
def lanes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Fake lanes: stages whose module is ``pipeline.errors`` run on the side; the log of
    (event, stage) in the order things happened."""
    import pipeline.build.runner as runner

    monkeypatch.setattr(runner, "SideProcess", _ThreadSide)
    monkeypatch.setattr(runner, "side_lane", lambda s: s.module == "pipeline.errors")
    return []


def test_a_side_stage_waits_for_its_input_from_the_other_lane(tmp_path: Path, lanes: list[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import pipeline.build.runner as runner

    folder = tmp_path / "art"
    seen: dict[str, Any] = {}

    def slow_main(ctx: Context) -> None:
        time.sleep(0.5)  # the side lane gets there first and must wait
        _put(ctx, "a.txt", "from the main lane\n")

    def side_reads(ctx: Context) -> None:
        seen["thread"] = threading.current_thread().name
        seen["in manifest"] = "a.txt" in json.loads((folder / MANIFEST).read_text())["files"]
        _put(ctx, "b.txt", ctx.path("a.txt").read_text().upper())

    stages = [Stage("a", ("a.txt",), slow_main, module="pipeline.version"),
              Stage("b", ("b.txt",), side_reads, inputs=("a.txt",), module="pipeline.errors"),
              Stage("c", ("c.txt",), _write("c.txt", "side\n"), module="pipeline.errors")]
    monkeypatch.setattr(runner, "plan", lambda config, names=None: stages)
    from pipeline.core.jit_clock import CompileClock

    clock = CompileClock()
    res = run_build(BuildConfig(root=tmp_path, artifacts=folder), lanes=True, clock=clock)
    assert [(r.name, r.status) for r in res] == [("a", "built"), ("b", "built"), ("c", "built")]
    assert seen == {"thread": "build-side", "in manifest": True}
    assert (folder / "b.txt").read_text() == "FROM THE MAIN LANE\n"
    # the side lane's compiling is added to the caller's clock (two side stages here)
    assert (clock.total, dict(clock.compiles)) == (3.0, {"fake.kernel": 4})
    manifest = json.loads((folder / MANIFEST).read_text())
    assert sorted(manifest["stages"]) == ["a", "b", "c"]
    again = run_build(BuildConfig(root=tmp_path, artifacts=folder), lanes=True)
    assert [r.status for r in again] == ["skipped"] * 3


def test_a_failing_side_stage_fails_the_build_and_stops_the_main_lane(
        tmp_path: Path, lanes: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import pipeline.build.runner as runner

    ran: list[str] = []
    started, failed = threading.Event(), threading.Event()

    def side_fails(ctx: Context) -> None:
        started.wait(5)  # fail while the main lane computes m1
        ran.append("bad")
        failed.set()
        raise InputError("paytable line 3: pays must be whole numbers, got 'x'")

    def main_slow(name: str) -> Any:
        def run(ctx: Context) -> None:
            ran.append(name)
            started.set()
            failed.wait(5)
            time.sleep(0.3)  # the side lane's error is recorded by now
            _put(ctx, f"{name}.txt", name)
        return run

    stages = [Stage("m1", ("m1.txt",), main_slow("m1"), module="pipeline.version"),
              Stage("m2", ("m2.txt",), main_slow("m2"), module="pipeline.version"),
              Stage("bad", ("bad.txt",), side_fails, module="pipeline.errors")]
    monkeypatch.setattr(runner, "plan", lambda config, names=None: stages)
    folder = tmp_path / "art"
    with pytest.raises(InputError, match="pays must be whole numbers"):
        run_build(BuildConfig(root=tmp_path, artifacts=folder), lanes=True)
    assert sorted(ran) == ["bad", "m1"]  # m1 was running; m2 never started
    manifest = json.loads((folder / MANIFEST).read_text())
    assert sorted(manifest["stages"]) == ["m1"]  # the finished stage is committed, the failed one not
    assert not (folder / "bad.txt").exists() and not (folder / STAGING).exists()


class _Watch:
    """A build display noting whether the build's second process was alive while a stage reported."""

    def __init__(self) -> None:
        self.side_alive = False
        self.started: list[str] = []

    def start(self, stage: Stage) -> None:
        self.started.append(stage.name)

    def update(self, text: str, fraction: float, stage: str = "") -> None:
        if any(p.name == "pokertables-build-side" for p in multiprocessing.active_children()):
            self.side_alive = True

    def finish(self, result: StageResult) -> None:
        pass


def test_two_processes_build_what_one_builds(tmp_path: Path) -> None:
    """The real second process: eval_tables here, vp_classes there; the second process's files
    are the same bytes as this process builds, and a second build finds both up to date.

    Only vp_classes is built again in this process for the comparison: eval_tables was built
    here in the two-lane build too, by the same code in the same process (2 CPU s more would
    compare this process with itself)."""
    cfg = load_config(ROOT / "configs" / "build.toml")
    names = ["vp_classes", "eval_tables"]
    watch = _Watch()
    two = run_build(BuildConfig(root=cfg.root, artifacts=tmp_path / "two", sections=cfg.sections),
                    names, lanes=True, progress=watch)
    one = run_build(BuildConfig(root=cfg.root, artifacts=tmp_path / "one", sections=cfg.sections),
                    ["vp_classes"])
    assert watch.side_alive and sorted(watch.started) == ["eval_tables", "vp_classes"]
    assert [r.status for r in two] == ["built", "built"] and [r.status for r in one] == ["built"]

    def sums(folder: Path) -> dict[str, str]:
        files = json.loads((folder / MANIFEST).read_text())["files"]
        return {rel: info["sha256"] for rel, info in files.items()}

    side = sums(tmp_path / "one")
    assert sorted(side) == ["parquet/vp_deal_classes.parquet", "vp_classes.h5"]
    assert sums(tmp_path / "two") == {**side, "eval_tables.h5": sums(tmp_path / "two")["eval_tables.h5"]}
    again = run_build(BuildConfig(root=cfg.root, artifacts=tmp_path / "two", sections=cfg.sections),
                      names, lanes=True)
    assert [r.status for r in again] == ["skipped", "skipped"]


def test_make_tables_starts_warm_once_the_tables_it_reads_are_built(tables: Tables,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The Makefile starts ``pokertables warm`` beside the build once ``WARM_READS`` exist: the
    build writes them first (:data:`RUN_FIRST`), and warm's questions read no other table but
    the two a question falls back to computing without, so the warm beside the build skips
    nothing and its last run has nothing to compile (issue 39)."""
    from pipeline.equity.warm import WARM_GROUPS, warm_here

    found = re.search(r"^WARM_READS := (.+)$", (ROOT / "Makefile").read_text(), re.M)
    assert found is not None
    reads = set(found.group(1).split())
    stages = plan(load_config(ROOT / "configs" / "build.toml"))
    writer = {out: s for s in stages for out in s.outputs}
    assert {family(writer[rel]) for rel in reads} <= set(RUN_FIRST)
    seen: list[str] = []
    real = Tables._file

    def noting(self: Tables, rel: str) -> Path:
        seen.append(rel)
        return real(self, rel)

    monkeypatch.setattr(Tables, "_file", noting)
    # the games' tables are kept per artifacts folder: a test before this one in the process may
    # have read them already, and warm would then open nothing for them
    from pipeline.equity.games import equity as games_equity
    for kept in (games_equity._short_deck, games_equity._razz, games_equity._omaha):
        kept.cache_clear()
    skipped, _, _, _ = warm_here(str(tables.path), [q for _, qs in WARM_GROUPS for q in qs])
    assert skipped == 0
    assert reads <= set(seen) and set(seen) - reads == {"preflop.h5", "preflop_matchups.h5"}
