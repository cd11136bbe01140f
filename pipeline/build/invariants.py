"""Published reference numbers that prove a built table is right (used by ``verify`` only).

These are facts about the game, checked against what the build produced; nothing in the
build reads them.
"""

from __future__ import annotations

from math import comb

from pipeline.core.constants import N_SCORES

#: 5-card hands per category (0 high card .. 8 straight flush), 2,598,960 in all.
FIVE_CARD_CATEGORY_COUNTS = (1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40)
#: 7-card hands per category by their best five, 133,784,560 in all.
SEVEN_CARD_CATEGORY_COUNTS = (23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020,
                              4_047_644, 3_473_184, 224_848, 41_584)
SEVEN_CARD_ROYALS = 4_324
#: distinct scores that occur among k-card hands
DISTINCT_SCORES = {5: N_SCORES, 6: 6075, 7: 4824}
ROWS = {k: comb(52, k) for k in (5, 6, 7)}
#: video poker: suit-canonical deal classes and their total weight
VP_CLASSES = 134_459
VP_WEIGHT_TOTAL = comb(52, 5)
