"""The read side: `Tables` single/batch lookups, bitmaps, errors, class names, memory mapping."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from refpoker import CATEGORY_STARTS, random_hands

from pipeline.core.cards import format_cards
from pipeline.query.tables import CATEGORY_NAMES, Tables


def _bitmaps(hands: np.ndarray) -> np.ndarray:
    return np.bitwise_or.reduce(np.left_shift(np.uint64(1), hands.astype(np.uint64)), axis=1)


@pytest.mark.parametrize("k", [5, 6, 7])
def test_batch_and_single_agree(tables: Tables, k: int) -> None:
    hands = random_hands(np.random.default_rng(k), 3000, k)
    batch = tables.score(hands, k)
    assert batch.dtype == np.uint16 and batch.shape == (3000,)
    assert 1 <= batch.min() and batch.max() <= 7462
    fn = {5: tables.score5, 6: tables.score6, 7: tables.score7}[k]
    assert np.array_equal(fn(hands), batch)
    for dt in (np.uint8, np.int8, np.int32, np.uint64):
        assert np.array_equal(fn(hands.astype(dt)), batch), dt
    assert np.array_equal(fn(np.asfortranarray(hands)), batch)
    assert np.array_equal(fn(_bitmaps(hands)), batch)
    rows = hands.tolist()
    for i in range(0, 3000, 7):
        h = rows[i]
        want = int(batch[i])
        assert fn(h) == want
        assert fn(tuple(h)) == want
        assert fn(h[::-1]) == want
        assert fn(format_cards(h)) == want
        assert fn(format_cards(h).replace(" ", "").lower()) == want
        assert fn(format_cards(h).split()) == want
        assert fn(sum(1 << c for c in h)) == want
        assert type(fn(h)) is int


def test_single_hand_fast_path_validates(tables: Tables) -> None:
    base = [51, 47, 43, 39, 35, 0, 5]
    assert tables.score7(base) == 7462
    assert tables.score7([np.int64(c) for c in base]) == 7462
    with pytest.raises(ValueError, match="duplicate card 2c"):
        tables.score7([51, 47, 43, 39, 35, 0, 0])
    with pytest.raises(ValueError, match="52"):
        tables.score7([51, 47, 43, 39, 35, 0, 52])
    with pytest.raises(ValueError, match="-1"):
        tables.score7([51, 47, 43, 39, 35, 0, -1])
    with pytest.raises(ValueError, match="expected 7 cards, got 6"):
        tables.score7(base[:6])
    with pytest.raises(ValueError, match="'Xx'"):
        tables.score7("As Ks Qs Js Ts 2c Xx")
    with pytest.raises(ValueError, match="expected 5 cards, got 7"):
        tables.score5(base)


def test_bad_batch_rows_are_named(tables: Tables) -> None:
    hands = random_hands(np.random.default_rng(5), 100, 7)
    dup = hands.copy()
    dup[17, 3] = dup[17, 5]
    with pytest.raises(ValueError, match=r"row 17 .*" + str(dup[17].tolist()).replace("[", r"\[")):
        tables.score7(dup)
    high = hands.copy()
    high[42, 0] = 52
    with pytest.raises(ValueError, match="row 42"):
        tables.score7(high)
    neg = hands.astype(np.int8)
    neg[63, 6] = -1
    with pytest.raises(ValueError, match="row 63"):
        tables.score7(neg)
    with pytest.raises(ValueError, match=r"\(N, 7\)"):
        tables.score7(hands[:, :6])
    with pytest.raises(ValueError, match="integers"):
        tables.score7(hands.astype(np.float64))
    bits = _bitmaps(hands)
    few = bits.copy()
    few[8] &= few[8] - np.uint64(1)  # drop the lowest card: six cards
    with pytest.raises(ValueError, match="item 8"):
        tables.score7(few)
    big = bits.copy()
    big[9] |= np.uint64(1) << np.uint64(60)
    with pytest.raises(ValueError, match="item 9"):
        tables.score7(big)
    assert tables.score7(hands[:0]).shape == (0,)


def test_class_names_and_categories(tables: Tables) -> None:
    assert tables.name(7462) == "Ace-high straight flush"
    assert tables.category(7462) == 8
    assert tables.name(7453) == "Five-high straight flush"
    assert tables.name(7452) == "Four Aces, K kicker"
    assert tables.name(7296) == "Aces full of Kings"
    assert tables.name(5863) == "Ace-high straight"
    assert tables.name(5854) == "Five-high straight"
    assert tables.name(1) == "Seven-high, 5-4-3-2"
    assert tables.category(1) == 0
    s = tables.score5("Jc Jd As Kd 9h")
    assert tables.name(s) == "Pair of Jacks, A-K-9 kickers" and tables.category(s) == 1
    assert tables.name(tables.score5("Kh Kd 4c 4s 9d")) == "Kings and Fours, 9 kicker"
    assert tables.name(tables.score5("Qh Qd Qc 7s 2d")) == "Three Queens, 7-2 kickers"
    assert tables.category_name(tables.score5("2h 9h Jh 4h 6h")) == "flush"
    scores = np.arange(1, 7463)
    cats = tables.category(scores)
    for c in range(9):
        a, b = CATEGORY_STARTS[c], CATEGORY_STARTS[c + 1]
        assert (cats[a - 1:b - 1] == c).all(), CATEGORY_NAMES[c]
    names = tables.name(scores)
    assert len(set(names)) == 7462
    for bad in (0, 7463, -1):
        with pytest.raises(ValueError, match="1..7462"):
            tables.name(bad)
    with pytest.raises(ValueError):
        tables.category(np.array([5, 0]))


def test_class_table(tables: Tables) -> None:
    c = tables.classes
    assert len(c["category"]) == 7463  # row 0 is a placeholder
    for k, total in ((5, 2_598_960), (6, 20_358_520), (7, 133_784_560)):
        assert int(c[f"count{k}"][1:].astype(np.int64).sum()) == total
    assert (c["count5"][1:] > 0).all()
    assert np.array_equal(c["cactus_kev"][1:].astype(int), 7463 - np.arange(1, 7463))
    assert c["ranks"][7462].tolist() == [12, 11, 10, 9, 8]
    assert c["ranks"][5854].tolist() == [3, 2, 1, 0, 12]  # the wheel counts the ace low


def test_describe(tables: Tables) -> None:
    d = tables.describe("as ks qs js 10s")
    assert d == {"cards": "As Ks Qs Js Ts", "score": 7462, "category": 8,
                 "category_name": "straight flush", "name": "Ace-high straight flush",
                 "cactus_kev": 1}
    assert json.loads(json.dumps(d)) == d
    d6 = tables.describe("2c 3d 4h 5s 7c 7d")
    assert d6["category_name"] == "pair" and d6["name"] == "Pair of Sevens, 5-4-3 kickers"
    assert tables.describe(["As", "Ks", "Qs", "Js", "Ts"]) == d   # a list of card text
    assert tables.describe((51, 47, 43, 39, 35)) == d
    with pytest.raises(ValueError, match="'Zz'"):
        tables.describe(["As", "Ks", "Qs", "Js", "Zz"])


MEMORY_PROBE = r"""
import json, sys
import numpy as np
import psutil
from pipeline.query.tables import Tables

