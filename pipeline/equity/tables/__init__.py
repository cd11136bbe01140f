"""Answers read from built tables instead of recomputed: the preflop tables (:mod:`.preflop`)."""
