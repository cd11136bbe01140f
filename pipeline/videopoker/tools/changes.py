"""How the optimal holds change between two pays of one line (``vp breakeven``'s strategy
changes): the deal classes whose best hold changes to a strictly better one, grouped by the
holds as cards, with what each change adds to the return.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING, Any

import numpy as np

from pipeline.videopoker.paytables.deal_text import vp_cards_text

if TYPE_CHECKING:
    from pipeline.videopoker.solver.analysis import Analysis

#: changed holds listed, largest return effect first
TOP_CHANGES = 5
#: float EVs closer than this count as a tie (the exact EVs of tied holds are equal)
EV_TIE = 1e-12


@dataclass(frozen=True)
class Change:
    """One change of best hold between two pays, over the deal classes that make it (the holds
    as the cards of the class's representative deal, so classes differing only in the
    discarded cards come together)."""

    old_hold: str
    new_hold: str
    example: str    # the deal where the change adds the most
    classes: int
    deals: int
    gain: float     # EV per credit the new hold adds, averaged over the deals, at the new pay
    effect: float   # the return the change adds at the new pay (gain x deals / all deals)

    def as_json(self) -> dict[str, Any]:
        """The change as a JSON object."""
        return {"hold_before": self.old_hold, "hold_after": self.new_hold,
                "example_deal": self.example, "classes": self.classes, "deals": self.deals,
                "ev_gain": self.gain, "return_gain": self.effect}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Change:
        """The change :meth:`as_json` wrote (its floats read back exactly)."""
        return cls(str(d["hold_before"]), str(d["hold_after"]), str(d["example_deal"]),
                   int(d["classes"]), int(d["deals"]), float(d["ev_gain"]), float(d["return_gain"]))


def _hold_text(hand: np.ndarray, mask: int) -> str:
    return vp_cards_text(int(hand[t]) for t in range(5) if mask >> t & 1) or "discard all"


def strategy_changes(before: Analysis, after: Analysis, top: int = TOP_CHANGES) -> dict[str, Any]:
    """How the optimal holds at ``after``'s pay differ from those at ``before``'s: deal classes
    and deals whose best hold changes (to a strictly better hold at the new pay), the return
    re-optimising adds at the new pay, and the ``top`` changes that add the most."""
    rows = np.arange(len(after.best))
    gain = after.ev[rows, after.best] - after.ev[rows, before.best]
    return group_changes(after.classes.hands, after.classes.weight, after.paytable.deck_size,
                         before.best, after.best, gain, top)


def group_changes(hands: np.ndarray, weight: np.ndarray, deck_size: int, old: np.ndarray,
                  new: np.ndarray, gain: np.ndarray, top: int = TOP_CHANGES) -> dict[str, Any]:
    """:func:`strategy_changes` from every class's best hold mask before (``old``) and after
    (``new``) and the EV the new hold gains over the old at the new pay (``gain``)."""
    changed = (new != old) & (gain > EV_TIE)
    deals = comb(deck_size, 5)
    effect = np.where(changed, gain * weight, 0.0)
    groups: dict[tuple[str, str], list[int]] = {}
    for i in np.flatnonzero(changed):
        key = (_hold_text(hands[i], int(old[i])), _hold_text(hands[i], int(new[i])))
        groups.setdefault(key, []).append(int(i))
    listed = []
    for (before, after), members in groups.items():
        idx = np.array(members)
        n = int(weight[idx].sum())
        best = members[int(np.argmax(effect[idx]))]
        listed.append(Change(before, after, vp_cards_text(hands[best]), len(members), n,
                             float(effect[idx].sum() / n), float(effect[idx].sum() / deals)))
    listed.sort(key=lambda c: (-c.effect, c.old_hold, c.new_hold))
    return {"classes": int(changed.sum()), "deals": int(weight[changed].sum()),
            "deal_fraction": float(weight[changed].sum() / deals),
            "return_gain": float(effect.sum() / deals), "kinds": len(listed), "top": listed[:top]}
