"""The README's and docs/'s command examples print what the pages say (numbers included)."""

from __future__ import annotations

from pathlib import Path

import pytest
from doc_examples import ROOT, Example, examples, matches, run

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
EXAMPLES = [ex for page in PAGES for ex in examples(page)]
#: README is a front page: short
README_MAX_LINES = 250


def test_the_pages_have_examples() -> None:
    assert len(EXAMPLES) >= 30
    assert len((ROOT / "README.md").read_text().splitlines()) <= README_MAX_LINES


def test_the_checker_sees_a_wrong_number() -> None:
    ex = Example(ROOT / "README.md", 0, "echo 'return 0.995439 in 0.04 s'", [])
    assert matches(["return 0.995439 in 9.99 s"], ["return 0.995439 in 0.04 s"])
    assert not matches(["return 0.995438 in 0.04 s"], ["return 0.995439 in 0.04 s"])
    assert matches(["a", "...", "z"], ["a", "b", "c", "z"]) and not matches(["a", "z"], ["a", "b", "z"])
    assert ex.command.startswith("echo")


@pytest.mark.parametrize("ex", EXAMPLES, ids=lambda e: f"{e.page.name}:{e.line}")
def test_example_prints_what_the_page_says(ex: Example, artifacts: Path, tmp_path: Path) -> None:
    got = run(ex, tmp_path, artifacts)
    assert matches(ex.expected, got), "\n".join(
        [f"{ex.page.name}:{ex.line}: $ {ex.command}", "--- page", *ex.expected, "--- printed", *got])
