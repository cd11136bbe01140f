"""The 7-card batch scorer (pipeline.core.sevens) and the in-order 7-card enumeration
(evaluate.score_table(7)) against the dense tables and the generic kernels."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from eval_once import eval_tables
from refpoker import colex, random_hands

from pipeline.core.cards import parse_cards
from pipeline.core.fasteval import EvalTables, score_rows
from pipeline.core.sevens import first_bad_seven, score_seven_rows, score_sevens
from pipeline.errors import ArtifactError, InputError
from pipeline.query.artifacts import map_eval_tables
from pipeline.query.seven_cards import SevenCards
from pipeline.query.tables import Tables

#: Seven-card hands per category (Wikipedia, "Poker probability", 7-card table): high card
#: through straight flush (royal flushes included).
SEVEN_CATEGORY_COUNTS = (23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020,
                         4_047_644, 3_473_184, 224_848, 41_584)


@pytest.fixture(scope="module")
def ev() -> EvalTables:
    return eval_tables()


def _sevens(hands: np.ndarray, ev: EvalTables) -> np.ndarray:
    out = np.zeros(len(hands), np.uint16)
    score_sevens(np.ascontiguousarray(hands, np.uint8).reshape(-1), ev, out)
    return out


def test_random_hands_equal_generic_kernel_and_seven_h5(ev: EvalTables, tables: Tables) -> None:
    """3,000,000 random hands in random card order (serial and parallel batch sizes): the 7-card
    kernel equals the generic row kernel and seven.h5."""
    hands = random_hands(np.random.default_rng(1901), 3_000_000, 7).astype(np.uint8)
    got = _sevens(hands, ev)
    generic = np.empty(len(hands), np.uint16)
    assert score_rows(hands, ev, generic) == 0
    assert np.array_equal(got, generic)
    assert np.array_equal(got, tables.table(7)[colex(hands)])
    small = _sevens(hands[:1000], ev)          # below SERIAL_MAX: the serial path
    assert np.array_equal(small, got[:1000])


def test_kernels_equal_the_generic_kernel_without_artifacts(ev: EvalTables) -> None:
    """No built tables needed (so the bounds-checked tier runs it): 100,000 random hands and
    every 7-card one-suit hand of ranks 2..9 (all flushes, in blocks where most rows are
    flushes), through the unchecked and the checked kernel, serial and parallel sizes."""
    hands = random_hands(np.random.default_rng(1907), 100_000, 7).astype(np.uint8)
    flushes = np.array([[4 * r + s for r in ranks] for s in range(4)
                        for ranks in combinations(range(8), 7)], np.uint8)
    for rows in (hands, flushes, np.concatenate([flushes, hands[:50_000], flushes])):
        generic = np.empty(len(rows), np.uint16)
        assert score_rows(rows, ev, generic) == 0
        assert np.array_equal(_sevens(rows, ev), generic)
        for by_vector in (True, False):  # 8 rows per vector proof, and one row at a time
            checked = np.empty(len(rows), np.uint16)
            assert score_seven_rows(rows, ev, checked, by_vector) == -1
            assert np.array_equal(checked, generic)


def test_every_flush_shape(ev: EvalTables, tables: Tables) -> None:
    """Every hand with 5, 6 or 7 cards of one suit drawn from ranks 2..9 and A (wheel and
    straight flushes included), in each suit and rotated card order."""
    rows = []
    low = [0, 1, 2, 3, 4, 5, 6, 7, 12]  # 2..9 and the ace
    for suit in range(4):
        other = [(suit + 1) % 4, (suit + 2) % 4]
        for n in (5, 6, 7):
            for ranks in combinations(low, n):
                cards = [4 * r + suit for r in ranks]
                fill = [4 * r + other[i % 2] for i, r in enumerate((10, 11)[: 7 - n])]
                row = cards + fill
                rows.append(row[suit % 7:] + row[: suit % 7])
    hands = np.array(rows, np.uint8)
    assert np.array_equal(_sevens(hands, ev), tables.table(7)[colex(hands)])


def test_named_edge_hands(ev: EvalTables, tables: Tables) -> None:
    """Royal flush, steel wheel, quads beside a flush draw, a 9-high hand, four deuces."""
    texts = ["As Ks Qs Js Ts 2c 3d", "Ac Kc Qc Jc Tc 9c 8c", "2d 3d 4d 5d Ad Ah As",
             "Ah Ad Ac As Kh Qh Jh", "7c 5d 4h 3s 2c 9d 8h", "2c 2d 2h 2s As Ah Ad"]
    hands = np.array([parse_cards(t) for t in texts], np.uint8)
    want = [tables.score7(t) for t in texts]
    assert _sevens(hands, ev).tolist() == want
    # 9-8-7-5-4 high: 48 high-card hands rank below it (4 seven-high, 14 eight-high, 30 nine-high)
    assert want[0] == 7462 and want[4] == 49 and want[3] == tables.score7("Ah Ad Ac As Kh 2c 3d")


def test_validation_pass_names_the_first_bad_row(ev: EvalTables) -> None:
    """Duplicates, ids 52..63 and ids 64+ (which ``1 << c`` would wrap) are all caught."""
    good = random_hands(np.random.default_rng(1902), 50, 7).astype(np.uint8)
    assert first_bad_seven(good.reshape(-1)) == -1
    for bad_row, bad in ((7, [0, 0, 1, 2, 3, 4, 5]), (3, [52, 1, 2, 3, 4, 5, 6]),
                         (0, [64, 1, 2, 3, 4, 5, 6]), (49, [255, 1, 2, 3, 4, 5, 6]),
                         (20, [51, 50, 49, 48, 47, 46, 51])):
        h = good.copy()
        h[bad_row] = bad
        assert first_bad_seven(h.reshape(-1)) == bad_row
        assert score_seven_rows(h, ev, np.empty(len(h), np.uint16)) == bad_row
    wide = good.astype(np.int64)
    wide[11, 3] = -1
    assert score_seven_rows(wide, ev, np.empty(len(wide), np.uint16)) == 11
    wide[11, 3] = 300  # would pass as 44 if narrowed to uint8 unchecked
    assert score_seven_rows(wide, ev, np.empty(len(wide), np.uint16)) == 11
    with pytest.raises(ValueError, match="349 card ids do not make 50 rows of 7"):
        score_sevens(good.reshape(-1)[:-1], ev, np.empty(50, np.uint16))


def test_checked_kernel_names_the_first_bad_row_in_any_chunk(ev: EvalTables) -> None:
    """The checked kernel on a batch above SERIAL_MAX (parallel chunks): a bad row in a later
    chunk, a repeated card inside a flush (a row that would also wait as a flush), and a byte
    of 255 are each found and named; every row before it scores like the generic kernel."""
    from pipeline.core.fasteval import CHUNK, SERIAL_MAX

    hands = random_hands(np.random.default_rng(1908), SERIAL_MAX + 3 * CHUNK + 17, 7).astype(np.uint8)
    want = np.empty(len(hands), np.uint16)
    assert score_rows(hands, ev, want) == 0
    got = np.empty(len(hands), np.uint16)
    assert score_seven_rows(hands, ev, got) == -1 and np.array_equal(got, want)
    flush_dup = [4 * r for r in (0, 2, 4, 6, 8)] + [0, 1]  # 2c 4c 6c 8c Tc 2c 2d
    for bad_row, bad in ((len(hands) - 1, [255, 1, 2, 3, 4, 5, 6]), (SERIAL_MAX + CHUNK + 5, flush_dup),
                         (CHUNK - 1, [9, 9, 9, 9, 9, 9, 9])):
        h = hands.copy()
        h[bad_row] = bad
        for by_vector in (True, False):
            out = np.empty(len(h), np.uint16)
            assert score_seven_rows(h, ev, out, by_vector) == bad_row
            assert np.array_equal(out[:bad_row], want[:bad_row])


def test_vector_proof_finds_every_bad_shape_in_every_row_of_a_group(ev: EvalTables) -> None:
    """The checked kernel proves 8 rows per 64-byte vector: a repeated card at each of a row's 21
    pairs of places, an id of 52 or 255 at each of its 7 places, in every row of a group, the
    first row and a tail row (one whose window would pass the end, proven one at a time), is
    named, and every row before it scores like the generic kernel; the same with the per-row
    proof alone (what CPUs without AVX-512BW run)."""
    from pipeline.core.sevens import PROOF_ROWS

    good = random_hands(np.random.default_rng(1909), 3 * PROOF_ROWS + 3, 7).astype(np.uint8)
    want = np.empty(len(good), np.uint16)
    assert score_rows(good, ev, want) == 0
    shapes = [(a, b) for a, b in combinations(range(7), 2)] + [(j, v) for j in range(7) for v in (52, 255)]
    for row in [0, *range(PROOF_ROWS, 2 * PROOF_ROWS), len(good) - 1]:
        for place, what in shapes:
            h = good.copy()
            if what < 7:                     # a pair of places: the second repeats the first
                h[row, what] = h[row, place]
            else:                            # an id outside the deck
                h[row, place] = what
            for by_vector in (True, False):
                out = np.empty(len(h), np.uint16)
                assert score_seven_rows(h, ev, out, by_vector) == row, (row, place, what, by_vector)
                assert np.array_equal(out[:row], want[:row])


def test_tables_score7_batch(tables: Tables) -> None:
    """Tables.score7 on a batch (uint8 and int64) equals seven.h5; a bad row is named."""
    hands = random_hands(np.random.default_rng(1903), 100_000, 7)
    want = tables.table(7)[colex(hands)]
    assert np.array_equal(tables.score7(hands), want)
    assert np.array_equal(tables.score7(hands.astype(np.uint8)), want)
    hands[99_999, 6] = hands[99_999, 0]
    with pytest.raises(InputError, match="row 99999 is not 7 distinct card ids"):
        tables.score7(hands)


def test_score_table_seven_in_order(tables: Tables) -> None:
    """The in-order enumeration writes seven.h5 exactly and counts the published categories."""
    from pipeline.core.evaluate import build_rank_tables, score_table

    rt = build_rank_tables()
    out = np.empty(len(tables.table(7)), np.uint16)
    hist = score_table(7, rt, out)
    assert np.array_equal(out, tables.table(7))
    assert np.array_equal(score_table(7, rt), hist)
    per_category = np.bincount(rt.class_category[1:], weights=hist[1:], minlength=9).astype(np.int64)
    assert per_category.tolist() == list(SEVEN_CATEGORY_COUNTS)


def test_seven_cards_batch_scores_like_seven_h5(tables: Tables) -> None:
    """A checked SevenCards batch (drawn, or made from int64 rows) scores like seven.h5 through
    Tables.score7's unchecked path, serial and parallel sizes; its rows are uniform draws."""
    drawn = SevenCards.random(200_000, seed=1904)
    assert drawn.ids.shape == (200_000, 7) and drawn.ids.dtype == np.uint8
    assert np.array_equal(tables.score7(drawn), tables.table(7)[colex(drawn.ids)])
    counts = np.bincount(drawn.ids.reshape(-1), minlength=52)  # each card in 7/52 of the rows
    assert counts.min() > 0.97 * 200_000 * 7 / 52 and counts.max() < 1.03 * 200_000 * 7 / 52
    hands = random_hands(np.random.default_rng(1905), 5_000, 7)
    small = SevenCards(hands)
    assert np.array_equal(tables.score7(small), tables.table(7)[colex(hands)])
    assert tables.score7(SevenCards(np.zeros((0, 7), np.uint8))).shape == (0,)


