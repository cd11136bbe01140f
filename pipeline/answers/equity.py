"""Answers of the equity group: ``equity`` (every seat's win/tie/lose and equity, optionally split
by one seat's combos), ``preflop`` (from the preflop tables), ``range`` (the 13x13 grid) and
``hits`` (Flopzilla's table). Each returns the command's ``--json`` dict."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import TYPE_CHECKING

from pipeline.answers import Context
from pipeline.errors import InputError, clip

if TYPE_CHECKING:
    from pipeline.equity.question import Question
    from pipeline.equity.spots.answer import Json

#: a progress callback: (fraction done 0..1, what is being done)
Progress = Callable[[float, str], None]
PERCENT = 100
#: the seat whose combos ``breakdown`` splits when the caller names none (the hero)
HERO = 0


def number(x: Fraction) -> int | float:
    """An exact count as an int when whole, else the nearest float (for JSON and text)."""
    return int(x) if x.denominator == 1 else float(x)


def equity(ctx: Context, q: Question, progress: Progress | None = None) -> dict[str, Json]:
    """``equity --json``: every seat's answer; with a ``breakdown`` seat (0 = hero) also that
    seat's classes and combos (``equity --breakdown --json``)."""
    if q.breakdown is not None:
        from pipeline.equity.breakdown import breakdown

        return breakdown(q, ctx.tables()).to_json()
    from pipeline.equity.planner import solve

    return solve(q, ctx.tables(), progress).to_json()


def preflop(ctx: Context, q: Question) -> dict[str, Json]:
    """``preflop --json``: from the preflop tables (vs random, vs 2..9, range vs range); ``q``
    asked with :attr:`~pipeline.equity.question.Ask.PREFLOP`."""
    from pipeline.equity.planner import solve

    return solve(q, ctx.tables()).to_json()


range_of = range  # ``range_answer`` names its argument ``range`` (the HTTP field)


def range_answer(ctx: Context, range: str, board: str = "", dead: str = "",
                 game: str | None = None, listed: bool = False) -> dict[str, Json]:
    """``range --json``: the 13x13 grid (each class's weight, combos, live combos), the totals,
    the classes each ``N%`` token chose and ``grid``, the 169 class names as 13 rows (row and
    column 0 the ace: pairs on the diagonal, suited above it, offsuit below). With an Omaha
    ``game`` (``--game``): the range counted (never listed) and its first hands as text,
    instead of a grid; every hand in ``text`` with ``listed`` (``--list``); short deck
    counts the cards below six as dead; stud games have no ranges."""
    from pipeline.core.cards import format_cards
    from pipeline.equity.games.spec import get_game
    from pipeline.equity.question import Ask, Question
    from pipeline.equity.ranges.grid import range_grid
    from pipeline.equity.ranges.parse import parse_range
    from pipeline.equity.seating import strength_loader

    other = get_game(game) if game is not None else None
    if other is not None and other.ranges != "holdem" and other.ranges != "omaha":
        raise InputError(f"{other.name} has no ranges: a seat is its known cards", field="game")
    q = Question.parse(range, board=board, dead=dead, ask=Ask.RANGE)
    b, d = list(q.board), list(q.dead)
    if other is not None and other.ranges == "omaha":
        from pipeline.equity.games.ranges import range_listing

        return {**range_listing(range, other.hole, other.name, b + d, listed),
                "board": format_cards(b), "dead": format_cards(d)}
    if other is not None:  # short deck: the cards below six are out of the deck
        d = sorted(set(d) | set(range_of(4 * other.lowest_rank)))
    strength = strength_loader(ctx.tables)
    rng = parse_range(range, strength)
    g = range_grid(rng, range, strength, b + d)
    return {
        "range": rng.text, "board": format_cards(b), "dead": format_cards(d),
        "classes": [{"class": r.name, "row": r.row, "col": r.col, "weight": float(r.weight),
                     "mixed": r.mixed, "combos": r.combos, "weighted": number(r.weight * r.combos),
                     "live": r.live, "live_weighted": number(r.live_weighted),
                     "text": r.text} for r in g.rows],
        "combos": g.combos, "weighted": number(g.weighted), "live": g.live,
        "live_weighted": number(g.live_weighted), "live_hands": g.live_hands,
        "percent": [{"token": t, "classes": cl, "combos": n} for t, cl, n in g.percent],
        "grid": class_grid(),
    }


def range_blocks(range: str, game: str) -> Iterator[str]:
    """Every hand of an Omaha ``game``'s range as range text, in blocks (comma-separated within
    a block; blocks join with a comma), so a caller can stream a list of millions of hands."""
    from pipeline.equity.games.ranges import listing, omaha_range
    from pipeline.equity.games.spec import get_game

    g = get_game(game)
    if g is None or g.ranges != "omaha":
        raise InputError(f"only Omaha ranges are listed hand by hand, not {clip(game)} ones")
    return listing(omaha_range(range, g.hole, g.name))


def class_grid() -> list[list[str]]:
    """The 169 starting-hand class names in the 13x13 grid layout (``grid[row][col]``)."""
    from pipeline.equity.hands.starting_hands import hand_classes
    from pipeline.equity.ranges.grid import GRID_SIDE

    _, names, rows, cols, _ = hand_classes()
    grid = [[""] * GRID_SIDE for _ in range(GRID_SIDE)]
    for name, r, c in zip(names, rows.tolist(), cols.tolist()):
        grid[r][c] = name
    return grid


def hits(ctx: Context, q: Question) -> dict[str, Json]:
    """``hits --json``: every made-hand and draw category of the range's live combos on the
    board; ``q`` asked with :attr:`~pipeline.equity.question.Ask.HITS` (one range seat)."""
    from pipeline.core.cards import format_cards
    from pipeline.equity.ranges.hits import HitRow, range_hits
    from pipeline.equity.ranges.parse import parse_range
    from pipeline.equity.seating import strength_loader

    rng = parse_range(q.seats[0].text, strength_loader(ctx.tables))
    b, d = list(q.board), list(q.dead)
    h = range_hits(rng, b, d, ctx.tables().eval_tables())
    total = h.live_combos

    def rows(kind: str, items: list[HitRow]) -> list[Json]:
        out: list[Json] = []
        for r in items:
            row: dict[str, Json] = {"kind": kind, "category": r.name, "combos": number(r.combos),
                                    "hands": r.hands, "percent": float(PERCENT * r.combos / total)}
            if r.combo_list is not None:
                row["combo_list"] = list(r.combo_list)
            out.append(row)
        return out

    return {"range": rng.text, "board": format_cards(b), "dead": format_cards(d),
            "live_hands": h.live_hands, "live_combos": number(total),
            "made": rows("made", h.made), "draws": rows("draw", h.draws)}
