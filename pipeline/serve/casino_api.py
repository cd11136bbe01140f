"""The casino games over HTTP: each endpoint the ``casino`` command's ``--json`` answer
(:mod:`pipeline.answers.casino`), plus ``deal`` for the page's trainer.

* ``GET /api/casino/games?q=``: ``casino list``;
* ``POST /api/casino/analyze|strategy|breakeven``: the exact analysis (heavy lane);
* ``POST /api/casino/grade``: the exact cost of a decision in a hand;
* ``POST /api/casino/deal``: a seeded, repeatable hand at the game's first decision.

Games are named by slug or common name only, never a file path (a web client must not make
the server read a file of its choosing).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from fastapi import APIRouter
from starlette.concurrency import run_in_threadpool

from pipeline.answers import Context
from pipeline.errors import InputError
from pipeline.serve.models import MAX_TEXT, Pays, Seed, Text
from pipeline.serve.security import HeavyLane, Limits

#: characters of a bad name quoted back
SHOWN = 60


class GameBody(Pays):
    """``casino analyze`` / ``strategy``: a game and optional pay edits."""

    game: Text


class GradeBody(GameBody):
    """``casino grade``: the cards seen and the decision taken."""

    hand: Text
    decision: Text


class BreakevenBody(GameBody):
    """``casino breakeven``: the line whose pay moves (or ``meter``)."""

    line: Text


class CasinoDealBody(Pays):
    """``deal``: a hand of ``game`` at its first decision, from ``seed`` (fresh if absent)."""

    game: Text
    seed: Optional[Seed] = None


def safe_casino_game(name: str) -> str:
    """A game named over HTTP: a known game's slug or common name, never a path."""
    from pipeline.casino.catalog import game_files, resolve_game

    text = name.strip()
    refused = InputError(f"game {name[:SHOWN]!r}: not a known game (the server takes names from "
                         "`casino list` or common names, not file paths)")
    if not text or text.lower().endswith(".toml") or "/" in text or "\\" in text or "\0" in text \
            or text[0] in ".~":
        raise refused
    path = resolve_game(text)
    if Path(path).resolve() not in {p.resolve() for p in game_files().values()}:
        raise refused
    return text


def casino_router(ctx: Context, limits: Limits, lane: HeavyLane) -> APIRouter:
    """The casino endpoints over the server's opened artifacts (analyses through ``lane``)."""
    from pipeline.answers import casino as ans

    router = APIRouter()

    @router.get("/api/casino/games")
    async def games(q: Optional[str] = None) -> Any:
        """`casino list --json`."""
        if q is not None and len(q) > MAX_TEXT:
            raise InputError(f"q: longer than {MAX_TEXT} characters")
        return await run_in_threadpool(ans.games, ctx, q)

    @router.post("/api/casino/analyze")
    async def analyze(body: GameBody) -> Any:
        """`casino analyze --json`: house edge, element of risk, return table."""
        game = safe_casino_game(body.game)
        return await lane.run(lambda: ans.analyze(ctx, game, pay=body.pay), limits.answer_seconds)

    @router.post("/api/casino/strategy")
    async def strategy(body: GameBody) -> Any:
        """`casino strategy --json`: strategies a person can use, with their exact costs."""
        game = safe_casino_game(body.game)
        return await lane.run(lambda: ans.strategy(ctx, game, pay=body.pay), limits.answer_seconds)

    @router.post("/api/casino/grade")
    async def grade(body: GradeBody) -> Any:
        """`casino grade --json`: the exact cost of a decision in a hand."""
        game = safe_casino_game(body.game)
        return await lane.run(lambda: ans.grade(ctx, game, body.hand, body.decision, pay=body.pay),
                              limits.answer_seconds)

    @router.post("/api/casino/breakeven")
    async def breakeven(body: BreakevenBody) -> Any:
        """`casino breakeven --json`."""
        game = safe_casino_game(body.game)
        return await lane.run(lambda: ans.breakeven(ctx, game, body.line, pay=body.pay), limits.answer_seconds)

    @router.post("/api/casino/deal")
    async def deal(body: CasinoDealBody) -> Any:
        """A seeded hand at the game's first decision (the trainer's deal)."""
        game = safe_casino_game(body.game)
        return await run_in_threadpool(ans.deal, ctx, game, body.seed, body.pay)

    return router


__all__ = ["casino_router", "safe_casino_game", "GameBody", "GradeBody", "BreakevenBody", "CasinoDealBody"]
