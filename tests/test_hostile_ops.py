"""Issue 20: what a hostile or careless user does to the folders: sweeps are committed like
stages (locked, journalled, in the manifest), a build only works in a folder it owns, a
read-only or cross-device folder is handled, and a config-folder build is not called forged."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from built_copy import DEAL_CLASSES, copy_built, stage_files
from cli_runner import assert_one_error, run_cli, run_here, run_main

from pipeline.build.locks import LOCK, commit_lock
from pipeline.build.store import STAGING, TMP_PREFIX

ROOT = Path(__file__).resolve().parent.parent
SMALL_SWEEP = 'name = "tiny"\nbase = "jacks-or-better-9-6"\n[pays]\n"full house" = {values = [8, 9]}\n'


def _mount_tmpfs(where: Path, options: str) -> bool:
    where.mkdir(parents=True, exist_ok=True)
    return subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)],
                          capture_output=True).returncode == 0


def _umount(where: Path) -> None:
    subprocess.run(["umount", str(where)], capture_output=True)


@contextlib.contextmanager
def _read_only_folder(where: Path) -> Iterator[str]:
    """``where`` made a folder this process cannot write in; yields the strerror a write gets.
    A read-only tmpfs where mounting is allowed (root); else mode 0555, which binds every user
    but root; root without mount rights cannot be refused a write, so then the test is skipped
    saying why (never silently)."""
    if _mount_tmpfs(where, "ro,size=1m"):
        try:
            yield "Read-only file system"
        finally:
            _umount(where)
        return
    if os.geteuid() == 0:
        pytest.skip("no read-only folder can be made here: mounting a tmpfs failed, and root "
                    "writes through mode 0555")
    where.chmod(0o555)
    try:
        yield "Permission denied"
    finally:
        where.chmod(0o755)


@contextlib.contextmanager
def _other_file_system(where: Path, need: int = 200 << 20) -> Iterator[Path]:
    """A folder on another file system than ``where``'s parent: a tmpfs mounted at ``where``
    (root), else a fresh folder in /dev/shm when that is another file system with room;
    otherwise the test is skipped saying why."""
    if _mount_tmpfs(where, f"size={need}"):
        try:
            yield where
        finally:
            _umount(where)
        return
    shm = Path("/dev/shm")
    if not shm.is_dir() or shm.stat().st_dev == where.parent.stat().st_dev:
        pytest.skip("no other file system here: mounting a tmpfs failed and /dev/shm is missing "
                    "or on the same one")
    if shutil.disk_usage(shm).free < need:
        pytest.skip(f"/dev/shm has under {need >> 20} MiB free and mounting a tmpfs failed")
    other = Path(tempfile.mkdtemp(prefix="pokertables-xdev-", dir=shm))
    try:
        yield other
    finally:
        shutil.rmtree(other, ignore_errors=True)


def _with_deal_classes(art: Path, artifacts: Path) -> None:
    """Copy the suite's built deal classes (files, manifest entries, stage record) into ``art``:
    a build there finds the ``vp_classes`` stage up to date instead of deriving it again, and
    verify still compares its content with the shipped digests."""
    assert stage_files(artifacts, "vp_classes") == DEAL_CLASSES
    copy_built(artifacts, art, DEAL_CLASSES, ("vp_classes",))


@pytest.fixture
def sweep_folder(artifacts: Path, tmp_path: Path) -> tuple[Path, Path]:
    """An artifacts folder holding the default deal classes (linked) and a 2-variant sweep file."""
    art = tmp_path / "art"
    art.mkdir()
    (art / "vp_classes.h5").symlink_to(artifacts / "vp_classes.h5")
    sweep = tmp_path / "tiny.toml"
    sweep.write_text(SMALL_SWEEP)
    return art, sweep


def test_sweep_is_in_the_manifest_and_verify_knows_it(sweep_folder: tuple[Path, Path],
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Items 7 and 10: the sweep's files are listed (verify has no untracked-file alarm under
    sweeps/, and catches an edit); a second run of the same sweep says it replaced the first.
    (The command runs in this process: what it writes is under test, not the process.)"""
    from pipeline.build.verify import verify

    art, sweep = sweep_folder
    code, _, err = run_main(capsys, "-a", str(art), "vp", "sweep", str(sweep), "--json")
    assert code == 0, err
    files = json.loads((art / "manifest.json").read_text())["files"]
    ours = sorted(rel for rel, info in files.items() if info.get("stage") == "sweep:tiny")
    assert ours == ["sweeps/tiny.parquet/full_house=8/part-0.parquet",
                    "sweeps/tiny.parquet/full_house=9/part-0.parquet", "sweeps/tiny.png"]
    rep = verify(art, stages=["vp_classes"])
    assert not [p for p in rep.problems if p[0].startswith("sweeps/")], rep.problems
    assert not (art / STAGING).exists()
    # a run that started before the first one wrote is told it replaced that result
    from pipeline.build.sweeps import write_sweep
    from pipeline.videopoker.tools.sweep import load_sweep, solve_sweep, sweep_rows

    class Serial:
        kind = "local"

        def map(self, fn, items, **shared):  # type: ignore[no-untyped-def]
            return [fn(i, **shared) for i in items]

        def submit(self, fn, *args, **shared):  # type: ignore[no-untyped-def]
            class Done:
                def result(self):  # type: ignore[no-untyped-def]
                    return fn(*args, **shared)
            return Done()

    from pipeline.videopoker.solver.deals import deal_classes

    sw = load_sweep(sweep)
    cols = sweep_rows(sw, solve_sweep(sw, lambda n: deal_classes(n), Serial()))
    _, _, note = write_sweep(sw, cols, art, started=time.time() - 3600)
    assert note is not None and "replaced the result another run" in note
    # an edited sweep file is caught like any artifact
    png = art / "sweeps" / "tiny.png"
    png.write_bytes(png.read_bytes()[:-1] + b"x")
    assert any(rel == "sweeps/tiny.png" for rel, _ in verify(art, stages=["vp_classes"]).problems)


