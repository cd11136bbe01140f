"""The five-card showdown judge: lines of ten cards -> ``Black wins.`` / ``White wins.`` / ``Tie.``

Each line holds ten cards, the first five Black's and the last five White's, e.g.
``2H 3D 5S 9C KD 2C 3H 4S 8C AH`` (ZOJ 1111 style; any case, ``10`` for ``T``, cards may be
written together). Hands compare by the 5-card score alone, so suits never break ties.

The whole input is parsed and judged in one numba pass over its bytes (no Python object per
line); only bad lines go back through :func:`pipeline.core.cards.parse_cards` for a message that
names the bad token. Blank lines are skipped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numba as nb
import numpy as np

if TYPE_CHECKING:
    from pipeline.rules import RuleSet

from pipeline.core.cards import BINOM, parse_cards
from pipeline.core.combos import sort_small

VERDICTS = ("Black wins.", "White wins.", "Tie.")
OK, BLANK, BAD = 0, 1, 2

# byte -> rank (0..12), 13 for the '1' of "10", -1 otherwise; byte -> suit (0..3) or -1
_RANK = np.full(256, -1, np.int8)
for _i, _ch in enumerate("23456789TJQKA"):
    _RANK[ord(_ch)] = _i
    _RANK[ord(_ch.lower())] = _i
_RANK[ord("1")] = 13
_SUIT = np.full(256, -1, np.int8)
for _i, _ch in enumerate("CDHS"):
    _SUIT[ord(_ch)] = _i
    _SUIT[ord(_ch.lower())] = _i
_SEP = np.zeros(256, np.uint8)
for _ch in " \t,;\r":
    _SEP[ord(_ch)] = 1


@nb.njit(cache=True)
def _line_starts(buf: np.ndarray) -> np.ndarray:
    """Start offset of every line, plus len(buf) (+1 if the last line has no newline)."""
    n = buf.shape[0]
    cnt = 0
    for i in range(n):
        if buf[i] == 10:
            cnt += 1
    last_open = n > 0 and buf[n - 1] != 10
    out = np.empty(cnt + 2 if last_open else cnt + 1, np.int64)
    out[0] = 0
    k = 1
    for i in range(n):
        if buf[i] == 10:
            out[k] = i + 1
            k += 1
    if last_open:
        out[k] = n + 1
    return out


@nb.njit(cache=True)
def _colex5(c: np.ndarray, binom: np.ndarray) -> int:
    """Colex index of 5 card ids (any order)."""
    x = c.copy()
    sort_small(x, 5)
    return binom[x[0], 1] + binom[x[1], 2] + binom[x[2], 3] + binom[x[3], 4] + binom[x[4], 5]


@nb.njit(cache=True, parallel=True)
def judge_buffer(buf: np.ndarray, starts: np.ndarray, rank_of: np.ndarray, suit_of: np.ndarray,
                 sep: np.ndarray, table5: np.ndarray, binom: np.ndarray, offset: int,
                 status: np.ndarray, verdict: np.ndarray) -> None:
    """Parse and judge every line: status[i] OK/BLANK/BAD, verdict[i] 0 Black, 1 White, 2 Tie.

    ``offset`` maps card ids to a short deck's local ids (``id - offset``; lower cards are bad).
    """
    nl = starts.shape[0] - 1
    for li in nb.prange(nl):
        a = starts[li]
        b = starts[li + 1] - 1  # exclusive end (drops the newline)
        cards = np.empty(10, np.int64)
        k = 0
        seen = np.int64(0)
        bad = False
        p = a
        while p < b:
            ch = buf[p]
            if sep[ch]:
                p += 1
                continue
            r = rank_of[ch]
            if r < 0:
                bad = True
                break
            if r == 13:  # "10"
                if p + 1 < b and buf[p + 1] == 48:
                    r = 8
                    p += 1
                else:
                    bad = True
                    break
            if p + 1 >= b or suit_of[buf[p + 1]] < 0 or k >= 10:
                bad = True
                break
            c = 4 * r + suit_of[buf[p + 1]] - offset
            if c < 0:
                bad = True
                break
            bit = np.int64(1) << c
            if seen & bit:
                bad = True
                break
            seen |= bit
            cards[k] = c
            k += 1
            p += 2
        if bad:
            status[li] = BAD
            continue
        if k == 0:
            status[li] = BLANK
            continue
        if k != 10:
            status[li] = BAD
            continue
        sb = table5[_colex5(cards[:5], binom)]
        sw = table5[_colex5(cards[5:], binom)]
        status[li] = OK
        verdict[li] = 0 if sb > sw else (1 if sw > sb else 2)


@nb.njit(cache=True)
def render(status: np.ndarray, verdict: np.ndarray, words: np.ndarray, lens: np.ndarray) -> np.ndarray:
    """The output bytes: one verdict line per OK line, in input order."""
    total = 0
    for i in range(status.shape[0]):
        if status[i] == 0:
            total += lens[verdict[i]] + 1
    out = np.empty(total, np.uint8)
    p = 0
    for i in range(status.shape[0]):
        if status[i] == 0:
            v = verdict[i]
            for t in range(lens[v]):
                out[p] = words[v, t]
                p += 1
            out[p] = 10
            p += 1
    return out


@dataclass
class Judgement:
    """Result of judging an input: verdict text (bytes), codes per line, and bad-line messages."""

    output: bytes
    status: np.ndarray
    verdict: np.ndarray
    errors: list[tuple[int, str]]


def judge(data: bytes, table5: np.ndarray, rules: RuleSet | None = None) -> Judgement:
    """Judge every line of ``data`` against the 5-card score table (see module docstring).

    ``rules`` (a :class:`pipeline.rules.RuleSet`) judges under another rule set with its own
    table. ``errors`` lists (1-based line number, message) for lines that are not ten
    distinct cards of the deck.
    """
    offset = 4 * rules.lowest_rank if rules is not None else 0
    buf = np.frombuffer(data, dtype=np.uint8)
    starts = _line_starts(buf)
    n = starts.shape[0] - 1
    status = np.empty(n, np.uint8)
    verdict = np.zeros(n, np.uint8)
    judge_buffer(buf, starts, _RANK, _SUIT, _SEP, table5, BINOM, offset, status, verdict)
    width = max(len(v) for v in VERDICTS)
    words = np.zeros((3, width), np.uint8)
    lens = np.array([len(v) for v in VERDICTS], np.int64)
    for j, v in enumerate(VERDICTS):
        words[j, :len(v)] = np.frombuffer(v.encode(), np.uint8)
    out = render(status, verdict, words, lens).tobytes()
    errors = []
    for i in np.flatnonzero(status == BAD):
        line = data[starts[i]:max(starts[i], starts[i + 1] - 1)].decode("utf-8", "replace")
        try:
            ids = parse_cards(line, count=10)
            msg = f"expected ten cards: {line.strip()!r}"
            if rules is not None:
                rules.local_ids(np.asarray(ids))  # raises naming the card
        except ValueError as exc:
            msg = str(exc)
        errors.append((int(i) + 1, msg))
    return Judgement(out, status, verdict, errors)


__all__ = ["judge", "Judgement", "VERDICTS"]
