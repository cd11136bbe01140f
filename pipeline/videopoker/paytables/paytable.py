"""Paytable model and TOML loader.

A paytable file (built-in ones in ``pipeline/data/paytables/<slug>.toml``, found by slug
through :mod:`pipeline.registry`)::

    name = "Jacks or Better 9/6"
    wild = "none"            # "none", "deuces" (the four 2s are wild) or "joker" (53rd card)
    jokers = 1               # optional, with wild = "joker": 1 (53 cards) or 2 (54 cards)
    tie_break = "fewest-cards"  # optional: or "low-variance" / "lowest-mask" (see below)
    [[line]]                 # lines from the top of the machine's table down
    hand = "royal flush"
    pays = 800               # per coin at the max bet
    [[line]]
    hand = "four of a kind"
    ranks = "A"              # optional (quads / trips / pair): ranks allowed
    kicker = "234"           # optional (four of a kind, four deuces): ranks of the fifth card
    label = "four aces with 2-4"   # optional display name
    pays = 400

A final hand is paid by the first line it matches; a hand matching no line pays 0 and is
reported as ``nothing``. Hands are the usual exclusive poker categories, except that a royal
flush also matches a ``straight flush`` line (so a table without a royal line pays royals as
straight flushes). ``royal flush`` means a natural royal (no wild card in the hand);
``wild royal flush`` a royal made with at least one wild card; ``four deuces`` a hand holding
the four wild deuces. In wild games a hand is what the best use of its wild cards makes it:
every way of reading the wild cards is paid by its first matching line and the hand gets the
highest such pay (on equal pays, the earlier line).

Top-level keys besides the lines:

* ``jokers = 2`` (only with ``wild = "joker"``; default 1): a 54-card deck with two jokers
  (Double Joker). Both jokers are wild and interchangeable; ``Jk`` twice in a deal.
* ``tie_break`` (default ``"fewest-cards"``): which of several holds with exactly equal EV is
  *the* best hold. ``fewest-cards`` keeps the fewest cards, then the lowest hold mask (bit t =
  the t-th card of the deal in ascending id order); ``low-variance`` first takes the hold whose
  pay has the smaller variance, then the same rule; ``lowest-mask`` takes the lowest hold mask
  whatever the number of cards, i.e. the first tied hold of the binary enumeration of holds
  over the cards sorted by rank: the rule behind Wizard of Odds' published tables (full-pay
  Deuces Wild's table is reproduced line for line by it, by neither other rule). Returns never
  change; the final-hand counts (and the strategy artifacts) follow the chosen hold.
* ``source = "..."``: where the published return of this game was found (documentation).

What the format expresses: a line pays a poker category; quads, trips and pairs may be
restricted to ranks (``ranks``: e.g. minimum pair "JQKA", "four aces", "four 2-4"); quads and
four deuces may require the fifth card's rank (``kicker``: "four aces with a 2-4 kicker").
What it cannot: kickers on other hands, rank filters on full houses / straights / flushes
(e.g. "aces full"), suit-specific pays, sequential royals, more than two jokers, a different
wild rank than the deuces. A key naming such a rule is rejected with a ``ConfigError``
naming it, the file and the line.

Every problem is a :class:`pipeline.errors.ConfigError` (a ``ValueError``) naming the file, the text line and the
paytable line.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from pathlib import Path

import numpy as np

from pipeline.core.cards import RANKS
from pipeline.core.files import parse_toml, read_text_file
from pipeline.errors import ConfigError, clip
from pipeline.registry import paytable_path, slugify
from pipeline.videopoker.paytables.hands import (
    FIVE_KIND,
    FOUR_DEUCES,
    FOUR_KIND,
    HAND_CODE,
    HAND_NAMES,
    PAIR,
    ROYAL,
    STRAIGHT_FLUSH,
    THREE_KIND,
    WILD_ROYAL,
)
from pipeline.videopoker.paytables.wild import WILD_MODES

ALL_RANKS = (1 << 13) - 1
NOTHING = "nothing"

_TOP_KEYS = {"name", "wild", "line", "source", "jokers", "tie_break"}
#: largest pay per coin accepted (real tables top out at a few thousand), so exact sums fit int64
MAX_PAY = 1_000_000
#: pays may have at most three decimals (2.5, 0.125): the kernels' common scale stays small
MAX_PAY_DENOMINATOR = 1000
#: Equal-EV tie rules (see the module doc); the first is the default.
TIE_BREAKS = ("fewest-cards", "low-variance", "lowest-mask")
MAX_JOKERS = 2
#: Keys people reach for that name rules the format cannot express (with the reason).
_UNSUPPORTED = {
    "sequential": "sequential royals (order on the screen) are not modelled",
    "suit": "suit-specific pays are not modelled",
    "wild_rank": "only the deuces (wild = \"deuces\") or jokers can be wild",
}
_LINE_KEYS = {"hand", "pays", "ranks", "kicker", "label"}
_RANKS_OK = {FOUR_KIND, THREE_KIND, PAIR}
_KICKER_OK = {FOUR_KIND, FOUR_DEUCES}
_RANK_WORDS = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
               "jacks", "queens", "kings", "aces")


@dataclass(frozen=True)
class Line:
    """One line of a paytable: the hand it pays, optional rank filters, and the pay per coin."""

    hand: str
    code: int
    pays: Fraction
    ranks: int = ALL_RANKS      # bit r set: rank r allowed for the quads / trips / pair
    kicker: int = ALL_RANKS     # bit r set: rank r allowed for the fifth card of quads
    label: str = ""
    text_line: int = 0          # line number of its ``[[line]]`` header in the file


@dataclass(frozen=True)
class Paytable:
    """A parsed paytable. Pay category ``i`` is line ``i``; category ``len(lines)`` is nothing."""

    name: str
    wild: str
    lines: tuple[Line, ...]
    slug: str = "paytable"
    source: str = ""            # the file it came from ('' for text)
    digest: str = ""            # sha256 of the file's bytes (artifact freshness)
    jokers: int = 1             # with wild = "joker": how many jokers the deck holds
    tie_break: str = TIE_BREAKS[0]
    reference: str = ""         # the ``source`` key: where the published return was found

    @property
    def deck_size(self) -> int:
        """52, or 53 / 54 with one / two jokers."""
        return 52 + self.jokers if self.wild == "joker" else 52

    @property
    def max_wilds(self) -> int:
        """Most wild cards a 5-card hand can hold (4 deuces, or the jokers)."""
        return {"none": 0, "deuces": 4, "joker": self.jokers}[self.wild]

    @property
    def n_categories(self) -> int:
        """K: one pay category per line plus ``nothing``."""
        return len(self.lines) + 1

    @property
    def labels(self) -> list[str]:
        """Display name of every pay category (lines, then ``nothing``)."""
        return [ln.label for ln in self.lines] + [NOTHING]

    @property
    def pays(self) -> list[Fraction]:
        """Pay of every pay category (``nothing`` pays 0)."""
        return [ln.pays for ln in self.lines] + [Fraction(0)]

    def pay_units(self) -> tuple[np.ndarray, int]:
        """Integer pays for the kernels: ``(int64[K] pays * scale, scale)``.

        Fractional pays (e.g. 2.5) are scaled by the lcm of their denominators so every
        comparison and sum stays exact in integers.
        """
        scale = lcm(*(p.denominator for p in self.pays))
        units = np.array([int(p * scale) for p in self.pays], dtype=np.int64)
        return units, scale

    def line_arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(hand code, ranks mask, kicker mask) of every line as int64 arrays for the classifier."""
        code = np.array([ln.code for ln in self.lines], dtype=np.int64)
        ranks = np.array([ln.ranks for ln in self.lines], dtype=np.int64)
        kicker = np.array([ln.kicker for ln in self.lines], dtype=np.int64)
        return code, ranks, kicker


