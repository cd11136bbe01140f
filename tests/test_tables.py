"""The built 5/6/7-card score tables: exact counts, agreement with phevaluator and a slow reference,
and readability of seven.h5 by plain h5py + numpy."""

from __future__ import annotations

import json
import subprocess
import sys
from itertools import chain, combinations, starmap
from math import comb
from pathlib import Path

import numpy as np
import pytest
from refpoker import CATEGORY_STARTS, colex, random_hands, ref_score, score_of_key

from pipeline.query.tables import Tables

FIVE_BY_CATEGORY = (1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40)
SEVEN_BY_CATEGORY = (23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644,
                     3_473_184, 224_848, 41_584)


def _histogram(table: np.ndarray, chunk: int = 1 << 22) -> np.ndarray:
    """Count of each score 0..7462 over a (memory-mapped) table, in chunks."""
    h = np.zeros(7463, np.int64)
    for i in range(0, table.shape[0], chunk):
        h += np.bincount(table[i:i + chunk], minlength=7463)
    return h


def _by_category(hist: np.ndarray) -> tuple[int, ...]:
    return tuple(int(hist[a:b].sum()) for a, b in zip(CATEGORY_STARTS, CATEGORY_STARTS[1:]))


@pytest.fixture(scope="module")
def hists(tables: Tables) -> dict[int, np.ndarray]:
    """Score histograms of the three tables, computed straight from the mapped arrays."""
    return {k: _histogram(tables.table(k)) for k in (5, 6, 7)}


def test_table_shapes(tables: Tables) -> None:
    for k in (5, 6, 7):
        t = tables.table(k)
        assert t.shape == (comb(52, k),) and t.dtype == np.uint16
        assert not t.flags.writeable


def test_five_card_counts(hists: dict[int, np.ndarray]) -> None:
    h = hists[5]
    assert h[0] == 0
    assert _by_category(h) == FIVE_BY_CATEGORY
    assert int((h > 0).sum()) == 7462
    assert h.sum() == 2_598_960
    assert h[7462] == 4  # royal flushes


def test_six_card_counts(hists: dict[int, np.ndarray]) -> None:
    h = hists[6]
    assert h[0] == 0 and h.sum() == 20_358_520
    assert int((h > 0).sum()) == 6075
    assert h[7462] == 4 * 47  # royal + any other card


def test_seven_card_counts(hists: dict[int, np.ndarray]) -> None:
    h = hists[7]
    assert h[0] == 0 and h.sum() == 133_784_560
    assert _by_category(h) == SEVEN_BY_CATEGORY
    assert int((h > 0).sum()) == 4824
    assert h[7462] == 4324  # royal flushes among the straight flushes
    assert h[7453:7463].sum() == 41_584


def test_class_table_counts_match_tables(tables: Tables, hists: dict[int, np.ndarray]) -> None:
    c = tables.classes
    for k in (5, 6, 7):
        assert np.array_equal(c[f"count{k}"][1:].astype(np.int64), hists[k][1:]), k


def test_reference_ranks_7462_values() -> None:
    table = score_of_key()
    assert len(table) == 7462
    cats = [k[0] for k in sorted(table, key=table.__getitem__)]
    starts = [1 + cats.index(c) for c in range(9)]
    assert tuple(starts) == CATEGORY_STARTS[:-1]
    assert ref_score([51, 47, 43, 39, 35]) == 7462           # As Ks Qs Js Ts
    assert ref_score([20, 13, 10, 7, 0]) == 1                # 7c 5d 4h 3s 2c
    assert ref_score([48, 1, 6, 11, 12]) == 5854             # wheel: lowest straight


def test_five_table_every_hand_vs_phevaluator(tables: Tables) -> None:
    """All 2,598,960 five-card hands agree with phevaluator (7463 - rank)."""
    from phevaluator import _pheval

    n = comb(52, 5)
    hands = np.fromiter(chain.from_iterable(combinations(range(52), 5)), np.int64, count=5 * n).reshape(n, 5)
    ph = np.fromiter(starmap(_pheval.evaluate_5cards, hands.tolist()), np.int64, count=n)
    got = tables.table(5)[colex(hands)]
    bad = np.flatnonzero(got != 7463 - ph)
    assert bad.size == 0, f"{bad.size} mismatches, first {hands[bad[0]].tolist()}"


@pytest.mark.parametrize("k,n", [(6, 1_000_000), (7, 1_000_000)])
def test_table_vs_phevaluator_random(tables: Tables, k: int, n: int) -> None:
    """1,000,000 random 6- and 7-card hands agree with phevaluator, mirrored (7463 - rank)."""
    from phevaluator import _pheval

    hands = random_hands(np.random.default_rng(20240 + k), n, k)
    fn = _pheval.evaluate_6cards if k == 6 else _pheval.evaluate_7cards
    ph = np.fromiter(starmap(fn, hands.tolist()), np.int64, count=n)
    got = tables.table(k)[colex(hands)]             # direct colex read
    assert np.array_equal(tables.score(hands, k), got)  # the query layer's batch kernel
    bad = np.flatnonzero(got != 7463 - ph)
    assert bad.size == 0, f"{bad.size} mismatches, first {hands[bad[0]].tolist()}"


