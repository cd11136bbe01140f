"""Answers of the ``vp`` group (video poker): ``analyze``, ``hold``, ``grade``, ``chart``,
``breakeven``, ``compare``, ``deal`` and ``list``, each the command's ``--json`` dict.

A game is named by slug (or common name, or a TOML path on the command line); ``pay`` edits lines
of it in place (``["full house=8"]``: :func:`pipeline.videopoker.paytables.edit.edit_pays`, the
game solved in memory and named as edited). ``text``, where a function
takes it, is a dict the function fills with what only the command's text report shows (where the
figures came from); the JSON answer does not carry it.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.answers import Context
from pipeline.errors import InputError, clip

if TYPE_CHECKING:
    from pipeline.videopoker.paytables.paytable import Paytable
    from pipeline.videopoker.solver.analysis import Analysis
    from pipeline.videopoker.tools.breakeven import PaySolver
    from pipeline.videopoker.tools.breakeven_answer import BreakEven

#: coins of a max bet, and the bets (in dollars) a meter is shown for by default
COINS = 5
DEFAULT_BETS = ("1.25", "5")
#: ``breakeven.MAX_SEARCH_PAY`` as text
MAX_PAY_TEXT = "100000"
#: the default game of ``vp grade`` and ``vp deal``
DEFAULT_GAME = "jacks-or-better-9-6"
#: cards in a video-poker deal
DEAL_CARDS = 5
#: most deals one ``vp deal`` gives
MAX_DEALS = 10_000
#: the one name of the hold that keeps no card (the solver's)
DRAW_FIVE = "draw five"  # pipeline.videopoker.solver.holds.DRAW_FIVE; this module imports lazily


def load_game(name: str | Path, pay: Sequence[str] = ()) -> Paytable:
    """The paytable of a slug, common name or path, with ``pay`` edits applied."""
    from pipeline.videopoker.catalog.games import load_named
    from pipeline.videopoker.paytables.edit import edit_pays

    pt = load_named(name)
    return edit_pays(pt, list(pay)) if pay else pt


def analyze(ctx: Context, paytable: str, strategy: str = "", chart: bool = False,
            pay: Sequence[str] = (), text: dict[str, Any] | None = None) -> dict[str, Any]:
    """``vp analyze --json``: exact optimal return, variance, final-hand table and bankroll
    figures; with ``strategy``, that game's strategy (or its chart) played on this paytable."""
    from pipeline.videopoker.catalog.paytable_file import current_artifact, read_final_counts
    from pipeline.videopoker.solver.analysis import analyze as solve
    from pipeline.videopoker.solver.analysis import summary_dict

    t0 = time.perf_counter()
    pt = load_game(paytable, pay)
    art = current_artifact(pt, ctx.artifacts)
    found: Path | Analysis  # the artifact, or the analysis made now (the extras read it)
    if art is not None:
        counts, den = read_final_counts(art)
        source = f"artifact {ctx.shown(art)}"
        found = art
    else:
        found = a = solve(pt, ctx.deal_classes(pt.deck_size))
        counts, den = a.final_counts, a.denominator
        source = "computed now (no current artifact)"
    info = summary_dict(pt, counts, den, time.perf_counter() - t0)
    _analyze_extras(ctx, info, pt, found, strategy, chart)
    if text is not None:
        text.update(paytable=pt, source=source)
    return info


def _strategy_info(ctx: Context, target: Paytable, strategy: str, use_chart: bool,
                   analysis: Analysis | None = None) -> dict[str, Any]:
    """Exact return of ``strategy``'s play on ``target``'s paytable (``analysis``: ``target``
    just solved, so not solved again)."""
    from pipeline.videopoker.catalog.games import resolve_paytable
    from pipeline.videopoker.paytables.paytable import load_paytable
    from pipeline.videopoker.tools.strategy_io import cross_play, strategy_data, strategy_data_of

    a_pt = load_paytable(resolve_paytable(strategy))
    a, _ = strategy_data(a_pt, ctx.artifacts, ctx.deal_classes(a_pt.deck_size))
    if analysis is not None:
        b = strategy_data_of(analysis)
    else:
        b, _ = strategy_data(target, ctx.artifacts, ctx.deal_classes(target.deck_size))
    return cross_play(a, b, use_chart)


