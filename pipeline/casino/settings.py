"""Checking a game file's ``[rules]`` table against a family's schema: one converter per key,
defaults filled in, and one ``ValueError`` naming the first bad key or value."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from pipeline.casino.hands import qualifier_score, ranking
from pipeline.errors import clip

#: key -> (default, converter); a converter returns the checked value or raises ValueError
Schema = dict[str, tuple[object, Callable[[object], object]]]
#: largest bet multiple a rule may set (real games use 1..5)
MAX_MULTIPLE = 100


def check_settings(raw: Mapping[str, Any], schema: Schema) -> dict[str, Any]:
    """``raw`` checked against ``schema`` with the defaults of missing keys filled in."""
    unknown = sorted(set(raw) - set(schema))
    if unknown:
        raise ValueError(f"unknown key {clip(unknown[0])} (keys: {', '.join(schema) or 'none'})")
    out = {}
    for key, (default, convert) in schema.items():
        value = raw.get(key, default)
        try:
            out[key] = convert(value)
        except (ValueError, TypeError) as exc:
            raise ValueError(f"{key} = {clip(value)}: {exc}") from None
    return out


def qualifier(ranking_name: str) -> Callable[[object], str]:
    """Converter of a qualifying rule text (``"queen high"``, ``"ace king"``, ``"pair"``)."""
    def convert(v: object) -> str:
        if not isinstance(v, str):
            raise ValueError("must be a text such as \"queen high\"")
        qualifier_score(ranking(ranking_name), v)
        return " ".join(v.lower().split())
    return convert


def multiple(v: object) -> Fraction:
    """Converter of a bet size in units of the base bet: a number in (0, MAX_MULTIPLE]."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ValueError("must be a number")
    f = Fraction(v) if isinstance(v, int) else Fraction(repr(v))
    if not 0 < f <= MAX_MULTIPLE or f.denominator > 1000:
        raise ValueError(f"must be a number in (0, {MAX_MULTIPLE}] with at most three decimals")
    return f


def multiples(v: object) -> tuple[Fraction, ...]:
    """Converter of a list of allowed bet sizes (distinct, ascending after sorting)."""
    if not isinstance(v, list) or not v or len(v) > 10:
        raise ValueError("must be a list of 1 to 10 bet sizes")
    out = tuple(sorted({multiple(x) for x in v}))
    if len(out) != len(v):
        raise ValueError("bet sizes must be distinct")
    return out


def flag(v: object) -> bool:
    """Converter of a true/false setting."""
    if not isinstance(v, bool):
        raise ValueError("must be true or false")
    return v


def choice(*allowed: str) -> Callable[[object], str]:
    """Converter of one text among ``allowed``."""
    def convert(v: object) -> str:
        if v not in allowed:
            raise ValueError(f"must be one of {', '.join(allowed)}")
        return str(v)
    return convert


__all__ = ["Schema", "check_settings", "qualifier", "multiple", "multiples", "flag", "choice"]