def test_seven_cards_is_checked_once_and_cannot_change() -> None:
    """Every bad row is refused when the batch is made (naming it); the batch holds a read-only
    copy, so neither the caller's array nor the batch can be changed after the check."""
    good = random_hands(np.random.default_rng(1906), 50, 7)
    for bad_row, bad in ((7, [0, 0, 1, 2, 3, 4, 5]), (3, [52, 1, 2, 3, 4, 5, 6]),
                         (0, [300, 1, 2, 3, 4, 5, 6]), (49, [-1, 1, 2, 3, 4, 5, 6])):
        h = good.copy()
        h[bad_row] = bad
        with pytest.raises(InputError, match=f"row {bad_row} is not 7 distinct card ids"):
            SevenCards(h)
    for shape_or_dtype, what in (((50, 6), "shape"), ((50, 7, 1), "shape"), (np.float64, "dtype")):
        arr = good.astype(shape_or_dtype) if shape_or_dtype is np.float64 else np.zeros(shape_or_dtype, int)
        with pytest.raises(InputError, match=what):
            SevenCards(arr)
    src = good.astype(np.uint8)
    batch = SevenCards(src)
    src[0] = [0, 0, 0, 0, 0, 0, 0]
    assert batch.ids[0].tolist() == good[0].tolist()
    with pytest.raises(ValueError):
        batch.ids[0, 0] = 1
    with pytest.raises(ValueError):
        batch.ids.flags.writeable = True


def test_eval_tables_with_a_bad_score_are_refused(tmp_path, artifacts) -> None:  # type: ignore[no-untyped-def]
    """The unchecked scorers return the tables' values as they are: a score above 7462 in
    eval_tables.h5 is refused when the file is opened."""
    import shutil

    import h5py

    bad = tmp_path / "eval_tables.h5"
    shutil.copy(artifacts / "eval_tables.h5", bad)
    assert map_eval_tables(bad).ranks.size
    with h5py.File(bad, "r+") as f:
        f["ranks"][5] = 9999
    with pytest.raises(ArtifactError, match="score above 7462"):
        map_eval_tables(bad)
