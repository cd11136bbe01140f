"""Issue 20, end to end through `vp analyze`: a config folder's paytable with a fractional pay
gets a bracketed long-run ruin, not a certain one (item 3), and a huge royal skips the
finite-horizon ruin with a note instead of running for minutes (item 16). Neither needs the
built artifacts: the paytables are solved in the command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cli_runner import run_cli

ROOT = Path(__file__).resolve().parent.parent
JOB96 = ROOT / "pipeline" / "data" / "paytables" / "jacks-or-better-9-6.toml"


def _variant(cfg: Path, slug: str, line: str, pays: str) -> None:
    """``cfg/paytables/<slug>.toml``: 9/6 Jacks or Better with ``line`` paying ``pays``."""
    src = JOB96.read_text()
    old = f'hand = "{line}"\n'
    at = src.index(old)
    head, tail = src[:at + len(old)], src[at + len(old):]
    assert tail.startswith("pays = "), tail[:40]
    tail = tail.split("\n", 1)[1]
    (cfg / "paytables").mkdir(parents=True, exist_ok=True)
    (cfg / "paytables" / f"{slug}.toml").write_text(
        head.replace('name = "Jacks or Better 9/6"', f'name = "9/6 with {line} {pays}"')
        + f"pays = {pays}\n" + tail)


def _analyze(tmp_path: Path, slug: str) -> dict[str, Any]:
    r = run_cli("-a", str(tmp_path / "arts"), "--config-dir", str(tmp_path / "cfg"), "vp", "analyze",
                slug, "--json", cwd=tmp_path, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    doc: dict[str, Any] = json.loads(r.stdout)
    return doc


@pytest.mark.full_tier  # builds or solves for seconds: not the fast tier
def test_fractional_two_pair_gives_bracketed_long_run_ruin(tmp_path: Path) -> None:
    """Item 3: two pair paying 2.5 makes 9/6 a 106% game; its long-run risk of ruin is below 1
    at every bankroll, with a positive error bound (a fractional pay is bracketed, not exact),
    and it falls as the bankroll grows."""
    _variant(tmp_path / "cfg", "jacks-tp-2-5", "two pair", "2.5")
    doc = _analyze(tmp_path, "jacks-tp-2-5")
    assert doc["name"] == "9/6 with two pair 2.5"
    assert doc["return"] > 1.05
    ruin = doc["bankroll"]["risk_of_ruin"]
    assert 0 < ruin["long_run_rho"] < 1
    rows = ruin["long_run"]
    assert len(rows) >= 3
    for row in rows:
        assert 0 < row["risk_of_ruin"] < 1, row
        assert row["error_bound"] > 0, row
        assert row["risk_of_ruin"] + row["error_bound"] < 1, row
    risks = [row["risk_of_ruin"] for row in sorted(rows, key=lambda r: r["bankroll"])]
    assert risks == sorted(risks, reverse=True)


def test_huge_royal_skips_the_finite_ruin_with_a_note(tmp_path: Path) -> None:
    """Item 16: a royal of 1,000,000 would need millions of bankroll states times 10,000 hands;
    `vp analyze` says it skipped that (the command finishes in seconds; the generous timeout
    only guards a hang) and still gives the long-run figures."""
    _variant(tmp_path / "cfg", "jacks-royal-1m", "royal flush", "1000000")
    doc = _analyze(tmp_path, "jacks-royal-1m")
    assert doc["lines"][0]["hand"] == "royal flush" and doc["lines"][0]["pays"] == 1_000_000
    ruin = doc["bankroll"]["risk_of_ruin"]
    assert ruin["note"].startswith("risk of ruin within 10,000 hands skipped: "), ruin["note"]
    assert "steps (pays too large or too finely divided)" in ruin["note"]
    assert "rows" not in ruin
    assert ruin["long_run"] and all(0 < row["risk_of_ruin"] < 1 for row in ruin["long_run"])
