"""Answers of the abstraction group: ``bucket`` (a situation's suit-isomorphism class in the
card-abstraction tables, its exact figures and its bucket).

:func:`bucket` answers one situation (``bucket --json``, ``POST /api/bucket``);
:class:`BucketLookup` answers batches (``bucket --file``), opening each street's tables once and
recounting the river's wins and ties for a whole batch in one kernel
(:func:`pipeline.query.abstraction.recount.river_recount`).
"""

from __future__ import annotations

import re
import threading
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypedDict

from pipeline.errors import InputError, clip

if TYPE_CHECKING:
    from pipeline.answers import Context
    from pipeline.query.abstraction.reader import StreetTable
    from pipeline.query.tables import Tables

#: Streets in the order a batch is answered.
STREET_ORDER = ("preflop", "flop", "turn", "river")
#: Hole cards of a situation.
HOLE = 2


class Situation(NamedTuple):
    """Hole and board card ids of one question, and its street (from the board's size)."""

    hole: list[int]
    board: list[int]
    street: str


def _card_table() -> dict[str, int]:
    from pipeline.core.cards import RANKS, SUITS

    return {r + s: 4 * i + j for i, rank in enumerate(RANKS) for j, suit in enumerate(SUITS)
            for r in {rank, rank.lower()} for s in {suit, suit.upper()}}


#: Every two-letter card text in either case, for the quick path of :func:`situation`.
_CARDS = _card_table()
#: What may stand between cards (as :func:`pipeline.core.cards.parse_cards` takes it).
_BETWEEN = re.compile(r"[\s,;\ufeff]+")
#: Street of each board size.
_STREET_OF = {0: "preflop", 3: "flop", 4: "turn", 5: "river"}


def _quick_cards(text: str) -> list[int] | None:
    """Card ids of text made only of two-letter cards (``AhKd``, ``Ah Kd``), or None: anything
    else (``10h``, a bad card) goes through :func:`parse_cards`, which names what is wrong."""
    s = _BETWEEN.sub("", text)
    if len(s) % 2:
        return None
    ids = [_CARDS.get(s[i:i + 2], -1) for i in range(0, len(s), 2)]
    return None if -1 in ids else ids


def situation(hole: str, board: str = "", where: str = "") -> Situation:
    """The situation of HOLE and BOARD text (2 cards; 0, 3, 4 or 5 cards); :class:`InputError`
    starting with ``where`` names a bad card, a wrong count or a card given twice."""
    h0, b0 = _quick_cards(hole), _quick_cards(board)
    if (h0 is not None and b0 is not None and len(h0) == HOLE and len(b0) in _STREET_OF
            and len(set(h0 + b0)) == HOLE + len(b0)):
        return Situation(h0, b0, _STREET_OF[len(b0)])  # the common case, 10x faster
    from pipeline.core.cards import parse_cards
    from pipeline.query.abstraction.shapes import STREETS

    try:
        h = parse_cards(hole, count=HOLE)
    except InputError as exc:
        raise InputError(f"{where}hole: {exc}") from None
    try:
        b = parse_cards(board, count=tuple(STREETS.values())) if board.strip() else []
    except InputError as exc:
        raise InputError(f"{where}board: {exc}") from None
    if len(set(h + b)) != len(h) + len(b):
        try:
            parse_cards(h + b)  # names the card given twice
        except InputError as exc:
            raise InputError(f"{where}{exc}") from None
    street = next(s for s, k in STREETS.items() if k == len(b))
    return Situation(h, b, street)


def situation_line(line: str, where: str = "") -> Situation:
    """The situation of one ``HOLE|BOARD`` line (``HOLE`` alone: preflop)."""
    h, sep, b = line.partition("|")
    if not sep and len(line.split()) > 1:
        raise InputError(f"{where}expected HOLE|BOARD, got {clip(line.strip())}")
    return situation(h, b, where)


class OchsRow(TypedDict):
    """One opponent cluster of a river answer: the hand's wins and ties against the cluster's
    hands, how many there are, and the equity (None for an empty cluster)."""

    cluster: int
    wins: int
    ties: int
    opponents: int
    equity: float | None


class _BucketFigures(TypedDict):
    street: str
    index: int
    classes: int
    canonical: str
    wins: int | None
    ties: int | None
    opponents: int
    ehs: float
    ehs2: float
    histogram: list[int] | None
    bucket: int | None


class BucketAnswer(_BucketFigures, total=False):
    """``bucket --json``: the situation's class (``index`` of ``classes`` on its ``street``,
    ``canonical`` its cards), the wins and ties against one random hand on the river (else
    None) of ``opponents``, EHS and EHS², the river-equity ``histogram`` (turn and flop) and the
    ``bucket``; on the river with opponent clusters built, ``ochs`` per cluster."""

    ochs: list[OchsRow]


