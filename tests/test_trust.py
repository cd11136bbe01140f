"""Issue 5: atomic builds survive SIGKILL, verify catches corruption, the lock keeps builds apart."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from built_copy import copy_built
from cli_runner import run_cli

from pipeline.build.locks import COMMIT_LOCK, LOCK, build_lock
from pipeline.build.store import STAGING, TMP_PREFIX, BuildError, atomic_path
from pipeline.build.verify import verify
from pipeline.query.tables import ArtifactError, Tables

ROOT = Path(__file__).resolve().parent.parent
FIVE_OUTPUTS = ("five.h5", "parquet/hand_classes.parquet", "parquet/five_card_hands.parquet")


def _kill_while_writing(folder: Path, extra: list[str], offset: float) -> bool:
    """Start a seven build, SIGKILL it ``offset`` s after its temp file appears; True if it did."""
    proc = subprocess.Popen([sys.executable, "-m", "pipeline", "-a", str(folder), "build", "seven",
                             *extra], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    seen = False
    while time.monotonic() < deadline and proc.poll() is None:
        if list(folder.rglob(TMP_PREFIX + "seven.h5.*")):  # the stage's temp file (under .staging/)
            seen = True
            break
        time.sleep(0.005)
    time.sleep(offset)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return seen


def test_sigkill_during_seven_leaves_old_or_nothing(artifacts: Path, tmp_path: Path) -> None:
    folder = tmp_path / "art"
    folder.mkdir()
    # no previous version: killed mid-write leaves no seven.h5 (or a complete one)
    hits = 0
    for offset in (0.0, 0.15):
        hits += _kill_while_writing(folder, [], offset)
        rep = verify(folder)
        assert all(m.startswith("no manifest") for _, m in rep.problems), rep.problems
        if (folder / "seven.h5").exists():  # complete file renamed into place before the kill
            import h5py

            with h5py.File(folder / "seven.h5", "r") as f:
                assert f["score"].shape == (133_784_560,)
    # a good build, then kills of a forced rebuild at several points of its write
    r = run_cli("-a", str(folder), "build", "seven")
    assert r.returncode == 0, r.stderr
    good = verify(folder, stages=["seven"])
    assert good.ok and "seven.h5" in good.checked
    for offset in (0.0, 0.05, 0.2, 0.4, 0.8):
        hits += _kill_while_writing(folder, ["--force"], offset)
        rep = verify(folder, stages=["seven"])
        assert rep.ok, (offset, rep.problems)
        assert "seven.h5" in rep.checked
    assert hits >= 5, "the kills should land while the table is being written"
    r = run_cli("-a", str(folder), "build", "seven")
    assert r.returncode == 0, r.stderr
    assert not list(folder.rglob(TMP_PREFIX + "*")), "stale temp files are cleaned by the next build"
    assert verify(folder, stages=["seven"]).ok


def test_flipped_bytes_are_named_and_refused(artifacts: Path, tmp_path: Path) -> None:
    folder = tmp_path / "art"
    copy_built(artifacts, folder, FIVE_OUTPUTS)
    assert verify(folder, stages=["five"]).ok
    assert Tables(folder).score5("As Ks Qs Js Ts") == 7462
    p = folder / "five.h5"
    data = bytearray(p.read_bytes())
    mid = len(data) // 2
    data[mid:mid + 4] = bytes(b ^ 0xFF for b in data[mid:mid + 4])
    p.write_bytes(bytes(data))
    rep = verify(folder, stages=["five"])
    assert not rep.ok
    assert any(f == "five.h5" and "sha256" in m for f, m in rep.problems)
    r = run_cli("-a", str(folder), "verify")
    assert r.returncode == 1 and "five.h5" in r.stdout
    with pytest.raises(ArtifactError, match="rebuild"):
        Tables(folder).score5("As Ks Qs Js Ts")
    r = run_cli("-a", str(folder), "eval", "As Ks Qs Js Ts")
    assert r.returncode == 2 and "five.h5" in r.stderr and "Traceback" not in r.stderr


def test_truncated_artifact_is_refused(artifacts: Path, tmp_path: Path) -> None:
    folder = tmp_path / "art"
    copy_built(artifacts, folder, ("five.h5",))
    with open(folder / "five.h5", "r+b") as fh:
        fh.truncate(1000)
    with pytest.raises(ArtifactError, match="bytes but the manifest"):
        Tables(folder).score5("As Ks Qs Js Ts")
    assert any("size" in m for _, m in verify(folder).problems)


def test_second_build_waits_or_fails_clearly(tmp_path: Path) -> None:
    folder = tmp_path / "art"
    with build_lock(folder):
        r = run_cli("-a", str(folder), "build", "five")
        assert r.returncode == 2
        assert "another build is running" in r.stderr and "Traceback" not in r.stderr
        with pytest.raises(BuildError):
            with build_lock(folder):
                pass
    assert not (folder / "five.h5").exists()


def test_disk_full_leaves_target_untouched(tmp_path: Path) -> None:
    target = tmp_path / "x.bin"
    target.write_bytes(b"old good")
    with pytest.raises(BuildError, match="disk full"):
        with atomic_path(target) as tmp:
            tmp.write_bytes(b"partial")
            raise OSError(errno.ENOSPC, "No space left on device")
    assert target.read_bytes() == b"old good"
    assert [p.name for p in tmp_path.iterdir()] == ["x.bin"]


def test_unwritable_artifacts_folder(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    r = run_cli("-a", str(blocker / "art"), "build", "five")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert str(blocker) in r.stderr


def test_missing_artifacts_folder_is_a_clear_error(tmp_path: Path) -> None:
    r = run_cli("-a", str(tmp_path / "nowhere"), "eval", "As Ks Qs Js Ts")
    assert r.returncode == 2
    assert "does not exist" in r.stderr and "make tables" in r.stderr


def test_unchanged_build_skips_everything(built_here: Path) -> None:
    from pipeline.build.config import load_config
    from pipeline.build.runner import run_build

    results = run_build(load_config(ROOT / "configs" / "build.toml", built_here))
    assert results and all(r.status == "skipped" for r in results)
    assert os.path.exists(built_here / "manifest.json")


@pytest.mark.full_tier  # builds or solves for seconds: not the fast tier
def test_failed_stage_changes_no_artifact(artifacts: Path, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A stage that dies after writing some outputs leaves every artifact as it was (the
    stage's outputs as the suite built them, copied with their manifest record)."""
    from pipeline.build.config import load_config
    from pipeline.build.runner import run_build
    from pipeline.build.stages import five
    from pipeline.build.store import sha256_file

    cfg = load_config(ROOT / "configs" / "build.toml", tmp_path / "art")
    copy_built(artifacts, cfg.artifacts, FIVE_OUTPUTS, ("five",))
    assert [r.status for r in run_build(cfg, ["five"])] == ["skipped"]  # as built, up to date
    folder = cfg.artifacts
    def snapshot() -> dict[str, tuple[str, int]]:
        return {p.name: (sha256_file(p), p.stat().st_mtime_ns) for p in folder.rglob("*")
                if p.is_file() and p.name not in (LOCK, COMMIT_LOCK)}  # locks are not artifacts

    before = snapshot()

    def fail(*args: object, **kw: object) -> None:
        raise OSError(5, "simulated failure after five.h5 was written")

    monkeypatch.setattr(five, "write_parquet_atomic", fail)
    with pytest.raises(OSError, match="simulated failure"):
        run_build(cfg, ["five"], force=True)
    assert snapshot() == before
    assert verify(folder, stages=["five"]).ok
    assert not (folder / STAGING).exists()
