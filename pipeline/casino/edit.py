"""Editing a game's pays in place: ``--pay "straight=2"`` (the CLI, repeatable) and the API's
``pay: [...]``, exactly as ``vp --pay`` edits a paytable. LINE is a line's label or hand in any
of the game's pay tables, or ``TABLE:LINE`` when several tables have it; ``meter=N`` sets a
progressive's meter. The edited game lives in memory: its digest is new (no built artifact
matches it), so it is solved now, and its name says what changed.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from fractions import Fraction

from pipeline.casino.game import MAX_METER, Game, PayTable
from pipeline.errors import InputError, clip
from pipeline.videopoker.paytables.edit import MAX_EDITS, pay_text
from pipeline.videopoker.paytables.paytable import check_pay

METER = "meter"


def _key(text: str) -> str:
    return " ".join(text.lower().split())


def find_line(game: Game, name: str) -> tuple[str, int]:
    """(table name, line index) that ``name`` calls; :class:`InputError` lists the lines."""
    table_name, _, line_name = name.rpartition(":")
    key = _key(line_name)
    tables = [t for t in game.tables.values() if not table_name or _key(table_name) == t.name]
    by_label = [(t.name, i) for t in tables for i, ln in enumerate(t.lines) if _key(ln.label) == key]
    by_hand = [(t.name, i) for t in tables for i, ln in enumerate(t.lines) if ln.hand == key]
    found = by_label or by_hand
    if len(found) == 1:
        return found[0]
    every = "; ".join(f"{t.name}: {', '.join(ln.label for ln in t.lines)}" for t in game.tables.values())
    if found:
        raise InputError(f"pay line {clip(name)} of {game.name} is ambiguous; name one as TABLE:LINE ({every})")
    raise InputError(f"unknown pay line {clip(name)} in {game.name}; its lines: {every}")


def _number(edit: str, text: str) -> Fraction:
    def bad(msg: str) -> InputError:
        return InputError(f"pay edit {clip(edit)}: {msg}")

    try:
        value: int | float = int(text)
    except ValueError:
        try:
            value = float(text)
        except ValueError:
            raise bad(f"pay {clip(text)} is not a number") from None
    return check_pay(value, bad)


def edit_game(game: Game, edits: Sequence[str]) -> Game:
    """The game with each ``"LINE=PAY"`` edit applied, named as edited, with a digest of its own.
    A line edited twice, an unknown line or a bad number is an :class:`InputError`."""
    if isinstance(edits, str):
        edits = [edits]
    if len(edits) > MAX_EDITS:
        raise InputError(f"{len(edits)} pay edits; at most {MAX_EDITS}")
    pays: dict[tuple[str, int], Fraction] = {}
    meter = game.meter
    said = []
    for e in edits:
        if not isinstance(e, str) or "=" not in e:
            raise InputError(f"pay edit {clip(e)}: write LINE=PAY, e.g. \"straight=2\"")
        name, _, value = e.rpartition("=")
        if not name.strip():
            raise InputError(f"pay edit {clip(e)}: no line name before '='")
        number = _number(e, value.strip())
        if _key(name) == METER and not any(ln.label == METER for t in game.tables.values() for ln in t.lines):
            if not any(ln.meter_share for t in game.tables.values() for ln in t.lines):
                raise InputError(f"pay edit {clip(e)}: {game.name} has no progressive meter")
            if number > MAX_METER:
                raise InputError(f"pay edit {clip(e)}: the meter is at most {MAX_METER:,}")
            meter = number
            said.append(f"meter={pay_text(number)}")
            continue
        where = find_line(game, name)
        if where in pays:
            raise InputError(f"pay line {game.tables[where[0]].lines[where[1]].label!r} is edited twice")
        line = game.tables[where[0]].lines[where[1]]
        if line.meter_share:
            raise InputError(f"pay edit {clip(e)}: {line.label} pays a share of the meter; edit meter=N")
        pays[where] = number
        said.append(f"{line.label}={pay_text(number)}")
    if not said:
        return game
    tables = {}
    for tname, t in game.tables.items():
        lines = tuple(dataclasses.replace(ln, pays=pays[(tname, i)]) if (tname, i) in pays else ln
                      for i, ln in enumerate(t.lines))
        tables[tname] = PayTable(t.name, t.ranking, lines, t.otherwise)
    h = hashlib.sha256(f"{game.digest}\0edited\0{meter}\0".encode())
    for t in tables.values():
        for ln in t.lines:
            h.update(f"{t.name}:{ln.label}={ln.pays}\0".encode())
    return dataclasses.replace(game, tables=tables, meter=meter, name=f"{game.name} (edited: {', '.join(said)})",
                               digest=h.hexdigest(), edited=game.edited + tuple(said))


__all__ = ["find_line", "edit_game", "METER"]
