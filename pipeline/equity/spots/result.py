"""The one equity answer type, shared by hold'em (hands, ranges, every seat) and Omaha."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pipeline.core.cards import format_cards


@dataclass
class EquityResult:
    """One equity answer; :meth:`to_json` gives the command line's JSON object.

    The top-level win/tie/lose/equity are the hero's (seat 0). ``players`` holds one row per
    seat in seat order: ``{player, range, combos, win, tie, lose, equity, stderr}`` (``hand``
    too when the seat is one hand). ``source`` names where the numbers came from when they were
    read rather than computed (e.g. ``preflop.h5``); ``note`` is a remark for people.
    """

    hole: list[int]
    board: list[int]
    dead: list[int]
    vs: list[list[int]]
    opponents: int
    method: str
    win: float
    tie: float
    lose: float
    equity: float
    stderr: float | None
    seconds: float
    deals: int | None = None
    samples: int | None = None
    seed: int | None = None
    counts: dict[str, int] = field(default_factory=dict)
    players: list[dict[str, Any]] = field(default_factory=list)
    hero_range: str | None = None
    game: str = "holdem"
    source: str | None = None
    note: str | None = None
    #: the opponents that are not random, as text (hands by cards, ranges as given); None:
    #: ``vs`` (hands only) stands for them
    vs_text: list[str] | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict with the keys the command line promises."""
        out: dict[str, Any] = {
            "hole": self.hero_range if self.hero_range is not None else format_cards(self.hole),
            "board": format_cards(self.board),
            "opponents": self.opponents,
            "vs": self.vs_text if self.vs_text is not None else [format_cards(h) for h in self.vs],
            "dead": format_cards(self.dead),
            "method": self.method,
        }
        if self.game != "holdem":
            out["game"] = self.game
        if self.method == "exact":
            out["deals"] = self.deals
        else:
            out["samples"] = self.samples
            out["seed"] = self.seed
        out.update(win=self.win, tie=self.tie, lose=self.lose, equity=self.equity,
                   stderr=self.stderr, counts=self.counts, seconds=round(self.seconds, 4))
        if self.source:
            out["source"] = self.source
        if self.note:
            out["note"] = self.note
        if self.players:
            out["players"] = self.players
        return out


def seat_row(player: str, label: str, combos: int, win: float | None, tie: float | None,
             lose: float | None, equity: float | None, stderr: float | None,
             hand: str | None = None) -> dict[str, Any]:
    """One entry of ``players`` (the JSON contract's keys, plus ``player`` and ``hand``)."""
    row: dict[str, Any] = {"player": player, "range": label, "combos": combos, "win": win,
                           "tie": tie, "lose": lose, "equity": equity, "stderr": stderr}
    if hand is not None:
        row["hand"] = hand
    return row


__all__ = ["EquityResult", "seat_row"]