def _analyze_extras(ctx: Context, info: dict[str, Any], pt: Paytable, source: Path | Analysis, strategy: str,
                    use_chart: bool) -> None:
    """Add the bankroll figures (and, with ``strategy``, the cross-play return) to ``info``.

    ``source`` is the current artifact's path (the figures the build stored are used) or the
    analysis just computed (not computed twice)."""
    import numpy as np

    from pipeline.videopoker.catalog.paytable_file import read_bankroll, read_best
    from pipeline.videopoker.solver.bankroll import bankroll_figures

    if use_chart and not strategy:
        raise InputError("{chart} needs {strategy} GAME (whose chart to play)", "chart")
    t0 = time.perf_counter()
    figs = None
    if isinstance(source, Path):
        figs = read_bankroll(source)
        if figs is None:
            weight, best, counts = read_best(source)
    else:
        weight, best, counts = source.classes.weight, source.best, source.best_counts
    if figs is None:
        finals = [ln["combinations"] for ln in info["lines"]]
        figs = bankroll_figures(pt, finals, info["total_combinations"],
                                np.asarray(weight, np.int64), best, counts)
    info["bankroll"] = figs
    if strategy:
        info["played_strategy"] = _strategy_info(ctx, pt, strategy, use_chart,
                                                 None if isinstance(source, Path) else source)
    info["seconds"] = round(info["seconds"] + time.perf_counter() - t0, 4)


def hold(ctx: Context, cards: str, paytable: str, pay: Sequence[str] = (),
         text: dict[str, Any] | None = None) -> dict[str, Any]:
    """``vp hold --json``: the EV of all 32 holds of a deal, best first (exact and decimal)."""
    from pipeline.videopoker.catalog.paytable_file import artifact_counts, current_artifact
    from pipeline.videopoker.paytables.deal_text import parse_deal, vp_cards_text
    from pipeline.videopoker.solver.holds import hold_table

    t0 = time.perf_counter()
    pt = load_game(paytable, pay)
    ids = parse_deal(cards, pt.deck_size)
    art = current_artifact(pt, ctx.artifacts)
    if art is not None:
        with artifact_counts(art) as (pay_cat, counts):  # reads only this deal's rows
            rows = hold_table(pt, ids, pay_cat, counts)
    else:
        rows = hold_table(pt, ids, *ctx.counts(pt))
    if text is not None:
        text.update(source="artifact" if art is not None else "computed now")
    return {"name": pt.name, "cards": vp_cards_text(ids), "best": rows[0]["hold"], "holds": rows,
            "seconds": round(time.perf_counter() - t0, 4)}


#: what a user may type for the hold that keeps no card (its one name is ``draw five``)
DRAW_FIVE_WORDS = ("draw five", "draw 5", "draw", "none", "-", "discard", "discard all",
                   "discard everything")
#: a hold by positions: "1,2,5", "1 2 5" (1 to 5, each once)
POSITIONS = re.compile(r"[1-5](\s*[, ]\s*[1-5])*")


def parse_held(text: str, cards: list[int], deck_size: int) -> list[int]:
    """The held card ids of a deal from the hold as typed: cards (``"Js Jd"``), positions
    (``"1,2,5"``), a 0/1 flag per position (``"11001"``), ``draw five`` (or ``none``) or
    ``all``."""
    from pipeline.videopoker.paytables.deal_text import parse_hold

    t = " ".join(text.strip().lower().split())
    if t in DRAW_FIVE_WORDS:
        return []
    if POSITIONS.fullmatch(t) and not re.fullmatch(r"[01]{5}", t):
        pos = [int(x) - 1 for x in re.split(r"[\s,]+", t)]
        if len(set(pos)) != len(pos):
            raise InputError(f"bad hold {clip(text)}: a position is named twice")
        return [cards[p] for p in sorted(pos)]
    return parse_hold(text, cards, deck_size)


def grade(ctx: Context, deal: str, hold: str, paytable: str = DEFAULT_GAME,
          pay: Sequence[str] = ()) -> dict[str, Any]:
    """``vp grade --json``: the hold's EV against the best hold's, and what it costs."""
    from pipeline.videopoker.catalog.paytable_file import artifact_counts, current_artifact
    from pipeline.videopoker.paytables.deal_text import parse_deal, vp_cards_text
    from pipeline.videopoker.solver.holds import grade_hold

    t0 = time.perf_counter()
    pt = load_game(paytable, pay)
    ids = parse_deal(deal, pt.deck_size)
    held = parse_held(hold, ids, pt.deck_size)
    art = current_artifact(pt, ctx.artifacts)
    if art is not None:
        with artifact_counts(art) as (pay_cat, counts):  # reads only this deal's rows
            g = grade_hold(pt, ids, held, pay_cat, counts)
    else:
        g = grade_hold(pt, ids, held, *ctx.counts(pt))
    return {"name": pt.name, "cards": vp_cards_text(ids), **g,
            "seconds": round(time.perf_counter() - t0, 4)}