proc = psutil.Process()
def anon():  # private anonymous memory: what reading a table into RAM would grow
    m = proc.memory_info()
    return m.rss - m.shared
t = Tables(sys.argv[1])
rng = np.random.default_rng(1)
hands = np.argsort(rng.random((100_000, 52)), axis=1)[:, :7].astype(np.int8)
# load (or, with a cold numba cache, compile) the same kernels the measured calls use first:
# the parallel batch kernel for int8 rows and the single-hand path
t.score7(np.argsort(rng.random((50_000, 52)), axis=1)[:, :7].astype(np.int8))
t.score7([0, 1, 2, 3, 4, 5, 6])
rss0, anon0 = proc.memory_info().rss, anon()
scores = t.score7(hands)
rows = hands[:2000].tolist()
singles = [t.score7(h) for h in rows]
rss1, anon1 = proc.memory_info().rss, anon()
copy = np.array(t.table(6))  # control: a real in-RAM copy must show up in the same measure
anon2 = anon()
print(json.dumps({"anon": anon1 - anon0, "rss": rss1 - rss0, "copy": anon2 - anon1,
                  "copy_bytes": copy.nbytes, "agree": singles == scores[:2000].tolist(),
                  "table_bytes": t.table(7).nbytes}))
"""


def test_lookups_memory_map_the_table(artifacts: Path) -> None:
    """Scoring 100,000 hands grows private memory by far less than the 267 MB table."""
    r = subprocess.run([sys.executable, "-c", MEMORY_PROBE, str(artifacts)], capture_output=True,
                       text=True, check=True)
    m = json.loads(r.stdout)
    assert m["agree"]
    assert m["table_bytes"] == 133_784_560 * 2
    assert m["anon"] < m["table_bytes"] / 20, m       # < 13 MB of private memory
    assert m["copy"] > 0.8 * m["copy_bytes"], m       # the measure does see a real copy
    # RSS also counts the (shared, evictable) page-cache pages the lookups touched
    assert m["rss"] - m["anon"] <= m["table_bytes"] * 1.05, m


IMPORT_PROBE = r"""
import sys
import numpy as np
from pipeline.query.tables import Tables
t = Tables(sys.argv[1])
t.score7("As Ks Qs Js Ts 2c 3d")
t.score7(np.array([[0, 1, 2, 3, 4, 5, 6]]))
t.score5(np.array([[0, 1, 2, 3, 4]], np.uint8))
t.name(7462)
print(" ".join(sorted(m for m in sys.modules if m.startswith("pipeline"))))
"""


def test_query_does_not_import_build_side(artifacts: Path) -> None:
    r = subprocess.run([sys.executable, "-c", IMPORT_PROBE, str(artifacts)], capture_output=True,
                       text=True, check=True)
    loaded = set(r.stdout.split())
    assert "pipeline.query.tables" in loaded
    assert "pipeline.query.lookup" in loaded or "pipeline.core.fasteval" in loaded  # batch kernels
    # the build side and the build's rank-table evaluator stay out; shared core helpers (cards,
    # bits, the colex index) are the read side's too
    for forbidden in ("pipeline.build.stages", "pipeline.core.evaluate", "pipeline.build.runner",
                      "pipeline.build.store"):
        assert not any(m == forbidden or m.startswith(forbidden + ".") for m in loaded), (forbidden, loaded)
