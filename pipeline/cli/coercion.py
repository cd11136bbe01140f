"""Typer's value coercion without pydantic for the command line's plain parameters.

Typer (0.2x) coerces every parameter value through a pydantic ``TypeAdapter``, built on first
use: any command pays for importing pydantic (and, through its plugin loader,
``importlib.metadata``), about 0.1 s of a ~0.35 s ``pokertables eval``, though our values are
text, lists of text, or text read by our own parsers (:mod:`pipeline.core.strict_numbers`).
:func:`install` gives typer's parameters a coercion that answers those directly, with what
typer's adapter returns for them (tests/test_cli_startup.py compares the two on every parameter
of every command), and hands everything else to typer's own coercion, built only then: paths,
files, choices, numbers without a parser, and any value our parser refuses (so its error
message is typer's, word for word).

Like :mod:`pipeline.core.inline_frontend`, a typer that does not look as expected (no
``get_runtime_param``, as before typer's pydantic coercion) is left alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, get_args, get_origin

#: the attribute our wrapper carries, so installing twice wraps once
_MARK = "_pokertables_plain"
#: the attribute a parameter keeps its :class:`PlainFirst` in
_KEPT = "_pokertables_plain_runtime"
#: what :func:`plain_value` returns when it has no answer of its own
NO_ANSWER = object()


class ParameterInfo(Protocol):
    """What is read of typer's declaration of a parameter: its parser, if any."""

    parser: Callable[[object], object] | None


class Descriptor(Protocol):
    """What is read of typer's type descriptor of a parameter."""

    annotation: object
    file_annotation: object
    parameter_info: ParameterInfo


class Coercion(Protocol):
    """Typer's runtime coercion of one parameter (typer's parameter and click context)."""

    def coerce(self, value: object, param: object, ctx: object) -> object: ...


def plain_value(descriptor: Descriptor, value: object) -> object:
    """The coerced ``value`` (not None) of a parameter described by ``descriptor`` when it is text,
    a list of text or text for the parameter's parser, else :data:`NO_ANSWER`.

    Typer's adapters: ``str`` is the text itself; ``list[str]`` a list of the items (a tuple of
    text from a repeated option or variadic argument); a ``parser`` is called on the value and
    its result taken as is."""
    if descriptor.file_annotation is not None:
        return NO_ANSWER
    annotation = descriptor.annotation
    parser = descriptor.parameter_info.parser
    if parser is not None:
        if get_origin(annotation) in (list, tuple):
            return NO_ANSWER
        try:
            return parser(value)
        except Exception:  # noqa: BLE001  (refused: typer's own path says why, in its words)
            return NO_ANSWER
    if annotation is str and type(value) is str:
        return value
    if get_origin(annotation) is list and get_args(annotation) == (str,) \
            and isinstance(value, (list, tuple)) and type(value) in (list, tuple) \
            and all(type(v) is str for v in value):
        return list(value)
    return NO_ANSWER


class PlainFirst:
    """A parameter's coercion: :func:`plain_value` when it answers, else typer's own (built on
    first need by ``build``, then kept: :meth:`full`)."""

    def __init__(self, descriptor: Descriptor, multi: bool, build: Callable[[], Coercion]) -> None:
        self.descriptor = descriptor
        self.multi = multi
        self._build = build
        self._full: Coercion | None = None

    def full(self) -> Coercion:
        """Typer's own coercion of the parameter, built once (typer 0.29 keeps its own too, but
        a typer that does not would rebuild a pydantic adapter on every fallback)."""
        if self._full is None:
            self._full = self._build()
        return self._full

    def coerce(self, value: object, param: object, ctx: object) -> object:
        """``value`` as the command receives it (typer's ``RuntimeParam.coerce``)."""
        if value is None:
            return () if self.multi else None  # typer's answer for a value not given
        if not (self.multi and isinstance(value, str)):  # typer refuses that one itself
            answer = plain_value(self.descriptor, value)
            if answer is not NO_ANSWER:
                return answer
        return self.full().coerce(value, param=param, ctx=ctx)


def install() -> bool:
    """Give typer's argument and option classes :class:`PlainFirst` coercion; True when they
    have it (now or already)."""
    import typer.core

    done = True
    for cls in (typer.core.TyperArgument, typer.core.TyperOption):
        original = getattr(cls, "get_runtime_param", None)
        if original is None or not callable(original):
            done = False
            continue
        if getattr(original, _MARK, False):
            continue
        cls.get_runtime_param = _wrap(original)  # type: ignore[method-assign,assignment]
    return done


def _wrap(original: Callable[[object], Coercion]) -> Callable[[object], Coercion]:
    """``get_runtime_param`` answering with :class:`PlainFirst` around ``original``, one per
    parameter (kept on it, as typer keeps its own)."""

    def get_runtime_param(self: object) -> Coercion:
        kept = getattr(self, _KEPT, None)
        if isinstance(kept, PlainFirst):
            return kept
        descriptor = getattr(self, "type_descriptor", None)
        if descriptor is None:
            return original(self)
        multi = bool(getattr(self, "multiple", False)) or getattr(self, "nargs", 1) == -1
        made = PlainFirst(descriptor, multi, lambda: original(self))
        setattr(self, _KEPT, made)
        return made

    setattr(get_runtime_param, _MARK, True)
    get_runtime_param.__doc__ = original.__doc__
    return get_runtime_param
