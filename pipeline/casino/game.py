"""A casino game as data: the game file (TOML) and its parsed, validated form :class:`Game`.

Built-in games live in ``pipeline/data/casino/<slug>.toml``; user folders (``--config-dir`` /
``POKERTABLES_CONFIG``) add ``casino/<slug>.toml`` files (:mod:`pipeline.registry`)::

    name = "Three Card Poker"
    family = "three-card-poker"       # the rule family (code) that analyses it
    aliases = ["3cp", "3 card poker"]   # common names it is found by
    source = "Wizard of Odds: house edge 3.37%"   # where the published figure was found
    meter = 250000                   # only for progressive side bets: the meter now

    [rules]                          # the family's settings (each family lists its keys)
    dealer_qualifies = "queen high"

    [[table]]                        # pay tables the family reads, by name
    name = "ante bonus"
    [[table.line]]                   # a hand is paid by the first line it matches
    hand = "straight flush"
    pays = 5                         # to 1, per unit of the bet it pays on
    [[table.line]]
    hand = "pair"
    ranks = "JQKA"                   # pair / trips / quads: the ranks allowed
    meter = 0.1                      # progressive: this share of the meter instead of `pays`

Hands a line may name: the ranking's categories (``high card`` .. ``straight flush``) plus
``royal flush`` and ``ace king`` (five cards) or ``mini royal`` (A-K-Q suited, three cards).
A hand that matches no line gets the table's ``otherwise`` (the family says: lose the bet, or
not allowed). A line every hand of which an earlier line already takes (it could never pay), a
negative pay, an unknown key or a missing table is a :class:`pipeline.errors.ConfigError`
naming the file and the line.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from pipeline.casino.hands import RANKED, matches, ranking
from pipeline.core.cards import RANKS
from pipeline.core.files import parse_toml, read_text_file
from pipeline.errors import ConfigError, clip
from pipeline.videopoker.paytables.paytable import MAX_PAY, check_pay

_TOP_KEYS = {"name", "family", "aliases", "source", "meter", "rules", "table"}
_LINE_KEYS = {"hand", "pays", "meter", "ranks", "label"}
#: most aliases, tables and lines a game file may hold (real games use a handful)
MAX_ALIASES = 32
MAX_LINES = 64
#: a progressive meter, in units of the side bet
MAX_METER = 100_000_000


@dataclass(frozen=True)
class PayLine:
    """One line of a pay table: the hand, its filter, and what it pays (to 1, or a share of
    the meter)."""

    hand: str
    label: str
    pays: Fraction
    meter_share: Fraction = Fraction(0)   # > 0: pays this share of the game's meter instead
    ranks: int = (1 << 13) - 1
    text_line: int = 0

    def amount(self, meter: Fraction) -> Fraction:
        """What the line pays to 1 with the meter at ``meter``."""
        return self.meter_share * meter if self.meter_share else self.pays


@dataclass(frozen=True)
class TableSpec:
    """What a family expects of one pay table: its ranking, whether the game may omit it, and
    what a hand that matches no line gets (``None``: every hand must match a line)."""

    ranking: str
    required: bool = True
    otherwise: Fraction | None = Fraction(-1)
    meter: bool = False            # lines may pay a share of a progressive meter


@dataclass(frozen=True)
class PayTable:
    """A parsed pay table; category ``i`` is line ``i``, category ``len(lines)`` matches no line."""

    name: str
    ranking: str
    lines: tuple[PayLine, ...]
    otherwise: Fraction | None

    def line_of_score(self) -> np.ndarray:
        """int64[n_scores + 1]: the line each score is paid by (``len(lines)``: none)."""
        rk = ranking(self.ranking)
        out = np.full(rk.n_scores + 1, len(self.lines), np.int64)
        for i in reversed(range(len(self.lines))):
            ln = self.lines[i]
            out[matches(rk, ln.hand, ln.ranks)] = i
        return out

    def amounts(self, meter: Fraction = Fraction(0)) -> list[Fraction]:
        """What each line pays (then the ``otherwise`` result, 0 if there is none)."""
        rest = self.otherwise if self.otherwise is not None else Fraction(0)
        return [ln.amount(meter) for ln in self.lines] + [rest]

    def pay_of_score(self, meter: Fraction = Fraction(0)) -> list[Fraction]:
        """The pay (to 1) of every score, as exact fractions (index 0 unused)."""
        pays = self.amounts(meter)
        return [pays[i] for i in self.line_of_score()]

    def labels(self) -> list[str]:
        """Display names of the lines, then ``otherwise``."""
        return [ln.label for ln in self.lines] + ["otherwise"]


@dataclass(frozen=True)
class Game:
    """A parsed game file. ``rules`` holds the family's settings with defaults filled in."""

    slug: str
    name: str
    family: str
    rules: dict[str, Any]
    tables: dict[str, PayTable]
    aliases: tuple[str, ...] = ()
    reference: str = ""         # the ``source`` key: where the published figure was found
    meter: Fraction = Fraction(0)
    source: str = ""            # the file it came from
    digest: str = ""            # sha256 of the file's bytes (artifact freshness; edits change it)
    edited: tuple[str, ...] = field(default=())

    def table(self, name: str) -> PayTable:
        """The pay table called ``name``."""
        return self.tables[name]

    def pay_scale(self) -> int:
        """Lowest common denominator of every pay and the meter (integer kernels scale by it)."""
        dens = [1]
        for t in self.tables.values():
            dens += [p.denominator for p in t.amounts(self.meter)]
        return lcm(*dens)


