"""The ``casino`` command group (issue 40): JSON answers, bad input as one ``error:`` line with
exit code 2 and nothing written, game files that shadow a line or pay a negative amount, the
build stage's artifacts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_runner import one_error_line, run_cli, run_main

from pipeline.errors import ConfigError

GOOD = """name = "Mine"
family = "three-card-poker"
[[table]]
name = "ante bonus"
[[table.line]]
hand = "straight flush"
pays = 5
"""


def _files(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.name not in (".build.lock", ".commit.lock")}


def test_bad_input_is_one_error_line_in_a_real_process(tmp_path: Path) -> None:
    """The contract with a real process: exit 2, one error line, no traceback, nothing written."""
    before = _files(tmp_path)
    r = run_cli("-a", str(tmp_path), "casino", "grade", "3cp", "Qs Qs 4c", "play", timeout=120)
    assert r.returncode == 2 and "duplicate card Qs" in one_error_line(r.stderr)
    assert _files(tmp_path) == before


@pytest.mark.parametrize(("args", "message"), [
    (["casino", "analyze", "no such game"], "unknown game 'no such game'"),
    (["casino", "grade", "3cp", "Qs 6d 4c", "raise"], "unknown decision 'raise'"),
    (["casino", "grade", "caribbean stud", "As Kd 9c 5h 2s", "raise"], "the dealer's up card"),
    (["casino", "analyze", "3cp", "--pay", "straight=-1"], "negative pay -1"),
    (["casino", "analyze", "3cp", "--pay", "full house=3"], "unknown pay line 'full house'"),
    (["casino", "grade", "pair plus", "Qs 6d 4c", "play"], "side bet without decisions"),
    (["casino", "breakeven", "lir", "--line", "meter"], "has no progressive meter"),
])
def test_bad_input_names_the_bad_value(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                       args: list[str], message: str) -> None:
    code, out, err = run_main(capsys, "-a", str(tmp_path), *args)
    assert code == 2 and out == "" and message in one_error_line(err), err
    assert _files(tmp_path) == set()


@pytest.mark.parametrize(("text", "message"), [
    (GOOD + '[[table.line]]\nhand = "straight flush"\npays = 4\n', "could never pay"),
    (GOOD.replace("pays = 5", "pays = -5"), "negative pay -5"),
    (GOOD.replace("three-card-poker", "baccarat"), "unknown family 'baccarat'"),
    (GOOD + '[rules]\ndealer_qualifies = "sometimes"\n', "qualifier 'sometimes'"),
    (GOOD.replace('hand = "straight flush"', 'hand = "royal flush"'), "unknown hand 'royal flush'"),
])
def test_bad_game_files_name_the_file_and_line(tmp_path: Path, text: str, message: str) -> None:
    from pipeline.casino.families import FAMILIES
    from pipeline.casino.game import load_game_file

    path = tmp_path / "mine.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message) as exc:
        load_game_file(path, FAMILIES)
    assert str(path) in str(exc.value)


def test_a_game_file_that_shadows_itself_through_each_door(capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path) -> None:
    """Found by name in a config folder (analyze, list, build) or given by path: one error line
    naming the file and the line, exit 2, nothing written."""
    cfg, art = tmp_path / "cfg", tmp_path / "art"
    (cfg / "casino").mkdir(parents=True)
    art.mkdir()
    game = cfg / "casino" / "mine.toml"
    game.write_text(GOOD + '[[table.line]]\nhand = "straight flush"\npays = 4\n')
    for args in (["casino", "analyze", "mine"], ["casino", "list"], ["build", "casino:mine"],
                 ["casino", "analyze", str(game)]):
        code, out, err = run_main(capsys, "-a", str(art), "--config-dir", str(cfg), *args)
        line = one_error_line(err)
        assert code == 2 and out == "" and str(game) in line and "could never pay" in line, (args, err)
    assert _files(art) == set()


def test_a_user_game_file_by_path_and_the_json_shape(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "mine.toml").write_text(GOOD)
    code, out, err = run_main(capsys, "-a", str(tmp_path), "casino", "analyze", str(tmp_path / "mine.toml"), "--json")
    assert code == 0, err
    info = json.loads(out)
    assert {"house_edge", "element_of_risk", "combinations", "return_table"} <= set(info)
    assert info["combinations"] == 22_100 * 18_424 and isinstance(info["combinations"], int)
    assert all(isinstance(r["combinations"], int) for r in info["return_table"])


def test_grade_json_for_mississippi_stud_with_the_amount_wagered(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(capsys, "casino", "grade", "ms", "Ts 6d | 2c 2h; wagered=5", "fold", "--json")
    assert code == 0, err
    g = json.loads(out)
    assert g["point"] == "5th street" and g["context"] == {"wagered": 5}
    assert [o["option"] for o in g["options"]] == ["1x", "2x", "3x", "fold"]


def test_casino_stage_writes_artifacts_that_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The stage of one game into a fresh folder: HDF5 + Parquet with manifest records, read
    back by the CLI, and `verify` passes on it."""
    import duckdb

    code, _, err = run_main(capsys, "-a", str(tmp_path), "build", "casino:three-card-poker-pair-plus",
                            "casino:three-card-poker")
    assert code == 0, err
    code, out, err = run_main(capsys, "-a", str(tmp_path), "casino", "analyze", "3cp")
    assert code == 0 and "(artifact " in out, err
    code, out, err = run_main(capsys, "-a", str(tmp_path), "verify", "casino:three-card-poker",
                              "casino:three-card-poker-pair-plus")
    assert code == 0, out + err
    rows = duckdb.sql(f"SELECT game, sum(combinations) FROM read_parquet('{tmp_path}/parquet/casino/"
                      "return_tables/*/*.parquet', hive_partitioning = true) GROUP BY game ORDER BY game").fetchall()
    assert rows == [("three-card-poker", 407_170_400), ("three-card-poker-pair-plus", 22_100)]
