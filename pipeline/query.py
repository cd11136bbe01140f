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

import json
import mmap
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Union

import numpy as np

from .cards import BINOM, COLEX_WEIGHTS, DECK_SIZE, parse_cards

HandInput = Union[str, Sequence[int], Sequence[str], int, np.ndarray]
TABLE_FILES = {5: "five.h5", 6: "six.h5", 7: "seven.h5"}
CATEGORY_NAMES = ("high card", "pair", "two pair", "three of a kind", "straight", "flush",
                  "full house", "four of a kind", "straight flush")


class ArtifactError(RuntimeError):
    """An artifact is missing or does not match the manifest; the message says how to rebuild."""


class _MappedTable:
    """One contiguous HDF5 dataset mapped read-only: a numpy view and a fast scalar view."""

    def __init__(self, path: Path, dataset: str, expect: dict[str, Any] | None) -> None:
        import h5py

        try:
            with h5py.File(path, "r") as f:
                ds = f[dataset]
                offset = ds.id.get_offset()
                shape = tuple(ds.shape)
                dtype = ds.dtype
                self.attrs = dict(ds.attrs)
        except (OSError, KeyError) as exc:
            raise ArtifactError(f"{path} cannot be opened as HDF5 ({exc}); rebuild with "
                                "`pokertables build --force`") from None
        if offset is None:
            raise ArtifactError(f"{path}:{dataset} is not contiguous; rebuild with `pokertables build --force`")
        if expect is not None:
            if list(shape) != list(expect["shape"]) or str(dtype) != expect["dtype"]:
                raise ArtifactError(f"{path}:{dataset} has shape {shape} {dtype}, manifest says "
                                    f"{expect['shape']} {expect['dtype']}; rebuild with "
                                    "`pokertables build --force`")
        nbytes = int(np.prod(shape)) * dtype.itemsize
        with open(path, "rb") as fh:
            self._mm = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        if offset + nbytes > len(self._mm):
            raise ArtifactError(f"{path} is truncated; rebuild with `pokertables build --force`")
        self.array = np.frombuffer(self._mm, dtype=dtype, count=int(np.prod(shape)),
                                   offset=offset).reshape(shape)
        # memoryview.cast returns Python ints directly: the cheapest single-item read
        self.items = memoryview(self._mm)[offset:offset + nbytes].cast(dtype.char) \
            if dtype.byteorder in "=|<" and len(shape) == 1 else None


