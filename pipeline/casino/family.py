"""What a rule family is: a module that analyses every game file naming it (``family = ...``).

A family module (``pipeline/casino/families/<module>.py``, listed in
:data:`pipeline.casino.families.FAMILIES`) exposes exactly the names of :class:`Family`:

* ``FAMILY``: the name game files use; ``BASE_BET``: what one unit is (``"ante"``);
* ``point_options(game) -> dict``: each decision point's name and its options in tie-break
  order (``{"play or fold": ("fold", "play")}``; empty for a side bet);
* ``check_rules(raw) -> dict``: the game file's ``[rules]`` table checked, defaults filled in
  (``ValueError`` naming the bad key or value);
* ``table_specs(rules) -> dict[str, TableSpec]``: the pay tables it reads, by name;
* ``analyze(game, strategy=None) -> CasinoAnalysis``: the exact analysis over every equally
  likely deal, under optimal play or under ``strategy`` (a :class:`PlayerStrategy`);
* ``strategies(game) -> tuple[PlayerStrategy, ...]``: strategies a person can use (the first
  is the family's recommended simple strategy), each scored exactly by ``analyze``;
* ``decision_state(game, cards) -> tuple[str, dict[str, int]]``: which decision point a hand
  written by the user is at (cards as ids, groups separated by ``|``) and its context, for
  ``casino grade``; ``grade_state(game, point, cards, context) -> list[Fraction]``: the exact
  EV of every option there (a side bet without decisions raises ``InputError`` in both);
  ``artifacts`` names the artifacts folder, where a family may read EVs its build stored;
* optionally ``FIRST_DEAL``: the card groups dealt at the first decision (``(5, 1)``: five
  cards and the dealer's up card), for the trainer's deals.

docs/casino.md ("Adding a family") walks through one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

if TYPE_CHECKING:
    from pipeline.casino.game import Game, TableSpec
    from pipeline.casino.result import CasinoAnalysis, DecisionPoint

#: a rule of play at one decision point: the chosen option index of every state of the point
#: (the point's EVs are those of optimal play afterwards, or of the strategy's later rules)
Choice = Callable[["DecisionPoint"], np.ndarray]


@dataclass(frozen=True)
class PlayerStrategy:
    """A strategy a person can follow: its name, its rules as text, and per decision point the
    rule as code (points it leaves out are played optimally)."""

    name: str
    rules: tuple[str, ...]
    choose: Mapping[str, Choice] = field(default_factory=dict)


class Family(Protocol):
    """The names a family module exposes (see the module docstring)."""

    FAMILY: str
    BASE_BET: str

    def point_options(self, game: Game) -> dict[str, tuple[str, ...]]: ...

    def check_rules(self, raw: Mapping[str, Any]) -> dict[str, Any]: ...

    def table_specs(self, rules: Mapping[str, Any]) -> dict[str, TableSpec]: ...

    def analyze(self, game: Game, strategy: PlayerStrategy | None = None) -> CasinoAnalysis: ...

    def strategies(self, game: Game) -> tuple[PlayerStrategy, ...]: ...

    def decision_state(self, game: Game, cards: list[list[int]]) -> tuple[str, dict[str, int]]: ...

    def grade_state(self, game: Game, point: str, cards: list[list[int]],
                    context: Mapping[str, int], artifacts: Path | None = None) -> list[Fraction]: ...


def optimal(point: DecisionPoint) -> np.ndarray:
    """The optimal :data:`Choice`: the best option of every state."""
    return point.best_option


__all__ = ["Choice", "PlayerStrategy", "Family", "optimal"]
