"""The exact solver: suit-canonical deal classes, the pay category of every deal, subset counts,
the 32 holds of every class by inclusion-exclusion, the full analysis (return, variance, final
hands), bankroll figures, and the digest of the code that made an artifact."""
