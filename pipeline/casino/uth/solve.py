"""Solve Ultimate Texas Hold'em exactly: fan the flop classes out as tasks, add up, symmetrise.

The work is one pass over the suit-isomorphic flops (1,755 of the 22,100 on a full deck, each
with its orbit size), cut into blocks that run as pure tasks on the build's executor (in this
process, or as Dask tasks on a cluster). Each block returns its flops' values per hole and its
share of every hole's pre-flop totals (:mod:`pipeline.casino.uth.flop_pass`). The totals are
summed over the canonical flops weighted by orbit size and then averaged over the deck's suit
symmetry group (:func:`pipeline.equity.hands.symmetry.symmetrise_hands`): for a hole h,

    sum over all flops F' of v(h, F') = 1/|G| * sum over g in G of acc[g(h)],
    acc[h] = sum over canonical F of |orbit(F)| * v(h, F),

since the |G| images g(F) of a canonical flop cover its orbit |Stab(F)| times each and
v(g(h), g(F)) = v(h, F). The sum is a multiple of |G| by construction (checked).

A reduced deck (any subset of the 52 cards) runs the same code; its group is the suit
permutations mapping it onto itself. The tests solve small decks and compare every count with
a brute force that deals every card.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from math import comb

import numpy as np

from pipeline.casino.uth.flop_pass import N_COUNTS, N_HOLES, flop_chunk
from pipeline.casino.uth.rules import UthRules
from pipeline.core.cards import BINOM
from pipeline.core.combos import unrank_many
from pipeline.core.constants import BOARD_CARDS, DECK_SIZE, N_SUITS
from pipeline.core.evalkeys import EvalTables
from pipeline.core.tasks import Handle, Tasks
from pipeline.equity.hands.symmetry import SUIT_PERMS, canonical_subsets, stabilizer, symmetrise_hands
from pipeline.errors import InputError

#: Cards on the flop.
FLOP_CARDS = 3
#: Flop blocks a solve is cut into (tasks; on a full deck about 55 flops, ~2 s of work each).
DEFAULT_BLOCKS = 32
#: Fewest cards a deck may have: two holes and a board, plus two spare (a river with one
#: dealer hole would still be a game, but a deck this small is only ever a test).
MIN_DECK = 2 + 2 + BOARD_CARDS + 2


@dataclass(frozen=True)
class Deck:
    """The cards in play (sorted ids) and the suit permutations mapping them onto themselves."""

    cards: np.ndarray
    perms: np.ndarray

    @classmethod
    def of(cls, cards: Sequence[int] | None = None) -> Deck:
        """The full deck, or the given subset of card ids."""
        ids = sorted({int(c) for c in (range(DECK_SIZE) if cards is None else cards)})
        if len(ids) < MIN_DECK or ids[0] < 0 or ids[-1] >= DECK_SIZE:
            raise InputError(f"a deck needs {MIN_DECK}+ distinct card ids 0..51, got {len(ids)}")
        dead = sorted(set(range(DECK_SIZE)) - set(ids))
        return cls(np.array(ids, np.int64), stabilizer([dead]))

    @property
    def size(self) -> int:
        """Number of cards."""
        return len(self.cards)

    def deals_per_hole(self) -> int:
        """Deals after one player hole: flop, turn and river (as a pair), dealer hole."""
        n = self.size - 2
        return comb(n, FLOP_CARDS) * comb(n - FLOP_CARDS, 2) * comb(n - BOARD_CARDS, 2)

    def dealers(self) -> int:
        """Dealer holes on one river: pairs of the cards left after the player and the board."""
        return comb(self.size - 2 - BOARD_CARDS, 2)

    def holes(self) -> np.ndarray:
        """Colex indices (0..1325) of the player holes this deck deals."""
        c = self.cards
        i, j = np.triu_indices(len(c), 1)
        a, b = c[i], c[j]
        return np.sort(a + b * (b - 1) // 2)


@functools.cache
def evaluator() -> EvalTables:
    """The cache-resident evaluator's tables, built once per process (about 2 s)."""
    from pipeline.core.fasteval import build_eval_tables

    return build_eval_tables()


def canonical_flops(deck: Deck) -> tuple[np.ndarray, np.ndarray]:
    """The deck's flops up to suit symmetry: rows of 3 sorted card ids, and each one's orbit size."""
    w = canonical_subsets(deck.cards, FLOP_CARDS, deck.perms, BINOM)
    keep = np.flatnonzero(w)
    flops = deck.cards[unrank_many(keep, FLOP_CARDS, deck.size)]
    return np.ascontiguousarray(flops, np.int64), w[keep].astype(np.int64)


@dataclass(frozen=True)
class Plan:
    """What every block task needs besides its flops (pure data: pickled to Dask workers)."""

    avail: np.ndarray
    qual: int
    line_of: np.ndarray
    blind: np.ndarray
    scale: int
    flop_bet: int
    river_bet: int
    river_rule: int
    flop_rule: int

    @classmethod
    def of(cls, rules: UthRules, deck: Deck, river_rule: int = 0, flop_rule: int = 0) -> Plan:
        """The plan of a solve of ``rules`` on ``deck`` with the given decision-rule codes."""
        return cls(deck.cards, rules.qual_score, rules.line_of_score(), rules.blind_scaled(),
                   rules.scale, rules.flop_bet, rules.river_bet, river_rule, flop_rule)


@dataclass(frozen=True)
class BlockResult:
    """One block's flop values (int64[flops, 1326, 2]) and its part of the pre-flop totals."""

    ev: np.ndarray
    pre_bet: np.ndarray
    pre_chk: np.ndarray
    pre_fold: np.ndarray
    ties: np.ndarray