class Tables:
    """Read-only access to the built score tables in an artifacts folder.

    ``score5``/``score6``/``score7`` take one hand (text like ``"As Ks Qs Js Ts"``, a
    sequence of card ids, or a bitmap int) and return an ``int``; or a numpy batch (an
    ``(N, k)`` array of card ids, or a ``uint64`` bitmap array) and return ``uint16[N]``.
    """

    def __init__(self, path: str | os.PathLike[str] = "artifacts", check: bool = True) -> None:
        self.path = Path(path)
        if not self.path.is_dir():
            raise ArtifactError(f"artifacts folder {self.path} does not exist; run `make tables`")
        mf = self.path / "manifest.json"
        self.manifest: dict[str, Any] = json.loads(mf.read_text()) if mf.exists() else {"files": {}}
        self.check = check
        self._tables: dict[int, _MappedTable] = {}
        self._classes: dict[str, np.ndarray] | None = None
        self._hashed: set[str] = set()

    # ------------------------------------------------------------------ opening
    def _file(self, rel: str) -> Path:
        p = self.path / rel
        if not p.exists():
            raise ArtifactError(f"{p} is missing; run `make tables` (or `pokertables build`)")
        if self.check:
            info = self.manifest.get("files", {}).get(rel)
            if info is None:
                raise ArtifactError(f"{p} is not in {self.path / 'manifest.json'}; rebuild it with "
                                    "`pokertables build`")
            st = p.stat()
            if st.st_size != info["bytes"]:
                raise ArtifactError(f"{p} is {st.st_size} bytes but the manifest says {info['bytes']}: "
                                    "corrupt or partial; rebuild with `pokertables build --force`")
            if st.st_mtime_ns != info.get("mtime_ns") and rel not in self._hashed:
                # touched since it was built (or copied): trust it only if its bytes still match
                from .store import sha256_file

                if sha256_file(p) != info["sha256"]:
                    raise ArtifactError(f"{p} changed since it was built (sha256 differs from the "
                                        "manifest): refusing corrupt data; rebuild with "
                                        "`pokertables build --force`")
                self._hashed.add(rel)
        return p

    def _table(self, k: int) -> _MappedTable:
        t = self._tables.get(k)
        if t is None:
            rel = TABLE_FILES[k]
            p = self._file(rel)
            expect = self.manifest["files"][rel]["datasets"]["score"] if self.check else None
            t = _MappedTable(p, "score", expect)
            self._tables[k] = t
        return t

    def table(self, k: int) -> np.ndarray:
        """The read-only memory-mapped ``uint16`` score array of all k-card hands (k = 5, 6, 7)."""
        if k not in TABLE_FILES:
            raise ValueError(f"no table for {k}-card hands (5, 6 or 7)")
        return self._table(k).array

    @property
    def classes(self) -> dict[str, np.ndarray]:
        """The class table as arrays indexed by ``score`` (row 0 is a placeholder)."""
        if self._classes is None:
            import h5py

            with h5py.File(self._file("five.h5"), "r") as f:
                g = f["classes"]
                cols = {}
                for name in ("category", "ranks", "name", "cactus_kev", "count5", "count6", "count7"):
                    a = g[name][:]
                    pad = np.zeros((1,) + a.shape[1:], a.dtype)
                    cols[name] = np.concatenate([pad, a])
            cols["name"] = np.array([b.decode() for b in cols["name"]], dtype=object)
            self._classes = cols
        return self._classes

    # ------------------------------------------------------------------ lookups
    def score(self, hand: HandInput, k: int | None = None) -> Any:
        """Score of one hand or a batch; ``k`` (5, 6 or 7) is inferred when not given."""
        if isinstance(hand, np.ndarray):
            if hand.dtype == np.uint64 and hand.ndim == 1:
                if k is None:
                    raise ValueError("a bitmap batch needs k: call score5/score6/score7")
                return self._score_bitmaps(hand, k)
            arr = hand if hand.ndim == 2 else hand.reshape(1, -1)
            kk = arr.shape[1] if k is None else k
            if arr.shape[1] != kk or kk not in TABLE_FILES:
                raise ValueError(f"expected an (N, {kk}) array of card ids, got shape {hand.shape}")
            return self._score_rows(arr)
        if isinstance(hand, (int, np.integer)) and not isinstance(hand, bool):
            cards = _bitmap_to_cards(int(hand))
        elif isinstance(hand, str):
            cards = parse_cards(hand)
        else:
            cards = list(hand)
            if cards and isinstance(cards[0], str):
                cards = parse_cards(cards)
        kk = len(cards) if k is None else k
        if kk not in TABLE_FILES:
            raise ValueError(f"expected 5, 6 or 7 cards, got {len(cards)}")
        return self._score_one(cards, kk)

    def _score_one(self, cards: Sequence[int], k: int) -> int:
        cs = sorted(cards)
        if len(cs) != k:
            raise ValueError(f"expected {k} cards, got {len(cs)}")
        if cs[0] < 0 or cs[-1] >= DECK_SIZE or len(set(cs)) != k:
            parse_cards(cs)  # raises with a message naming the bad card
            raise ValueError(f"bad cards {cs}")
        idx = 0
        for i, c in enumerate(cs):
            idx += COLEX_WEIGHTS[i + 1][c]
        t = self._tables.get(k) or self._table(k)
        if t.items is not None:
            return t.items[idx]
        return int(t.array[idx])

    def score7(self, hand: HandInput) -> Any:
        """Score (1..7462, higher is stronger) of a 7-card hand or batch of hands."""
        if type(hand) is list or type(hand) is tuple:
            # fast path for a sequence of 7 ids: this is the hot single-hand call
            t = self._tables.get(7)
            if t is not None and t.items is not None and len(hand) == 7:
                cs = sorted(hand)
                if 0 <= cs[0] and cs[6] < 52 and len(set(cs)) == 7:
                    w = COLEX_WEIGHTS
                    return t.items[w[1][cs[0]] + w[2][cs[1]] + w[3][cs[2]] + w[4][cs[3]]
                                   + w[5][cs[4]] + w[6][cs[5]] + w[7][cs[6]]]
        return self.score(hand, 7)

    def score6(self, hand: HandInput) -> Any:
        """Score of a 6-card hand (best 5 of 6) or batch."""
        return self.score(hand, 6)

    def score5(self, hand: HandInput) -> Any:
        """Score of a 5-card hand or batch."""
        return self.score(hand, 5)

    def _score_rows(self, arr: np.ndarray) -> np.ndarray:
        from .lookup import score_rows

        k = arr.shape[1]
        if arr.dtype.kind not in "iu":
            raise ValueError(f"card ids must be integers, got dtype {arr.dtype}")
        out = np.empty(arr.shape[0], np.uint16)
        nbad = score_rows(np.ascontiguousarray(arr), BINOM, self._table(k).array, out)
        if nbad:
            i = int(np.flatnonzero(out == 0)[0])
            raise ValueError(f"row {i} is not {k} distinct card ids 0..51: {arr[i].tolist()}")
        return out

    def _score_bitmaps(self, bits: np.ndarray, k: int) -> np.ndarray:
        from .lookup import score_bitmaps

        out = np.empty(bits.shape[0], np.uint16)
        nbad = score_bitmaps(np.ascontiguousarray(bits), k, BINOM, self._table(k).array, out)
        if nbad:
            i = int(np.flatnonzero(out == 0)[0])
            raise ValueError(f"bitmap {int(bits[i]):#x} (item {i}) does not hold {k} cards 0..51")
        return out

    # ------------------------------------------------------------------ classes
    def category(self, score: int | np.ndarray) -> Any:
        """Category number (0 high card .. 8 straight flush) of a score or array of scores."""
        cat = self.classes["category"]
        if isinstance(score, np.ndarray):
            _check_scores(score)
            return cat[score]
        return int(cat[_check_score(score)])

    def category_name(self, score: int) -> str:
        """Category name of a score, e.g. ``'full house'``."""
        return CATEGORY_NAMES[self.category(score)]

    def name(self, score: int | np.ndarray) -> Any:
        """Readable class name of a score (e.g. ``'Pair of Jacks, A-K-9 kickers'``) or array of them."""
        names = self.classes["name"]
        if isinstance(score, np.ndarray):
            _check_scores(score)
            return names[score]
        return str(names[_check_score(score)])

    def describe(self, hand: HandInput) -> dict[str, Any]:
        """Score, category and name of one 5-, 6- or 7-card hand, as a JSON-ready dict."""
        cards = parse_cards(hand) if isinstance(hand, str) else list(hand)
        if len(cards) not in TABLE_FILES:
            raise ValueError(f"expected 5, 6 or 7 cards, got {len(cards)}")
        s = self.score(cards)
        from .cards import format_cards

        return {"cards": format_cards(cards), "score": s, "category": self.category(s),
                "category_name": CATEGORY_NAMES[self.category(s)], "name": self.name(s),
                "cactus_kev": 7463 - s}


def _check_score(s: int) -> int:
    if not 1 <= int(s) <= 7462:
        raise ValueError(f"bad score {s}: scores are 1..7462")
    return int(s)


def _check_scores(a: np.ndarray) -> None:
    if a.size and (a.min() < 1 or a.max() > 7462):
        raise ValueError("scores must be 1..7462")


def _bitmap_to_cards(bits: int) -> list[int]:
    if bits < 0 or bits >> DECK_SIZE:
        raise ValueError(f"bad bitmap {bits:#x}: only bits 0..51 may be set")
    return [c for c in range(DECK_SIZE) if bits >> c & 1]


def open_tables(path: str | os.PathLike[str] = "artifacts") -> Tables:
    """Open an artifacts folder (same as ``Tables(path)``)."""
    return Tables(path)


__all__ = ["Tables", "ArtifactError", "open_tables", "CATEGORY_NAMES"]
