"""The five-card showdown judge: verdicts, ties, ZOJ 1111 input, bad lines, bulk input."""

from __future__ import annotations

import numpy as np
import pytest
from cli_runner import run_main

from pipeline.showdown import judge

ZOJ_IN = """2H 3D 5S 9C KD 2C 3H 4S 8C AH
2H 4S 4C 2D 4H 2S 8S AS QS 3S
2H 3D 5S 9C KD 2C 3H 4S 8C KH
2H 3D 5S 9C KD 2D 3H 5C 9S KH
"""
ZOJ_OUT = "White wins.\nBlack wins.\nBlack wins.\nTie.\n"


def _run(capsys, artifacts, text: str, *args: str):
    return run_main(capsys, "--artifacts", str(artifacts), "showdown", *args, stdin=text)


def test_zoj_1111_sample(capsys, artifacts) -> None:
    assert _run(capsys, artifacts, ZOJ_IN) == (0, ZOJ_OUT, "")


@pytest.mark.parametrize("line,verdict", [
    ("AH KH QH JH TH AS KS QS JS TS", "Tie."),                 # royal vs royal: suits never break ties
    ("AH 2D 3C 4S 5H 6D 7C 8S 9H TD", "White wins."),         # 6-high straight beats the wheel
    ("AH 2D 3C 4S 5H KD KC 8S 9H TD", "Black wins."),         # wheel beats a pair
    ("2C 2D 2H 5S 5H AC AD AH KS QS", "Black wins."),         # full house beats trips
    ("9C 9D 4H 4S AH 9H 9S 4C 4D KD", "Black wins."),         # two pair, decided by kicker
    ("9C 9D 4H 4S AH 9H 9S 4C 4D AD", "Tie."),                # identical ranks
    ("2s 3s 4s 5s 7s 2h 3h 4h 5h 7h", "Tie."),                # equal flushes
    ("10h jh qh kh 9h 9c 9d 9s 2c 2d", "Black wins."),        # '10' accepted; straight flush > quads
    ("2h3d5s9ckd 2c3h4s8cah", "White wins."),                 # cards written together
])
def test_verdicts(capsys, artifacts, line, verdict) -> None:
    assert _run(capsys, artifacts, line + "\n") == (0, verdict + "\n", "")


def test_bad_lines_named_and_rest_answered(capsys, artifacts) -> None:
    text = ("2H 3D 5S 9C KD 2C 3H 4S 8C AH\n"
            "2H 3D 5S 9C KD 2C 3H 4S 8C\n"          # nine cards
            "\n"                                    # blank: skipped silently
            "2H 3D 5S 9C KD 2C 3H 4S 8C 1H\n"       # bad token
            "AH AH 3S 4S 5S 6S 7S 8S 9S TS\n"       # duplicate
            "2H 3D 5S 9C KD 2D 3H 5C 9S KH")        # no final newline
    code, out, err = _run(capsys, artifacts, text)
    assert code == 2
    assert out == "White wins.\nTie.\n"
    lines = err.strip().splitlines()
    assert lines[0].startswith("error: line 2:") and "expected 10 cards" in lines[0]
    assert lines[1].startswith("error: line 4:") and "bad card" in lines[1]
    assert lines[2].startswith("error: line 5:") and "duplicate card Ah" in lines[2]


def test_file_argument_and_json(capsys, artifacts, tmp_path) -> None:
    p = tmp_path / "hands.txt"
    p.write_text(ZOJ_IN)
    code, out, _ = _run(capsys, artifacts, "", str(p))
    assert (code, out) == (0, ZOJ_OUT)
    import json

    code, out, _ = _run(capsys, artifacts, ZOJ_IN, "--json")
    d = json.loads(out)
    assert d["counts"] == {"Black wins.": 2, "White wins.": 1, "Tie.": 1} and d["errors"] == []


def test_bulk_matches_score_lookups(tables) -> None:
    rng = np.random.default_rng(7)
    n = 20_000
    deals = np.argsort(rng.random((n, 52)), axis=1)[:, :10]
    ranks = np.array(list("23456789TJQKA"))
    suits = np.array(list("CDHS"))
    text = "\n".join(" ".join(ranks[c >> 2] + suits[c & 3] for c in row) for row in deals) + "\n"
    res = judge(text.encode(), tables.table(5))
    sb = tables.score5(deals[:, :5])
    sw = tables.score5(deals[:, 5:])
    want = np.where(sb > sw, 0, np.where(sw > sb, 1, 2))
    assert res.errors == [] and np.array_equal(res.verdict, want)