def flop_stabilizers(flops: np.ndarray, avail: np.ndarray) -> np.ndarray:
    """int64[flops, 24, 4]: per flop, the suit permutations mapping it and the deck onto
    themselves (rows past the group's size are -1), for :func:`flop_chunk`."""
    dead = sorted(set(range(DECK_SIZE)) - set(avail.tolist()))
    out = np.full((len(flops), len(SUIT_PERMS), N_SUITS), -1, np.int64)
    for i, f in enumerate(flops.tolist()):
        g = stabilizer([f, dead])
        out[i, :len(g)] = g
    return out


def solve_block(flops: np.ndarray, weights: np.ndarray, plan: Plan, tables: EvalTables) -> BlockResult:
    """Pure task: the pass over one block of canonical flops (:func:`flop_chunk`), cut into
    one chunk per numba thread of this process (1 on a Dask worker), run side by side."""
    import numba

    n_lines = len(plan.blind)
    ch = max(1, min(numba.get_num_threads(), len(flops)))
    ev = np.zeros((len(flops), N_HOLES, 2), np.int64)
    pre_bet = np.zeros((ch, N_HOLES, n_lines, N_COUNTS), np.int64)
    pre_chk = np.zeros((ch, N_HOLES, 2, n_lines, N_COUNTS), np.int64)
    pre_fold = np.zeros((ch, N_HOLES), np.int64)
    ties = np.zeros((ch, 2), np.int64)
    flops = np.ascontiguousarray(flops, np.int64)
    weights = np.ascontiguousarray(weights, np.int64)
    fperms = flop_stabilizers(flops, plan.avail)

    def chunk(i: int) -> None:
        flop_chunk(flops, weights, fperms, len(flops) * i // ch, len(flops) * (i + 1) // ch, plan.avail,
                   plan.qual, plan.line_of, plan.blind, plan.scale, plan.flop_bet, plan.river_bet,
                   plan.river_rule, plan.flop_rule, *tables, ev, pre_bet[i], pre_chk[i], pre_fold[i], ties[i])

    if ch == 1:
        chunk(0)
    else:
        with ThreadPoolExecutor(ch) as pool:
            list(pool.map(chunk, range(ch)))
    return BlockResult(ev, pre_bet.sum(axis=0), pre_chk.sum(axis=0), pre_fold.sum(axis=0),
                       ties.sum(axis=0))


@dataclass(frozen=True)
class Totals:
    """Every hole's exact totals over all its deals (rows by two-card colex index; 0 for holes
    the deck does not deal), and the flop values of every canonical flop.

    ``bet[h, line, c]``: counts over every deal of hole h (column c of
    :data:`pipeline.casino.uth.flop_pass.WQ` ..); ``chk[h, branch, line, c]``: the deals played
    after a pre-flop check, by where the Play bet was made; ``fold[h]``: deals folded at the
    river after a pre-flop check (each with its dealer holes). ``flops``/``weights``/``ev``:
    canonical flops, orbit sizes and values ``ev[f, h, bet | check]`` in 1/scale ante summed
    over the flop's deals. ``ties``: exact ties met at the river and the flop decisions.
    """

    deck: Deck
    plan: Plan
    bet: np.ndarray
    chk: np.ndarray
    fold: np.ndarray
    flops: np.ndarray
    weights: np.ndarray
    ev: np.ndarray
    ties: tuple[int, int]


def _symmetrise(acc: np.ndarray, perms: np.ndarray) -> np.ndarray:
    flat = acc.reshape(N_HOLES, -1)
    return symmetrise_hands(flat, perms).reshape(acc.shape)


def solve_totals(rules: UthRules, tables: EvalTables, deck: Deck | None = None, *,
                 river_rule: int = 0, flop_rule: int = 0, executor: Tasks | None = None,
                 blocks: int = DEFAULT_BLOCKS,
                 progress: Callable[[float], None] | None = None) -> Totals:
    """Run the pass over every canonical flop of ``deck`` (default: the full deck) as
    ``blocks`` tasks on ``executor`` (default: in this process) and return the :class:`Totals`."""
    deck = deck or Deck.of()
    plan = Plan.of(rules, deck, river_rule, flop_rule)
    flops, weights = canonical_flops(deck)
    n_blocks = max(1, min(blocks, len(flops)))
    cuts = [len(flops) * i // n_blocks for i in range(n_blocks + 1)]
    parts = [(flops[a:b], weights[a:b]) for a, b in zip(cuts, cuts[1:], strict=False)]
    if executor is None:
        handles: list[Handle] = [_Now(solve_block, f, w, plan, tables) for f, w in parts]
    else:
        handles = [executor.submit(solve_block, f, w, plan=plan, tables=tables) for f, w in parts]
    results = []
    for i, h in enumerate(handles):
        results.append(h.result())
        if progress:
            progress((i + 1) / len(handles))
    bet = sum(r.pre_bet for r in results)
    chk = sum(r.pre_chk for r in results)
    fold = sum(r.pre_fold for r in results)
    ties = sum(r.ties for r in results)
    ev = np.concatenate([r.ev for r in results])
    return Totals(deck, plan, _symmetrise(bet, deck.perms), _symmetrise(chk, deck.perms),
                  _symmetrise(fold, deck.perms), flops, weights, ev, (int(ties[0]), int(ties[1])))


class _Now:
    """A task run at once in this process (no executor given)."""

    def __init__(self, fn: Callable[..., BlockResult], *args: object) -> None:
        self._value = fn(*args)

    def result(self) -> BlockResult:
        return self._value


__all__ = ["FLOP_CARDS", "DEFAULT_BLOCKS", "Deck", "Plan", "BlockResult", "Totals", "evaluator", "canonical_flops",
           "flop_stabilizers",
           "solve_block", "solve_totals"]
