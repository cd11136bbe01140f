"""Builds through a real Dask cluster (scheduler + two worker processes) are byte-identical to
local builds; a worker killed mid-build changes nothing (Dask re-runs its tasks)."""

from __future__ import annotations

import gc
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from built_copy import DEAL_CLASSES, copy_built
from cli_runner import one_error_line, run_main

pytest.importorskip("distributed")

import pipeline.build.stages.preflop as preflop_stage
from pipeline.build.config import load_config
from pipeline.build.executor import DaskExecutor, LocalExecutor
from pipeline.build.runner import run_build
from pipeline.build.stages import plan
from pipeline.build.store import STAGING

ROOT = Path(__file__).resolve().parent.parent
PAYTABLES = ("jacks-or-better-9-6.toml", "jacks-or-better-8-5.toml")
# a reduced preflop: two opponent counts, two Monte Carlo rounds of 64 chunks each. A stage
# without a section is enabled, so every stage not built here is switched off by name: a stage
# added later (like eval_tables and preflop_matchups, whose full 1326 x 1326 enumeration took
# minutes twice per run) must not slip in; ``STAGES`` is checked against the plan.
CONFIG = """artifacts = "art"
[five]
enabled = false
[six]
enabled = false
[seven]
enabled = false
[seven_parquet]
enabled = false
[eval_tables]
enabled = false
[preflop_matchups]
enabled = false
[casino]
enabled = false
[rules]
sets = ["short-deck"]
[vp_classes]
enabled = false
[paytables]
slugs = ["jacks-or-better-9-6", "jacks-or-better-8-5"]
[vp_summary]
[preflop]
opponents = [2, 3]
stderr_target = 0.0001
seed = 7
first_round = 6400
max_samples = 12800
"""
STAGES = {"rules:short-deck", "paytable:jacks-or-better-9-6", "paytable:jacks-or-better-8-5",
          "vp_summary", "preflop"}


def _config(tmp: Path, artifacts: Path) -> Path:
    """A tmp build config; seven.h5 and eval_tables.h5 (inputs) link to the default build's, and
    its deal classes are hard-linked with their manifest record (so a paytable stage's key,
    which covers that input, is the default build's)."""
    cfgdir = tmp / "configs"
    cfgdir.mkdir(parents=True, exist_ok=True)
    (cfgdir / "build.toml").write_text(CONFIG)
    art = tmp / "art"
    art.mkdir(exist_ok=True)
    for name in ("seven.h5", "eval_tables.h5"):
        if not (art / name).exists():
            (art / name).symlink_to(artifacts / name)
    if not (art / "manifest.json").exists():
        copy_built(artifacts, art, DEAL_CLASSES, ("vp_classes",), link=True)
    return cfgdir / "build.toml"


