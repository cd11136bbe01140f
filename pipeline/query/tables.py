"""The read side: :class:`Tables` opens built artifacts read-only through memory maps.

Nothing here imports build stages or compiles build kernels; a lookup touches only the pages
of the table it reads.

>>> t = Tables("artifacts")                      # doctest: +SKIP
>>> t.score7("As Ks Qs Js Ts 2c 3d")             # doctest: +SKIP
7462
>>> t.name(7462)                                 # doctest: +SKIP
'Ace-high straight flush'
"""

from __future__ import annotations

import mmap
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union, cast, overload

import numpy as np
import numpy.typing as npt

from pipeline.core.cards import BINOM, COLEX_WEIGHTS, parse_cards
from pipeline.core.category import CATEGORY_NAMES
from pipeline.core.constants import CACTUS_KEV_BASE, DECK_SIZE, N_SCORES
from pipeline.errors import ArtifactError, InputError
from pipeline.query.artifacts import REBUILD, ArtifactFolder, describe_dataset
from pipeline.query.classes import ScoreClasses, count_classes, read_classes
from pipeline.query.preflop import MATCHUPS_FILE, PREFLOP_FILE, PreflopMatchups, map_matchups, read_preflop_datasets
from pipeline.query.seven_cards import SevenCards, plain_ids, trusted_rows

# colex weights C(c, j) per position j, bound once for the single-hand fast path
_W1, _W2, _W3, _W4, _W5, _W6, _W7 = COLEX_WEIGHTS[1:8]

if TYPE_CHECKING:
    from pipeline.core.evalkeys import EvalTables
    from pipeline.query.abstraction.reader import StreetTable

#: One hand: card text, a sequence of card ids or texts, or a bitmap int.
OneHand = Union[str, Sequence[int], Sequence[str], int]
#: One hand or a batch (an ``(N, k)`` array of card ids or a ``uint64[N]`` bitmap array).
HandInput = Union[OneHand, npt.NDArray[Any]]
Scores = npt.NDArray[np.uint16]
TABLE_FILES = {5: "five.h5", 6: "six.h5", 7: "seven.h5"}
EVAL_TABLES_FILE = "eval_tables.h5"


class _MappedTable:
    """One contiguous HDF5 dataset mapped read-only: a numpy view and a fast scalar view."""

    def __init__(self, path: Path, dataset: str, expect: dict[str, Any] | None, fix: str) -> None:
        try:
            offset, shape, described, self.attrs = describe_dataset(path, dataset)
        except (OSError, KeyError) as exc:
            raise ArtifactError(f"{path} cannot be opened as HDF5 ({exc}); {fix}") from None
        if offset is None:
            raise ArtifactError(f"{path}:{dataset} is not contiguous; {fix}")
        dtype: Any = described  # any numeric dtype: its one-letter code is memoryview.cast's format
        if expect is not None:
            if list(shape) != list(expect["shape"]) or str(dtype) != expect["dtype"]:
                raise ArtifactError(f"{path}:{dataset} has shape {shape} {dtype}, manifest says "
                                    f"{expect['shape']} {expect['dtype']}; {fix}")
        nbytes = int(np.prod(shape)) * dtype.itemsize
        with open(path, "rb") as fh:
            self._mm = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        if offset + nbytes > len(self._mm):
            raise ArtifactError(f"{path} is truncated; {fix}")
        self.array = np.frombuffer(self._mm, dtype=dtype, count=int(np.prod(shape)),
                                   offset=offset).reshape(shape)
        # memoryview.cast returns Python ints directly: the cheapest single-item read
        self.items = memoryview(self._mm)[offset:offset + nbytes].cast(dtype.char) \
            if dtype.byteorder in "=|<" and len(shape) == 1 else None


