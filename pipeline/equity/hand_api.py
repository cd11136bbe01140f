"""``pipeline.hand_equity``: the library's convenience door to the one equity engine.

It takes cards as text, ids or names (``"AsKs"``, ``[51, 47]``, ``["As", "Ks"]``), turns them
into the seats of :func:`pipeline.equity.engine.equity_seats` and returns that answer unchanged:
the same method choice, limits, seed semantics and numbers as ``pokertables equity``. Four hole
cards are an Omaha hand, as on the command line.

Definitions (hero's point of view): *win* = hero's hand is strictly best; *tie* = hero shares
the best hand; *lose* = someone is strictly better; *equity* = expected share of the pot, a
k-way tie paying 1/k. The opponents share the board and the deck, so nothing multiplies
heads-up probabilities (``1 - p**N`` is wrong and is never used).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pipeline.core.cards import card_text, parse_cards
from pipeline.equity.engine import equity_seats
from pipeline.equity.montecarlo.driver import DEFAULT_SAMPLES
from pipeline.equity.spots.question import CardsInput
from pipeline.equity.spots.result import EquityResult

if TYPE_CHECKING:
    from pipeline.query.tables import Tables


def cards_text(cards: CardsInput) -> str:
    """Cards as the engine's seat text (``"AsKs"``); a string is passed through unchanged, so a
    range (``"QQ+,AKs"``) is a seat too.

    >>> cards_text([51, 47]), cards_text(["2c", "Td"]), cards_text("QQ+")
    ('AsKs', '2cTd', 'QQ+')
    """
    if isinstance(cards, str):
        return cards
    return "".join(card_text(c) for c in parse_cards(cards))


def equity(tables: Tables, hole: CardsInput, board: CardsInput = (), opponents: int | None = None,
           vs: Sequence[CardsInput] = (), dead: CardsInput = (), exact: bool | None = None,
           samples: int | None = None, seed: int | None = None) -> EquityResult:
    """Win/tie/lose/equity of ``hole`` against ``opponents`` random hands plus the ``vs`` seats.

    ``exact=None`` lets the engine choose (tables, exact counting when cheap, else Monte Carlo);
    ``exact=True`` insists (InputError when impossible); ``samples`` asks for that many Monte
    Carlo deals (default :data:`DEFAULT_SAMPLES`), reproducible with ``seed``. ``opponents``
    defaults to 1 without ``vs``. Same answer as ``pokertables equity`` for the same question.
    """
    return equity_seats(tables, cards_text(hole), [cards_text(v) for v in vs],
                        opponents=opponents, board=cards_text(board), dead=cards_text(dead),
                        exact=exact, samples=samples, seed=seed)


__all__ = ["equity", "cards_text", "DEFAULT_SAMPLES"]
