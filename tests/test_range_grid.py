"""``pokertables range``: every range form round-trips through the 13x13 grid (the grid's
classes and weights, written back as a range, give the same combos and weights), cells sit
where an independent layout puts them, live combos follow card removal, and the JSON rows
load into a table as they are."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest
from cli_runner import run_main

from pipeline.core.cards import parse_cards
from pipeline.equity.hands.starting_hands import HOLE_CARDS
from pipeline.equity.ranges.grid import range_grid
from pipeline.equity.ranges.parse import parse_range

ROOT = Path(__file__).resolve().parent.parent
RANKS = "23456789TJQKA"

FORMS = ["QQ", "QQ+", "22-66", "AKs", "AKo", "AK", "AQs+", "K9o+", "A5s-A2s", "random",
         "any two", "KK:0.5,AKs:0.25", "[50]KK,QQ[/50],AA", "T9s-54s", "KQo-JTo",
         "[25]T9s-76s[/25],JJ+"]
#: forms whose class holds only some of its combos, or combos of different weights: the grid
#: flags the class as mixed and reads back through the class's combos
PARTIAL_FORMS = ["AsKs", "AKs:0.5,AsKs", "AsKs,QQ", "AA,AsAh:0.5", "AsKd:0.25,QQ+"]


def _cell(a: int, b: int) -> tuple[str, int, int]:
    """Class name and grid cell of two card ids, from the layout rules alone."""
    hi, lo = max(a >> 2, b >> 2), min(a >> 2, b >> 2)
    if hi == lo:
        return RANKS[hi] * 2, 12 - hi, 12 - hi
    if a % 4 == b % 4:
        return RANKS[hi] + RANKS[lo] + "s", 12 - hi, 12 - lo   # suited: above the diagonal
    return RANKS[hi] + RANKS[lo] + "o", 12 - lo, 12 - hi       # offsuit: below it


def _round_trip(text: str, strength: object = None, mixed: bool = False) -> None:
    r = parse_range(text, strength)
    g = range_grid(r, text, strength, [])
    assert any(row.mixed for row in g.rows) == mixed
    # a uniform, complete class reads back from its cell; a mixed one from its combos
    back = parse_range(",".join(f"{row.name}:{float(row.weight)!r}" if not row.mixed else
                                ",".join(f"{h.replace(' ', '')}:{float(w)!r}" for h, w in row.hands)
                                for row in g.rows))
    assert back.hands.tolist() == r.hands.tolist()
    assert back.weights.tolist() == r.weights.tolist()
    assert parse_range(",".join(row.text for row in g.rows)).hands.tolist() == r.hands.tolist()


@pytest.mark.parametrize("text", FORMS)
def test_forms_round_trip_through_the_grid(text: str) -> None:
    _round_trip(text)


@pytest.mark.parametrize("text", PARTIAL_FORMS)
def test_partial_and_mixed_classes_are_flagged_and_round_trip(text: str) -> None:
    _round_trip(text, mixed=True)


def test_one_combo_is_not_shown_as_the_full_class(here: Callable[..., tuple[int, str, str]]) -> None:
    g = range_grid(parse_range("AsKs"), "AsKs", None, [])
    (row,) = g.rows
    assert row.name == "AKs" and row.mixed and row.combos == 1 and row.hands == (("As Ks", 1),)
    assert row.text == "AsKs:1"
    _, out, _ = here("range", "AsKs,QQ")
    lines = out.splitlines()
    w = lines.index("weight (* = mixed weights in the class)")
    assert lines[w + 2].split() == ["A", "1*"] and lines[w + 4].split() == ["Q", "1"]


def test_top_fraction_round_trips_and_reports_its_classes(tables) -> None:  # type: ignore[no-untyped-def]
    from pipeline.equity.tables.preflop import hand_strength

    key = hand_strength(tables)
    for text in ("5%", "12.5%", "30%,KK:0.5"):
        _round_trip(text, key)
    g = range_grid(parse_range("5%", key), "5%", key, [])
    (token, classes, n), = g.percent
    assert token == "5%" and n == g.combos
    assert sorted(classes) == sorted(row.name for row in g.rows)
    assert {"AA", "KK", "QQ", "AKs"} <= set(classes)


def test_cells_counts_and_card_removal() -> None:
    text = "QQ+,AKs,[50]T9s-54s[/50],AsKd:0.25"
    r = parse_range(text)
    board = parse_cards("Ah Kd 2c")
    g = range_grid(r, text, None, board)
    want: dict[str, list] = {}
    for h, w in zip(r.hands, r.weights):
        a, b = (int(c) for c in HOLE_CARDS[h])
        name, row, col = _cell(a, b)
        e = want.setdefault(name, [row, col, 0, 0, 0.0])
        e[2] += 1
        if a not in board and b not in board:
            e[3] += 1
            e[4] += w
    got = {row.name: [row.row, row.col, row.combos, row.live, float(row.live_weighted)]
           for row in g.rows}
    assert got == want
    assert got["AKo"] == [1, 0, 1, 0, 0.0] and got["AA"][3] == 3 and got["54s"][3] == 4
    assert g.combos == 6 * 3 + 4 + 24 + 1 and g.weighted == 18 + 4 + 12 + 0.25
    assert g.live == 3 + 3 + 6 + 2 + 24 and g.live_weighted == 3 + 3 + 6 + 2 + 12
    assert g.live_hands == 1326 - (3 * 51 - 3)


def test_mixed_weights_are_flagged() -> None:
    g = range_grid(parse_range("AA,AsAh:0.5"), "AA,AsAh:0.5", None, [])
    (row,) = g.rows
    assert row.mixed and row.weight * 6 == 5.5


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    return subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=ROOT, capture_output=True,
                          text=True, check=False, env={**base, **(env or {})})


@pytest.fixture
def here(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Callable[..., tuple[int, str, str]]:
    """The command in this process, colour variables unset as :func:`_cli` has them: (exit
    code, stdout, stderr). Real processes: the colour test, the class-name grid, one bad input."""
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)

    def run(*args: str) -> tuple[int, str, str]:
        return run_main(capsys, *args)

    return run


def test_cli_json_rows_load_as_a_table(here: Callable[..., tuple[int, str, str]]) -> None:
    code, text, err = here("range", "[50]KK,QQ[/50],AKs", "--board", "Kh 7d 2c", "--json")
    assert code == 0, err
    out = json.loads(text)
    t = pa.Table.from_pylist(out["classes"])
    assert t.num_rows == 3 and t.column("class").to_pylist() == ["AKs", "KK", "QQ"]
    assert t.column("live").to_pylist() == [3, 3, 6]
    assert out["combos"] == 16 and out["weighted"] == 10 and out["live"] == 12
    assert out["live_weighted"] == 3 + 1.5 + 3


@pytest.mark.parametrize("args,needle", [
    (["range", "[50]KK,QQ"], "[50]KK"),
    (["range", "T9s-53s"], "T9s-53s"),
    (["range", "AA", "--board", "Ah Kd"], "got 2"),
    (["range", "AA", "--board", "Ah Kd 2c", "--dead", "2c"], "2c"),
])
def test_cli_bad_input_one_error_line(here: Callable[..., tuple[int, str, str]], args: list[str],
                                     needle: str) -> None:
    """The first case in a real process, the others in this one."""
    if args == ["range", "[50]KK,QQ"]:
        r = _cli(*args)
        code, out, err = r.returncode, r.stdout, r.stderr
    else:
        code, out, err = here(*args)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and out == ""
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], lines


def test_cli_text_grid_places_cells(here: Callable[..., tuple[int, str, str]]) -> None:
    code, out, err = here("range", "AKs,[50]AKo[/50],77")
    assert code == 0, err
    lines = out.splitlines()
    w = lines.index("weight (* = mixed weights in the class)")
    ace = lines[w + 2].split()
    seven = lines[w + 2 + 12 - 5].split()
    assert ace == ["A", "1"] and lines[w + 3].split() == ["K", ".5"] and seven == ["7", "1"]
    assert "combos 22 (weighted 16); live 22 (weighted 16) of 1326 live hands" in lines
    assert np.count_nonzero(["live combos" == ln for ln in lines]) == 1


def _layout_name(row: int, col: int) -> str:
    """The class at a grid cell, from the layout rule: row/column 0 the ace, pairs on the
    diagonal, suited above it (row = high rank), offsuit below (column = high rank)."""
    hi, lo = RANKS[12 - min(row, col)], RANKS[12 - max(row, col)]
    return hi + lo if row == col else hi + lo + ("s" if row < col else "o")


def test_cli_text_grid_names_the_classes() -> None:
    r = _cli("range", "AKs,[50]AKo[/50],77,T9s")
    assert r.returncode == 0, r.stderr
    assert "\x1b[" not in r.stdout  # piped: plain text
    lines = r.stdout.splitlines()
    c = lines.index("classes")
    assert lines[c + 1].split() == list(RANKS[::-1])
    grid = {}
    for i, ln in enumerate(lines[c + 2:c + 15]):
        assert ln[:2] == f" {RANKS[12 - i]}"
        for j in range(13):
            cell = ln[3 + 6 * j:3 + 6 * (j + 1)].strip()
            if cell:
                grid[(i, j)] = cell
    assert grid == {k: _layout_name(*k) for k in [(0, 1), (1, 0), (7, 7), (4, 5)]}
    assert set(grid.values()) == {"AKs", "AKo", "77", "T9s"}


def test_cli_json_carries_the_class_grid(here: Callable[..., tuple[int, str, str]]) -> None:
    out = json.loads(here("range", "QQ+", "--json")[1])
    assert [[_layout_name(i, j) for j in range(13)] for i in range(13)] == out["grid"]
    assert {(r["row"], r["col"]): r["class"] for r in out["classes"]} == \
        {(i, i): RANKS[12 - i] * 2 for i in range(3)}


def test_cli_colour_on_request_only() -> None:
    escape = re.compile(r"\x1b\[[0-9;]*m")
    forced = _cli("range", "AKs,[50]AKo[/50]", env={"FORCE_COLOR": "1"}).stdout
    assert escape.search(forced)
    # the colours wrap the same text: stripped, the output is the plain one
    plain = _cli("range", "AKs,[50]AKo[/50]").stdout
    assert [ln.rstrip() for ln in escape.sub("", forced).splitlines()] == plain.splitlines()
    assert not escape.search(_cli("range", "AKs", env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout)
