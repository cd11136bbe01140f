"""The exceptions a user can cause and fix, under one base class.

The CLI turns every :class:`PokertablesError` into one ``error:`` line and exit code 2; any other
exception is a bug in pokertables and exits 1 with "internal error". Classes that describe bad
input also derive from :class:`ValueError`, so ``except ValueError`` keeps working for callers of
the Python API (the design card promises ``ValueError`` for bad cards).
"""

from __future__ import annotations


class PokertablesError(Exception):
    """Base of every error a user can fix: bad input, bad config, missing or mismatched artifact."""


class InputError(PokertablesError, ValueError):
    """Bad user input: cards, ranges, command options, a paytable or rule-set file."""


class ConfigError(InputError):
    """A config file (build settings, paytable, rule set, sweep) is malformed or out of range."""


class ArtifactError(PokertablesError):
    """An artifact is missing, stale, tampered with, or does not match its manifest."""


class BuildError(PokertablesError):
    """A build cannot proceed for a reason the user can fix (lock held, disk full, read-only)."""


__all__ = ["PokertablesError", "InputError", "ConfigError", "ArtifactError", "BuildError", "clip"]


#: longest piece of user input quoted back in a message
MAX_QUOTE = 60


def clip(text: object, limit: int = MAX_QUOTE) -> str:
    """``repr`` of user input for a message, cut to ``limit`` characters (a 10 MB token is not echoed)."""
    r = repr(text) if not isinstance(text, str) or len(text) <= limit else repr(text[:limit]) + "…"
    return r if len(r) <= limit + 3 else r[:limit] + "…"
