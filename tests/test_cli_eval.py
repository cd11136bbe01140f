"""`pokertables eval` (text and --json), its error handling, and `build` when nothing changed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def pokertables(*args: str, artifacts: Path) -> subprocess.CompletedProcess[str]:
    """Run the console script (falling back to ``python -m pipeline``) against ``artifacts``."""
    exe = shutil.which("pokertables", path=str(Path(sys.executable).parent))
    cmd = [exe] if exe else [sys.executable, "-m", "pipeline"]
    return subprocess.run([*cmd, "--artifacts", str(artifacts), *args], capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, "COLUMNS": "200"})


def test_eval_text(artifacts: Path) -> None:
    r = pokertables("eval", "As Ks Qs Js Ts", artifacts=artifacts)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == ("As Ks Qs Js Ts: Ace-high straight flush (straight flush), "
                                "score 7462 of 7462 (Cactus Kev rank 1)")
    r = pokertables("eval", "2c", "3d", "4h", "5s", "7c", "8d", "9h", artifacts=artifacts)
    assert r.returncode == 0, r.stderr
    assert "Nine-high, 8-7-5-4" in r.stdout and "(high card)" in r.stdout


@pytest.mark.parametrize("cards,score,category,name", [
    ("AsKsQsJsTs", 7462, 8, "Ace-high straight flush"),
    ("ah ad 7c 7d 7h 2s", 7212, 6, "Sevens full of Aces"),
    ("Jc Jd As Kd 9h 2c 3c", None, 1, "Pair of Jacks, A-K-9 kickers"),
    ("10h 9h 8h 7h 6h 2c 2d", 7458, 8, "Ten-high straight flush"),
])
def test_eval_json(artifacts: Path, cards: str, score: int | None, category: int, name: str) -> None:
    r = pokertables("eval", cards, "--json", artifacts=artifacts)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert d["name"] == name and d["category"] == category
    assert d["category_name"] == ("straight flush", "full house", "pair")[[8, 6, 1].index(category)]
    if score is not None:
        assert d["score"] == score
    assert d["cactus_kev"] == 7463 - d["score"]
    assert len(d["cards"].split()) == len(cards.replace("10", "T").replace(" ", "")) // 2


@pytest.mark.parametrize("cards,needle", [
    ("As Ks Qs Js Xs", "'Xs'"),
    ("As Ks Qs Js Tz", "'Tz'"),
    ("As Ks Qs Js As", "duplicate card As"),
    ("As Ks Qs Js", "got 4"),
    ("As Ks Qs Js Ts 9s 8s 7s", "got 8"),
    ("", "got 0"),
])
def test_eval_bad_cards_one_line_exit_2(artifacts: Path, cards: str, needle: str) -> None:
    r = pokertables("eval", cards, artifacts=artifacts)
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert needle in lines[0]
    assert "Traceback" not in r.stderr and r.stdout == ""


def test_build_with_nothing_changed_skips_every_stage(built_here: Path) -> None:
    r = pokertables("build", "--json", artifacts=built_here)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    names = [s["name"] for s in d["stages"]]
    assert {"five", "six", "seven"} <= set(names)
    assert all(s["status"] == "skipped" for s in d["stages"]), d
    r = pokertables("build", "five", "six", "seven", artifacts=built_here)
    assert r.returncode == 0, r.stderr
    assert "nothing to do" in r.stdout
