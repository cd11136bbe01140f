"""Answers of the hands group: ``eval`` (score, category and name of a 5-, 6- or 7-card hand) and
``showdown`` (judge lines of ten cards: Black's five, then White's five)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypedDict

from pipeline.answers import Context

#: the rule set the commands use when none is named
STANDARD = "standard"


class LineError(TypedDict):
    """A showdown line that could not be judged: its number (from 1) and why."""

    line: int
    message: str


class ShowdownAnswer(TypedDict):
    """``showdown --json``: lines read, lines judged, the count of each verdict, each judged
    line's verdict in order and each bad line's error."""

    lines: int
    judged: int
    counts: dict[str, int]
    verdicts: list[str]
    errors: list[LineError]


def eval_hand(ctx: Context, cards: str, rules: str = STANDARD) -> dict[str, Any]:
    """``eval --json``: the hand's score, category and name (under ``rules``)."""
    from pipeline.core.cards import parse_cards

    ids = parse_cards(cards, count=(5, 6, 7))
    return ctx.tables(rules).describe(ids)


def showdown_chunks(ctx: Context, chunks: Iterable[bytes], rules: str = STANDARD) -> ShowdownAnswer:
    """``showdown --json`` of input given as pieces of whole lines: counts, each judged line's
    verdict and each bad line's message (line numbers from 1)."""
    from pipeline.showdown import VERDICTS, judge

    tables = ctx.tables(rules)
    table5 = tables.table(5)
    counts = [0] * len(VERDICTS)
    verdicts: list[str] = []
    errors: list[LineError] = []
    lines = 0
    for chunk in chunks:
        res = judge(chunk, table5, tables.rules)
        errors += [{"line": lines + ln, "message": msg} for ln, msg in res.errors]
        codes = res.verdict[res.status == 0]
        for i in range(len(VERDICTS)):
            counts[i] += int((codes == i).sum())
        verdicts += [VERDICTS[c] for c in codes.tolist()]
        lines += int(res.status.shape[0])
    return {"lines": lines, "judged": sum(counts),
            "counts": {v: counts[i] for i, v in enumerate(VERDICTS)},
            "verdicts": verdicts, "errors": errors}


def showdown(ctx: Context, lines: Sequence[str], rules: str = STANDARD) -> ShowdownAnswer:
    """``showdown --json`` of the given lines (each ten cards)."""
    text = "".join(f"{ln}\n" for ln in lines).encode()
    return showdown_chunks(ctx, [text] if text else [], rules)
