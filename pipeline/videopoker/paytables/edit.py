"""Editing a paytable's pays in place: ``--pay "full house=8"`` (the CLI, repeatable) and the
API's ``pay: ["full house=8"]``. The edited game lives in memory only: it gets a digest no
built artifact has, so every command solves it exactly now and nothing is read from or written
under ``artifacts/``; its name says what changed ("Jacks or Better 9/6 (edited: full house=8)").
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from fractions import Fraction

from pipeline.core.strict_numbers import INTEGER, strict_float, strict_int
from pipeline.errors import InputError, clip
from pipeline.videopoker.paytables.paytable import Paytable, check_pay

#: most edits one game takes (a table has at most a few dozen lines)
MAX_EDITS = 64


#: players' short names of the pay lines (any case), each the hand it pays: ``royal=4000``,
#: ``4K=50``, ``fh=8``
ALIASES = {
    "royal": "royal flush", "rf": "royal flush", "sf": "straight flush",
    "quads": "four of a kind", "4k": "four of a kind", "4oak": "four of a kind", "4 of a kind": "four of a kind",
    "fh": "full house", "boat": "full house", "fl": "flush", "st": "straight", "str": "straight",
    "trips": "three of a kind", "3k": "three of a kind", "3oak": "three of a kind", "3 of a kind": "three of a kind",
    "2p": "two pair", "tp": "two pair", "two pairs": "two pair", "high pair": "pair", "jacks": "pair",
    "jb": "pair", "5k": "five of a kind", "5oak": "five of a kind", "wild royal": "wild royal flush",
    "wrf": "wild royal flush", "4 deuces": "four deuces", "deuces": "four deuces",
}


def _key(text: str) -> str:
    """A line name as compared: lower case, single spaces."""
    return " ".join(text.lower().split())


def find_pay_line(pt: Paytable, name: str) -> int:
    """Index of the line ``name`` calls (its label, a players' short name of :data:`ALIASES`, or
    its hand when one line pays that hand), case-insensitive; ``InputError`` naming it and
    listing the lines otherwise."""
    key = _key(name)
    for i, ln in enumerate(pt.lines):
        if _key(ln.label) == key:
            return i
    key = ALIASES.get(key, key)
    for i, ln in enumerate(pt.lines):
        if _key(ln.label) == key:
            return i
    by_hand = [i for i, ln in enumerate(pt.lines) if ln.hand == key]
    if len(by_hand) == 1:
        return by_hand[0]
    lines = ", ".join(ln.label for ln in pt.lines)
    if by_hand:
        raise InputError(f"pay line {clip(name)} of {pt.name} is ambiguous: several lines pay "
                         f"{key}; name one of: {lines}")
    raise InputError(f"unknown pay line {clip(name)} in {pt.name}; its lines: {lines}")


def pay_text(p: Fraction) -> str:
    """A pay as written: ``8``, ``2.5``."""
    return str(p.numerator) if p.denominator == 1 else f"{float(p):g}"


def parse_pay_edit(pt: Paytable, edit: str) -> tuple[int, Fraction]:
    """``"full house=8"`` -> (line index, new pay); ``InputError`` naming what is wrong."""
    if not isinstance(edit, str) or "=" not in edit:
        raise InputError(f"pay edit {clip(edit)}: write LINE=PAY, e.g. \"full house=8\"")
    name, _, value = edit.rpartition("=")
    if not name.strip():
        raise InputError(f"pay edit {clip(edit)}: no line name before '='")
    line = find_pay_line(pt, name)
    text = value.strip()

    def bad(msg: str) -> InputError:
        return InputError(f"pay edit {clip(edit)}: {msg}")

    # ASCII digits only: int() and float() would read "٨" as 8 and "8_0" as 80
    try:
        number: int | float = strict_int(text) if INTEGER.fullmatch(text) else strict_float(text)
    except ValueError:
        what = "a finite number" if text.strip("+-").lower() in ("nan", "inf", "infinity") else "a number"
        raise bad(f"pay {clip(text)} is not {what} (digits 0-9 and a decimal point)") from None
    return line, check_pay(number, bad)


def edit_pays(pt: Paytable, edits: Sequence[str]) -> Paytable:
    """The paytable with each ``"LINE=PAY"`` edit applied (LINE: a line's label or hand, any
    case), named ``"<name> (edited: full house=8, flush=5)"``, with a digest of its own (no
    built artifact matches it). A line edited twice or a bad edit is an ``InputError``."""
    if isinstance(edits, str):
        edits = [edits]
    if len(edits) > MAX_EDITS:
        raise InputError(f"{len(edits)} pay edits; at most {MAX_EDITS}")
    pays = {}
    for e in edits:
        line, pay = parse_pay_edit(pt, e)
        if line in pays:
            raise InputError(f"pay line {pt.lines[line].label!r} is edited twice")
        pays[line] = pay
    if not pays:
        return pt
    lines = tuple(dataclasses.replace(ln, pays=pays[i]) if i in pays else ln
                  for i, ln in enumerate(pt.lines))
    said = ", ".join(f"{pt.lines[i].label}={pay_text(p)}" for i, p in sorted(pays.items()))
    h = hashlib.sha256(f"{pt.digest}\0edited\0".encode())
    for ln in lines:
        h.update(f"{ln.label}={ln.pays}\0".encode())
    return dataclasses.replace(pt, lines=lines, name=f"{pt.name} (edited: {said})", digest=h.hexdigest())


def edits_said(pt: Paytable, edits: Sequence[str]) -> str:
    """The edits as pays per credit bet, each with the pay it replaces: ``"four of a kind pays
    50 per credit (was 25)"`` (what the CLI prints above an edited game's figures)."""
    out = []
    for e in [edits] if isinstance(edits, str) else edits:
        line, pay = parse_pay_edit(pt, e)
        ln = pt.lines[line]
        out.append(f"{ln.label} pays {pay_text(pay)} per credit (was {pay_text(ln.pays)})")
    return "; ".join(out)


__all__ = ["edit_pays", "edits_said", "find_pay_line", "parse_pay_edit", "ALIASES", "MAX_EDITS"]
