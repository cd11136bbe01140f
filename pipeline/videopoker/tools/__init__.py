"""Player and designer tools on top of the solver: break-even pays (:mod:`.breakeven`), games side
by side (:mod:`.compare`), paytable sweeps (:mod:`.sweep`), and strategies played across games
(:mod:`.strategy_io`)."""