def _digests(folder: Path) -> dict[str, str]:
    """sha256 of every built file (the manifest's own timings differ, so not the manifest)."""
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_file() and not p.is_symlink() and p.name not in ("manifest.json", ".build.lock", ".commit.lock"):
            out[str(p.relative_to(folder))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


#: stages of the test build whose key equals the default build's (same settings and inputs):
#: the local build takes their files from the suite's build, which made them locally with the
#: local executor; the Dask build makes them again on the workers
SHARED = {"rules:short-deck", "paytable:jacks-or-better-9-6", "paytable:jacks-or-better-8-5"}
#: seconds the killed-worker build's heads-up task sleeps (the real pass: ~7 s on one core)
HEADS_UP_HOLD = 5.0


def _stored_heads_up(artifacts: Path, hold: float = 0.0) -> Callable[..., tuple[np.ndarray, int]]:
    """A stand-in for the preflop stage's ``heads_up_task`` that returns the session build's
    counts (``preflop.h5``), after ``hold`` seconds asleep: the exact heads-up pass has no
    setting and reads only seven.h5, so that build, local too, computed the very task this one
    would (7-8 CPU s again). Named as the task it stands for, and pickled by value (a closure)
    when a Dask worker runs it."""
    import h5py

    with h5py.File(artifacts / "preflop.h5", "r") as f:
        hu = np.stack([f["heads_up"][k][:] for k in ("win", "tie", "lose")], axis=1).astype(np.int64)

    def heads_up_task(table7: np.ndarray | None = None) -> tuple[np.ndarray, int]:
        time.sleep(hold)
        return hu.copy(), os.getpid()

    return heads_up_task


@pytest.fixture(scope="module")
def local_build(artifacts: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Digests of the test build made locally (the reference the Dask builds must equal): the
    :data:`SHARED` stages linked from the session's build, the rest built here, the preflop
    stage's heads-up pass taken from the session's build (:func:`_stored_heads_up`)."""
    tmp = tmp_path_factory.mktemp("local")
    cfg = load_config(_config(tmp, artifacts))
    planned = {s.name for s in plan(cfg)}
    assert planned == STAGES, f"the test build must stay small; unexpected stages: {planned - STAGES}"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(preflop_stage, "heads_up_task", _stored_heads_up(artifacts))
        res = run_build(cfg, executor=LocalExecutor(), reuse=artifacts)
    status = {r.name: r.status for r in res}
    assert status == {n: "linked" if n in SHARED else "built" for n in STAGES}, status
    return _digests(cfg.artifacts)


@pytest.fixture(scope="module")
def cluster():  # type: ignore[no-untyped-def]
    from distributed import LocalCluster

    # one numba thread per worker process, as `--workers N` starts them
    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None,
                      env={"NUMBA_NUM_THREADS": "1"}) as c:
        yield c


# First of the tests that need the build (their order here is their run order): its
# subprocess compiles the sweep's solver specialization (4-5 CPU s) that tests/test_sweep.py,
# scheduled at about the same time on the other worker, compiled at the same moment in two
# profiled clean-clone runs; this early it starts some 30-40 s before that file, so the later
# one loads it from numba's cache. An ordering hint only: a collision costs seconds.
def test_default_build_and_sweep_never_import_dask(artifacts: Path, tmp_path: Path) -> None:
    # the build runs a stage's task through the local executor (the rule set's tables: a
    # second of work, where a paytable's solve, chart and bankroll figures took several)
    cfg = _config(tmp_path, artifacts)
    sweep = tmp_path / "configs" / "sweeps" / "tiny.toml"
    sweep.parent.mkdir()
    sweep.write_text('base = "jacks-or-better-9-6"\n[pays]\n"flush" = { values = [5, 6] }\n')
    code = (
        "import sys\n"
        "from pipeline.cli import main\n"
        "for args in (['build', 'rules:short-deck', '--config', sys.argv[1], '--json'],\n"
        "             ['--artifacts', sys.argv[2], 'vp', 'sweep', sys.argv[3], '--json']):\n"
        "    try:\n"
        "        main(args)\n"
        "    except SystemExit as e:\n"
        "        assert not e.code, e.code\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))\n")
    # the sweep in a folder of its own, without built deal classes: it derives them, read-only,
    # as tests/test_sweep.py's sweeps do, so it runs the solver's specialization they compile (a
    # writable deal array from vp_classes.h5 is another numba type: 5 CPU s compiled for this alone)
    out = subprocess.run([sys.executable, "-c", code, str(cfg), str(tmp_path / "sweep-art"), str(sweep)],
                         capture_output=True, text=True, check=True, cwd=tmp_path)
    lines = out.stdout.strip().splitlines()
    assert json.loads(lines[0])["executor"] == "local"
    assert json.loads(lines[1])["variants"] == 2
    assert lines[-1] == "[]"


def test_dask_build_is_byte_identical_and_uses_both_workers(cluster, local_build: dict[str, str],  # type: ignore[no-untyped-def]
                                                            artifacts: Path, tmp_path: Path) -> None:
    from distributed import get_task_stream

    cfg = load_config(_config(tmp_path, artifacts))
    ex = DaskExecutor(scheduler=cluster.scheduler_address)
    try:
        with get_task_stream(ex.client) as ts:
            res = run_build(cfg, executor=ex)
        pids = ex.client.run(os.getpid)
    finally:
        ex.close()
    assert {r.status for r in res} == {"built"}
    got = _digests(cfg.artifacts)
    assert set(local_build) >= {"preflop.h5", "paytables/jacks-or-better-9-6.h5",
                                "parquet/paytables/paytable=jacks-or-better-8-5/part-0.parquet",
                                "rules/short-deck/seven.h5", "parquet/paytable_summary.parquet"}
    assert got == local_build
    # the tasks ran in both worker processes: the task stream names the worker of each task
    by_worker: dict[str, set[str]] = {}
    for t in ts.data:
        key = t["key"][0] if isinstance(t["key"], tuple) else t["key"]
        by_worker.setdefault(t["worker"], set()).add(str(key).split("-", 1)[0])  # fn-<uuid>
    assert set(by_worker) == set(pids) and len(set(pids.values())) == 2
    kinds = set().union(*by_worker.values())
    assert {"solve_task", "mc_task", "heads_up_task", "tables_task"} <= kinds
    assert all(any(k in ("mc_task", "solve_task") for k in ks) for ks in by_worker.values())


def test_killed_worker_build_still_identical(cluster, local_build: dict[str, str],  # type: ignore[no-untyped-def]
                                            artifacts: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker killed while it runs Monte Carlo tasks: the preflop files are still the local
    build's. The kill spares the heads-up pass (the test above proves the workers compute it
    as a local build does), so here its task returns the session's counts; it still keeps the
    build open for seconds, as the real pass does, so the kill lands mid-build (the Monte Carlo
    rounds of this small build take well under a second)."""
    monkeypatch.setattr(preflop_stage, "heads_up_task", _stored_heads_up(artifacts, hold=HEADS_UP_HOLD))
    cfg = load_config(_config(tmp_path, artifacts))
    ex = DaskExecutor(scheduler=cluster.scheduler_address)
    killed: list[int] = []
    errors: list[BaseException] = []

    def build() -> None:
        try:
            run_build(cfg, ["preflop"], executor=ex)
        except BaseException as exc:  # noqa: BLE001  (reported by the test thread)
            errors.append(exc)

    try:
        pids = ex.client.run(os.getpid)
        t = threading.Thread(target=build)
        t.start()
        deadline = time.monotonic() + 120
        while not killed and time.monotonic() < deadline and t.is_alive():
            busy = {w: ks for w, ks in ex.client.processing().items()
                    if any("mc_task" in str(k) for k in ks)}
            if busy:
                # a worker not holding the exact heads-up pass when there is one: killing that
                # one would redo seconds of enumeration, and any worker's lost tasks prove it
                victim = min(busy, key=lambda w: (any("heads_up_task" in str(k) for k in busy[w]), w))
                time.sleep(0.5)  # well inside a running Monte Carlo task
                os.kill(pids[victim], signal.SIGKILL)
                killed.append(pids[victim])
            time.sleep(0.05)
        t.join(timeout=300)
    finally:
        ex.close()
    assert killed, "no Monte Carlo task was seen running"
    assert not errors, errors
    got = _digests(cfg.artifacts)
    want = {k: v for k, v in local_build.items() if k.startswith("preflop") or "parquet/preflop" in k}
    assert {k: v for k, v in got.items() if k in want} == want and len(want) == 3
    assert not (cfg.artifacts / STAGING).exists()


@pytest.mark.parametrize("kind,scheduler,workers,msg", [
    ("bogus", None, None, "unknown executor 'bogus'"),
    ("local", None, 2, "--scheduler and --workers need --executor dask"),
    ("dask", "tcp://127.0.0.1:8786", 2, "either --scheduler"),
    ("dask", None, 0, "--workers must be 1 .. 64, got '0'"),
    ("dask", None, 100_000, "--workers must be 1 .. 64, got '100000'"),
    ("dask", "", None, "--scheduler is empty"),
    ("dask", "  ", None, "--scheduler is empty"),
])
def test_bad_executor_options(kind: str, scheduler: str | None, workers: int | None, msg: str) -> None:
    from pipeline.build.executor import make_executor
    from pipeline.errors import InputError

    with pytest.raises(InputError, match=re.escape(msg)):
        make_executor(kind, scheduler, workers)


def test_malformed_scheduler_is_an_input_error() -> None:
    from pipeline.build.executor import make_executor
    from pipeline.errors import InputError

    with pytest.raises(InputError, match="is not a scheduler address"):
        make_executor("dask", "notaurl", None)
    gc.collect()  # finalise the half-made Client now, not inside a later test's cluster start


def test_scheduler_without_workers_is_one_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from distributed import LocalCluster

    import pipeline.build.executor as ex
    from pipeline.errors import BuildError

    monkeypatch.setattr(ex, "WORKER_WAIT_S", 2)
    # a Client left for the garbage collector by an earlier test (a failed connection) must not
    # be finalised while this in-process cluster starts its loop: distributed deadlocks there
    gc.collect()
    with LocalCluster(n_workers=0, processes=False, dashboard_address=None) as empty:
        t0 = time.perf_counter()
        with pytest.raises(BuildError, match="has no workers after 2 s"):
            ex.make_executor("dask", empty.scheduler_address, None)
        assert time.perf_counter() - t0 < 15


def test_workers_running_other_code_are_refused(cluster) -> None:  # type: ignore[no-untyped-def]
    """Item 6: the client compares every worker's code digest with its own, at connect and in
    every task; here the client's digest is made to differ (as after an edit on one side)."""
    from pipeline.build.executor import code_digest
    from pipeline.errors import BuildError

    with DaskExecutor(scheduler=cluster.scheduler_address) as ex:
        assert set(ex.client.run(code_digest).values()) == {code_digest()}  # same code: accepted
        assert ex.submit(int, "7").result() == 7
        ex._digest = "0" * 64
        with pytest.raises(BuildError, match="runs other pokertables code"):
            ex._check_workers()
        with pytest.raises(BuildError, match="runs other pokertables code"):
            ex.submit(int, "7").result()


def test_lost_cluster_is_one_build_error() -> None:
    """A scheduler killed while a task runs: one BuildError, not a traceback."""
    from distributed import LocalCluster

    from pipeline.errors import BuildError

    lc = LocalCluster(n_workers=1, processes=True, threads_per_worker=1, dashboard_address=None)
    ex = DaskExecutor(scheduler=lc.scheduler_address)
    handle = ex.submit(time.sleep, 30)
    time.sleep(1)
    t0 = time.perf_counter()
    lc.close()
    with pytest.raises(BuildError, match="Dask cluster failed"):
        handle.result()
    assert time.perf_counter() - t0 < 60
    ex.client.close(timeout=5)
    gc.collect()


def test_all_workers_lost_is_one_build_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 17: the only worker (no nanny to restart it) is killed while its task runs. The
    scheduler then keeps the task waiting for a worker forever; the client must notice the
    empty cluster and give one BuildError after NO_WORKERS_S, not wait on the result forever."""
    from distributed import LocalCluster

    import pipeline.build.executor as ex
    from pipeline.errors import BuildError

    monkeypatch.setattr(ex, "NO_WORKERS_S", 2)
    gc.collect()  # see test_scheduler_without_workers_is_one_error
    with LocalCluster(n_workers=0, processes=False, protocol="tcp", host="127.0.0.1",
                      dashboard_address=None) as sched:
        addr = sched.scheduler_address
        worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", addr,
                                   "--no-nanny", "--nthreads", "1", "--no-dashboard"],
                                  cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            dask = ex.make_executor("dask", addr, None)
            assert isinstance(dask, ex.DaskExecutor)
            try:
                handle = dask.submit(time.sleep, 120)
                deadline = time.monotonic() + 60
                while not any(dask.client.processing().values()) and time.monotonic() < deadline:
                    time.sleep(0.1)
                assert any(dask.client.processing().values()), "the task never started"
                time.sleep(0.5)  # inside the running task
                worker.kill()
                worker.wait(timeout=30)
                t0 = time.monotonic()
                with pytest.raises(BuildError, match="has had no workers for 2 s") as err:
                    handle.result()
                took = time.monotonic() - t0
                assert 2 <= took < 30, took
                assert "\n" not in str(err.value) and "--executor local" in str(err.value)
            finally:
                dask.close()
        finally:
            if worker.poll() is None:
                worker.kill()
                worker.wait()
    gc.collect()


def test_unreachable_scheduler_is_one_quick_cli_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Nothing listens on port 1: one error line, exit 2, after the short connect timeout (not
    the 20 s worker wait); no artifacts folder is made. The command runs in this process with
    a 1 s connect timeout: a refused port is retried until the timeout, so the shipped 5 s only
    made the test wait 4 s longer."""
    import pipeline.build.executor as ex

    assert ex.CONNECT_TIMEOUT_S < ex.WORKER_WAIT_S
    monkeypatch.setattr(ex, "CONNECT_TIMEOUT_S", 1)
    monkeypatch.chdir(tmp_path)
    t0 = time.monotonic()
    code, _, err = run_main(capsys, "-a", str(tmp_path / "art"), "build", "--executor", "dask",
                            "--scheduler", "tcp://127.0.0.1:1")
    took = time.monotonic() - t0
    assert code == 2, err
    assert "cannot reach the Dask scheduler 'tcp://127.0.0.1:1'" in one_error_line(err)
    assert took < ex.WORKER_WAIT_S, took
    assert not (tmp_path / "art").exists()
    gc.collect()  # finalise the failed Client now, not inside a later test's cluster start


def test_abstraction_blocks_on_workers_equal_a_local_pass(cluster, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    """The abstraction stages' board blocks run on workers that compute their own 7-card scores;
    the scattered figures equal a local pass byte for byte (a class's rows come from one board)."""
    import h5py
    import numpy as np

    from pipeline.abstraction.ochs import ochs_block
    from pipeline.abstraction.strength import canonical_boards, future_block, future_figures
    from pipeline.query.abstraction.clusters import hand_clusters

    with h5py.File(artifacts / "seven.h5", "r") as f:
        table7 = np.asarray(f["score"][:])
    # read-only, as the build's memory map and the workers' own table are: the kernels' one
    # specialization for it, compiled once by the abstraction tests and loaded here
    table7.flags.writeable = False
    boards, w = canonical_boards(3)
    sub, sw = boards[::220], w[::220]
    local = future_figures("flop", table7, 50, sub, sw, blocks=4)
    ex = DaskExecutor(scheduler=cluster.scheduler_address)
    try:
        def on_workers(parts: list[np.ndarray]):  # type: ignore[no-untyped-def]
            handles = [ex.submit(future_block, "flop", 50, p) for p in parts]
            return (h.result() for h in handles)
        remote = future_figures("flop", None, 50, sub, sw, blocks=4, run_blocks=on_workers)
        # the river's OCHS blocks (rows of class index and counts per opponent cluster) too
        river_boards = canonical_boards(5)[0][::9_000]
        groups = hand_clusters(np.arange(169) % 8)
        river_parts = [river_boards[i::2] for i in range(2)]
        ochs_remote = [ex.submit(ochs_block, p, groups, 8).result() for p in river_parts]
    finally:
        ex.close()
    assert int((local.weight > 0).sum()) > 4_000
    for name in ("weight", "s1", "s2", "hist"):
        assert getattr(local, name).tobytes() == getattr(remote, name).tobytes(), name
    for p, (idx, rows) in zip(river_parts, ochs_remote):
        want_idx, want_rows = ochs_block(p, groups, 8, table7)
        assert idx.tobytes() == want_idx.tobytes() and rows.tobytes() == want_rows.tobytes()