def load_paytable(source: Path | str) -> Paytable:
    """Read and validate a paytable given by slug (``"jacks-or-better-9-6"``) or TOML file path.

    :class:`InputError` for an unknown slug or missing file, :class:`ConfigError` naming the
    file and line for a bad file.

    >>> load_paytable("jacks-or-better-9-6").name
    'Jacks or Better 9/6'
    """
    p = paytable_path(source)
    text, raw = read_text_file(p, "paytable")  # refuses folders, devices, oversized, non-UTF-8
    pt = parse_paytable(text, str(p), slugify(p.stem))
    return dataclasses.replace(pt, source=str(p), digest=hashlib.sha256(raw).hexdigest())


def parse_paytable(text: str, where: str = "<paytable>", slug: str = "paytable") -> Paytable:
    """Parse paytable TOML text; ``where`` names it in error messages."""
    data = parse_toml(text, where)
    headers = [i + 1 for i, t in enumerate(text.splitlines())
               if re.match(r"\s*\[\[\s*line\s*\]\]", t)]

    def top_line(key: str) -> int:
        for i, t in enumerate(text.splitlines()):
            if re.match(rf"\s*{re.escape(key)}\s*=", t) or re.match(rf"\s*\[+\s*{re.escape(key)}\b", t):
                return i + 1
        return 0

    def fail(msg: str, line_no: int = 0) -> ConfigError:
        return ConfigError(f"{where}:{line_no}: {msg}" if line_no else f"{where}: {msg}")

    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        why = _UNSUPPORTED.get(unknown[0])
        raise fail(f"cannot express {unknown[0]!r}: {why}" if why else
                   f"unknown key {unknown[0]!r} (allowed: name, wild, jokers, tie_break, source, "
                   "[[line]])", top_line(unknown[0]))
    name = data.get("name", slug)
    if not isinstance(name, str) or not name.strip():
        raise fail(f"name must be a non-empty string, got {name!r}", top_line("name"))
    wild = data.get("wild", "none")
    if wild not in WILD_MODES:
        raise fail(f"unknown wild {wild!r} (allowed: none, deuces, joker)", top_line("wild"))
    if "source" in data and not isinstance(data["source"], str):
        raise fail("source must be a string", top_line("source"))
    jokers = data.get("jokers", 1)
    if "jokers" in data and wild != "joker":
        raise fail(f"jokers needs wild = \"joker\", not {wild!r}", top_line("jokers"))
    if isinstance(jokers, bool) or not isinstance(jokers, int) or not 1 <= jokers <= MAX_JOKERS:
        raise fail(f"jokers must be 1 or 2 (a 53- or 54-card deck), got {jokers!r}; "
                   "more jokers cannot be expressed", top_line("jokers"))
    tie_break = data.get("tie_break", TIE_BREAKS[0])
    if tie_break not in TIE_BREAKS:
        raise fail(f"unknown tie_break {tie_break!r} (allowed: {', '.join(TIE_BREAKS)})",
                   top_line("tie_break"))
    items = data.get("line", [])
    if not isinstance(items, list) or not all(isinstance(x, dict) for x in items):
        raise fail("'line' must be an array of tables written [[line]]", top_line("line"))
    if not items:
        raise fail("the paytable has no lines (add [[line]] tables with hand and pays)")

    lines: list[Line] = []
    seen: dict[tuple[int, int, int], int] = {}
    for n, item in enumerate(items, start=1):
        at = headers[n - 1] if n - 1 < len(headers) else 0

        def bad(msg: str) -> ConfigError:
            return fail(f"line {n}: {msg}", at)  # noqa: B023  (raised at once)

        unknown = sorted(set(item) - _LINE_KEYS)
        if unknown:
            why = _UNSUPPORTED.get(unknown[0])
            raise bad(f"cannot express {unknown[0]!r}: {why}" if why else
                      f"unknown key {unknown[0]!r} (allowed: hand, pays, ranks, kicker, label)")
        if "hand" not in item:
            raise bad("missing 'hand'")
        hand = item["hand"]
        if not isinstance(hand, str) or hand.strip().lower() not in HAND_CODE:
            raise bad(f"unknown hand {hand!r} (hands: {', '.join(HAND_NAMES)})")
        hand = hand.strip().lower()
        code = HAND_CODE[hand]
        if "pays" not in item:
            raise bad(f"{hand}: missing 'pays'")
        pays = check_pay(item["pays"], bad)
        if code in (WILD_ROYAL, FIVE_KIND) and wild == "none":
            raise bad(f"{hand!r} needs wild cards, but wild = \"none\"")
        if code == FOUR_DEUCES and wild != "deuces":
            raise bad(f"'four deuces' needs wild = \"deuces\", not {wild!r}")
        ranks = ALL_RANKS
        kicker = ALL_RANKS
        if "ranks" in item:
            if code not in _RANKS_OK:
                raise bad(f"cannot express 'ranks' on {hand!r}: 'ranks' applies to four of a "
                          "kind, three of a kind and pair only")
            ranks = _rank_mask(item["ranks"], "ranks", bad)
        if "kicker" in item:
            if code not in _KICKER_OK:
                raise bad(f"cannot express 'kicker' on {hand!r}: 'kicker' applies to four of a "
                          "kind and four deuces only")
            kicker = _rank_mask(item["kicker"], "kicker", bad)
        label = item.get("label", "")
        if not isinstance(label, str):
            raise bad(f"label must be a string, got {label!r}")
        label = label.strip() or default_label(code, ranks, kicker)
        key = (code, ranks, kicker)
        if key in seen:
            raise bad(f"duplicate of line {seen[key]} ({hand}): it could never pay")
        seen[key] = n
        takers = covering_lines(lines, code, ranks, kicker)
        if takers:
            names = ", ".join(f"line {i + 1} ({lines[i].label})" for i in takers)
            raise bad(f"{label}: every hand it pays is paid first by {names}, so it could never "
                      "pay (a hand is paid by the first line it matches: move it above them)")
        lines.append(Line(hand, code, pays, ranks, kicker, label, at))
    labels = [ln.label for ln in lines]
    for i, lab in enumerate(labels):
        if lab == NOTHING or lab in labels[:i]:
            raise fail(f"line {i + 1}: label {lab!r} is used twice (or is reserved); give a label",
                       lines[i].text_line)
    return Paytable(name.strip(), wild, tuple(lines), slug, jokers=jokers if wild == "joker" else 1,
                    tie_break=tie_break, reference=data.get("source", ""))