def chart(ctx: Context, paytable: str, max_lines: int | None = None, derive: bool = False,
          pay: Sequence[str] = ()) -> dict[str, Any]:
    """``vp chart --json``: a strategy chart derived from the optimal strategy, judged exactly
    (the one the build exported when it fits, unless ``derive``: :func:`game_chart` decides);
    every line's exact loss against optimal play; for a wild game also ``groups``, its lines
    split by the number of wild cards dealt ([] otherwise); for a short card (at most
    ``PLAIN_MAX_LINES`` lines) ``players``: the card in players' words, each line's words and
    what that rewording alone costs, and the worded card's exact return (else None)."""
    from pipeline.answers.vp_chart import chart_and_figures
    from pipeline.answers.vp_lines import players_words
    from pipeline.videopoker.charts.chart import DEFAULT_MAX_LINES

    lines = DEFAULT_MAX_LINES if max_lines is None else max_lines
    if lines < 2:
        raise InputError(f"max lines {lines}: a chart has at least 2 lines")
    t0 = time.perf_counter()
    pt = load_game(paytable, pay)
    key = (ctx, pt, lines, derive and lines == DEFAULT_MAX_LINES)  # one key per chart
    gc, fig = chart_and_figures(*key)
    info = gc.chart.as_dict()
    for ln, loss in zip(info["lines"], fig.losses):
        ln.update(hold=players_words(ln["hold"]), loss=float(loss), loss_exact=frac(loss))
    info["groups"] = [g.as_json() for g in fig.groups]
    for g in info["groups"]:
        for ln in g["lines"]:
            ln["hold"] = players_words(ln["hold"])
    info["players"] = None
    if fig.plain is not None:
        for ln, pl in zip(info["lines"], fig.plain.lines):
            ln.update(players=pl.words, merged_into=pl.merged_into, players_cost=float(pl.cost),
                      players_cost_exact=frac(pl.cost))
        r, o, c = fig.plain.return_exact, gc.chart.optimal_exact, gc.chart.return_exact
        info["players"] = {"return": float(r), "return_exact": frac(r), "cost": float(o - r),
                           "cost_exact": frac(o - r), "vs_chart": float(c - r),
                           "vs_chart_exact": frac(c - r)}
    info["source"] = gc.source
    info["seconds"] = round(time.perf_counter() - t0, 4)
    return info


def frac(x: Fraction) -> str:
    """An exact number as JSON text: ``"n/d"`` (``"0/1"`` for zero)."""
    return f"{x.numerator}/{x.denominator}"


def breakeven(ctx: Context, game: str, line: str = "royal flush", target: str = "1", step: str = "",
              max_pay: str = MAX_PAY_TEXT, bet: Sequence[str] = (), table: bool = False,
              start: str = "", stop: str = "", pay: Sequence[str] = (),
              text: dict[str, Any] | None = None) -> dict[str, Any]:
    """``vp breakeven --json``: the smallest pay of a line at which the optimal return reaches
    the target (with the strategy changes there), or with ``table`` the return against the pay."""
    from pipeline.videopoker.catalog.paytable_file import current_artifact, read_break_even
    from pipeline.videopoker.tools.breakeven import DEFAULT_STEP, find_line, parse_amount, parse_target
    from pipeline.videopoker.tools.breakeven_answer import is_stored_question, solve_break_even, stored_answer

    t0 = time.perf_counter()
    goal = parse_target(target)
    grid = parse_amount(step, "step") if step else None
    if grid is not None and grid <= 0:
        raise InputError("{step} must be above 0", "step")
    cap = parse_amount(max_pay, "max_pay")
    if cap <= 0:
        raise InputError("{max_pay} must be above 0", "max_pay")
    bets = [parse_amount(b, "bet") for b in (bet or DEFAULT_BETS)]
    if any(b <= 0 for b in bets):
        raise InputError("{bet} must be above 0", "bet")
    first = parse_amount(start, "start") if start else None
    last = parse_amount(stop, "stop") if stop else None
    if not table and (first is not None or last is not None):
        raise InputError("{start} and {stop} go with {table}", "start")
    pt = load_game(game, pay)
    idx = find_line(pt, line)
    every = grid or DEFAULT_STEP
    art = current_artifact(pt, ctx.artifacts)  # None for an edited game
    if not table and art is not None and is_stored_question(goal, every, cap):
        found = stored_answer(pt, idx, read_break_even(art))
        if found is not None:  # what the build's search found: no solve
            return _answer(found, goal, every, bets, t0, text)
    solver = _solver(ctx, pt, idx, art)
    if table:
        from pipeline.videopoker.tools.breakeven import pay_table, table_pays

        lo = pt.lines[idx].pays if first is None else first
        pays = table_pays(lo, max(lo * 2, lo + 1) if last is None else last, grid)
        rows = pay_table(solver, pays)
        if text is not None:
            text.update(solver=solver)
        return {"name": solver.pt.name, "slug": solver.pt.slug, "line": solver.pt.lines[idx].label,
                "paytable_pay": float(solver.own), "rows": rows, "solves": solver.solves,
                "seconds": round(time.perf_counter() - t0, 3)}
    return _answer(solve_break_even(solver, goal, every, cap), goal, every, bets, t0, text)


