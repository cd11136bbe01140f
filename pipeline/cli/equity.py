"""The equity group: ``pokertables equity HERO`` (win/tie/lose and pot equity of every seat:
hands, ranges, random), ``preflop HAND|RANGE`` (read from the preflop tables), ``range EXPR``
(the 13x13 grid of a range, its weights, combos and live combos) and ``hits RANGE --board B``
(how often a range makes each hand and draw, Flopzilla style)."""

from __future__ import annotations

import json
import os
import shutil
import sys
import textwrap
from collections import Counter
from collections.abc import Iterator
from typing import Any, Optional

import typer

from pipeline.cli.common import app, artifacts_dir, decimal, progress_bar, whole
from pipeline.errors import InputError

#: Width of one grid cell in characters.
CELL = 6
#: Digits kept when a weight is shown as a decimal.
WEIGHT_DIGITS = 4
#: Width of the category column in the hits tables.
NAME_WIDTH = 28
#: Decimals of the percentages in the hits tables.
PCT_DIGITS = 2
#: The seat ``--breakdown`` splits by default (its rows print without a seat name).
HERO_SEAT = 0
#: Colours of the range grid's cells (rich styles): a class at full weight, at a partial
#: weight, with mixed weights, and a class with no live combo left.
STYLE_FULL = "black on green3"
STYLE_PARTIAL = "black on yellow3"
STYLE_MIXED = "black on orange3"
STYLE_DEAD = "dim"
#: Indent of a hits category's combos under its row.
COMBO_INDENT = "    "


def print_result(out: dict[str, Any]) -> None:
    """The text report of an equity answer (a seat table after a method line)."""
    players = out.get("players", [])
    names = [f"{p['range']}" + (f" ({p['combos']} combos)" if p["combos"] > 1 and p["range"] != "random"
                                else "") for p in players]
    stud = out.get("game") in ("stud", "stud-hi-lo", "razz")  # no board, no preflop
    where = f" on {out['board']}" if out["board"] else ("" if stud else " preflop")
    others = [n for n in names[1:] if n != "random"]
    k = len(names) - 1 - len(others)
    if k:
        others.append(f"{k} random hand{'s' if k > 1 else ''}")
    typer.echo(f"{names[0]}{where} vs " + ", ".join(others)
               + (f" (dead: {out['dead']})" if out["dead"] else ""))
    if out["method"] == "exact":
        how = f"  exact over {out['deals']:,} deals" if out.get("deals") else "  exact (weighted)"
    elif out.get("samples"):
        how = f"  Monte Carlo, {out['samples']:,} deals (seed {out['seed']})"
    else:
        how = "  Monte Carlo"
    if out.get("source"):
        how += f", read from {out['source']}"
    typer.echo(f"{how} in {out['seconds']:.3f}s" + (f"; {out['note']}" if out.get("note") else ""))
    width = max(6, *(len(p["range"]) for p in players))
    typer.echo(f"  {'seat':<5} {'range':<{width}} {'win %':>8} {'tie %':>8} {'lose %':>8} "
               f"{'equity %':>9} {'± stderr':>9}")
    for p in players:
        cells = [f"{100 * p[k]:8.3f}" if p[k] is not None else f"{'-':>8}" for k in ("win", "tie", "lose")]
        se = f"{100 * p['stderr']:9.3f}" if p["stderr"] is not None else f"{'':>9}"
        eq = f"{100 * p['equity']:9.3f}" if p["equity"] is not None else f"{'-':>9}"
        typer.echo(f"  {p['player']:<5} {p['range']:<{width}} {' '.join(cells)} {eq} {se}")
    c = out.get("counts") or {}
    if out["method"] == "exact" and "win" in c and "equity_numerator" in c:
        typer.echo(f"  hero counts: win {c['win']:,}  tie {c['tie']:,}  lose {c['lose']:,}  "
                   f"equity {c['equity_numerator']:,} / {c['equity_denominator']:,}")