def test_build_waits_for_a_sweep_holding_the_lock(sweep_folder: tuple[Path, Path]) -> None:
    """Item 9 (issue 38 item 7): a sweep writes under the commit lock, so a build started
    meanwhile cannot clean its staging away: it says at once that it waits for the commit lock
    and who holds it (this process), and the staged file survives. Killed while it waits, it
    leaves no holder behind (its pid is gone)."""
    from pipeline.build.locks import read_holder

    art, _ = sweep_folder
    staged = art / STAGING / "sweep_tiny" / "sweeps" / "tiny.png"
    with commit_lock(art):
        staged.parent.mkdir(parents=True)
        staged.write_bytes(b"in progress")
        build = subprocess.Popen([sys.executable, "-m", "pipeline", "-a", str(art), "build", "vp_classes"],
                                 cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            line = build.stderr.readline() if build.stderr else ""
            assert line.startswith(f"waiting for the commit lock of {art}: held by pid {os.getpid()} ("), line
            assert " since " in line and line.rstrip().endswith("ago ...")
            assert staged.read_bytes() == b"in progress"
            assert read_holder(art / LOCK) is not None  # the waiting build holds the build lock
        finally:
            build.kill()
            build.wait()
        assert staged.read_bytes() == b"in progress"
        assert read_holder(art / LOCK) is None  # a killed holder is no holder


def test_build_refuses_a_folder_it_does_not_own(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Item 8: an empty artifacts path, or a folder of the user's own files, is refused and
    nothing in it (their own .tmp-* file, their .staging folder) is touched. The -a cases run
    in this process (in that folder); the environment's empty path in a real process, since
    the CLI reads POKERTABLES_ARTIFACTS when it is imported."""
    mine = tmp_path / "home"
    (mine / ".staging").mkdir(parents=True)
    (mine / ".tmp-notes").write_text("mine")
    (mine / "notes.txt").write_text("mine too")
    before = sorted(p.name for p in mine.rglob("*"))
    assert_one_error(run_here(capsys, "-a", "", "build", "five", cwd=mine), "empty text")
    assert_one_error(run_cli("build", "five", cwd=mine, env={"POKERTABLES_ARTIFACTS": ""}), "empty text")
    assert_one_error(run_here(capsys, "-a", ".", "build", "five", cwd=mine), "is not an artifacts folder")
    assert sorted(p.name for p in mine.rglob("*")) == before


def test_build_from_another_folder_plans_nothing_stale(artifacts: Path, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Item 12: the config is found next to the artifacts folder, not in the current folder."""
    r = run_here(capsys, "-a", str(artifacts), "build", "--dry-run", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.strip().splitlines()[-1].startswith("0 stage(s) would run"), \
        r.stdout[-3000:]


@pytest.mark.full_tier  # builds or solves for seconds: not the fast tier
def test_config_folder_build_is_not_called_forged(artifacts: Path, tmp_path: Path) -> None:
    """Item 11: the README's config-folder example (9/6 with full house 8) builds a paytable
    the shipped digests do not describe; verify checks it by its invariants, with no
    'content differs' problem, while default stages (the deal classes, copied from the
    suite's build and up to date) are still compared."""
    from pipeline.build.verify import verify

    mine = tmp_path / "mine" / "paytables"
    mine.mkdir(parents=True)
    src = (ROOT / "pipeline" / "data" / "paytables" / "jacks-or-better-9-6.toml").read_text()
    (mine / "jacks-or-better-9-6.toml").write_text(src.replace("pays = 9\n", "pays = 8\n", 1))
    art = tmp_path / "art"
    _with_deal_classes(art, artifacts)
    r = run_cli("-a", str(art), "--config-dir", str(tmp_path / "mine"), "build", "vp_classes",
             "paytable:jacks-or-better-9-6")
    assert r.returncode == 0, r.stderr[-2000:]
    os.environ["POKERTABLES_CONFIG"] = str(tmp_path / "mine")
    try:
        rep = verify(art, stages=["vp_classes", "paytable:jacks-or-better-9-6"])
    finally:
        del os.environ["POKERTABLES_CONFIG"]
    assert rep.ok, rep.problems
    assert "vp_classes.h5" in rep.checked and "paytables/jacks-or-better-9-6.h5" in rep.checked


def test_read_only_folder_is_one_error(tmp_path: Path) -> None:
    """Item 18: build --force and vp sweep on a read-only folder: one error line, exit 2."""
    ro = tmp_path / "ro"
    ro.mkdir()
    sweep = tmp_path / "tiny.toml"
    sweep.write_text(SMALL_SWEEP)
    with _read_only_folder(ro) as why:
        needle = f"cannot write in the artifacts folder {ro} ({why})"
        assert_one_error(run_cli("-a", str(ro), "build", "five", "--force"), needle)
        assert_one_error(run_cli("-a", str(ro), "vp", "sweep", str(sweep)), needle)
        assert list(ro.iterdir()) == []


@pytest.mark.full_tier  # builds or solves for seconds: not the fast tier
def test_subfolder_on_another_file_system_builds_and_verifies(artifacts: Path, tmp_path: Path) -> None:
    """Item 19: paytables/ symlinked to another file system: copy then rename inside it (the
    deal classes it reads are copied from the suite's build, up to date)."""
    from pipeline.build.verify import verify

    with _other_file_system(tmp_path / "other") as other:
        assert other.stat().st_dev != tmp_path.stat().st_dev
        art = tmp_path / "art"
        art.mkdir()
        _with_deal_classes(art, artifacts)
        (art / "paytables").symlink_to(other)
        r = run_cli("-a", str(art), "build", "vp_classes", "paytable:jacks-or-better-9-6")
        assert r.returncode == 0, r.stderr[-2000:]
        assert (other / "jacks-or-better-9-6.h5").is_file()
        assert not [p.name for p in other.iterdir() if p.name.startswith(TMP_PREFIX)]
        rep = verify(art, stages=["vp_classes", "paytable:jacks-or-better-9-6"])
        assert rep.ok, rep.problems
        manifest = json.loads((art / "manifest.json").read_text())
        assert "paytable:jacks-or-better-9-6" in manifest["stages"]
