"""A build may reuse another artifacts folder's outputs (``run_build(..., reuse=folder)``): a
stage whose key there equals the wanted key is hard-linked, never copied and never rebuilt; a
different key, a changed donor file or ``force`` builds it as usual."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.build.config import BuildConfig
from pipeline.build.stages import Context, Stage
from pipeline.build.store import LOCK
from pipeline.query.artifacts import MANIFEST, open_checked

#: what the first stage writes: (relative path, bytes)
FILES = (("one.bin", b"first stage " * 1000), ("sub/two.txt", b"second output\n"))
DERIVED = "derived.txt"


def _stages(runs: list[str]) -> list[Stage]:
    """Two stages, the second reading the first's output (so its key holds that file's sha256);
    ``runs`` records every stage that really ran."""

    def first(ctx: Context) -> None:
        runs.append("first")
        for rel, data in FILES:
            ctx.path(rel).parent.mkdir(parents=True, exist_ok=True)
            ctx.path(rel).write_bytes(data)

    def second(ctx: Context) -> None:
        runs.append("second")
        ctx.path(DERIVED).parent.mkdir(parents=True, exist_ok=True)
        ctx.path(DERIVED).write_bytes(ctx.path(FILES[0][0]).read_bytes()[:12][::-1])

    return [Stage("first", tuple(rel for rel, _ in FILES), first, module="pipeline.errors"),
            Stage("second", (DERIVED,), second, inputs=(FILES[0][0],), module="pipeline.errors")]


@pytest.fixture
def build(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):  # type: ignore[no-untyped-def]
    """``build(folder, reuse=None, force=False) -> (statuses, stages that ran)``."""
    import pipeline.build.runner as runner

    def run(folder: str, reuse: Path | None = None, force: bool = False) -> tuple[list[str], list[str]]:
        runs: list[str] = []
        monkeypatch.setattr(runner, "plan", lambda config, names=None: _stages(runs))
        res = runner.run_build(BuildConfig(root=tmp_path, artifacts=tmp_path / folder), reuse=reuse, force=force)
        return [r.status for r in res], runs

    return run


def _inode(path: Path) -> int:
    return path.stat().st_ino


def test_equal_keys_link_the_donors_files(build, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    donor, mine = tmp_path / "donor", tmp_path / "mine"
    assert build("donor") == (["built", "built"], ["first", "second"])
    assert build("mine", reuse=donor) == (["linked", "linked"], [])
    for rel in (*(r for r, _ in FILES), DERIVED):
        assert _inode(mine / rel) == _inode(donor / rel), rel   # the same file, not a copy
        assert open_checked(mine, rel) == mine / rel            # and trusted by the readers
    assert (mine / FILES[1][0]).read_bytes() == FILES[1][1]
    assert _inode(mine / LOCK) != _inode(donor / LOCK)          # the lock is never shared
    ours, theirs = (json.loads((f / MANIFEST).read_text()) for f in (mine, donor))
    assert ours["stages"] == theirs["stages"]
    assert {rel: info["sha256"] for rel, info in ours["files"].items()} == \
        {rel: info["sha256"] for rel, info in theirs["files"].items()}
    # the donor still checks clean (its files' ctime changed with the link: they are re-proven)
    assert all(open_checked(donor, rel) for rel in ours["files"])
    assert build("mine", reuse=donor) == (["skipped", "skipped"], [])


def test_a_different_key_or_a_changed_file_is_built(build, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    donor = tmp_path / "donor"
    build("donor")
    mf = json.loads((donor / MANIFEST).read_text())
    mf["stages"]["second"]["key"] = "0" * 64          # as if built by other code
    (donor / MANIFEST).write_text(json.dumps(mf))
    assert build("a", reuse=donor) == (["linked", "built"], ["second"])
    assert (tmp_path / "a" / DERIVED).read_bytes() == (donor / DERIVED).read_bytes()
    assert _inode(tmp_path / "a" / DERIVED) != _inode(donor / DERIVED)

    # same size, other bytes: the donor's file fails its check, so the stage is built here
    rel, data = FILES[0]
    (donor / rel).write_bytes(data.upper())
    assert build("b", reuse=donor) == (["built", "built"], ["first", "second"])
    assert (tmp_path / "b" / rel).read_bytes() == data
    assert all(open_checked(tmp_path / "b", r) for r, _ in FILES)


def test_force_and_a_missing_donor_build(build, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert build("a", reuse=tmp_path / "nowhere") == (["built", "built"], ["first", "second"])
    assert build("b", reuse=tmp_path / "a", force=True) == (["built", "built"], ["first", "second"])
    assert _inode(tmp_path / "b" / DERIVED) != _inode(tmp_path / "a" / DERIVED)
