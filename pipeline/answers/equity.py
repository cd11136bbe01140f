"""Answers of the equity group: ``equity`` (every seat's win/tie/lose and equity, optionally split
by one seat's combos), ``preflop`` (from the preflop tables), ``range`` (the 13x13 grid) and
``hits`` (Flopzilla's table). Each returns the command's ``--json`` dict."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from pipeline.answers import Context
from pipeline.errors import InputError, clip

if TYPE_CHECKING:
    import numpy as np

#: a progress callback: (fraction done 0..1, what is being done)
Progress = Callable[[float, str], None]
PERCENT = 100
#: the seat whose combos ``breakdown`` splits when the caller names none (the hero)
HERO = 0


def number(x: Fraction) -> int | float:
    """An exact count as an int when whole, else the nearest float (for JSON and text)."""
    return int(x) if x.denominator == 1 else float(x)


def strength_loader(ctx: Context) -> Callable[..., np.ndarray]:
    """A callable giving the ``N%`` ordering (against ``opponents`` random hands, one by
    default), reading preflop.h5 only when a token needs it."""
    def get(opponents: int = 1) -> np.ndarray:
        from pipeline.equity.tables.preflop import hand_strength
        from pipeline.errors import ArtifactError

        try:
            return hand_strength(ctx.tables(), opponents)
        except ArtifactError as exc:
            raise InputError(f"a top-% range needs the preflop table: {exc}") from None
    return get


def equity(ctx: Context, hero: str, vs: Sequence[str] = (), opponents: int | None = None,
           board: str = "", dead: str = "", exact: bool = False, samples: int | None = None,
           stderr: float | None = None, time_limit: float | None = None, seed: int | None = None,
           breakdown: int | None = None, progress: Progress | None = None,
           game: str | None = None) -> dict[str, Any]:
    """``equity --json``: every seat's answer; with ``breakdown`` (a seat index, 0 = hero) also
    that seat's classes and combos (``equity --breakdown --json``). ``game`` names a game other
    than hold'em (``--game``: omaha, omaha5, omaha6, omaha-hi-lo, short-deck, stud, stud-hi-lo,
    razz)."""
    from pipeline.equity.engine import equity_seats

    if breakdown is not None and game is not None and game.strip().lower() != "holdem":
        raise InputError(f"--breakdown splits a hold'em range by combo; not for --game {game}")
    if breakdown is not None:
        return _breakdown(ctx, hero, vs, opponents, board, dead, exact, samples, stderr,
                          time_limit, seed, breakdown, progress)
    res = equity_seats(ctx.tables(), hero, list(vs), opponents=opponents, board=board, dead=dead,
                       exact=True if exact else None, samples=samples, stderr=stderr,
                       time_limit=time_limit, seed=seed, progress=progress, game=game)
    return res.to_json()


def _breakdown(ctx: Context, hero: str, vs: Sequence[str], opponents: int | None, board: str,
               dead: str, exact: bool, samples: int | None, stderr: float | None,
               time_limit: float | None, seed: int | None, seat: int,
               progress: Progress | None) -> dict[str, Any]:
    from pipeline.equity.breakdown import equity_breakdown

    if time_limit is not None:
        raise InputError("--breakdown runs one answer per combo: give --samples or --stderr, not --time")
    if isinstance(seat, bool) or seat < 0:
        raise InputError(f"breakdown seat {seat!r}: give a seat index, 0 for the hero")
    bd = equity_breakdown(ctx.tables(), hero, list(vs), opponents=opponents, board=board, dead=dead,
                          exact=True if exact else None, samples=samples, stderr=stderr, seed=seed,
                          seat=seat)
    return bd.to_json()


def preflop(ctx: Context, hand: str, vs: str | None = None, opponents: int | None = None) -> dict[str, Any]:
    """``preflop --json``: from the preflop tables (vs random, vs 2..9, range vs range)."""
    from pipeline.equity.engine import preflop as preflop_answer

    return preflop_answer(ctx.tables(), hand, vs=vs, opponents=opponents).to_json()


range_of = range  # ``range_answer`` names its argument ``range`` (the HTTP field)


def range_answer(ctx: Context, range: str, board: str = "", dead: str = "",
                 game: str | None = None, listed: bool = False) -> dict[str, Any]:
    """``range --json``: the 13x13 grid (each class's weight, combos, live combos), the totals,
    the classes each ``N%`` token chose and ``grid``, the 169 class names as 13 rows (row and
    column 0 the ace: pairs on the diagonal, suited above it, offsuit below). With an Omaha
    ``game`` (``--game``): the range counted (never listed) and its first hands as text,
    instead of a grid; every hand in ``text`` with ``listed`` (``--list``); short deck
    counts the cards below six as dead; stud games have no ranges."""
    from pipeline.core.cards import format_cards
    from pipeline.equity.games.spec import get_game
    from pipeline.equity.ranges.grid import board_and_dead, range_grid
    from pipeline.equity.ranges.parse import parse_range

    other = get_game(game) if game is not None else None
    if other is not None and other.ranges != "holdem":
        from pipeline.equity.games.ranges import range_listing

        if other.ranges != "omaha":
            raise InputError(f"{other.name} has no ranges: a seat is its known cards")
        b, d = board_and_dead(board, dead, (0, 3, 4, 5))
        return {**range_listing(range, other.hole, other.name, b + d, listed),
                "board": format_cards(b), "dead": format_cards(d)}
    if other is not None:  # short deck: the cards below six are out of the deck
        from pipeline.core.cards import parse_cards

        given = set(parse_cards(dead)) if dead.strip() else set()
        dead = format_cards(sorted(given | set(range_of(4 * other.lowest_rank))))
    strength = strength_loader(ctx)
    rng = parse_range(range, strength)
    b, d = board_and_dead(board, dead, (0, 3, 4, 5))
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


def hits(ctx: Context, range: str, board: str, dead: str = "") -> dict[str, Any]:
    """``hits --json``: every made-hand and draw category of the range's live combos on the board."""
    from pipeline.core.cards import format_cards
    from pipeline.equity.ranges.grid import board_and_dead
    from pipeline.equity.ranges.hits import range_hits
    from pipeline.equity.ranges.parse import parse_range

    rng = parse_range(range, strength_loader(ctx))
    b, d = board_and_dead(board, dead, (3, 4, 5))
    h = range_hits(rng, b, d, ctx.tables().eval_tables())
    total = h.live_combos

    def rows(kind: str, items: Any) -> list[dict[str, Any]]:
        out = []
        for r in items:
            row = {"kind": kind, "category": r.name, "combos": number(r.combos), "hands": r.hands,
                   "percent": float(PERCENT * r.combos / total)}
            listed = getattr(r, "combo_list", None)  # each category's combos, once hits lists them
            if listed is not None:
                row["combo_list"] = list(listed)
            out.append(row)
        return out

    return {"range": rng.text, "board": format_cards(b), "dead": format_cards(d),
            "live_hands": h.live_hands, "live_combos": number(total),
            "made": rows("made", h.made), "draws": rows("draw", h.draws)}
