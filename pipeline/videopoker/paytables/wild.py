"""Which cards are wild: the one definition every video-poker kernel and reader uses.

Card ids 0..51 are the standard deck (``4 * rank + suit``, rank 0 = deuce); a joker deck adds
card 52, a two-joker deck cards 52 and 53. Both jokers are wild in joker games; every deuce is
wild in deuces-wild games.

>>> is_wild(53, WILD_JOKER), is_wild(52, WILD_NONE), is_wild(3, WILD_DEUCES), is_wild(4, WILD_DEUCES)
(True, False, True, False)
"""

from __future__ import annotations

#: card id of the first joker; every id at or above it is a joker (53 is the second one)
JOKER = 52
#: the wild modes a paytable may name; a kernel receives a mode as its index here
WILD_MODES = ("none", "deuces", "joker")
WILD_NONE, WILD_DEUCES, WILD_JOKER = range(len(WILD_MODES))
#: the kernels' code of each wild mode
WILD_CODE = {mode: i for i, mode in enumerate(WILD_MODES)}
#: rank of the deuce (ranks run 0 = deuce .. 12 = ace)
DEUCE_RANK = 0


def is_wild(card: int, wild_mode: int) -> bool:
    """Whether ``card`` is wild under ``wild_mode`` (a code from ``WILD_CODE``).

    Plain Python, so reading a paytable loads no numba; the kernels that need it compile it
    where they use it (``nb.njit(inline="always")(is_wild)``)."""
    if wild_mode == WILD_JOKER:
        return card >= JOKER
    if wild_mode == WILD_DEUCES:
        return (card >> 2) == DEUCE_RANK and card < JOKER
    return False
