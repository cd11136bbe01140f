"""Video poker: paytables, pay categories of every deal, subset counts, optimal strategy.

The method (Wizard of Odds): classify every 5-card deal by the paytable's lines; count, for
every subset of 0-4 cards, the deals containing it per pay category; for each of the
suit-canonical deal classes and each of its 32 holds, get the final-hand distribution by
inclusion-exclusion over those counts. No draw is ever enumerated.

Modules: :mod:`.paytable` (TOML model and loader), :mod:`.classify` (pay category of every
deal), :mod:`.deals` (suit-canonical classes), :mod:`.subsets` (subset-count arrays),
:mod:`.solve` (holds, best hold, exact return), :mod:`.analysis` (one call that runs them all
and the artifact read/write shared by the stage and the CLI).
"""