def load_game_file(path: Path | str, families: Mapping[str, Any]) -> Game:
    """Read and validate a game file (:class:`ConfigError` names the file and line);
    ``families`` maps family names to their modules (:data:`pipeline.casino.families.FAMILIES`)."""
    from pipeline.registry import slugify

    p = Path(path)
    text, raw = read_text_file(p, "game file")
    g = parse_game(text, families, str(p), slugify(p.stem))
    return dataclasses.replace(g, source=str(p), digest=hashlib.sha256(raw).hexdigest())


def parse_game(text: str, families: Mapping[str, Any], where: str = "<game>", slug: str = "game") -> Game:
    """Parse game TOML text; the family (looked up in ``families``) checks its rules and names
    its tables."""
    data = parse_toml(text, where)
    lines_of = text.splitlines()

    def at(pattern: str, nth: int = 0) -> int:
        hits = [i + 1 for i, t in enumerate(lines_of) if re.match(pattern, t)]
        return hits[nth] if nth < len(hits) else 0

    def fail(msg: str, line_no: int = 0) -> ConfigError:
        return ConfigError(f"{where}:{line_no}: {msg}" if line_no else f"{where}: {msg}")

    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise fail(f"unknown key {clip(unknown[0])} (allowed: {', '.join(sorted(_TOP_KEYS))})",
                   at(rf"\s*\[*\s*{re.escape(unknown[0])}\b"))
    name = data.get("name", slug)
    if not isinstance(name, str) or not name.strip():
        raise fail(f"name must be a non-empty string, got {clip(name)}", at(r"\s*name\s*="))
    fam_name = data.get("family")
    if not isinstance(fam_name, str):
        raise fail("missing 'family' (the rule family that analyses the game)")
    fam = families.get(fam_name)
    if fam is None:
        raise fail(f"unknown family {clip(fam_name)} (families: {', '.join(sorted(families))})",
                   at(r"\s*family\s*="))
    aliases = data.get("aliases", [])
    if not isinstance(aliases, list) or len(aliases) > MAX_ALIASES or \
            not all(isinstance(a, str) and 0 < len(a) <= 100 for a in aliases):
        raise fail(f"aliases must be a list of up to {MAX_ALIASES} names", at(r"\s*aliases\s*="))
    ref = data.get("source", "")
    if not isinstance(ref, str):
        raise fail("source must be a string", at(r"\s*source\s*="))
    rules_raw = data.get("rules", {})
    if not isinstance(rules_raw, dict):
        raise fail("[rules] must be a table", at(r"\s*\[rules\]"))
    try:
        rules = fam.check_rules(rules_raw)
    except ValueError as exc:
        raise fail(f"[rules] {exc}", at(r"\s*\[rules\]")) from None
    specs: dict[str, TableSpec] = fam.table_specs(rules)
    meter = Fraction(0)
    if "meter" in data:
        meter = check_pay(data["meter"], lambda m: fail(f"meter: {m}", at(r"\s*meter\s*=")))
        if meter > MAX_METER:
            raise fail(f"meter {clip(data['meter'])} is more than {MAX_METER:,}", at(r"\s*meter\s*="))
    raw_tables = data.get("table", [])
    if not isinstance(raw_tables, list) or not all(isinstance(t, dict) for t in raw_tables):
        raise fail("'table' must be an array of tables written [[table]]", at(r"\s*\[\[\s*table\s*\]\]"))
    tables: dict[str, PayTable] = {}
    line_no = 0
    for n, raw in enumerate(raw_tables):
        header = at(r"\s*\[\[\s*table\s*\]\]", n)
        tname = raw.get("name")
        if not isinstance(tname, str) or " ".join(tname.lower().split()) not in specs:
            raise fail(f"table {n + 1}: name must be one of {', '.join(specs)} (this family's "
                       f"tables), got {clip(tname)}", header)
        tname = " ".join(tname.lower().split())
        if tname in tables:
            raise fail(f"table {tname!r} is given twice", header)
        extra = sorted(set(raw) - {"name", "line"})
        if extra:
            raise fail(f"table {tname!r}: unknown key {clip(extra[0])} (allowed: name, [[table.line]])", header)
        items = raw.get("line", [])
        if not isinstance(items, list) or not items or not all(isinstance(x, dict) for x in items):
            raise fail(f"table {tname!r} has no lines (add [[table.line]] with hand and pays)", header)
        tables[tname], line_no = _parse_table(tname, specs[tname], items, meter, at, fail, line_no)
    for tname, spec in specs.items():
        if spec.required and tname not in tables:
            raise fail(f"missing pay table {tname!r} (add [[table]] with name = \"{tname}\")")
    if any(ln.meter_share for t in tables.values() for ln in t.lines) and "meter" not in data:
        raise fail("a line pays a share of the meter, but the game sets no 'meter'")
    return Game(slug, name.strip(), fam_name, rules, tables, tuple(aliases), ref, meter)


