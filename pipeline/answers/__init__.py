"""The answers of the ``pokertables`` commands as plain functions: each takes a :class:`Context`
(the artifacts folder and what is opened from it once) and the command's arguments under the CLI's
names, and returns exactly the dict the command prints with ``--json``; bad input raises
:class:`pipeline.errors.InputError`. One engine behind two front ends: :mod:`pipeline.cli` prints
these dicts (or text made from them), :mod:`pipeline.serve` returns them over HTTP.

* :mod:`pipeline.answers.equity`: ``equity``, ``preflop``, ``range``, ``hits``
* :mod:`pipeline.answers.hands`: ``eval``, ``showdown``
* :mod:`pipeline.answers.vp`: ``vp analyze/hold/grade/chart/breakeven/compare/deal/list``
* :mod:`pipeline.answers.bucket`: ``bucket``
* :mod:`pipeline.answers.casino`: ``casino list/analyze/strategy/grade/breakeven``

Nothing here prints or imports :mod:`pipeline.cli`.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from pipeline.query.tables import Tables
    from pipeline.videopoker.paytables.paytable import Paytable
    from pipeline.videopoker.solver.deals import DealClasses

#: the files a Tables object maps (a rule set other than the standard one: its first three only)
MAPPED_TABLES = ("five.h5", "six.h5", "seven.h5", "eval_tables.h5", "preflop.h5", "preflop_matchups.h5")
#: games whose per-deal pay categories and subset counts are kept (about 13 MB each for a
#: 52-card deck): a trainer grading deal after deal of an unbuilt or edited game pays the
#: seconds of computing them once, not on every hand
COUNTS_KEPT = 4


class Context:
    """An artifacts folder and what the answers open from it, each opened once and kept: the
    score tables per rule set and the video-poker deal classes per deck size. A CLI command makes
    one per run; the server makes one at start and shares it between requests (opening is
    guarded by a lock; the opened objects are read-only).

    ``artifacts`` is the folder anchored when the context is made (absolute: what it opens later,
    maybe after a change of directory, is that folder's); ``named`` is the folder as given, the
    name answers show (:meth:`shown`)."""

    def __init__(self, artifacts: Path | str) -> None:
        self.named = Path(artifacts)
        self.artifacts = Path(os.path.abspath(artifacts))
        self._lock = threading.Lock()
        self._computing = threading.Lock()
        self._tables: dict[str, Tables] = {}
        self._classes: dict[int, DealClasses] = {}
        self._counts: OrderedDict[Any, tuple[np.ndarray, list[np.ndarray]]] = OrderedDict()

    def shown(self, path: Path) -> Path:
        """``path`` (a file in the folder) as the caller named the folder: what answers print."""
        try:
            return self.named / Path(path).relative_to(self.artifacts)
        except ValueError:
            return Path(path)

    def tables(self, rules: str | None = None) -> Tables:
        """The score tables of a rule set (None: the standard ones, without a rules file)."""
        from pipeline.query.tables import Tables

        key = rules or ""
        with self._lock:
            if key not in self._tables:
                self._tables[key] = Tables(self.artifacts, rules=rules)
            return self._tables[key]

    def opened_files(self) -> set[str]:
        """The artifacts (relative paths) the opened score tables read through memory maps, as
        their manifest lists them: each rule set's 5-, 6- and 7-card tables, and the standard
        evaluator and preflop tables (a long-lived server watches them)."""
        with self._lock:
            tables = list(self._tables.values())
        out: set[str] = set()
        for t in tables:
            prefix = f"rules/{t.rules.name}/" if t.rules is not None else ""
            names = MAPPED_TABLES if t.rules is None else MAPPED_TABLES[:3]
            out |= {prefix + n for n in names if prefix + n in t.manifest.get("files", {})}
        return out

    def forget_opened(self) -> None:
        """Drop the opened score tables: the next answer opens (and proves) them afresh."""
        with self._lock:
            self._tables.clear()

    def deal_classes(self, deck_size: int) -> DealClasses:
        """Video-poker deal classes from the built vp_classes.h5 if present, else derived now."""
        with self._lock:
            if deck_size not in self._classes:
                self._classes[deck_size] = deal_classes_in(self.artifacts, deck_size)
            return self._classes[deck_size]

    def counts(self, pt: Paytable) -> tuple[np.ndarray, list[np.ndarray]]:
        """:func:`compute_counts` of a game with no current artifact, kept for the next call.

        Keyed by what decides a deal's pay category: the lines (hands, rank rules and pays: a
        wild hand counts as its best-paying line) and the wild cards, not the game's name."""
        from pipeline.videopoker.solver.analysis import check_pays, compute_counts

        check_pays(pt)
        key = (pt.wild, pt.jokers, pt.tie_break, pt.lines)
        # one computation at a time: many requests for a new game wait for the first one's
        # result instead of each computing it (seconds of both cores and ~13 MB apiece)
        with self._computing:
            with self._lock:
                if key in self._counts:
                    self._counts.move_to_end(key)
                    return self._counts[key]
            made = compute_counts(pt)
            with self._lock:
                self._counts[key] = made
                while len(self._counts) > COUNTS_KEPT:
                    self._counts.popitem(last=False)
            return made


def deal_classes_in(folder: Path, deck_size: int) -> DealClasses:
    """Deal classes of ``deck_size`` cards from ``folder``'s vp_classes.h5 when the manifest
    lists it, else derived now."""
    from pipeline.query.artifacts import open_checked, read_manifest
    from pipeline.videopoker.solver.deals import deal_classes, read_classes

    if (folder / "vp_classes.h5").exists() and "vp_classes.h5" in read_manifest(folder)["files"]:
        p = open_checked(folder, "vp_classes.h5")  # a changed file is refused, not used
        try:
            return read_classes(p, deck_size)
        except (OSError, KeyError):
            pass  # old layout: derive instead
    return deal_classes(deck_size)
