"""The README's and docs/'s examples print what the pages say (numbers included): the
``$ command`` blocks (:mod:`doc_examples`) and the ```` ```python ```` blocks, which are doctests."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest
from doc_examples import ROOT, Example, examples, in_process_call, matches, recorded_failure, run

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


def test_only_plain_commands_run_in_the_test_process() -> None:
    """A ``pokertables`` command runs in this process only when the shell would pass its words
    as written (a ``|`` inside quotes is a word's), or feed it one quoted ``echo`` word; any
    other shell syntax runs in bash."""
    assert in_process_call('pokertables casino grade uth "Qh 6h | Kh 8h 2c" check  # x') == (
        ["casino", "grade", "uth", "Qh 6h | Kh 8h 2c", "check"], None)
    assert in_process_call('echo "AH 2C 3D" | pokertables showdown --rules ace-high-only') == (
        ["showdown", "--rules", "ace-high-only"], "AH 2C 3D\n")
    for shell in ('echo "$HAND" | pokertables showdown', 'printf "a\\nb" | pokertables showdown',
                  "pokertables eval As Ks > out.txt", "COLUMNS=100 pokertables vp chart x",
                  'pokertables eval "As $K"', "echo a | pokertables showdown | head -1",
                  "pokertables vp list && pokertables vp list", "python -m pipeline eval As"):
        assert in_process_call(shell) is None, shell


def test_the_checker_passes_over_a_slow_runs_progress_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """A query that runs for 10 s with stderr off a terminal adds a progress line: an example's
    first run in a checkout whose numba cache is cold (games.md's omaha6 Monte Carlo compiling,
    17 s) printed ``equity: 100.0% 200,000 deals (17s)`` under its table, and failed. The line
    the CLI really writes is passed over, nothing else is."""
    import io

    import pipeline.cli.common as common

    clock = [0.0]
    monkeypatch.setattr(common.time, "perf_counter", lambda: clock[0])
    err = io.StringIO()  # not a terminal, as a captured stderr
    monkeypatch.setattr(common.sys, "stderr", err)
    update, close = common.progress_bar()
    clock[0] = 17.0
    update(1.0, "200,000 deals")
    close()
    progress = err.getvalue().splitlines()
    assert progress == ["equity: 100.0% 200,000 deals (17s)"], progress
    assert matches(["Monte Carlo", "  hero 47.005"], ["Monte Carlo", "  hero 47.005", *progress])
    assert not matches(["Monte Carlo", "  hero 47.005"], ["Monte Carlo", "  hero 47.006", *progress])
    assert not matches(["Monte Carlo"], ["Monte Carlo", "equity: a progress line?"])


def test_the_checker_refuses_a_recorded_failure() -> None:
    """An ``error:`` line is recorded only by a marked example; a traceback never (issue 29: the
    config-folder example recorded an error and a 14-line traceback, and passed)."""
    def ex(command: str, *out: str) -> Example:
        return Example(ROOT / "README.md", 0, command, list(out))

    assert recorded_failure(ex("pokertables eval As", "error: expected 5, 6 or 7 cards")) is not None
    assert recorded_failure(ex("pokertables eval As  # error example", "error: expected 5, 6 or 7 cards")) is None
    assert recorded_failure(ex("pokertables eval As  # error example", "As: ...")) is not None
    assert recorded_failure(ex("x | python -c 'import json'", "Traceback (most recent call last):",
                               '  File "<string>", line 1')) is not None
    assert recorded_failure(ex("pokertables eval As  # error example", "error: x", "Traceback (most recent "
                               "call last):")) is not None
    assert recorded_failure(ex("pokertables equity AK", "internal error: KeyError: 3")) is not None
    assert recorded_failure(ex("pokertables eval AsKsQsJsTs", "As Ks Qs Js Ts: Royal flush")) is None


@pytest.mark.parametrize("ex", EXAMPLES, ids=lambda e: f"{e.page.name}:{e.line}")
def test_no_example_records_an_unmarked_failure(ex: Example) -> None:
    assert recorded_failure(ex) is None, f"{ex.page.name}:{ex.line}: $ {ex.command}: {recorded_failure(ex)}"


#: What each command printed, by its text: a command two pages show (the README's front-page
#: examples recur in docs/commands.md) runs once, in a fresh folder as every example does, so
#: its second page is compared with the same run (a vp break-even search alone costs seconds).
PRINTED: dict[str, list[str]] = {}


@pytest.mark.parametrize("ex", EXAMPLES, ids=lambda e: f"{e.page.name}:{e.line}")
def test_example_prints_what_the_page_says(ex: Example, artifacts: Path, tmp_path: Path) -> None:
    assert recorded_failure(ex) is None, recorded_failure(ex)
    if ex.command not in PRINTED:
        PRINTED[ex.command] = run(ex, tmp_path, artifacts)
    got = PRINTED[ex.command]
    assert matches(ex.expected, got), "\n".join(
        [f"{ex.page.name}:{ex.line}: $ {ex.command}", "--- page", *ex.expected, "--- printed", *got])


# ---------------------------------------------------------------- Python examples (doctests)
PYTHON_FENCE = re.compile(r"^```python\s*$")


def python_examples(page: Path) -> list[tuple[int, str]]:
    """(line of the first code line, text) of every ```` ```python ```` block of a page."""
    out: list[tuple[int, str]] = []
    lines = page.read_text().splitlines()
    start: int | None = None
    for i, ln in enumerate(lines, 1):
        if start is None and PYTHON_FENCE.match(ln):
            start = i + 1
        elif start is not None and ln.startswith("```"):
            out.append((start, "\n".join(lines[start - 1:i - 1]) + "\n"))
            start = None
    return out


PYTHON_EXAMPLES = [(page, line, text) for page in PAGES for line, text in python_examples(page)]


def test_every_python_block_is_a_doctest() -> None:
    """A Python block the test could not check (no ``>>>``) would go stale unseen."""
    assert any(page.name == "README.md" for page, _, _ in PYTHON_EXAMPLES)
    assert [f"{page.name}:{line}" for page, line, text in PYTHON_EXAMPLES if ">>> " not in text] == []


@pytest.mark.parametrize(("page", "line", "text"), PYTHON_EXAMPLES,
                         ids=[f"{page.name}:{line}" for page, line, _ in PYTHON_EXAMPLES])
def test_python_example_prints_what_the_page_says(page: Path, line: int, text: str, artifacts: Path,
                                                  tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The block run as a doctest in a folder whose ``artifacts`` is the built one."""
    (tmp_path / "artifacts").symlink_to(artifacts)
    monkeypatch.chdir(tmp_path)
    test = doctest.DocTestParser().get_doctest(text, {}, f"{page.name}:{line}", str(page), line - 1)
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=report.append, clear_globs=True)
    assert runner.tries == text.count(">>> ") and runner.failures == 0, "".join(report)
