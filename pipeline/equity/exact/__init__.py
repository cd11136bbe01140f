"""Exact counting: every board completion counted, not sampled. Rank-first enumeration of fixed
hands (:mod:`.enumerate`), hands against named and random hands counted per board (:mod:`.count`,
:mod:`.disjoint`), range seats (:mod:`.ranges`, :mod:`.range_random`), heads-up preflop by rank
(:mod:`.headsup_preflop`), and the all-hands passes behind the preflop and matchup tables
(:mod:`.allhands`, :mod:`.matchups`)."""
