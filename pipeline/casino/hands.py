"""Hand rankings the casino games use, as score tables, and the hand names pay lines may use.

Two rankings:

* **five cards** (standard poker, also best five of six or seven): the project's scores
  (:mod:`pipeline.core.evaluate`, 1..7462, higher is stronger), with the category and the five
  ranks of every score from the class table;
* **three cards** (Three Card Poker and the three-card side bets): straight flush > three of a
  kind > straight > flush > pair > high card; A-2-3 is the lowest straight, A-K-Q the highest.
  Scores 1..:data:`THREE_SCORES` by the same rule (higher is stronger), computed here for all
  22,100 hands in colex order.

A :class:`HandClass` is what a pay line sees of a score: its category name and its ranks in
significance order. :func:`matches` is the one place that says which scores a line's hand (and
``ranks`` filter) takes.

>>> t = three_card_table()
>>> [int(x) for x in t.category_counts()]
[16440, 3744, 1096, 720, 52, 48]
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from pipeline.core.cards import RANKS, n_combinations
from pipeline.core.category import CATEGORY_NAMES, Category
from pipeline.core.constants import ACE

if TYPE_CHECKING:
    from pipeline.core.evaluate import RankTables

#: three-card categories, weakest first (index = category code): three-card poker's order of
#: the project's categories (a straight beats a flush, trips a straight)
THREE_CATEGORIES = tuple(c.label for c in (Category.HIGH_CARD, Category.PAIR, Category.FLUSH,
                                           Category.STRAIGHT, Category.THREE_OF_A_KIND,
                                           Category.STRAIGHT_FLUSH))
#: five-card categories, weakest first (the project's category codes)
FIVE_CATEGORIES = CATEGORY_NAMES
KING, QUEEN = ACE - 1, ACE - 2
#: hand names a pay line may use beyond the categories, with the category they refine
SPECIAL = {"royal flush": "straight flush", "mini royal": "straight flush", "ace king": "high card"}
#: hands whose ``ranks`` filter applies (to the rank of the group)
RANKED = ("pair", "three of a kind", "four of a kind")
RANKINGS = ("three", "five")


@dataclass(frozen=True)
class Ranking:
    """One ranking's score classes: per score (index 1..n; 0 unused) its category code and
    ranks in significance order."""

    name: str
    categories: tuple[str, ...]
    category: np.ndarray        # uint8[n + 1]
    ranks: np.ndarray           # uint8[n + 1, hand size]

    @property
    def n_scores(self) -> int:
        """Number of distinct hand values (scores run 1..n_scores)."""
        return len(self.category) - 1

    def hand_names(self) -> tuple[str, ...]:
        """Every hand name a pay line of this ranking may use, strongest first."""
        special = ("mini royal",) if self.name == "three" else ("royal flush",)
        extra = () if self.name == "three" else ("ace king",)
        return special + tuple(reversed(self.categories)) + extra

    def describe(self, score: int) -> str:
        """Short text of a score: category and ranks (``"pair of Q, 7 kicker"`` style)."""
        cat = self.categories[int(self.category[score])]
        ranks = "-".join(RANKS[r] for r in self.ranks[score])
        return f"{cat} {ranks}"


def matches(ranking: Ranking, hand: str, ranks_mask: int) -> np.ndarray:
    """bool[n + 1]: the scores a pay line of ``hand`` (with its ``ranks`` filter: bit r = rank
    r allowed for the pair / trips / quads) takes, before earlier lines are considered."""
    base = SPECIAL.get(hand, hand)
    code = ranking.categories.index(base)
    hit = ranking.category == code
    top = ranking.ranks[:, 0].astype(np.int64)
    if hand == "royal flush":
        hit &= top == ACE
    elif hand == "mini royal":
        hit &= (top == ACE) & (ranking.ranks[:, 1] == KING)
    elif hand == "ace king":
        hit &= (top == ACE) & (ranking.ranks[:, 1] == KING)
    if hand in RANKED:
        hit &= ((ranks_mask >> top) & 1).astype(bool)
    hit[0] = False
    return hit


def qualifier_score(ranking: Ranking, text: str) -> int:
    """Lowest score that qualifies under a rule written ``"queen high"``, ``"ace king"``,
    ``"pair"`` (or any category name: that category or better) or ``"any"`` (score 1).

    ``ValueError`` names the text when it is none of these."""
    t = " ".join(text.lower().split())
    if t == "any":
        return 1
    scores = np.arange(ranking.n_scores + 1)
    if t == "ace king":
        ok = (ranking.category == 0) & (ranking.ranks[:, 0] == ACE) & (ranking.ranks[:, 1] == KING)
        return int(scores[ok][0])
    if t.endswith(" high"):
        word = t[:-5]
        names = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
                 "queen", "king", "ace")
        if word in names:
            r = names.index(word)
            ok = (ranking.category == 0) & (ranking.ranks[:, 0] == r)
            if ok[1:].any():
                return int(scores[ok][0])
    if t in ranking.categories:
        return int(scores[ranking.category == ranking.categories.index(t)][0])
    raise ValueError(f"qualifier {text!r}: write e.g. \"queen high\", \"ace king\", \"pair\" or \"any\"")


# ---------------------------------------------------------------- three cards
def _three_key(ranks: tuple[int, ...], flush: bool) -> tuple[int, tuple[int, ...]]:
    """(category code, ranks in significance order) of three cards."""
    r = sorted(ranks, reverse=True)
    if r[0] == r[2]:
        return 4, tuple(r)
    if r[0] == r[1] or r[1] == r[2]:
        pair = r[1]
        kicker = r[2] if r[0] == r[1] else r[0]
        return 1, (pair, pair, kicker)
    straight = r[0] - r[2] == 2 or r == [ACE, 1, 0]
    if r == [ACE, 1, 0]:
        r = [1, 0, ACE]  # A-2-3: the three is the top card, the lowest straight
    if straight:
        return (5 if flush else 3), tuple(r)
    return (2 if flush else 0), tuple(r)


@dataclass(frozen=True)
class ThreeCardTable:
    """Every three-card hand's score by colex index, and the ranking of the scores."""

    score: np.ndarray           # uint16[22,100]
    ranking: Ranking

    def category_counts(self) -> np.ndarray:
        """Number of hands per category code (high card first)."""
        return np.bincount(self.ranking.category[self.score], minlength=len(THREE_CATEGORIES))


