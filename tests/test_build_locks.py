"""The artifacts folder's locks cover the commit, not the computing (issue 38, item 7).

A build holds the build lock throughout (one build at a time) and the commit lock only while it
commits a stage, so a sweep's one-second write goes through while a long build computes; whoever
must wait says at once who holds the lock (pid, command, since when); a finished or killed build
leaves no pid that reads as a holder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from cli_runner import ROOT, one_error_line, run_main

from pipeline.build.commit import commit_stage
from pipeline.build.config import load_config
from pipeline.build.locks import COMMIT_LOCK, LOCK, build_lock, commit_lock, read_holder
from pipeline.build.stages import Stage
from pipeline.build.store import STAGING, describe_file, read_manifest
from pipeline.errors import BuildError

#: seconds the sweep-like commit may take while the fake build computes (it takes milliseconds)
COMMIT_SECONDS = 1.0


def _commit_a_sweep(folder: Path) -> float:
    """What ``vp sweep`` does once it has solved: stage one file and commit it under the commit
    lock, as ``sweep:fake``; the seconds it took."""
    t0 = time.monotonic()
    with commit_lock(folder):
        staging = folder / STAGING / "sweep_fake"
        (staging / "sweeps").mkdir(parents=True)
        (staging / "sweeps" / "fake.txt").write_text("a sweep's result\n")
        manifest = read_manifest(folder, strict=False)
        manifest.setdefault("files", {})["sweeps/fake.txt"] = {
            **describe_file(staging / "sweeps" / "fake.txt"), "stage": "sweep:fake"}
        manifest.setdefault("stages", {})["sweep:fake"] = {"outputs": ["sweeps/fake.txt"]}
        commit_stage(folder, staging, "sweep:fake", ("sweeps/fake.txt",), manifest)
        shutil.rmtree(staging)
    return time.monotonic() - t0


def test_a_sweep_commits_while_a_long_build_computes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """A fake build whose one stage computes until told to stop: meanwhile the build lock is
    held (a second build is refused at once, naming this process and since when), the commit
    lock is free (a sweep's write takes well under a second), and the build's commit keeps the
    sweep's entry in the manifest."""
    from pipeline.build import runner

    folder = tmp_path / "art"
    computing, finish = threading.Event(), threading.Event()

    def run(ctx: Any) -> None:
        computing.set()
        assert finish.wait(60)
        ctx.path("slow.txt").parent.mkdir(parents=True, exist_ok=True)
        ctx.path("slow.txt").write_text("built\n")

    stage = Stage("slow", ("slow.txt",), run, module="pipeline.build.stages.five")
    monkeypatch.setattr(runner, "plan", lambda config, names=None: [stage])
    cfg = load_config(None, folder)
    results: list[Any] = []
    build = threading.Thread(target=lambda: results.append(runner.run_build(cfg)))
    build.start()
    try:
        assert computing.wait(60)
        assert _commit_a_sweep(folder) < COMMIT_SECONDS
        with pytest.raises(BuildError) as exc:
            with build_lock(folder):
                pass
        msg = str(exc.value)
        assert f"another build is running in {folder}: the build lock is held by pid {os.getpid()} (" in msg
        assert " since " in msg and "--wait" in msg
        holder = read_holder(folder / LOCK)
        assert holder is not None and holder.pid == os.getpid() and time.time() - holder.since < 120
        assert read_holder(folder / COMMIT_LOCK) is None  # nobody commits now
    finally:
        finish.set()
        build.join(60)
    assert [r.status for r in results[0]] == ["built"]
    files = read_manifest(folder)["files"]
    assert {"slow.txt", "sweeps/fake.txt"} <= set(files)  # the build kept the sweep's commit
    assert (folder / "sweeps" / "fake.txt").read_text() == "a sweep's result\n"
    # done: neither lock file names a holder, and both are empty (no pid left to mislead)
    assert (folder / LOCK).read_text() == "" and (folder / COMMIT_LOCK).read_text() == ""
    assert not (folder / STAGING).exists()


def test_a_waiting_build_says_at_once_who_holds_the_lock(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """``build --wait`` prints the holder at once, then waits; without ``--wait`` the build is
    one error naming the holder (exit 2). Once the holder is gone, the waiter goes on."""
    folder = tmp_path / "art"
    folder.mkdir()
    (folder / STAGING).mkdir()  # a leftover: the build takes its locks to clean it
    with build_lock(folder):
        code, _, err = run_main(capsys, "-a", str(folder), "build", "eval_tables")
        line = one_error_line(err)
        assert code == 2 and f"the build lock is held by pid {os.getpid()} (" in line, err
        t0 = time.monotonic()
        waiter = subprocess.Popen([sys.executable, "-m", "pipeline", "-a", str(folder), "build",
                                   "eval_tables", "--wait"], cwd=ROOT, text=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            first = waiter.stderr.readline() if waiter.stderr else ""
            assert first.startswith(f"waiting for the build lock of {folder}: held by pid {os.getpid()} ("), first
            assert time.monotonic() - t0 < 60 and waiter.poll() is None
        finally:
            waiter.kill()
            waiter.wait()
    assert read_holder(folder / LOCK) is None


def test_a_dead_holders_record_is_not_a_holder(tmp_path: Path) -> None:
    """A build killed while it held the lock leaves its record; the pid is gone, so nobody is
    told that process holds the lock (and the next holder overwrites it)."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    (tmp_path / LOCK).write_text(f'{{"pid": {gone.pid}, "command": "pokertables build", "since": 1}}')
    assert read_holder(tmp_path / LOCK) is None
    with build_lock(tmp_path):
        holder = read_holder(tmp_path / LOCK)
        assert holder is not None and holder.pid == os.getpid()
    assert (tmp_path / LOCK).read_text() == ""