@pytest.mark.parametrize("k,n", [(5, 30_000), (6, 15_000), (7, 8_000)])
def test_tables_vs_slow_reference(tables: Tables, k: int, n: int) -> None:
    """Random hands agree with the brute-force best-5 reference written in the tests."""
    hands = random_hands(np.random.default_rng(7 * k), n, k)
    got = tables.table(k)[colex(hands)]
    want = np.array([ref_score(h) for h in hands.tolist()])
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, f"{bad.size} mismatches, first {hands[bad[0]].tolist()}"


EDGE_HANDS = [
    "As Ks Qs Js Ts 2c 3d",      # royal
    "5h 4h 3h 2h Ah Kh Qh",      # steel wheel, plus a flush-ace that must not make it a royal
    "Ac 2d 3h 4s 5c 9d Jh",      # wheel
    "Ac 2d 3h 4s 5c 6d Jh",      # six-high straight beats the wheel
    "Ac Ad Ah Kc Kd Kh 2s",      # two trips: aces full of kings
    "Ac Ad Kc Kd Qc Qd 2s",      # three pairs: kicker Q from the third pair
    "9s 9h 9d 9c As Ad Ah",      # quads beat the full house; ace kicker
    "2h 3h 4h 5h 7h 8h 9h",      # flush of 7 hearts, no straight flush
    "Th Jh Qh Kh 9h 8h 7h",      # seven-card straight flush: king-high
    "2c 3d 4h 5s 7c 8d 9h",      # nothing: 9-high
    "Ac Ad 7h 7s 7c 2d 2h",      # sevens full of aces
]


@pytest.mark.parametrize("text", EDGE_HANDS)
def test_edge_hands_vs_reference(tables: Tables, text: str) -> None:
    from pipeline.core.cards import parse_cards

    ids = parse_cards(text)
    assert tables.score7(ids) == ref_score(ids)
    for k in (5, 6):
        for sub in list(combinations(ids, k))[:7]:
            assert tables.score(list(sub), k) == ref_score(sub)


PLAIN_READER = r"""
import json, sys
from math import comb
import h5py
import numpy as np

path, hands = sys.argv[1], np.array(json.loads(sys.stdin.read()), dtype=np.int64)
with h5py.File(path, "r") as f:
    ds = f["score"]
    attrs = {k: (v.decode() if isinstance(v, bytes) else v) for k, v in ds.attrs.items()}
    assert attrs["index_scheme"] == "colex", attrs
    formula = attrs["index_formula"]
    # the documented formula: index = C(c1,1) + C(c2,2) + ... + C(ck,k) over sorted ids
    assert "C(c1,1) + C(c2,2)" in formula and "C(ck,k)" in formula, formula
    k = int(attrs["k"])
    offset = ds.id.get_offset()
    n = ds.shape[0]
    dtype = ds.dtype
    cards = np.sort(hands, axis=1)
    idx = np.zeros(len(cards), np.int64)
    for j in range(k):
        idx += np.array([comb(int(c), j + 1) for c in range(52)], np.int64)[cards[:, j]]
    few = np.unique(idx[:500])
    via_h5py = ds[few]                       # h5py point read (sorted, unique)
mm = np.memmap(path, dtype=dtype, mode="r", offset=offset, shape=(n,))
scores = mm[idx]                             # a plain memory map at the dataset's offset
assert np.array_equal(via_h5py, mm[few])
assert not any(m == "pipeline" or m.startswith("pipeline.") for m in sys.modules)
print(json.dumps({"scores": scores.tolist(), "meaning": attrs["score_meaning"], "k": k, "n": n}))
"""


def test_plain_h5py_numpy_reader(artifacts: Path, tables: Tables) -> None:
    """Another tool reads seven.h5 with h5py + numpy and the colex formula from its attributes."""
    hands = random_hands(np.random.default_rng(99), 20_000, 7)
    r = subprocess.run([sys.executable, "-c", PLAIN_READER, str(artifacts / "seven.h5")],
                       input=json.dumps(hands.tolist()), capture_output=True, text=True, check=True)
    out = json.loads(r.stdout)
    assert out["k"] == 7 and out["n"] == 133_784_560
    assert "higher is stronger" in out["meaning"]
    scores = np.array(out["scores"])
    assert np.array_equal(scores, tables.score7(hands))
    from phevaluator import _pheval

    ph = np.array(list(starmap(_pheval.evaluate_7cards, hands[:2000].tolist())))
    assert np.array_equal(scores[:2000], 7463 - ph)