#: Hand codes a line of another code matches too: a straight flush line pays royal flushes,
#: natural and wild (see :func:`pipeline.videopoker.solver.classify._line_of`); no other line
#: matches another code's hands.
_ALSO_MATCHED_BY = {ROYAL: (STRAIGHT_FLUSH,), WILD_ROYAL: (STRAIGHT_FLUSH,)}


def covering_lines(earlier: list[Line] | tuple[Line, ...], code: int, ranks: int = ALL_RANKS,
                   kicker: int = ALL_RANKS) -> list[int]:
    """Indexes of the ``earlier`` lines that between them match every hand a line of ``code``
    (with its ``ranks`` and ``kicker`` filters) matches, so that line could never pay (a hand is
    paid by the first line it matches); empty if some hand reaches it.

    A quad hand is a (quad rank, kicker rank) pair of different ranks, trips and pairs a rank,
    four deuces the rank of the fifth card; a straight flush line also takes royal flushes.

    >>> sf = Line("straight flush", STRAIGHT_FLUSH, Fraction(50))
    >>> covering_lines([sf], ROYAL), covering_lines([sf], FOUR_KIND)
    ([0], [])
    """
    whole = [i for i, ln in enumerate(earlier) if ln.code in _ALSO_MATCHED_BY.get(code, ())]
    if whole:
        return whole[:1]
    same = [i for i, ln in enumerate(earlier) if ln.code == code]
    if code == FOUR_KIND:
        # every (quad rank, kicker rank) of the line is some earlier quad line's
        used: set[int] = set()
        for r in range(13):
            for k in range(13):
                if k == r or not (ranks >> r & 1 and kicker >> k & 1):
                    continue
                hit = next((i for i in same if earlier[i].ranks >> r & 1 and earlier[i].kicker >> k & 1), None)
                if hit is None:
                    return []
                used.add(hit)
        return sorted(used)
    # trips and pairs by rank, four deuces by the fifth card's rank; other hands have no
    # filter, so only the same hand covers them (and that is a duplicate line)
    mask = kicker if code == FOUR_DEUCES else ranks
    masks = {i: (earlier[i].kicker if code == FOUR_DEUCES else earlier[i].ranks) for i in same}
    covered = 0
    for m in masks.values():
        covered |= m
    if mask & ~covered:
        return []
    return [i for i, m in masks.items() if m & mask]


