"""``pokertables range EXPR``: the 13x13 grid of a range, its weights, combos and live combos."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import typer

from pipeline.cli.app import app, artifacts_dir

if TYPE_CHECKING:  # the CLI loads numpy only for the commands that compute
    import numpy as np

#: Width of one grid cell in characters.
CELL = 6
#: Digits kept when a weight is shown as a decimal.
WEIGHT_DIGITS = 4


def strength_loader() -> Callable[[], np.ndarray]:
    """A callable giving the ``N%`` ordering, reading preflop.h5 only when a token needs it."""
    def get() -> np.ndarray:
        from pipeline.equity.preflop_tables import hand_strength
        from pipeline.errors import ArtifactError, InputError
        from pipeline.query.tables import Tables

        try:
            return hand_strength(Tables(artifacts_dir()))
        except ArtifactError as exc:
            raise InputError(f"a top-% range needs the preflop table: {exc}") from None
    return get


def number(x: Fraction) -> int | float:
    """An exact count as an int when whole, else the nearest float (for JSON and text)."""
    return int(x) if x.denominator == 1 else float(x)


def _weight_text(w: Fraction) -> str:
    s = f"{float(w):.{WEIGHT_DIGITS}g}"
    return s[1:] if s.startswith("0.") else s


def _grid(title: str, cells: dict[tuple[int, int], str]) -> list[str]:
    from pipeline.core.cards import RANKS

    heads = RANKS[::-1]
    lines = [title, "   " + "".join(h.rjust(CELL) for h in heads)]
    for i, h in enumerate(heads):
        row = "".join(cells.get((i, j), "").rjust(CELL) for j in range(len(heads)))
        lines.append(f" {h} {row}".rstrip())
    return lines


@app.command("range")
def range_cmd(
    expr: list[str] = typer.Argument(..., help="a range (\"QQ+,AKs\", \"[50]KK,QQ[/50]\", \"15%\")"),
    board: str = typer.Option("", "--board", "-b", help="0, 3, 4 or 5 board cards"),
    dead: str = typer.Option("", "--dead", help="cards out of play"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
) -> None:
    """The 13x13 grid of a range: pairs on the diagonal, suited hands above it, offsuit below
    (rows and columns A..2); each class's weight and live combos once the board and dead cards
    are removed; the totals; and the classes each N% token chose."""
    from pipeline.core.cards import format_cards
    from pipeline.equity.rangegrid import board_and_dead, range_grid
    from pipeline.equity.ranges import parse_range

    text = " ".join(expr)
    strength = strength_loader()
    rng = parse_range(text, strength)
    b, d = board_and_dead(board, dead, (0, 3, 4, 5))
    g = range_grid(rng, text, strength, b + d)
    if as_json:
        out: dict[str, Any] = {
            "range": rng.text, "board": format_cards(b), "dead": format_cards(d),
            "classes": [{"class": r.name, "row": r.row, "col": r.col, "weight": float(r.weight),
                         "mixed": r.mixed, "combos": r.combos, "weighted": number(r.weight * r.combos),
                         "live": r.live, "live_weighted": number(r.live_weighted),
                         "text": r.text} for r in g.rows],
            "combos": g.combos, "weighted": number(g.weighted), "live": g.live,
            "live_weighted": number(g.live_weighted), "live_hands": g.live_hands,
            "percent": [{"token": t, "classes": cl, "combos": n} for t, cl, n in g.percent],
        }
        typer.echo(json.dumps(out))
        return
    head = f"range {rng.text}"
    if b:
        head += f"   board {format_cards(b)}"
    if d:
        head += f"   dead {format_cards(d)}"
    lines = [head, ""]
    lines += _grid("weight (* = mixed weights in the class)",
                   {(r.row, r.col): _weight_text(r.weight) + ("*" if r.mixed else "") for r in g.rows})
    lines.append("")
    lines += _grid("live combos", {(r.row, r.col): str(r.live) for r in g.rows})
    lines.append("")
    lines.append(f"combos {g.combos} (weighted {_count(g.weighted)}); live {g.live} "
                 f"(weighted {_count(g.live_weighted)}) of {g.live_hands} live hands")
    for token, classes, n in g.percent:
        lines.append(f"{token} chose {len(classes)} classes, {n} combos: {' '.join(classes)}")
    typer.echo("\n".join(lines))


def _count(x: Fraction) -> str:
    n = number(x)
    return str(n) if isinstance(n, int) else f"{n:g}"
