"""The games the equity engine deals: cards per seat, board, deck, how a pot is won."""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.errors import InputError, clip

#: Game codes the kernels branch on (here, not beside the kernels, so naming a game or counting
#: a range loads no numba).
OMAHA, OMAHA_HILO, STUD, STUD_HILO, RAZZ, SHORT_DECK = range(6)

#: Board cards of a flop game.
FLOP_BOARD = 5
#: Cards a stud seat ends with.
STUD_CARDS = 7
#: Lowest rank in a short deck (rank 4 = six).
SHORT_DECK_LOWEST = 4


@dataclass(frozen=True)
class Game:
    """One game: ``code`` for the kernels, ``hole`` cards per seat (all seven in stud),
    ``board`` cards (0 in stud), ``lowest_rank`` of the deck, ``hilo`` split pots."""

    name: str
    title: str
    code: int
    hole: int
    board: int
    lowest_rank: int = 0
    hilo: bool = False
    ranges: str = "omaha"  # "omaha", "holdem" or "" (cards only)

    @property
    def deck_size(self) -> int:
        """Cards in the deck."""
        return 52 - 4 * self.lowest_rank

    @property
    def stud(self) -> bool:
        """A stud game: every seat's own seven cards, no board."""
        return self.board == 0


GAMES: dict[str, Game] = {g.name: g for g in (
    Game("omaha", "Omaha (two hole cards + three board cards)", OMAHA, 4, FLOP_BOARD),
    Game("omaha5", "5-card Omaha (two hole cards + three board cards)", OMAHA, 5, FLOP_BOARD),
    Game("omaha6", "6-card Omaha (two hole cards + three board cards)", OMAHA, 6, FLOP_BOARD),
    Game("omaha-hi-lo", "Omaha hi-lo, 8 or better (two hole cards + three board cards, "
                        "split pots)", OMAHA_HILO, 4, FLOP_BOARD, hilo=True),
    Game("short-deck", "Short-deck hold'em (36 cards, flush beats full house)", SHORT_DECK, 2,
         FLOP_BOARD, lowest_rank=SHORT_DECK_LOWEST, ranges="holdem"),
    Game("stud", "Seven-card stud", STUD, STUD_CARDS, 0, ranges=""),
    Game("stud-hi-lo", "Seven-card stud hi-lo, 8 or better (split pots)", STUD_HILO, STUD_CARDS,
         0, hilo=True, ranges=""),
    Game("razz", "Razz (seven-card stud, ace-to-five low)", RAZZ, STUD_CARDS, 0, ranges=""),
)}
#: Other spellings people type.
ALIASES = {"plo": "omaha", "plo4": "omaha", "omaha4": "omaha", "plo5": "omaha5", "plo6": "omaha6",
           "omaha-8": "omaha-hi-lo", "o8": "omaha-hi-lo", "plo8": "omaha-hi-lo",
           "omaha-hilo": "omaha-hi-lo", "short-deck-holdem": "short-deck", "shortdeck": "short-deck",
           "6+": "short-deck", "stud-8": "stud-hi-lo", "stud8": "stud-hi-lo", "stud-hilo": "stud-hi-lo",
           "seven-card-stud": "stud"}
#: Every game name the engine takes, hold'em first.
GAME_NAMES = ("holdem", *GAMES)


def get_game(name: str) -> Game | None:
    """The game called ``name`` (None for hold'em); InputError naming it otherwise."""
    key = name.strip().lower().replace("_", "-").replace("'", "")
    key = ALIASES.get(key, key)
    if key in ("holdem", "hold-em", "nlhe", "texas-holdem"):
        return None
    if key not in GAMES:
        raise InputError(f"unknown game {clip(name)}: choose one of {', '.join(GAME_NAMES)}")
    return GAMES[key]


__all__ = ["Game", "GAMES", "GAME_NAMES", "get_game", "FLOP_BOARD", "STUD_CARDS"]