class _Fail(Protocol):
    """The error of a game file's bad value, pointing at its line (0: the file)."""

    def __call__(self, msg: str, line_no: int = 0) -> ConfigError: ...


def _parse_table(tname: str, spec: TableSpec, items: list[dict[str, Any]], meter: Fraction,
                 at: Callable[[str, int], int], fail: _Fail,
                 seen_lines: int) -> tuple[PayTable, int]:
    """One ``[[table]]``: its lines checked (hand names, pays, shadowing) against its ranking."""
    rk = ranking(spec.ranking)
    names = rk.hand_names()
    if len(items) > MAX_LINES:
        raise fail(f"table {tname!r}: {len(items)} lines; at most {MAX_LINES}")
    lines: list[PayLine] = []
    taken = np.zeros(rk.n_scores + 1, bool)
    for i, item in enumerate(items, start=1):
        text_line = at(r"\s*\[\[\s*table\.line\s*\]\]", seen_lines + i - 1)

        def bad(msg: str) -> ConfigError:
            return fail(f"table {tname!r} line {i}: {msg}", text_line)  # noqa: B023  (raised at once)

        unknown = sorted(set(item) - _LINE_KEYS)
        if unknown:
            raise bad(f"unknown key {clip(unknown[0])} (allowed: {', '.join(sorted(_LINE_KEYS))})")
        hand = item.get("hand")
        if not isinstance(hand, str) or " ".join(hand.lower().split()) not in names:
            raise bad(f"unknown hand {clip(hand)} (hands: {', '.join(names)})")
        hand = " ".join(hand.lower().split())
        share = Fraction(0)
        if "meter" in item:
            if not spec.meter:
                raise bad("'meter' (a share of a progressive meter) is not taken by this table")
            if "pays" in item:
                raise bad("give 'pays' or 'meter', not both")
            share = check_pay(item["meter"], lambda m: bad(f"meter share: {m}"))
            if not 0 < share <= 1:
                raise bad(f"meter share {clip(item['meter'])} must be in (0, 1] (1 = the whole meter)")
            pays = Fraction(0)
        elif "pays" in item:
            pays = check_pay(item["pays"], bad)
        else:
            raise bad(f"{hand}: missing 'pays'")
        mask = (1 << 13) - 1
        if "ranks" in item:
            if hand not in RANKED:
                raise bad(f"'ranks' applies to {', '.join(RANKED)} only, not {hand!r}")
            mask = _rank_mask(item["ranks"], bad)
        label = item.get("label", "")
        if not isinstance(label, str):
            raise bad(f"label must be a string, got {clip(label)}")
        label = " ".join(label.split()) or _default_label(hand, mask)
        hit = matches(rk, hand, mask)
        if not (hit & ~taken).any():
            earlier = [f"line {j + 1} ({ln.label})" for j, ln in enumerate(lines)
                       if (matches(rk, ln.hand, ln.ranks) & hit).any()]
            raise bad(f"{label}: every hand it pays is paid first by {', '.join(earlier) or 'no line'}, "
                      "so it could never pay (a hand is paid by the first line it matches: move it up)")
        if label in [ln.label for ln in lines]:
            raise bad(f"label {label!r} is used twice; give a label")
        taken |= hit
        lines.append(PayLine(hand, label, pays, share, mask, text_line))
    if spec.otherwise is None and not taken[1:].all():
        missing = sorted({rk.categories[int(rk.category[s])] for s in np.flatnonzero(~taken[1:]) + 1})
        raise fail(f"table {tname!r} must pay every hand (a winning hand needs a pay); no line "
                   f"takes some {', '.join(missing)} hands")
    return PayTable(tname, spec.ranking, tuple(lines), spec.otherwise), seen_lines + len(items)


def _rank_mask(value: object, bad: Callable[[str], ConfigError]) -> int:
    if not isinstance(value, str) or not value.strip():
        raise bad(f"ranks must be a string of ranks like \"JQKA\", got {clip(value)}")
    mask = 0
    for ch in value.upper().replace("10", "T").replace(" ", "").replace(",", ""):
        if ch not in RANKS:
            raise bad(f"ranks {clip(value)}: unknown rank {ch!r} (ranks: {RANKS})")
        mask |= 1 << RANKS.index(ch)
    return mask


def _default_label(hand: str, mask: int) -> str:
    if mask == (1 << 13) - 1:
        return hand
    ranks = [r for r in range(13) if mask >> r & 1]
    text = "".join(RANKS[r] for r in reversed(ranks))
    return f"{hand} {text}" if len(ranks) > 1 else f"{hand} of {RANKS[ranks[0]]}"


__all__ = ["PayLine", "TableSpec", "PayTable", "Game", "load_game_file", "parse_game", "MAX_PAY"]
