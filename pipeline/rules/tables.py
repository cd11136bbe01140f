"""Build the score tables of a rule set: 5-card scores by deck-local colex, class table, 7-card."""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np

from pipeline.core.cards import BINOM, RANKS, SUITS
from pipeline.core.category import Category
from pipeline.core.evaluate import HandValue, hand_name
from pipeline.errors import ConfigError
from pipeline.rules import RuleSet
from pipeline.rules.kernels import all_combinations, best_of_subsets, hand_keys, subset_positions


@dataclass(frozen=True)
class RuleTables:
    """A rule set's 5-card scores (by local colex) and its class table (row i = score i+1)."""

    score5: np.ndarray       # uint16[C(n,5)]
    category: np.ndarray     # uint8[S]
    ranks: np.ndarray        # uint8[S, 5]  significance order (standard rank numbers)
    suit: np.ndarray         # int8[S]  suit of the top card when suits break ties, else -1
    names: list[str]


def build_five(rules: RuleSet) -> RuleTables:
    """Score every 5-card hand of the rule set's deck; equal keys share a score, higher is better."""
    n = rules.deck_size
    hands = all_combinations(n, 5)
    keys = np.empty(len(hands), np.int64)
    cats = np.empty(len(hands), np.int64)
    ordered = np.empty((len(hands), 5), np.int64)
    p = rules.params()
    hand_keys(hands, 4 * rules.lowest_rank, p["rank_value"], p["straights"], p["flushes"],
              p["wheel"], p["lowest"], p["cat_pos"], p["suit_rank"], p["use_suits"], p["low"],
              keys, cats, ordered)
    uniq, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    if len(uniq) > 65535:
        raise ConfigError(f"rule set {rules.name} has {len(uniq)} classes, more than uint16 holds")
    score5 = (inverse + 1).astype(np.uint16)
    cat = cats[first].astype(np.uint8)
    rk = ordered[first].astype(np.uint8)
    suit = np.full(len(uniq), -1, np.int8)
    if rules.suit_order:
        suit = (uniq % 4).astype(np.int8)  # suit rank of the top card
    names = [class_name(rules, int(c), tuple(int(x) for x in r), int(s))
             for c, r, s in zip(cat, rk, suit)]
    return RuleTables(score5, cat, rk, suit, names)


def class_name(rules: RuleSet, category: int, ranks: tuple[int, ...], suit: int) -> str:
    """Readable name of a class under a rule set (lowball no-pair hands read like ``7-5-4-3-2 low``)."""
    if rules.low != "none" and category == Category.HIGH_CARD:
        if rules.low == "ace-to-five":
            ranks = tuple(sorted(ranks, key=lambda r: (r + 1) % 13, reverse=True))
        return "-".join(RANKS[r] for r in ranks) + " low"
    name = hand_name(HandValue(Category(category), ranks))
    if suit >= 0:
        name += f" ({'clubs diamonds hearts spades'.split()[SUITS.index(rules.suit_order[suit])]} top card)"
    return name


def build_k(rules: RuleSet, five: np.ndarray, k: int) -> np.ndarray:
    """Best-five score of every k-card hand of the deck (k = 6 or 7), by local colex."""
    n = rules.deck_size
    out = np.empty(comb(n, k), np.uint16)
    best_of_subsets(n, k, five, subset_positions(k), BINOM, out)
    return out
