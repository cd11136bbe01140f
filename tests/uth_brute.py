"""A brute-force Ultimate Texas Hold'em solver for small decks, independent of the solver's
counting: it deals every board and every pair of player and dealer holes, scores each hand
with the numpy scorer (:func:`pipeline.core.evalkeys.score_keys`), settles every deal by the
rules as written, and plays backwards (river, flop, pre-flop) over every card. The practical
rule sets are written again here from their text, on hand categories read from the class
table (not the solver's kernels).

Values are in 1/scale ante summed over deals, like the solver's, so they compare exactly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np

from pipeline.casino.hands import five_card_ranking
from pipeline.casino.uth.rules import UthRules
from pipeline.core.evalkeys import EvalTables, score_keys

#: (hole, board's ranks, board's category, player's 7-card score, scores of the board with each
#: card off it) -> play?
RiverRule = Callable[[tuple[int, int], set[int], int, int, dict[int, int]], bool]
#: (hole, flop) -> bet?
FlopRule = Callable[[tuple[int, int], tuple[int, ...]], bool]


def _colex(cards: tuple[int, ...]) -> int:
    return sum(comb(c, i + 1) for i, c in enumerate(sorted(cards)))


def _category(score: int) -> int:
    return int(five_card_ranking().category[score])


def wizard_river(hole: tuple[int, int], ranks: set[int], board_cat: int, s7: int, s6: dict[int, int]) -> bool:
    """Play with a hidden pair or better, or fewer than 21 unseen cards beating you with the board."""
    a, b = hole
    cat = _category(s7)
    if cat >= 1 and (a >> 2 == b >> 2 or a >> 2 in ranks or b >> 2 in ranks or cat > board_cat):
        return True
    return sum(1 for c, s in s6.items() if c not in hole and s > s7) < 21


def wizard_flop(hole: tuple[int, int], flop: tuple[int, ...]) -> bool:
    """Bet with a hidden pair except pocket deuces, two pair or better with a hole card, a
    straight or flush, or four to a flush with a hole card of that suit ranked ten or higher."""
    a, b = hole
    ranks = [c >> 2 for c in (*hole, *flop)]
    suits = [c & 3 for c in (*hole, *flop)]
    flop_ranks = {c >> 2 for c in flop}
    pocket = a >> 2 == b >> 2
    hidden = pocket or a >> 2 in flop_ranks or b >> 2 in flop_ranks
    counts = sorted(Counter(ranks).values(), reverse=True)
    two_pair_up = counts[0] >= 3 or counts[:2] == [2, 2]
    if hidden and (not pocket or a >> 2 != 0 or two_pair_up):
        return True
    if max(Counter(suits).values()) == 5:
        return True
    if any(suits.count(c & 3) == 4 and c >> 2 >= 8 for c in hole):
        return True
    distinct = set(ranks)
    lows = distinct | ({-1} if 12 in distinct else set())
    return len(distinct) == 5 and any(all(r in lows for r in range(lo, lo + 5)) for lo in range(-1, 9))


def brute_force(deck: list[int], rules: UthRules, tables: EvalTables, river_rule: RiverRule | None = None,
                flop_rule: FlopRule | None = None) -> dict:
    """Every hole's pre-flop values and the return table on ``deck``: optimal play, or the given
    river and flop rules (pre-flop always optimal)."""
    deck = sorted(deck)
    keys = tables.card_keys.astype(np.int64)
    scale = rules.scale
    q = rules.qual_score
    line_of = rules.line_of_score()
    lines = rules.line_names
    pay = [Fraction(int(b), scale) for b in rules.blind_scaled()]
    blind = rules.blind_scaled()
    n = len(deck)
    holes = list(combinations(deck, 2))
    hpos = {h: i for i, h in enumerate(holes)}
    hmask = np.array([(1 << a) | (1 << b) for a, b in holes], np.int64)
    hkey = np.array([keys[a] + keys[b] for a, b in holes], np.int64)
    boards = list(combinations(deck, 5))
    bpos = {_colex(b): i for i, b in enumerate(boards)}
    # river: per (board, hole) the 4 dealer counts (player wins / dealer qualifies, wins / not,
    # loses / qualifies, loses / not), the player's Blind line and the rule's decision
    riv = np.zeros((len(boards), len(holes), 4), np.int64)
    rline = np.full((len(boards), len(holes)), len(lines) - 1, np.int64)
    rule_plays = np.zeros((len(boards), len(holes)), bool)
    for bi, b in enumerate(boards):
        bm = sum(1 << c for c in b)
        bk = sum(int(keys[c]) for c in b)
        live = np.flatnonzero((hmask & bm) == 0)
        s = score_keys(hkey[live] + bk, hmask[live] | bm, tables)
        disjoint = (hmask[live][:, None] & hmask[live][None, :]) == 0
        dq = (s >= q)[None, :]
        win = (s[:, None] > s[None, :]) & disjoint
        lose = (s[:, None] < s[None, :]) & disjoint
        riv[bi, live, 0] = (win & dq).sum(axis=1)
        riv[bi, live, 1] = (win & ~dq).sum(axis=1)
        riv[bi, live, 2] = (lose & dq).sum(axis=1)
        riv[bi, live, 3] = (lose & ~dq).sum(axis=1)
        rline[bi, live] = line_of[s]
        if river_rule is not None:
            rest = [c for c in deck if c not in b]
            s6 = score_keys(np.array([bk + int(keys[c]) for c in rest], np.int64),
                            np.array([bm | (1 << c) for c in rest], np.int64), tables)
            six = dict(zip(rest, s6.tolist()))
            board_cat = _category(int(score_keys(np.array([bk]), np.array([bm]), tables)[0]))
            ranks = {c >> 2 for c in b}
            for i, s7 in zip(live.tolist(), s.tolist()):
                rule_plays[bi, i] = river_rule(holes[i], ranks, board_cat, s7, six)
    dealers = comb(n - 7, 2)
    bl = blind[rline]

    def value(play: int) -> np.ndarray:
        return (riv[..., 0] * (scale * (1 + play) + bl) + riv[..., 1] * (scale * play + bl)
                - riv[..., 2] * scale * (2 + play) - riv[..., 3] * scale * (1 + play))

    fold = -2 * scale * dealers
    v_river = value(rules.river_bet)
    plays = rule_plays if river_rule is not None else v_river > fold
    v_flop_bet = value(rules.flop_bet)
    pre = {b: value(b) for b in rules.preflop_bets}
    # every (flop, turn-river) split of every board: its flop's number and the board's row
    flops = list(combinations(deck, 3))
    split_flop, split_board, split_mask = [], [], []
    for fi, f in enumerate(flops):
        for tr in combinations([c for c in deck if c not in f], 2):
            split_flop.append(fi)
            split_board.append(bpos[_colex((*f, *tr))])
            split_mask.append(sum(1 << c for c in (*f, *tr)))
    sf, sb, sm = np.array(split_flop), np.array(split_board), np.array(split_mask, np.int64)
    out_values = {}
    table: Counter = Counter()

    def settle(street: str, play: int, hi: int, bis: np.ndarray) -> None:
        c = riv[bis, hi]
        li = rline[bis, hi]
        for line in range(len(lines)):
            sel = li == line
            wq, wn, lq, ln = (int(x) for x in c[sel].sum(axis=0))
            ties = int(sel.sum()) * dealers - wq - wn - lq - ln
            p = pay[line]
            for res, qual, cnt, net in (("win", True, wq, 1 + play + p), ("win", False, wn, play + p),
                                        ("tie", None, ties, Fraction(0)),
                                        ("lose", True, lq, Fraction(-2 - play)),
                                        ("lose", False, ln, Fraction(-1 - play))):
                if cnt:
                    table[(street, play, res, qual, lines[line], Fraction(net))] += cnt

    for h in holes:
        hi = hpos[h]
        rows = np.flatnonzero((sm & hmask[hi]) == 0)
        bis = sb[rows]
        fl = sf[rows]
        nf = len(flops)
        v_bet = np.bincount(fl, v_flop_bet[bis, hi], nf).astype(np.int64)
        v_chk = np.bincount(fl, np.where(plays[bis, hi], v_river[bis, hi], fold), nf).astype(np.int64)
        if flop_rule is None:
            bet_flop = v_bet > v_chk
        else:
            bet_flop = np.array([flop_rule(h, f) if not (set(f) & set(h)) else False for f in flops])
        bet_here = bet_flop[fl]
        values = {0: int(np.where(bet_flop, v_bet, v_chk)[np.unique(fl)].sum())}
        for b in rules.preflop_bets:
            values[b] = int(pre[b][bis, hi].sum())
        best = max(values.values())
        choice = min(k for k, v in values.items() if v == best)
        out_values[h] = values
        if choice:
            settle("preflop", choice, hi, bis)
            continue
        settle("flop", rules.flop_bet, hi, bis[bet_here])
        played = ~bet_here & plays[bis, hi]
        settle("river", rules.river_bet, hi, bis[played])
        folds = int((~bet_here & ~plays[bis, hi]).sum()) * dealers
        if folds:
            table[("fold", 0, "lose", None, "", Fraction(-2))] += folds
    return {"values": out_values, "table": table}


__all__ = ["brute_force", "wizard_river", "wizard_flop"]
