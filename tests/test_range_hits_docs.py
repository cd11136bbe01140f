"""The ``$ pokertables ...`` examples in docs/ranges.md and docs/hits.md print exactly what the
pages show (stdout and stderr together, as a terminal would)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("docs/ranges.md", "docs/hits.md")
_BLOCK = re.compile(r"```console\n(.*?)```", re.DOTALL)


def _examples(page: str) -> list[tuple[str, str]]:
    """(command line, expected output) of each example of a page."""
    out = []
    for block in _BLOCK.findall((ROOT / page).read_text()):
        for chunk in re.split(r"^(?=\$ )", block, flags=re.MULTILINE):
            if chunk.startswith("$ pokertables "):
                cmd, _, expected = chunk.partition("\n")
                out.append((cmd[2:], expected.rstrip("\n")))
    return out


EXAMPLES = [(page, cmd, want) for page in PAGES for cmd, want in _examples(page)]


def test_every_page_has_examples() -> None:
    assert {page for page, _, _ in EXAMPLES} == set(PAGES) and len(EXAMPLES) >= 7


@pytest.mark.parametrize("page,cmd,want", EXAMPLES, ids=[c for _, c, _ in EXAMPLES])
def test_example_prints_what_the_page_shows(artifacts, page: str, cmd: str, want: str) -> None:  # type: ignore[no-untyped-def]
    env = {**os.environ, "POKERTABLES_ARTIFACTS": str(artifacts)}
    r = subprocess.run([sys.executable, "-m", "pipeline", *shlex.split(cmd)[1:]], cwd=ROOT, env=env,
                       capture_output=True, text=True, check=False)
    assert (r.stdout + r.stderr).rstrip("\n") == want, page