def _solver(ctx: Context, pt: Paytable, line: int, art: Path | None) -> PaySolver:
    """A pay solver for the line, starting from the built artifact's pay categories, counts and
    return when there is one (no solve at the paytable's own pay)."""
    from pipeline.videopoker.catalog.paytable_file import read_counts, read_final_counts
    from pipeline.videopoker.tools.breakeven import PaySolver

    classes = ctx.deal_classes(pt.deck_size)
    if art is None:
        return PaySolver(pt, line, classes)
    return PaySolver(pt, line, classes, read_counts(art), own_counts=read_final_counts(art)[0])


def _answer(found: BreakEven, goal: Fraction, grid: Fraction, bets: list[Fraction], t0: float,
            text: dict[str, Any] | None) -> dict[str, Any]:
    """The break-even search's answer (``found`` stands in for the solver in ``text``: it has
    the paytable, the line and the solves)."""
    if text is not None:
        text.update(solver=found, found=found.search, own=found.own, changes=found.changes,
                    goal=goal, grid=grid, bets=bets)
    return {**found.as_json(COINS, bets), "seconds": round(time.perf_counter() - t0, 3)}


def compare(ctx: Context, paytables: Sequence[str], pay: Sequence[str] = (),
            text: dict[str, Any] | None = None) -> dict[str, Any]:
    """``vp compare --json``: games side by side (return, variance, royal cycle, hit frequency,
    break-even royal); with ``pay``, the first game as edited in a column right after it (a
    pay-table edit beside the game it edits and the others), named as edited."""
    from pipeline.videopoker.tools.compare import MAX_GAMES, check_games, game_figures

    t0 = time.perf_counter()
    check_games(list(paytables))
    games = [load_game(g) for g in paytables]  # every name checked before any solve
    if pay:
        if len(games) >= MAX_GAMES:
            raise InputError(f"{len(games)} games and an edited one; compare at most {MAX_GAMES} at a time")
        games.insert(1, load_game(paytables[0], pay))
    cols = [game_figures(pt, ctx.artifacts, ctx.deal_classes) for pt in games]
    if text is not None:
        text.update(columns=cols)
    return {"games": [{**c.as_json(), "edited": bool(pay) and i == 1} for i, c in enumerate(cols)],
            "seconds": round(time.perf_counter() - t0, 3)}


def deal(ctx: Context, paytable: str = DEFAULT_GAME, seed: int | None = None, count: int = 1,
         pay: Sequence[str] = ()) -> dict[str, Any]:
    """``vp deal --json``: ``count`` deals of five cards from the game's deck (jokers included),
    the same for the same seed; a seed is drawn (and returned) when none is given."""
    from pipeline.videopoker.paytables.deal_text import vp_cards_text

    if isinstance(count, bool) or not 1 <= count <= MAX_DEALS:
        raise InputError(f"count {count}: give 1 to {MAX_DEALS:,} deals")
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    elif seed < 0:
        raise InputError(f"seed {seed}: give a whole number 0 or above")
    pt = load_game(paytable, pay)  # an edited game deals from the same deck, under its own name
    rng = random.Random(seed)  # a documented, version-stable generator: the same seed deals the same
    deck = range(pt.deck_size)
    deals = [vp_cards_text(rng.sample(deck, DEAL_CARDS)) for _ in range(count)]
    return {"name": pt.name, "slug": pt.slug, "seed": seed, "deals": deals}


def games(ctx: Context, q: str | None = None) -> list[dict[str, Any]]:
    """``vp list --json``: every known game's row; with ``q``, the games every word of ``q``
    fits (a common name such as ``"9/6 jacks"``, nicknames, word starts: ``search_games``),
    best fit first."""
    from pipeline.videopoker.catalog.games import catalog, search_games

    rows = [r.as_json() for r in catalog(ctx.artifacts)]
    if not q:
        return rows
    by_slug = {r["slug"]: r for r in rows}
    return [by_slug[m.slug] for m in search_games(q) if m.complete and m.slug in by_slug]