class Tables(ScoreClasses):
    """Read-only access to the built score tables in an artifacts folder.

    ``score5``/``score6``/``score7`` take one hand (text like ``"As Ks Qs Js Ts"``, a
    sequence of card ids, or a bitmap int) and return an ``int``; or a numpy batch (an
    ``(N, k)`` array of card ids, or a ``uint64`` bitmap array) and return ``uint16[N]``.
    ``category``, ``category_name`` and ``name`` (:class:`pipeline.query.classes.ScoreClasses`)
    say what a score means.
    """

    #: flat view of the standard 7-card table once it is open (``score7``'s fast path)
    _fast7: Any = None

    def __init__(self, path: str | os.PathLike[str] = "artifacts", check: bool = True,
                 rules: str | None = None) -> None:
        if str(path) == "":
            raise ArtifactError("artifacts folder is an empty path; pass a folder such as 'artifacts'")
        if not Path(path).is_dir():
            raise ArtifactError(f"artifacts folder {path} does not exist; build it with "
                                f"`pokertables -a {path} build` (or `make tables` for ./artifacts)")
        # anchored now: the manifest is read here and the tables on first use, maybe after a
        # change of directory; both must come from the folder meant now (symbolic links are
        # still followed at each open, as a swapped link to a new build expects)
        self.path = Path(os.path.abspath(path))
        # a build rebuilds what is missing or differs from the manifest
        self._fix = f"rebuild with `pokertables -a {self.path} build`"
        self.rules = None
        self._prefix = ""
        self._offset = 0
        if rules:
            # "standard" too: a user config folder may redefine it (issue 20, item 4)
            from pipeline.rules import load_rules

            self.rules = load_rules(rules)
            if not self.rules.is_standard:
                self._prefix = f"rules/{self.rules.name}/"
                self._offset = 4 * self.rules.lowest_rank
            else:
                self.rules = None
        self.check = check
        self._folder = ArtifactFolder(self.path) if check else None
        self.manifest: dict[str, Any] = self._folder.manifest if self._folder else {"files": {}}
        self._tables: dict[int, _MappedTable] = {}
        self._classes: dict[str, npt.NDArray[Any]] | None = None
        self._top: int | None = None
        self._eval: EvalTables | None = None
        self._matchups: PreflopMatchups | None = None
        self._preflop: dict[str, npt.NDArray[Any]] = {}

    # ------------------------------------------------------------------ opening
    def _file(self, rel: str) -> Path:
        if self._folder is not None:
            return self._folder.open(rel)  # the one integrity-checked opening path
        p = self.path / rel
        if not p.exists():
            raise ArtifactError(f"{p} is missing; {self._fix}")
        return p

    @property
    def top_score(self) -> int:
        """The highest valid score of this rule set (7462 for standard poker)."""
        if self._top is None:
            if self.rules is None:
                self._top = N_SCORES
            else:
                self._top = count_classes(self._file(self._prefix + "five.h5"))
        return self._top

    def _checked_score(self, v: int, k: int) -> int:
        if 1 <= v <= self.top_score:
            return v
        raise ArtifactError(f"{self.path / (self._prefix + TABLE_FILES[k])} returned the impossible "
                            f"score {v} (valid 1..{self.top_score}): the table is corrupt; rebuild "
                            f"with {REBUILD}")

    def _check_batch(self, out: Scores, k: int) -> Scores:
        if out.size and int(out.max()) > self.top_score:
            self._checked_score(int(out.max()), k)
        return out

    def _table(self, k: int) -> _MappedTable:
        t = self._tables.get(k)
        if t is None:
            rel = self._prefix + TABLE_FILES[k]
            if self.rules is not None and not (self.path / rel).exists():
                raise ArtifactError(self._missing_rules_table(k, rel))
            p = self._file(rel)
            expect = self._dataset_facts(rel, "score") if self.check else None
            t = _MappedTable(p, "score", expect, self._fix)
            self._tables[k] = t
            if k == 7 and self.rules is None:
                self._fast7 = t.items  # the standard 7-card table: enables score7's fast path
        return t

    def _dataset_facts(self, rel: str, name: str) -> dict[str, Any]:
        """The manifest's shape and dtype of dataset ``name`` of ``rel`` (an error if it lists none)."""
        facts = self.manifest["files"][rel]["datasets"].get(name)
        if not isinstance(facts, dict):
            raise ArtifactError(f"{self.path / rel}: the manifest lists no dataset {name!r}; {self._fix}")
        return facts

    def _missing_rules_table(self, k: int, rel: str) -> str:
        """Why a rule set's k-card table is absent, and the command (if any) that makes it."""
        assert self.rules is not None
        name = self.rules.name
        if k == 6:
            return (f"rule set {name} has no 6-card table: rule sets are built with 5-card tables "
                    "(and 7-card ones when their TOML says seven = true), never 6-card ones; "
                    "score the best five of the six cards with 5-card lookups instead")
        if k == 7 and not self.rules.seven:
            return (f"rule set {name} has no 7-card table: its TOML says seven = false; copy it into "
                    f"<folder>/rules/{name}.toml with seven = true and run "
                    f"`pokertables -a {self.path} --config-dir <folder> build rules:{name}`")
        return (f"{self.path / rel} is missing; run `pokertables -a {self.path} build rules:{name}`")

    def table(self, k: int) -> Scores:
        """The read-only memory-mapped ``uint16`` score array of all k-card hands (k = 5, 6, 7)."""
        if k not in TABLE_FILES:
            raise InputError(f"no table for {k}-card hands (5, 6 or 7)")
        return self._table(k).array

    def eval_tables(self) -> EvalTables:
        """The cache-resident evaluator's tables (standard rules), memory-mapped read-only.

        Pass them to :func:`pipeline.core.fasteval.hand_score` (``*tables[1:]``) or
        :func:`pipeline.core.fasteval.score_hands_fast`. Raises :class:`ArtifactError` if
        ``eval_tables.h5`` is missing or was not written contiguously.
        """
        if self._eval is None:
            from pipeline.query.artifacts import map_eval_tables

            p = self._file(EVAL_TABLES_FILE)
            try:
                self._eval = map_eval_tables(p)
            except (OSError, KeyError) as exc:
                raise ArtifactError(f"{p} cannot be read ({exc}); rebuild with "
                                    "`pokertables build eval_tables --force`") from None
        return self._eval

    def preflop_matchups(self) -> PreflopMatchups:
        """Exact heads-up counts of every pair of the 1,326 hands, memory-mapped read-only.

        ``win[a, b]`` = boards (of 1,712,304) where hand ``a`` beats hand ``b``, ``tie[a, b]``
        where they tie; 0 when the hands share a card. Hands are numbered in colex order of
        their card ids ``c1 < c2``: ``c1 + c2*(c2-1)/2`` (:func:`pipeline.equity.hands.starting_hands.hole_index`).
        Raises :class:`ArtifactError` if ``preflop_matchups.h5`` is not built (stage
        ``preflop_matchups``, see configs/build.toml).
        """
        if self._matchups is None:
            if not (self.path / MATCHUPS_FILE).exists():
                raise ArtifactError(f"{self.path / MATCHUPS_FILE} is not built; run "
                                    "`pokertables build preflop_matchups`")
            self._matchups = map_matchups(self._file(MATCHUPS_FILE))
        return self._matchups

    @property
    def classes(self) -> dict[str, npt.NDArray[Any]]:
        """The class table as arrays indexed by ``score`` (row 0 is a placeholder)."""
        if self._classes is None:
            self._classes = read_classes(self._file(self._prefix + "five.h5"))
        return self._classes

    def preflop_datasets(self, names: tuple[str, ...]) -> dict[str, npt.NDArray[Any]]:
        """Small datasets of ``preflop.h5`` by name (at most 169 x 8 or 1,326 values each),
        read through the checked open once per ``Tables``; :class:`ArtifactError` names a
        missing file or dataset. The equity engine's preflop answers read them."""
        missing = [n for n in names if n not in self._preflop]
        if missing:
            self._preflop.update(read_preflop_datasets(self._file(PREFLOP_FILE), missing))
        return {n: self._preflop[n] for n in names}

    # ------------------------------------------------------------------ lookups
    @overload
    def score(self, hand: OneHand, k: int | None = None) -> int: ...
    @overload
    def score(self, hand: npt.NDArray[Any], k: int | None = None) -> Scores | int: ...

    def score(self, hand: HandInput, k: int | None = None) -> Scores | int:
        """Score of one hand or a batch; ``k`` (5, 6 or 7) is inferred when not given.

        A 1-d id array is one hand (an ``int``); a 2-d id array or a ``uint64`` bitmap array is
        a batch (``uint16[N]``).
        """
        if isinstance(hand, np.ndarray):
            hand = plain_ids(hand)  # a masked array's hidden ids are refused, not scored
            if hand.dtype == np.uint64 and hand.ndim == 1:
                if k is None:
                    raise InputError("a bitmap batch needs k: call score5/score6/score7")
                bits: npt.NDArray[np.uint64] = hand
                if self.rules is not None:
                    low = np.uint64((1 << self._offset) - 1)
                    if (bits & low).any():
                        i = int(np.flatnonzero(bits & low)[0])
                        raise InputError(f"bitmap {int(bits[i]):#x} (item {i}) holds cards not in the "
                                         f"{self.rules.name} deck")
                    bits = bits >> np.uint64(self._offset)
                return self._score_bitmaps(bits, k)
            if hand.ndim == 1:  # one hand as an id array: answer like a list would
                if hand.dtype.kind not in "iu":
                    raise InputError(f"card ids must be integers, got dtype {hand.dtype}")
                return self.score([int(c) for c in hand], k)
            if hand.ndim != 2:
                raise InputError(f"expected an (N, k) array of card ids or a uint64 bitmap array, "
                                 f"got shape {hand.shape}")
            if hand.dtype.kind not in "iu":
                raise InputError(f"card ids must be integers, got dtype {hand.dtype}")
            arr = hand
            if self.rules is not None:
                arr = self.rules.local_ids(arr)
            kk = arr.shape[1] if k is None else k
            if arr.shape[1] != kk or kk not in TABLE_FILES:
                raise InputError(f"expected an (N, {kk}) array of card ids, got shape {hand.shape}")
            return self._score_rows(arr)
        if isinstance(hand, bool):
            raise InputError(f"expected cards, got {hand!r}")
        if isinstance(hand, (int, np.integer)):
            cards = _bitmap_to_cards(int(hand))
        elif isinstance(hand, str):
            cards = parse_cards(hand)
        elif isinstance(hand, (bool, np.bool_)):
            raise InputError(f"expected a hand, got the bool {hand}")
        else:
            cards = parse_cards(list(hand))  # type: ignore[arg-type]  # names a bad card: text, bools, floats, out of range
        kk = len(cards) if k is None else k
        if kk not in TABLE_FILES:
            raise InputError(f"expected 5, 6 or 7 cards, got {len(cards)}")
        if self.rules is not None:
            cards = [int(c) for c in self.rules.local_ids(np.asarray(cards))]
        return self._score_one(cards, kk)

    def _score_one(self, cards: Sequence[int], k: int) -> int:
        cs = sorted(cards)
        if len(cs) != k:
            raise InputError(f"expected {k} cards, got {len(cs)}")
        if cs[0] < 0 or cs[-1] >= DECK_SIZE or len(set(cs)) != k:
            parse_cards(cs)  # raises with a message naming the bad card
            raise InputError(f"bad cards {cs}")
        idx = 0
        for i, c in enumerate(cs):
            idx += COLEX_WEIGHTS[i + 1][c]
        t = self._tables.get(k) or self._table(k)
        v = t.items[idx] if t.items is not None else int(t.array[idx])
        return v if 0 < v <= N_SCORES and self.rules is None else self._checked_score(v, k)

    @overload
    def score7(self, hand: OneHand) -> int: ...
    @overload
    def score7(self, hand: SevenCards) -> Scores: ...
    @overload
    def score7(self, hand: npt.NDArray[Any]) -> Scores | int: ...

    def score7(self, hand: HandInput | SevenCards) -> Scores | int:
        """Score (1..7462, higher is stronger) of a 7-card hand or batch of hands.

        A :class:`~pipeline.query.seven_cards.SevenCards` batch was checked when it was made,
        so it is scored without a check per row (the fastest batch path).
        """
        items = self._fast7
        if items is not None and (type(hand) is list or type(hand) is tuple):
            # fast path for a sequence of 7 ids: this is the hot single-hand call (one sort,
            # one chained comparison for range + distinctness, seven tuple reads). A third of
            # its time on random hands is the one uncached read of the 267 MB table.
            try:
                a, b, c, d, e, f, g = sorted(hand)
                if 0 <= a < b < c < d < e < f < g < 52 and type(a) is int and type(b) is int:
                    v: int = items[_W1[a] + _W2[b] + _W3[c] + _W4[d] + _W5[e] + _W6[f] + _W7[g]]
                    if 0 < v <= N_SCORES:
                        return v
                    return self._checked_score(v, 7)
            except (TypeError, ValueError):  # not 7 ids (text, wrong count, odd types):
                pass                         # the general path parses or explains
        if isinstance(hand, SevenCards):
            return self._score_seven_cards(hand)
        return self.score(hand, 7)

    def _score_seven_cards(self, batch: SevenCards) -> Scores:
        fast = self._fast_eval()
        flat = trusted_rows(batch)
        if fast is None or flat is None:
            # other rules, no evaluator tables, or a batch not provably the one checked (a
            # subclass, ids swapped in after the check): the general (checking) path
            return cast(Scores, self.score(_batch_ids(batch), 7))
        from pipeline.core.sevens import score_sevens

        out = np.empty(len(batch), np.uint16)
        score_sevens(flat, fast, out)
        return out  # in 1..7462: eval_tables() checked the tables' scores when it opened them

    @overload
    def score6(self, hand: OneHand) -> int: ...
    @overload
    def score6(self, hand: npt.NDArray[Any]) -> Scores | int: ...

    def score6(self, hand: HandInput) -> Scores | int:
        """Score of a 6-card hand (best 5 of 6) or batch."""
        return self.score(hand, 6)

    @overload
    def score5(self, hand: OneHand) -> int: ...
    @overload
    def score5(self, hand: npt.NDArray[Any]) -> Scores | int: ...

    def score5(self, hand: HandInput) -> Scores | int:
        """Score of a 5-card hand or batch."""
        return self.score(hand, 5)

    def fast_evaluator(self) -> EvalTables | None:
        """The cache-resident evaluator's tables when they are built (standard rules only), else
        None: kernels that score many hands use them, and fall back to the dense tables."""
        return self._fast_eval()

    def _fast_eval(self) -> EvalTables | None:
        """The small evaluator tables if built (standard rules only), else ``None``."""
        if self.rules is not None:
            return None
        if self._eval is None and EVAL_TABLES_FILE not in self.manifest.get("files", {}):
            return None
        return self.eval_tables()

    def _score_rows(self, arr: npt.NDArray[Any]) -> Scores:
        k = arr.shape[1]
        if arr.dtype.kind not in "iu":
            raise InputError(f"card ids must be integers, got dtype {arr.dtype}")
        out = np.empty(arr.shape[0], np.uint16)
        fast = self._fast_eval()
        if fast is not None and k == 7:
            # the 7-card kernel (core/sevens.py): rows checked inside its loop, no generic k
            from pipeline.core.sevens import score_seven_rows

            bad = score_seven_rows(arr, fast, out)
            if bad < 0:
                return out  # in 1..7462: eval_tables() checked the tables' scores on opening
        else:
            if fast is not None:
                # the cache-resident evaluator: ~10x the dense table's speed on random hands
                from pipeline.core.fasteval import score_rows as fast_rows

                nbad = fast_rows(np.ascontiguousarray(arr), fast, out)
            else:
                from pipeline.query.lookup import score_rows

                nbad = score_rows(np.ascontiguousarray(arr), BINOM, self._table(k).array, out)
            bad = int(np.flatnonzero(out == 0)[0]) if nbad else -1
        if bad >= 0:
            raise InputError(f"row {bad} is not {k} distinct card ids 0..51: {arr[bad].tolist()}")
        return self._check_batch(out, k)

    def _score_bitmaps(self, bits: npt.NDArray[np.uint64], k: int) -> Scores:
        out = np.empty(bits.shape[0], np.uint16)
        fast = self._fast_eval()
        if fast is not None:
            from pipeline.core.fasteval import score_bitmaps as fast_bitmaps

            nbad = fast_bitmaps(np.ascontiguousarray(bits), k, fast, out)
        else:
            from pipeline.query.lookup import score_bitmaps

            nbad = score_bitmaps(np.ascontiguousarray(bits), k, BINOM, self._table(k).array, out)
        if nbad:
            i = int(np.flatnonzero(out == 0)[0])
            raise InputError(f"bitmap {int(bits[i]):#x} (item {i}) does not hold {k} cards 0..51")
        return self._check_batch(out, k)

    # ------------------------------------------------------------------ classes
    def abstraction(self, street: str) -> StreetTable:
        """The card-abstraction table of a street (``preflop``, ``flop``, ``turn``, ``river``):
        batch ``index`` of (hole + board) card rows and ``lookup`` of class figures and buckets
        (:mod:`pipeline.query.abstraction.reader`)."""
        from pipeline.query.abstraction.reader import open_street

        return open_street(self.path, street)

    def describe(self, hand: HandInput) -> dict[str, Any]:
        """Score, category and name of one 5-, 6- or 7-card hand, as a JSON-ready dict."""
        # parse_cards also takes lists of card text or ids (validating them)
        if isinstance(hand, np.ndarray):
            cards = parse_cards([int(c) for c in hand.ravel()])
        elif isinstance(hand, int):
            cards = _bitmap_to_cards(hand)
        else:
            cards = parse_cards(hand)
        if len(cards) not in TABLE_FILES:
            raise InputError(f"expected 5, 6 or 7 cards, got {len(cards)}")
        s = self.score(cards)
        from pipeline.core.cards import format_cards

        info = {"cards": format_cards(cards), "score": s, "category": self.category(s),
                "category_name": CATEGORY_NAMES[self.category(s)], "name": self.name(s)}
        if self.rules is None:
            info["cactus_kev"] = CACTUS_KEV_BASE - s
        else:
            info["rules"] = self.rules.name
            info["classes"] = len(self.classes["name"]) - 1
        return info


def _batch_ids(batch: SevenCards) -> npt.NDArray[Any]:
    """The ids of a batch that :func:`trusted_rows` could not prove, as an array for the
    checking path (whatever was put in their place)."""
    ids = batch.ids
    if not isinstance(ids, np.ndarray):
        raise InputError(f"a SevenCards batch's ids must be an array, got {type(ids).__name__}")
    if ids.ndim != 2:
        raise InputError(f"expected an (N, 7) array of card ids, got shape {ids.shape}")
    return ids


def _bitmap_to_cards(bits: int) -> list[int]:
    if bits < 0 or bits >> DECK_SIZE:
        raise InputError(f"bad bitmap {bits:#x}: only bits 0..51 may be set")
    return [c for c in range(DECK_SIZE) if bits >> c & 1]


__all__ = ["CATEGORY_NAMES", "ArtifactError", "PreflopMatchups", "Tables"]
