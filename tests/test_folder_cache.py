"""What a process keeps per artifacts folder is kept per folder, not per name: a relative name
read again after a change of directory is the other folder's (pipeline.core.folder_cache)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from built_copy import copy_built

from pipeline.core.folder_cache import folder_cache
from pipeline.errors import ArtifactError

RAZZ_TABLE = "rules/ace-to-five/five.h5"


def test_a_name_in_two_directories_is_two_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for side in ("a", "b"):
        (tmp_path / side / "artifacts").mkdir(parents=True)
        (tmp_path / side / "artifacts" / "side").write_text(side)
    (tmp_path / "c").symlink_to(tmp_path / "a")
    seen: list[str] = []

    @folder_cache(maxsize=4)
    def read(folder: str) -> str:
        seen.append(folder)
        return Path(folder, "side").read_text()

    monkeypatch.chdir(tmp_path / "a")
    assert read("artifacts") == "a"
    monkeypatch.chdir(tmp_path / "b")
    assert read("artifacts") == "b"
    monkeypatch.chdir(tmp_path / "a")
    assert read("artifacts") == "a" and read(tmp_path / "c" / "artifacts") == "a"
    # each folder computed once, under its resolved name; the symlink's name shares a's entry
    assert seen == [os.path.realpath(tmp_path / s / "artifacts") for s in ("a", "b")]
    read.cache_clear()
    assert read("artifacts") == "a" and len(seen) == 3


def test_a_games_table_is_read_from_the_folder_named_now(artifacts: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Razz's table read from ``artifacts`` in one directory is not the answer for
    ``artifacts`` in another, which lacks the rule set's table."""
    from pipeline.equity.games.equity import _razz

    copy_built(artifacts, tmp_path / "a" / "artifacts", (RAZZ_TABLE,), link=True)
    copy_built(artifacts, tmp_path / "b" / "artifacts", ("five.h5",), link=True)
    monkeypatch.chdir(tmp_path / "a")
    assert _razz("artifacts").size > 1
    monkeypatch.chdir(tmp_path / "b")
    with pytest.raises(ArtifactError, match="ace-to-five"):
        _razz("artifacts")
    monkeypatch.chdir(tmp_path / "a")
    assert _razz("artifacts") is _razz(str(tmp_path / "a" / "artifacts"))


ROYAL7 = "As Ks Qs Js Ts 2c 3d"


def _two_folders(artifacts: Path, tmp_path: Path) -> None:
    """``a/artifacts`` with the 5- and 7-card tables, ``b/artifacts`` with the 5-card one only."""
    copy_built(artifacts, tmp_path / "a" / "artifacts", ("five.h5", "seven.h5"), link=True)
    copy_built(artifacts, tmp_path / "b" / "artifacts", ("five.h5",), link=True)


def test_tables_opened_by_a_relative_name_stay_with_that_folder(
        artifacts: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``Tables("artifacts")`` reads its manifest on opening and its tables on first use: both
    from the folder the name meant when it was opened, whatever the directory is by then."""
    from pipeline.query.tables import Tables

    _two_folders(artifacts, tmp_path)
    monkeypatch.chdir(tmp_path / "a")
    t = Tables("artifacts")
    monkeypatch.chdir(tmp_path / "b")
    assert t.score7(ROYAL7) == 7462  # b has no seven.h5: read from b, this would fail
    assert t.path == tmp_path / "a" / "artifacts"
    assert t.path.samefile(tmp_path / "a" / "artifacts")
    with pytest.raises(ArtifactError, match="seven.h5 is missing"):
        Tables("artifacts").score7(ROYAL7)  # opened now: b, which has none


def test_a_context_made_from_a_relative_name_stays_with_that_folder(
        artifacts: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The answers' :class:`Context` opens its tables on the first answer, maybe after a change
    of directory (a server started in one folder): from the folder it was made for."""
    from pipeline.answers import Context
    from pipeline.answers.hands import eval_hand

    _two_folders(artifacts, tmp_path)
    monkeypatch.chdir(tmp_path / "a")
    ctx = Context(Path("artifacts"))
    monkeypatch.chdir(tmp_path / "b")
    assert eval_hand(ctx, ROYAL7)["score"] == 7462
    assert ctx.artifacts == tmp_path / "a" / "artifacts"
    assert ctx.opened_files() == {"five.h5", "seven.h5"}