class BucketLookup:
    """The abstraction tables of an artifacts folder, each street opened (and proven against the
    manifest) on first use and kept; thread-safe."""

    def __init__(self, artifacts: Path | str, tables: Tables | None = None) -> None:
        from pipeline.query.tables import Tables

        self.artifacts = Path(artifacts)
        # each street's files are proven as they open; the score tables are checked
        self._index = Tables(self.artifacts, check=False)
        self._scores = tables
        self._streets: dict[str, tuple[StreetTable, Any]] = {}
        self._lock = threading.Lock()

    def _street(self, street: str) -> tuple[StreetTable, Any]:
        from pipeline.query.abstraction.clusters import hand_clusters

        with self._lock:
            if street not in self._streets:
                tab = self._index.abstraction(street)
                groups = hand_clusters(tab.class_cluster) if tab.class_cluster is not None else None
                self._streets[street] = (tab, groups)
            return self._streets[street]

    def _score_tables(self) -> Tables:
        from pipeline.query.tables import Tables

        with self._lock:
            if self._scores is None:
                self._scores = Tables(self.artifacts)
            return self._scores

    def answers(self, rows: Sequence[Situation]) -> list[BucketAnswer]:
        """The ``bucket --json`` object of each situation, looked up street by street in batches;
        on the river the wins and ties are recounted from the 7-card scores and must agree with
        the stored figures (:class:`ArtifactError` otherwise)."""
        found: dict[int, BucketAnswer] = {}
        for street in STREET_ORDER:
            which = [i for i, r in enumerate(rows) if r.street == street]
            if which:
                found.update(zip(which, self._street_answers(street, [rows[i] for i in which])))
        return [found[i] for i in range(len(rows))]

    def _street_answers(self, street: str, rows: list[Situation]) -> list[BucketAnswer]:
        import numpy as np

        from pipeline.core.cards import format_cards
        from pipeline.errors import ArtifactError
        from pipeline.query.abstraction import unindex_batch
        from pipeline.query.abstraction.recount import river_recount

        tab, groups = self._street(street)
        cards = np.array([r.hole + r.board for r in rows], np.int64)
        idx = tab.index(cards)
        got = tab.lookup(idx)
        canon = unindex_batch(street, idx, check=False).tolist()
        index = idx.tolist()
        ehs, ehs2 = got["ehs"].tolist(), got["ehs2"].tolist()
        hist = got["hist"].tolist() if "hist" in got else None
        bucket = got["bucket"].tolist() if "bucket" in got else None
        river: dict[str, list[Any]] = {}
        if street == "river":
            k = int(got["ochs"].shape[1]) if groups is not None else 1
            w, t, n = river_recount(self._score_tables(), cards, groups, k)
            stored = got["value"].astype(np.int64)
            wrong = stored != (2 * w + t).sum(axis=1)
            if groups is not None:
                wrong |= (got["ochs"].astype(np.int64) != 2 * w + t).any(axis=1)
            if wrong.any():
                j = int(np.flatnonzero(wrong)[0])
                raise ArtifactError(f"{tab.path} row {index[j]} disagrees with the 7-card scores; "
                                    "rebuild the abstraction stage (a forced build of it)")
            river = {"wins": w.sum(axis=1).tolist(), "ties": t.sum(axis=1).tolist()}
            if groups is not None:
                river.update(w=w.tolist(), t=t.tolist(), n=n.tolist())
        objs = []
        for j in range(len(rows)):
            c = canon[j]
            obj: BucketAnswer = {
                "street": street, "index": index[j], "classes": tab.classes,
                "canonical": f"{format_cards(c[:HOLE])} | {format_cards(c[HOLE:])}".rstrip(" |"),
                "wins": river["wins"][j] if river else None,
                "ties": river["ties"][j] if river else None,
                "opponents": tab.opponents_per_river,
                "ehs": ehs[j], "ehs2": ehs2[j],
                "histogram": hist[j] if hist is not None else None,
                "bucket": bucket[j] if bucket is not None else None,
            }
            if "w" in river:
                obj["ochs"] = [{"cluster": g, "wins": wg, "ties": tg, "opponents": ng,
                                "equity": (2 * wg + tg) / (2 * ng) if ng else None}
                               for g, (wg, tg, ng) in enumerate(zip(river["w"][j], river["t"][j],
                                                                    river["n"][j]))]
            objs.append(obj)
        return objs


#: One lookup per answer context (the server's is shared between requests).
_LOOKUPS: weakref.WeakKeyDictionary[Context, BucketLookup] = weakref.WeakKeyDictionary()
_LOOKUPS_LOCK = threading.Lock()


def lookup_for(ctx: Context) -> BucketLookup:
    """The :class:`BucketLookup` of an answer context, made on first use and kept with it."""
    with _LOOKUPS_LOCK:
        found = _LOOKUPS.get(ctx)
        if found is None:
            found = _LOOKUPS[ctx] = BucketLookup(ctx.artifacts, ctx.tables())
        return found


def bucket(ctx: Context, hole: str, board: str = "") -> BucketAnswer:
    """``bucket --json``: the class of HOLE on BOARD (0, 3, 4 or 5 cards), its exact figures and
    its bucket."""
    asked = situation(hole, board)  # the user's input first, then the tables
    return lookup_for(ctx).answers([asked])[0]


__all__ = ["BucketAnswer", "BucketLookup", "OchsRow", "Situation", "bucket", "lookup_for", "situation",
           "situation_line"]
