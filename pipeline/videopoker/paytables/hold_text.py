"""Card texts of many deals at once ("As Kd Jk", "discard all"), built as arrays, not per deal.

The strategy tables carry a text column per deal class (its cards, its best and second-best
holds): 134,459 rows each. Joining Python strings row by row took seconds per paytable, so the
texts are assembled as fixed-width byte rows with numpy and handed to Arrow in one piece.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pipeline.core.cards import RANKS, SUITS
from pipeline.videopoker.paytables.wild import JOKER

#: what a hold that keeps no card reads as
DISCARD_ALL = "discard all"
CARDS_PER_DEAL = 5
#: two characters per card, one space between cards
TEXT_WIDTH = 3 * CARDS_PER_DEAL - 1


def _card_chars() -> np.ndarray:
    """(54, 2) uint8: the two characters of each card id, ``Jk`` for both jokers."""
    texts = [RANKS[c >> 2] + SUITS[c & 3] for c in range(JOKER)] + ["Jk", "Jk"]
    return np.frombuffer("".join(texts).encode("ascii"), np.uint8).reshape(-1, 2)


def deal_texts(hands: np.ndarray, masks: np.ndarray | None = None) -> pa.Array:
    """Arrow strings: row i = the cards of ``hands[i]`` whose bit is set in ``masks[i]``
    (all five without ``masks``), space separated, in the row's order; ``discard all`` if none.

    >>> deal_texts(np.array([[0, 1, 50, 51, 52]]), np.array([0b11000])).to_pylist()
    ['As Jk']
    """
    hands = np.asarray(hands)
    n = hands.shape[0]
    keep = np.ones((n, CARDS_PER_DEAL), bool) if masks is None else \
        (np.asarray(masks)[:, None] >> np.arange(CARDS_PER_DEAL)) & 1 == 1
    chars = _card_chars()[hands]  # (n, 5, 2)
    out = np.zeros((n, TEXT_WIDTH), np.uint8)
    pos = np.zeros(n, np.int64)
    rows = np.arange(n)
    for t in range(CARDS_PER_DEAL):
        r = rows[keep[:, t]]
        p = pos[r]
        spaced = p > 0
        out[r[spaced], p[spaced]] = ord(" ")
        p = p + spaced
        out[r, p] = chars[r, t, 0]
        out[r, p + 1] = chars[r, t, 1]
        pos[r] = p + 2
    # 'S' rows drop their trailing NULs: each row becomes exactly its text
    text = pa.array(out.view(f"S{TEXT_WIDTH}").ravel(), pa.binary()).cast(pa.string())
    if masks is None:
        return text
    empty = pa.array(pos == 0)
    return pc.if_else(empty, pa.scalar(DISCARD_ALL), text)
