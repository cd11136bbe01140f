"""The endpoints the page needs beyond the CLI's answers: everything the page shows is computed
here or in :mod:`pipeline.answers`, so the script in ``static/`` draws and never counts, parses
or writes poker text itself.

* ``POST /api/range/format``: a range (text, then grid cells painted at a weight) as the range
  writer's text with all 169 cells counted (:func:`pipeline.answers.range_view.range_view`).
* ``POST /api/hits/view``: ``hits`` with classes, cumulative %, combined draw categories and
  per-category equity (:func:`pipeline.answers.hits_view.hits_view`).
* ``POST /api/vp/draw``: ``vp draw`` (:func:`pipeline.answers.vp_play.draw`); ``POST
  /api/vp/tally``: a session's exact totals (:func:`pipeline.answers.vp_play.tally`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Optional

from fastapi import APIRouter
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from pipeline.answers import Context
from pipeline.answers.range_view import MAX_PAINT
from pipeline.answers.vp import COINS
from pipeline.answers.vp_play import LINE_CHOICES
from pipeline.serve.models import DEFAULT_GAME, MAX_DEALS, Body, Pays, Seed, Text
from pipeline.serve.security import HeavyLane, Limits, check_samples

#: a paint token is one class, combo or short run (``AKs``, ``AsKs``, ``QQ+``)
TOKEN_TEXT = 40
#: most lines of one multi-play round
MAX_ROUND = max(LINE_CHOICES)


class Paint(Body):
    """Cells painted on the grid: a range token and the weight it gets (0 takes it out)."""

    hand: Annotated[str, Field(max_length=TOKEN_TEXT)]
    weight: Annotated[float, Field(ge=0, le=1)]


class RangeFormatBody(Body):
    """``range/format``: a range, the cells painted on it, the cards it must avoid."""

    range: Text = ""
    board: Text = ""
    dead: Text = ""
    paint: Annotated[list[Paint], Field(max_length=MAX_PAINT)] = []
    #: a class whose combos to list one by one (the grid's suit selector)
    cell: Optional[Annotated[str, Field(max_length=TOKEN_TEXT)]] = None


class DrawBody(Pays):
    """``vp draw``: hand ``hand`` of ``seed`` played with ``hold`` on ``lines`` lines."""

    paytable: Text = DEFAULT_GAME
    seed: Seed
    hand: Annotated[int, Field(ge=1, le=MAX_DEALS)] = 1
    hold: Text
    lines: int = 1
    coins: Annotated[int, Field(ge=1, le=COINS)] = COINS


class Played(Body):
    """One played hand of a session: exact EVs per coin, the stake and the credits won."""

    ev_exact: Annotated[str, Field(max_length=TOKEN_TEXT * 4)]
    best_ev_exact: Annotated[str, Field(max_length=TOKEN_TEXT * 4)]
    coins: Annotated[int, Field(ge=1, le=COINS)]
    lines: Annotated[int, Field(ge=1, le=MAX_ROUND)]
    won: Annotated[float, Field(ge=0)]


class TallyBody(Body):
    """``vp/tally``: a session's played hands."""

    hands: Annotated[list[Played], Field(max_length=MAX_DEALS)]


class HitsViewBody(Body):
    """``hits/view``: ``hits`` and, with ``vs``, each category's equity against it."""

    range: Text
    board: Text
    dead: Text = ""
    vs: Optional[Text] = None
    samples: Annotated[Optional[int], Field(ge=1)] = None
    seed: Optional[Seed] = None


def page_router(ctx: Context, limits: Limits, lane: HeavyLane, safe_game: Callable[[str], str]) -> APIRouter:
    """The page's endpoints over the server's opened artifacts (heavy ones through ``lane``;
    ``safe_game`` checks a game named over HTTP)."""
    from pipeline.answers.hits_view import hits_view
    from pipeline.answers.range_view import range_view

    router = APIRouter()

    @router.post("/api/range/format")
    async def range_format(body: RangeFormatBody) -> Any:
        """The range with `paint` applied, written back as range text, every cell counted."""
        return await run_in_threadpool(range_view, ctx, body.range, body.board, body.dead,
                                       [(p.hand, p.weight) for p in body.paint], body.cell)

    @router.post("/api/hits/view")
    async def hits_page(body: HitsViewBody) -> Any:
        """`hits --json` with classes, cumulative %, combined draws and equity per category."""
        check_samples(body.samples, limits)

        def work() -> Any:
            return hits_view(ctx, body.range, body.board, body.dead, vs=body.vs,
                             samples=body.samples, seed=body.seed)
        return await lane.run(work, limits.answer_seconds)

    @router.post("/api/vp/draw")
    async def vp_draw(body: DrawBody) -> Any:
        """`vp draw --json`: the hold played out on every line, paid in credits."""
        from pipeline.answers.vp_play import draw

        game = safe_game(body.paytable)
        return await lane.run(lambda: draw(ctx, body.seed, body.hand, body.hold, game, pay=body.pay,
                                           lines=body.lines, coins=body.coins), limits.answer_seconds)

    @router.post("/api/vp/tally")
    async def vp_tally(body: TallyBody) -> Any:
        """A session's exact totals: mistakes, cost in credits and %, returns."""
        from pipeline.answers.vp_play import tally

        return tally([h.model_dump() for h in body.hands])

    return router


__all__ = ["page_router"]
