"""The exceptions a user can cause and fix, under one base class.

The CLI turns every :class:`PokertablesError` into one ``error:`` line and exit code 2; any other
exception is a bug in pokertables and exits 1 with "internal error". Classes that describe bad
input also derive from :class:`ValueError`, so ``except ValueError`` keeps working for callers of
the Python API (the design card promises ``ValueError`` for bad cards).
"""

from __future__ import annotations

from collections.abc import Callable
from string import Formatter


class PokertablesError(Exception):
    """Base of every error a user can fix: bad input, bad config, missing or mismatched artifact."""


class InputError(PokertablesError, ValueError):
    """Bad user input: cards, ranges, command options, a paytable or rule-set file.

    ``field`` names the part of the question at fault as the HTTP API and the Python API name it
    (``opponents``, ``board``, ``samples`` ...). With a field (or ``values``) the message is a
    template: ``{name}`` of a value in ``values`` is that value (user text goes there, never into
    the template), any other ``{name}`` is a field, written as the door names it: ``str(error)``
    keeps the field names, the command line shows its flags (:meth:`render`).

    >>> e = InputError("{samples} must be 1 or more, got {got}", field="samples", got="'0'")
    >>> str(e), e.field, e.render(lambda name: "--" + name)
    ("samples must be 1 or more, got '0'", 'samples', "--samples must be 1 or more, got '0'")
    """

    def __init__(self, message: str, field: str | None = None, **values: object) -> None:
        self.field = field
        self.template = message if field is not None or values else None
        self.message = message
        self.values = values
        super().__init__(self.render())

    def render(self, name: Callable[[str], str] = str) -> str:
        """The message with each field written as ``name(field)`` (default: the field's name)."""
        if self.template is None:
            return self.message
        try:
            fields = {k: name(k) for _, k, _, _ in Formatter().parse(self.template)
                      if k and k not in self.values}
            return self.template.format_map({**fields, **self.values})
        except (ValueError, IndexError, KeyError, AttributeError):  # a malformed template: as written
            return self.template

    def __reduce__(self) -> tuple[object, ...]:
        # pickled (a job's worker process) with its field and template, not just the text
        return (_rebuild, (type(self), self.message, self.field, self.values))


def _rebuild(cls: type[InputError], message: str, field: str | None,
             values: dict[str, object]) -> InputError:
    """An :class:`InputError` (or subclass) from its pickled parts."""
    return cls(message, field, **values)


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
