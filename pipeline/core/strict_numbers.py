"""Numbers a person typed (a pay, a count, a seed, a bet, a weight), read strictly: ASCII digits
0-9 only, no ``_`` separators, no ``nan`` or ``inf``.

Python's own readers are lenient on purpose and would turn a slip into another number:
``int("٨")`` is 8 (any script's digits count), ``int("8_0")`` is 80 (PEP 515 separators), and
``float`` and ``Fraction`` read both too. Every number the CLI and the server read from text goes
through here, so ``full house=٨`` and ``full house=8_0`` are refused, naming the value.

>>> strict_int("80"), strict_fraction("99.5"), strict_fraction("1/3")
(80, Fraction(199, 2), Fraction(1, 3))
>>> strict_int("8_0")
Traceback (most recent call last):
...
ValueError: '8_0' is not a whole number (digits 0-9 only)
"""

from __future__ import annotations

import re
from fractions import Fraction

#: a whole number: optional sign, ASCII digits
INTEGER = re.compile(r"[+-]?[0-9]+", re.ASCII)
#: a decimal number: ``8``, ``2.5``, ``.5``, ``1e3`` (ASCII digits, no separators)
DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)
#: a ratio of whole numbers: ``1/3``
RATIO = re.compile(r"[+-]?[0-9]+/[0-9]+", re.ASCII)
#: characters of a refused value quoted back
SHOWN = 40


def _shown(text: str) -> str:
    return repr(text if len(text) <= SHOWN else text[:SHOWN] + "...")


def strict_int(text: str | int) -> int:
    """``text`` as an int (surrounding spaces allowed); ``ValueError`` naming it otherwise."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    s = str(text).strip()
    if not INTEGER.fullmatch(s):
        raise ValueError(f"{_shown(str(text))} is not a whole number (digits 0-9 only)")
    return int(s)


def strict_float(text: str | float) -> float:
    """``text`` as a finite float written in decimal; ``ValueError`` naming it otherwise."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        return float(text)
    s = str(text).strip()
    if not DECIMAL.fullmatch(s):
        raise ValueError(f"{_shown(str(text))} is not a number (digits 0-9, a point, an exponent)")
    return float(s)


def strict_fraction(text: str) -> Fraction:
    """``text`` (a decimal or ``a/b``) as an exact fraction; ``ValueError`` naming it otherwise
    (a zero denominator included)."""
    s = str(text).strip()
    if not (DECIMAL.fullmatch(s) or RATIO.fullmatch(s)):
        raise ValueError(f"{_shown(str(text))} is not a number (digits 0-9, a point or a/b)")
    try:
        return Fraction(s)
    except ZeroDivisionError:
        raise ValueError(f"{_shown(str(text))} divides by zero") from None
