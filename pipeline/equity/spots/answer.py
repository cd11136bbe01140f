"""The one equity answer, shared by every game and door: :class:`Answer`, its :class:`SeatRow` per
seat and its integer :class:`Counts`, frozen once made, and the one place they become the
documented JSON (``../shared/DESIGN.md``, "Equity JSON": the hero's top-level keys plus
``players`` in seat order).

>>> row = SeatRow("hero", "As Ks", 1, 0.5, 0.0, 0.5, 0.5, None, hand="As Ks")
>>> row.to_json()["equity"], Method.EXACT == "exact"
(0.5, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple, Union

from pipeline.core.cards import format_cards

#: A JSON value as the answers hold them.
Json = Union[None, bool, int, float, str, Sequence["Json"], Mapping[str, "Json"]]


class Method(str, Enum):
    """How an answer's numbers were found (its JSON ``method``)."""

    EXACT = "exact"
    MONTE_CARLO = "monte-carlo"


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One entry of ``players``: a seat's name (``hero``, ``vs1`` ...), its range text (the hand
    for a one-hand seat, ``random``), its combos and its numbers (None where a method leaves a
    seat's win/tie/lose unknown). Hi-lo games add the scoop and the pot shares won by the high
    and the low; exact answers of the other games the equity as a fraction."""

    player: str
    range: str
    combos: int
    win: float | None
    tie: float | None
    lose: float | None
    equity: float | None
    stderr: float | None
    hand: str | None = None
    scoop: float | None = None
    high: float | None = None
    low: float | None = None
    equity_fraction: str | None = None

    def to_json(self) -> dict[str, Json]:
        """The row's JSON object (optional keys only when set)."""
        out: dict[str, Json] = {"player": self.player, "range": self.range, "combos": self.combos,
                                "win": self.win, "tie": self.tie, "lose": self.lose,
                                "equity": self.equity, "stderr": self.stderr}
        if self.hand is not None:
            out["hand"] = self.hand
        if self.high is not None:
            out.update(scoop=self.scoop, high=self.high, low=self.low)
        if self.equity_fraction is not None:
            out["equity_fraction"] = self.equity_fraction
        return out

    def __getitem__(self, key: str) -> Json:
        """A JSON key's value (``row["win"]``, as the rows read when they were dicts)."""
        return self.to_json()[key]

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key in self.to_json()


#: The keys of ``counts`` in the documented order.
COUNT_KEYS = ("win", "tie", "lose", "equity_numerator", "equity_denominator", "high_numerator",
              "low_numerator", "assignment_draws")


@dataclass(frozen=True, slots=True)
class Counts:
    """The hero's integer counts: win/tie/lose deals, the equity as a fraction when exact (in pot
    shares over ``equity_denominator``), the hi-lo parts, and the assignment draws Monte Carlo
    made when ranges conflict."""

    win: int
    tie: int
    lose: int
    equity_numerator: int | None = None
    equity_denominator: int | None = None
    high_numerator: int | None = None
    low_numerator: int | None = None
    assignment_draws: int | None = None

    def to_json(self) -> dict[str, Json]:
        """The ``counts`` JSON object (keys that are set, in the documented order)."""
        out: dict[str, Json] = {"win": self.win, "tie": self.tie, "lose": self.lose}
        for key in COUNT_KEYS[3:]:
            v = getattr(self, key)
            if v is not None:
                out[key] = v
        return out

    def __getitem__(self, key: str) -> int:
        """A count by its JSON key (``counts["win"]``, as they read when they were a dict)."""
        v = getattr(self, key, None) if key in COUNT_KEYS else None
        if v is None:
            raise KeyError(key)
        return int(v)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key in self.to_json()


@dataclass(frozen=True, slots=True)
class Answer:
    """One equity answer; :meth:`to_json` gives the documented JSON object.

    The top-level win/tie/lose/equity are the hero's (seat 0); ``players`` one row per seat.
    ``vs`` holds the named opponents' cards, ``vs_text`` every opponent that is not random as
    text (hands by cards, ranges as given). ``source`` names where read numbers came from
    (``preflop.h5``); ``note`` is a remark for people. ``deals`` (exact) or ``samples`` and
    ``seed`` (Monte Carlo) say how much was counted.
    """

    hole: tuple[int, ...]
    board: tuple[int, ...]
    dead: tuple[int, ...]
    vs: tuple[tuple[int, ...], ...]
    opponents: int
    method: Method
    win: float
    tie: float
    lose: float
    equity: float
    stderr: float | None
    seconds: float
    players: tuple[SeatRow, ...]
    deals: int | None = None
    samples: int | None = None
    seed: int | None = None
    counts: Counts | None = None
    hero_range: str | None = None
    game: str = "holdem"
    source: str | None = None
    note: str | None = None
    vs_text: tuple[str, ...] | None = None

    def to_json(self) -> dict[str, Json]:
        """JSON-ready dict with the keys the command line promises."""
        out: dict[str, Json] = {
            "hole": self.hero_range if self.hero_range is not None else format_cards(self.hole),
            "board": format_cards(self.board),
            "opponents": self.opponents,
            "vs": list(self.vs_text) if self.vs_text is not None
            else [format_cards(h) for h in self.vs],
            "dead": format_cards(self.dead),
            "method": self.method.value,
        }
        if self.game != "holdem":
            out["game"] = self.game
        if self.method is Method.EXACT:
            out["deals"] = self.deals
        else:
            out["samples"] = self.samples
            out["seed"] = self.seed
        out.update(win=self.win, tie=self.tie, lose=self.lose, equity=self.equity,
                   stderr=self.stderr, counts=self.counts.to_json() if self.counts else {},
                   seconds=round(self.seconds, 4))
        if self.source:
            out["source"] = self.source
        if self.note:
            out["note"] = self.note
        if self.players:
            out["players"] = [p.to_json() for p in self.players]
        return out


class Solution(NamedTuple):
    """What a solver found: the method, a row per seat, the hero's counts and how much was
    counted (``deals``) or sampled (``samples`` with its ``seed``); where read numbers came
    from (``source``) and a remark (``note``). The planner times it and makes the
    :class:`Answer` (a named tuple: immutable, and made on every answer's path at the cost of
    a tuple)."""

    method: Method
    rows: tuple[SeatRow, ...]
    counts: Counts | None = None
    deals: int | None = None
    samples: int | None = None
    seed: int | None = None
    source: str | None = None
    note: str | None = None


#: The name this type had before it was frozen (kept for callers of the Python API).
EquityResult = Answer

__all__ = ["Answer", "Counts", "EquityResult", "Json", "Method", "SeatRow", "Solution"]
