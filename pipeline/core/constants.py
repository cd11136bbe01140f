"""Named numbers of the game and of the artifacts' contracts, each defined once."""

from __future__ import annotations

#: Ranks in a suit, deuce 0 .. ace 12 (``RANKS = "23456789TJQKA"``).
N_RANKS = 13
#: Rank number of the ace, the highest rank (it also plays low in a wheel).
ACE = N_RANKS - 1
#: Suits in the deck; the suit symmetry group is their 4! = 24 permutations.
N_SUITS = 4
#: Cards in a standard deck; card id = 4 * rank + suit.
DECK_SIZE = N_RANKS * N_SUITS
#: Cards of one suit that make a flush (a poker hand's five).
FLUSH_CARDS = 5
#: Distinct 5-card hand values; a score runs 1..N_SCORES, higher is stronger.
N_SCORES = 7462
#: Score of the royal flush (the top score).
TOP_SCORE = N_SCORES
#: Cactus Kev's rank (1 = royal flush) is ``CACTUS_KEV_BASE - score``.
CACTUS_KEV_BASE = N_SCORES + 1
#: Hold'em starting hands: C(52, 2) two-card combinations.
N_HOLE_PAIRS = 1326
#: Community cards of a complete hold'em board.
BOARD_CARDS = 5
#: Cards in a hold'em showdown hand: two hole cards and the board.
SEVEN = 7
#: Starting-hand classes: 13 pairs + 78 suited + 78 offsuit.
N_HAND_CLASSES = 169
#: lcm(1..10): a k-way split pays SHARE_SCALE / k share units exactly, for up to 10 players.
SHARE_SCALE = 2520
#: Most players at one table (hero included) that equity and showdown accept.
MAX_PLAYERS = 10
#: Most opponents of one hero (random and named hands together).
MAX_OPPONENTS = MAX_PLAYERS - 1
#: Most Monte Carlo deals one equity question may ask for (about a minute of work).
MAX_SAMPLES = 1_000_000_000
#: Seeds are unsigned 64-bit integers.
MAX_SEED = 2**64 - 1
#: Largest config or paytable file read (they are a few kB; this refuses /dev/zero and the like).
MAX_CONFIG_BYTES = 1 << 20
#: Largest manifest or catalog read (a real one is ~50 kB): a bigger file is not one.
MAX_MANIFEST_BYTES = 64 << 20

__all__ = ["N_RANKS", "ACE", "FLUSH_CARDS", "DECK_SIZE",
           "N_SCORES", "TOP_SCORE", "CACTUS_KEV_BASE", "N_HOLE_PAIRS", "BOARD_CARDS", "SEVEN",
           "N_SUITS", "N_HAND_CLASSES", "SHARE_SCALE", "MAX_PLAYERS", "MAX_OPPONENTS", "MAX_SAMPLES",
           "MAX_SEED", "MAX_CONFIG_BYTES", "MAX_MANIFEST_BYTES"]