def check_pay(value: object, bad: Callable[[str], Exception]) -> Fraction:
    """A pay from a file as an exact Fraction: a finite number in [0, ``MAX_PAY``] with at most
    three decimals; otherwise ``bad(message)`` is raised (the message names the value)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise bad(f"pays must be a number, got {value!r}")
    if value != value or value in (float("inf"), float("-inf")):
        raise bad(f"pays must be a finite number, got {value!r}")
    if value < 0:
        raise bad(f"negative pay {clip(value)}")
    if value > MAX_PAY:
        raise bad(f"pays {clip(value)} is more than {MAX_PAY:,} per coin")
    # a float in the file is read as the decimal it was written as (2.5 -> 5/2)
    pay = Fraction(value) if isinstance(value, int) else Fraction(repr(value))
    if pay.denominator > MAX_PAY_DENOMINATOR:
        raise bad(f"pays {clip(value)}: at most {len(str(MAX_PAY_DENOMINATOR)) - 1} decimal places")
    return pay


def _rank_mask(value: object, key: str, bad: Callable[[str], Exception]) -> int:
    if not isinstance(value, str) or not value.strip():
        raise bad(f"{key} must be a string of ranks like \"JQKA\", got {value!r}")
    s = value.upper().replace("10", "T").replace(" ", "").replace(",", "")
    mask = 0
    for ch in s:
        if ch not in RANKS:
            raise bad(f"{key} {value!r}: unknown rank {ch!r} (ranks: {RANKS})")
        bit = 1 << RANKS.index(ch)
        if mask & bit:
            raise bad(f"{key} {value!r}: rank {ch!r} repeated")
        mask |= bit
    return mask


def rank_set_text(mask: int) -> str:
    """Short text of a rank set: runs collapsed ("2-4", "5-K", "A-4" for A,2,3,4)."""
    ranks = [r for r in range(13) if mask >> r & 1]
    if len(ranks) == 1:
        return RANKS[ranks[0]]
    if 12 in ranks and 0 in ranks:
        # ace low run: A,2,3,... reads "A-4"
        run = [12] + [r for r in ranks if r != 12]
        if run[1:] == list(range(len(run) - 1)):
            return f"A-{RANKS[run[-1]]}"
    if ranks == list(range(ranks[0], ranks[-1] + 1)):
        return f"{RANKS[ranks[0]]}-{RANKS[ranks[-1]]}"
    return "".join(RANKS[r] for r in ranks)


def default_label(code: int, ranks: int, kicker: int) -> str:
    """Display name of a line without a ``label``: "jacks or better", "four aces with 2-4"."""
    name = HAND_NAMES[code]
    rank_list = [r for r in range(13) if ranks >> r & 1]
    if code == PAIR and ranks != ALL_RANKS:
        if rank_list == list(range(rank_list[0], 13)):
            name = f"{_RANK_WORDS[rank_list[0]]} or better"
        else:
            name = f"pair of {rank_set_text(ranks)}"
    elif code in (FOUR_KIND, THREE_KIND) and ranks != ALL_RANKS:
        word = "four" if code == FOUR_KIND else "three"
        name = f"{word} {_RANK_WORDS[rank_list[0]]}" if len(rank_list) == 1 else \
            f"{word} {rank_set_text(ranks)}"
    if kicker != ALL_RANKS:
        name += f" with {rank_set_text(kicker)}"
    return name