@functools.cache
def three_card_table() -> ThreeCardTable:
    """Scores of all 22,100 three-card hands (computed once per process)."""
    from pipeline.casino.subsets import colex_hands

    hands = colex_hands(3).tolist()
    hand_keys = [_three_key((a >> 2, b >> 2, c >> 2), a & 3 == b & 3 == c & 3) for a, b, c in hands]
    ordered = sorted(set(hand_keys))
    score_of = {k: i + 1 for i, k in enumerate(ordered)}
    cat = np.zeros(len(ordered) + 1, np.uint8)
    rk = np.zeros((len(ordered) + 1, 3), np.uint8)
    for k, s in score_of.items():
        cat[s] = k[0]
        rk[s] = k[1]
    score = np.array([score_of[k] for k in hand_keys], np.uint16)
    score.flags.writeable = False
    return ThreeCardTable(score, Ranking("three", THREE_CATEGORIES, cat, rk))


# ---------------------------------------------------------------- five cards
@functools.cache
def _rank_tables() -> RankTables:
    """The evaluator's lookup tables, built once per process (0.1 s of CPU each time: the
    ranking, the five-card scores and the score counts all read them)."""
    from pipeline.core.evaluate import build_rank_tables

    return build_rank_tables()


@functools.cache
def five_card_ranking() -> Ranking:
    """The five-card ranking's classes (category and ranks of each of the 7,462 scores)."""
    rt = _rank_tables()
    return Ranking("five", FIVE_CATEGORIES, rt.class_category, rt.class_ranks)


@functools.cache
def five_card_scores() -> np.ndarray:
    """uint16[2,598,960]: the score of every five-card hand by colex index (computed once per
    process; read-only)."""
    from pipeline.core.evaluate import score_table

    out = np.empty(n_combinations(5), np.uint16)
    score_table(5, _rank_tables(), out)
    out.flags.writeable = False
    return out


@functools.cache
def score_counts(cards: int) -> np.ndarray:
    """int64[7463]: how many hands of ``cards`` cards (5, 6 or 7; best five) have each score."""
    from pipeline.core.evaluate import score_table

    if cards == 5:
        return np.bincount(five_card_scores(), minlength=five_card_ranking().n_scores + 1).astype(np.int64)
    return score_table(cards, _rank_tables(), None).astype(np.int64)


def ranking(name: str) -> Ranking:
    """The ranking called ``name`` (``three`` or ``five``)."""
    return three_card_table().ranking if name == "three" else five_card_ranking()


__all__ = ["THREE_CATEGORIES", "FIVE_CATEGORIES", "SPECIAL", "RANKED", "RANKINGS", "Ranking", "matches",
           "qualifier_score", "ThreeCardTable", "three_card_table", "five_card_ranking",
           "five_card_scores", "score_counts", "ranking"]
