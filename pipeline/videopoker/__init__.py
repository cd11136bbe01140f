"""Video poker: paytables, pay categories of every deal, subset counts, optimal strategy.

The method (Wizard of Odds): classify every 5-card deal by the paytable's lines; count, for
every subset of 0-4 cards, the deals containing it per pay category; for each of the
suit-canonical deal classes and each of its 32 holds, get the final-hand distribution by
inclusion-exclusion over those counts. No draw is ever enumerated.

Sub-packages, lowest first (each imports only those before it): :mod:`.paytables` (the game as
data: wild cards, the paytable model and loader, deal and hold text), :mod:`.solver` (deal
classes, classification, subset counts, the 32 holds, the analysis), :mod:`.charts` (strategy
charts), :mod:`.catalog` (games by name, the paytable artifact), :mod:`.tools` (break-even,
compare, sweeps, cross-play).
"""