@app.command("equity")
def equity_cmd(
    hero: list[str] = typer.Argument(..., help="your hand (AsKs), a range (\"QQ+,AKs\"), or four "
                                               "cards for Omaha"),
    vs: Optional[list[str]] = typer.Option(None, "--vs", help="an opponent: hand, range or random; "
                                                              "repeat for more seats"),
    opponents: Optional[int] = typer.Option(None, "--opponents", "-n", parser=whole,
                                            help="random opponents (default 1, or 0 with --vs)"),
    board: str = typer.Option("", "--board", "-b", help="0, 3, 4 or 5 board cards"),
    dead: str = typer.Option("", "--dead", help="cards out of play (folded, burned, seen)"),
    exact: bool = typer.Option(False, "--exact", help="insist on an exact method"),
    samples: Optional[int] = typer.Option(None, "--samples", "-s", parser=whole,
                                          help="Monte Carlo deals (default 300,000: stderr < 0.1 pp)"),
    stderr: Optional[float] = typer.Option(None, "--stderr", parser=decimal,
                                           help="Monte Carlo until every seat's stderr is below this"),
    time_limit: Optional[float] = typer.Option(None, "--time", parser=decimal,
                                              help="Monte Carlo for this many seconds"),
    seed: Optional[int] = typer.Option(None, "--seed", parser=whole, help="Monte Carlo seed (reproducible)"),
    game: Optional[str] = typer.Option(None, "--game", "-g",
                                       help="holdem (default), omaha, omaha5, omaha6, omaha-hi-lo, "
                                            "short-deck, stud, stud-hi-lo, razz"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
    breakdown: bool = typer.Option(False, "--breakdown",
                                   help="also each combo and class of the hero's range: its share "
                                        "of the deals and its equity"),
    breakdown_seat: Optional[int] = typer.Option(None, "--breakdown-seat", metavar="SEAT", parser=whole,
                                                 help="--breakdown of another seat's range: 0 the "
                                                      "hero, 1 vs1, 2 vs2 ... (the seat column)"),
) -> None:
    """Win, tie, lose and pot equity (a k-way tie pays 1/k) of every seat.

    Up to 10 players, each a hand, a range (QQ+, AKs, A5s-A2s, KK:0.5, 15%, random ...) or a
    random hand. Preflop answers come from the preflop tables when they hold them; otherwise
    exact when the cost estimate says about 2 s or less, Monte Carlo with a standard error
    otherwise.
    """
    from pipeline.answers import Context
    from pipeline.answers.equity import HERO, equity
    from pipeline.equity.question import Question

    if breakdown_seat is not None:
        breakdown = True
    q = Question.parse(" ".join(hero), vs or [], opponents, board, dead, game=game, exact=exact,
                       samples=samples, stderr=stderr, time=time_limit, seed=seed,
                       breakdown=(HERO if breakdown_seat is None else breakdown_seat)
                       if breakdown else None)
    update, close = progress_bar()
    try:
        out: dict[str, Any] = equity(Context(artifacts_dir()), q,
                                     progress=None if breakdown else update)
    finally:
        close()
    if as_json:
        typer.echo(json.dumps(out))
        return
    if out.get("game"):
        from pipeline.equity.games.spec import GAMES

        typer.echo(GAMES[out["game"]].title)
    print_result(out)
    if any("high" in p for p in out.get("players", [])):
        print_split(out)
    if breakdown:
        print_breakdown(out)


def print_split(out: dict[str, Any]) -> None:
    """Hi-lo games: each seat's scoops and its share of the pot won by the high and the low."""
    typer.echo(f"  {'seat':<5} {'scoop %':>8} {'high %':>8} {'low %':>8}  pot equity")
    for p in out["players"]:
        frac = f"  = {p['equity_fraction']}" if p.get("equity_fraction") else ""
        typer.echo(f"  {p['player']:<5} {100 * p['scoop']:8.3f} {100 * p['high']:8.3f} "
                   f"{100 * p['low']:8.3f}  {100 * p['equity']:.3f} %{frac}")


def print_breakdown(out: dict[str, Any]) -> None:
    """The split seat's classes and combos sorted by equity, under the answer."""
    bd = out["breakdown"]
    whose = f"{bd['player']} ({bd['range']}) " if bd.get("seat", HERO_SEAT) != HERO_SEAT else ""
    for title, rows in (("by class", bd["classes"]), ("by combo", bd["combos"])):
        typer.echo(f"  {whose}{title}:")
        typer.echo(f"    {'hand':<7} {'combos':>6} {'weight':>6} {'freq %':>7} {'win %':>7} "
                   f"{'tie %':>7} {'equity %':>8} {'± stderr':>8}")
        for r in rows:
            se = f"{100 * r['stderr']:8.3f}" if r["stderr"] is not None else ""
            typer.echo(f"    {r['hand']:<7} {r['combos']:>6} {r['weight']:>6.2f} "
                       f"{100 * r['frequency']:7.3f} {100 * r['win']:7.3f} {100 * r['tie']:7.3f} "
                       f"{100 * r['equity']:8.3f} {se}")


@app.command("preflop")
def preflop_cmd(
    hand: list[str] = typer.Argument(..., help="a hand (AsAd) or a range (\"QQ+,AKs\")"),
    vs: Optional[str] = typer.Option(None, "--vs", help="heads-up against this range"),
    opponents: Optional[int] = typer.Option(None, "--opponents", "-n", parser=whole,
                                            help="random opponents, 1..9 (default 1)"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
) -> None:
    """Preflop equity from the tables: vs 1 random hand exact (preflop.h5), vs 2..9 from its
    Monte Carlo columns (with their stderr), range vs range heads-up exact from
    preflop_matchups.h5 (enumerated instead, and said so, when that table is not built)."""
    from pipeline.answers import Context
    from pipeline.answers.equity import preflop
    from pipeline.equity.question import Ask, Question

    q = Question.parse(" ".join(hand), [vs] if vs is not None else [], opponents, ask=Ask.PREFLOP)
    out: dict[str, Any] = preflop(Context(artifacts_dir()), q)
    if as_json:
        typer.echo(json.dumps(out))
        return
    print_result(out)


def _weight_text(w: float) -> str:
    s = f"{w:.{WEIGHT_DIGITS}g}"
    return s[1:] if s.startswith("0.") else s


#: a line of styled text: (text, rich style or "") pieces
Styled = list[tuple[str, str]]


def _grid(title: str, cells: dict[tuple[int, int], str],
          styles: dict[tuple[int, int], str]) -> list[Styled]:
    """A 13x13 grid under a rank header, each cell right-aligned in :data:`CELL` characters
    and styled by ``styles`` when printed in colour."""
    from pipeline.core.cards import RANKS

    heads = RANKS[::-1]
    lines: list[Styled] = [[(title, "bold")], [("   " + "".join(h.rjust(CELL) for h in heads), "bold")]]
    for i, h in enumerate(heads):
        last = max((j for j in range(len(heads)) if (i, j) in cells), default=-1)
        line: Styled = [(f" {h} ", "bold")]
        for j in range(last + 1):
            text = cells.get((i, j), "")
            line += [(" " * (CELL - len(text) - 1), ""), (" " + text, styles.get((i, j), ""))] \
                if text else [(" " * CELL, "")]
        lines.append(line)
    return lines


def _cell_style(r: dict[str, Any]) -> str:
    """Colour of a class: full weight, a partial weight, or mixed weights."""
    if r["mixed"]:
        return STYLE_MIXED
    return STYLE_FULL if r["weight"] >= 1 else STYLE_PARTIAL


def colour_wanted() -> bool:
    """Colour only on a terminal (or with FORCE_COLOR), never with NO_COLOR or TERM=dumb."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return sys.stdout.isatty() or bool(os.environ.get("FORCE_COLOR"))


def echo_styled(lines: list[Styled]) -> None:
    """Print the lines, in colour when :func:`colour_wanted`, else as plain text."""
    if not colour_wanted():
        typer.echo("\n".join("".join(t for t, _ in ln).rstrip() for ln in lines))
        return
    from rich.console import Console
    from rich.text import Text

    console = Console(force_terminal=True, highlight=False, soft_wrap=True)
    for ln in lines:
        console.print(Text.assemble(*[(t, st) if st else t for t, st in ln]))


@app.command("range")
def range_cmd(
    expr: list[str] = typer.Argument(..., help="a range (\"QQ+,AKs\", \"[50]KK,QQ[/50]\", \"15%\")"),
    board: str = typer.Option("", "--board", "-b", help="0, 3, 4 or 5 board cards"),
    dead: str = typer.Option("", "--dead", help="cards out of play"),
    game: Optional[str] = typer.Option(None, "--game", "-g",
                                       help="holdem (default), short-deck, or an Omaha game "
                                            "(omaha, omaha5, omaha6, omaha-hi-lo: a hand list)"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
    list_all: bool = typer.Option(False, "--list", help="Omaha games: every hand of the range "
                                  "as range text (--json: in \"text\"), streamed"),
) -> None:
    """The 13x13 grid of a range: pairs on the diagonal, suited hands above it, offsuit below
    (rows and columns A..2); each class's weight and live combos once the board and dead cards
    are removed; the totals; and the classes each N% token chose. Omaha ranges (--game) are
    counted without listing and their first hands shown; --list lists every hand."""
    from pipeline.answers import Context
    from pipeline.answers.equity import range_answer, range_blocks

    text = " ".join(expr)
    out: dict[str, Any] = range_answer(Context(artifacts_dir()), text, board=board, dead=dead,
                                       game=game)
    omaha = "shown" in out
    if list_all and not omaha:
        raise InputError("--list lists an Omaha range's hands (--game omaha, omaha5, omaha6, "
                         "omaha-hi-lo)")
    if as_json:
        if not (list_all and omaha):
            typer.echo(json.dumps(out))
            return
        # streamed: millions of hands are never one string in memory
        sys.stdout.write(json.dumps(out)[:-1] + ', "text": "')
        _stream(range_blocks(text, str(game)))
        sys.stdout.write('"}\n')
        return
    if omaha:  # an Omaha range: counted, its first hands shown
        typer.echo(f"{out['game']} range {out['range']}: {out['combos']:,} hands (weighted "
                   f"{out['weighted']:g}); live {out['live']:,} (weighted {out['live_weighted']:g})")
        if list_all:
            sys.stdout.write("  ")
            _stream(range_blocks(text, str(game)))
            sys.stdout.write("\n")
            return
        more = out["combos"] - len(out["shown"])
        typer.echo("  " + ", ".join(out["shown"]) + (f", ... ({more:,} more; --list lists them)"
                                                     if more > 0 else ""))
        return
    head = f"range {out['range']}"
    if out["board"]:
        head += f"   board {out['board']}"
    if out["dead"]:
        head += f"   dead {out['dead']}"
    rows = out["classes"]
    at = {(r["row"], r["col"]): r for r in rows}
    style = {k: _cell_style(r) for k, r in at.items()}
    live_style = {k: (style[k] if r["live"] else STYLE_DEAD) for k, r in at.items()}
    lines: list[Styled] = [[(head, "")], []]
    lines += _grid("classes", {k: r["class"] for k, r in at.items()}, style)
    lines.append([])
    lines += _grid("weight (* = mixed weights in the class)",
                   {k: _weight_text(r["weight"]) + ("*" if r["mixed"] else "") for k, r in at.items()},
                   style)
    lines.append([])
    lines += _grid("live combos", {k: str(r["live"]) for k, r in at.items()}, live_style)
    lines.append([])
    lines.append([(f"combos {out['combos']} (weighted {_count(out['weighted'])}); live {out['live']} "
                   f"(weighted {_count(out['live_weighted'])}) of {out['live_hands']} live hands", "")])
    for p in out["percent"]:
        lines.append([(f"{p['token']} chose {len(p['classes'])} classes, {p['combos']} combos: "
                       f"{' '.join(p['classes'])}", "")])
    echo_styled(lines)


def _stream(blocks: Iterator[str]) -> None:
    """Write blocks of hands comma-separated to stdout as they come."""
    for i, block in enumerate(blocks):
        sys.stdout.write(("," if i else "") + block)
    sys.stdout.flush()


def _count(n: int | float) -> str:
    return str(n) if isinstance(n, int) else f"{n:g}"


@app.command("hits")
def hits_cmd(
    rng_text: list[str] = typer.Argument(..., metavar="RANGE", help="a range (\"QQ+,AKs\", \"15%\")"),
    board: str = typer.Option(..., "--board", "-b", help="3, 4 or 5 board cards"),
    dead: str = typer.Option("", "--dead", help="cards out of play"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
) -> None:
    """For every live combo of the range on the board: its made hand (exactly one) and its draws
    (any number; backdoor flush draws on the flop only, no draws on the river), as weighted
    combos and percentages of the range's live weighted combos. Definitions: docs/hits.md."""
    from pipeline.answers import Context
    from pipeline.answers.equity import hits
    from pipeline.equity.question import Ask, Question

    q = Question.parse(" ".join(rng_text), board=board, dead=dead, ask=Ask.HITS)
    out: dict[str, Any] = hits(Context(artifacts_dir()), q)
    if as_json:
        typer.echo(json.dumps(out))
        return
    made, draws = out["made"], out["draws"]
    lines = [f"range {out['range']}   board {out['board']}" + (f"   dead {out['dead']}" if out["dead"] else ""),
             f"live combos {out['live_combos']} ({out['live_hands']} hands)"]
    live = Counter(_class_of(c) for r in made for c in r.get("combo_list", ()))
    width = shutil.get_terminal_size().columns
    for title, table in (("made hand", made), ("draw", draws)):
        lines += ["", f"{title:<{NAME_WIDTH}}{'combos':>10}{'%':>9}"]
        for r in table:
            lines.append(f"{r['category']:<{NAME_WIDTH}}{r['combos']:>10}{r['percent']:>9.{PCT_DIGITS}f}")
            if r.get("combo_list"):
                lines += textwrap.wrap(" ".join(_compact(r["combo_list"], live)), width,
                                       initial_indent=COMBO_INDENT, subsequent_indent=COMBO_INDENT,
                                       break_on_hyphens=False)
    lines += ["", "(a class name such as AKs stands for all its live combos in the range)"]
    typer.echo("\n".join(lines))


def _class_of(combo: str) -> str:
    """The starting-hand class of a combo's text: ``"As Ks:0.5"`` -> ``"AKs"``."""
    a, b = combo.split(":")[0].split()
    if a[0] == b[0]:
        return a[0] + b[0]
    return a[0] + b[0] + ("s" if a[1] == b[1] else "o")


def _compact(combos: list[str], live: Counter[str]) -> list[str]:
    """A category's combos for the text table: a class all of whose live combos are here, with
    one weight, as its name (``KK``, ``AKs:0.5``); other combos as ``AsKs``."""
    by_class: dict[str, list[str]] = {}
    for c in combos:
        by_class.setdefault(_class_of(c), []).append(c)
    out = []
    for name, members in by_class.items():
        suffixes = {m.partition(":")[2] for m in members}
        if len(members) == live[name] and len(suffixes) == 1:
            w = suffixes.pop()
            out.append(name + (f":{w}" if w else ""))
        else:
            out += [m.replace(" ", "") for m in members]
    return out
