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
