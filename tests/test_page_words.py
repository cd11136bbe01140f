"""The page's words agree with its numbers (issue 37): no script writes a count straight before
a plural noun ("1 hands"); counts go through util.js ``count`` (the newcomer scenario in
tests/test_browser_newcomer.py reads "1 hand" on the page)."""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "pipeline" / "serve" / "static" / "js"
#: nouns the page counts
NOUNS = ("hands", "combos", "credits", "coins", "lines", "deals", "classes", "mistakes",
         "samples", "cards", "seats", "holds", "units")
#: a template value followed by a plural noun: `${t.hands} hands`
BARE = re.compile(r"\$\{[^{}]*\}\s+(live\s+)?(" + "|".join(NOUNS) + r")\b")


#: a template value written with decimals (`${x.toFixed(4)}`): an amount such as 1.0000, which
#: takes the plural, never a count
DECIMALS = re.compile(r"\.toFixed\([1-9]\)\}$")


def _counts_before_plurals(line: str) -> list[str]:
    return [m.group(0) for m in BARE.finditer(line)
            if not DECIMALS.search(line[:m.start() + m.group(0).index("}") + 1])]


def test_no_count_before_a_plural_noun() -> None:
    bad = [f"{p.name}:{i}: {line.strip()}" for p in sorted(STATIC.glob("*.js"))
           for i, line in enumerate(p.read_text().splitlines(), 1) if _counts_before_plurals(line)]
    assert bad == []


def test_probe_catches_the_old_trainer_line() -> None:
    assert BARE.search("`${v.name} · ${t.hands} hands · ${t.mistakes} mistakes`")
    assert not BARE.search("`${count(t.hands, 'hand')} · ${v.name}`")
    assert BARE.search("`${v.live_weighted} live combos · `")
    # a decimal amount takes the plural; a whole count beside it on the line is still caught
    assert not _counts_before_plurals("`${(x * stake).toFixed(6)} credits before rounding`")
    assert _counts_before_plurals("`${x.toFixed(2)} credits over ${t.hands} hands`") == ["${t.hands} hands"]
    assert _counts_before_plurals("`${x.toFixed(0)} credits`")

