"""Seven-card batch scoring on the cache-resident evaluator (:mod:`pipeline.core.fasteval`).

The generic row kernel (any hand size, a range and distinctness test per row, signed
indices) ran at a quarter of OMPEval's speed on random 7-card hands. The kernels here are
written for exactly seven cards read from a flat ``uint8`` array:

* :func:`score_sevens` trusts its rows (arrays the engine built, or a checked
  :class:`pipeline.query.seven_cards.SevenCards` batch): seven key loads and adds and two hash
  reads per row, no branch; flushes (3 % of random hands) are noted and scored after the block;
* :func:`score_seven_rows` (behind ``Tables.score7`` on plain arrays) proves every row before
  scoring it: eight rows at a time, as 56 bytes in one vector (:data:`eight_rows_bad`: a range
  compare and four byte-rotation compares, one branch per eight rows), then scores them as the
  trusted kernel does (see :func:`_checked_block`).

Both use unsigned indices (the pending count too): with signed ones numba emits a
negative-index wraparound for every read, which cost a third of the loop's speed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numba as nb
import numpy as np
from llvmlite import ir
from llvmlite.binding import get_host_cpu_features
from numba import types
from numba.core.base import BaseContext
from numba.core.typing.templates import Signature
from numba.extending import intrinsic

from pipeline.core.bits import ctpop64
from pipeline.core.constants import DECK_SIZE, N_SUITS, SEVEN
from pipeline.core.fasteval import (
    CHUNK,
    FLUSH_CHECK,
    FLUSH_TABLE_SIZE,
    HASH_SHIFT,
    RANK_KEY_MASK,
    SERIAL_MAX,
    SUIT_BIAS,
    SUIT_SHIFT,
    EvalTables,
)

#: A bit outside the deck: the validation shifts ids of 52 or more no further than this.
OUTSIDE_BIT = 63
#: The 52 card bits of a card mask.
DECK_MASK = (1 << DECK_SIZE) - 1
#: Values of a uint8 card id: the per-card tables cover them all, so no byte reads out of bounds.
BYTE_VALUES = 256
#: Width of one suit's lane in a lane mask: card ``4 * rank + suit`` is bit ``16 * suit + rank``,
#: so one shift and mask give the flush suit's 13-bit rank mask (the flush table's index).
LANE_BITS = 16
#: The 13 rank bits of a lane (a flush table index).
LANE_MASK = FLUSH_TABLE_SIZE - 1


def byte_lanes() -> np.ndarray:
    """Every byte value's lane bit (``1 << (16 * suit + rank)`` for ids 0..51, 0 above)."""
    lanes = np.zeros(BYTE_VALUES, np.uint64)
    c = np.arange(DECK_SIZE, dtype=np.uint64)
    lanes[:DECK_SIZE] = np.uint64(1) << (np.uint64(LANE_BITS) * (c % np.uint64(N_SUITS))
                                         + c // np.uint64(N_SUITS))
    return lanes


@nb.njit(cache=True, nogil=True, inline="always")
def _row_sum(flat: np.ndarray, b: np.uint64, table: np.ndarray) -> np.uint64:
    """Sum of ``table`` over the 7 card ids at ``flat[b:b + 7]``, added as a tree."""
    t = table
    return (((t[flat[b]] + t[flat[b + np.uint64(1)]]) + (t[flat[b + np.uint64(2)]] + t[flat[b + np.uint64(3)]]))
            + ((t[flat[b + np.uint64(4)]] + t[flat[b + np.uint64(5)]]) + t[flat[b + np.uint64(6)]]))


@nb.njit(cache=True, nogil=True, inline="always")
def _flush_score(key: np.uint64, lanes: np.uint64, flush: np.ndarray) -> int:
    """Score of a hand whose key shows a flush, from its lane mask: the flush suit's lane."""
    f = ((key + np.uint64(SUIT_BIAS)) & np.uint64(FLUSH_CHECK)) >> np.uint64(SUIT_SHIFT + 3)
    suit = np.uint64(f > 1) + np.uint64(f > 16) + np.uint64(f > 256)  # counters 1, 16, 256, 4096
    return int(flush[(lanes >> (np.uint64(LANE_BITS) * suit)) & np.uint64(LANE_MASK)])


@nb.njit(cache=True, nogil=True)
def _sevens_block(flat: np.ndarray, lo: int, hi: int, card_keys: np.ndarray, offsets: np.ndarray,
                  ranks: np.ndarray, flush: np.ndarray, lanes: np.ndarray, out: np.ndarray,
                  pending: np.ndarray) -> None:
    """Score rows ``lo:hi`` (at most ``len(pending)``) of a flat uint8 array of valid 7-card rows.

    No checks and no branch in the loop: every row takes the non-flush lookup (in bounds for
    any 7 valid cards) and is appended to ``pending`` by advancing its count only when the
    key shows a flush; those rows are then rescored from their lane masks. Measured on random
    hands against a branch per row: 455 vs 405 M rows/s; an unsigned pending count (no
    wraparound code for ``pending[n]``) added about 5 % (AMD EPYC: 331 vs 314 M rows/s, CPU time).
    """
    n_pending = np.uint64(0)
    for i in range(np.uint64(lo), np.uint64(hi)):
        key = _row_sum(flat, np.uint64(SEVEN) * i, card_keys)
        rk = key & np.uint64(RANK_KEY_MASK)
        out[i] = ranks[rk + np.uint64(np.int64(offsets[rk >> np.uint64(HASH_SHIFT)]))]
        pending[n_pending] = i
        n_pending += np.uint64(((key + np.uint64(SUIT_BIAS)) & np.uint64(FLUSH_CHECK)) != 0)
    for k in range(n_pending):
        i = pending[k]
        b = np.uint64(SEVEN) * i
        out[i] = _flush_score(_row_sum(flat, b, card_keys), _row_sum(flat, b, lanes), flush)


@nb.njit(cache=True, nogil=True)
def _sevens_range(flat: np.ndarray, lo: int, hi: int, card_keys: np.ndarray, offsets: np.ndarray,
                  ranks: np.ndarray, flush: np.ndarray, lanes: np.ndarray, out: np.ndarray) -> None:
    """Rows ``lo:hi`` in blocks of :data:`CHUNK` sharing one pending list."""
    pending = np.empty(CHUNK, np.uint64)
    for s in range(lo, hi, CHUNK):
        _sevens_block(flat, s, min(hi, s + CHUNK), card_keys, offsets, ranks, flush, lanes, out, pending)


@nb.njit(cache=True, parallel=True, nogil=True)
def _sevens_parallel(flat: np.ndarray, card_keys: np.ndarray, offsets: np.ndarray, ranks: np.ndarray,
                     flush: np.ndarray, lanes: np.ndarray, out: np.ndarray, rows: int) -> None:
    """Rows in parallel tasks of ``rows`` rows (a multiple of :data:`CHUNK`, see
    :func:`task_rows`)."""
    n = out.shape[0]
    for t in nb.prange((n + rows - 1) // rows):
        lo = t * rows
        _sevens_range(flat, lo, min(n, lo + rows), card_keys, offsets, ranks, flush, lanes, out)


#: Parallel tasks per thread of the batch kernels: each task is a run of whole blocks with one
#: pending list (a task per block, 4,096 rows, cost 3-5 % on two threads: its own list and call).
TASKS_PER_THREAD = 4


def task_rows(n: int) -> int:
    """Rows per parallel task for ``n`` rows: :data:`TASKS_PER_THREAD` tasks per numba thread
    (numba splits a prange evenly between its threads), each a run of whole blocks. Computed
    here, not in the kernel: ``get_num_threads`` there would make it uncacheable."""
    blocks = (n + CHUNK - 1) // CHUNK
    tasks = max(1, min(blocks, TASKS_PER_THREAD * nb.get_num_threads()))
    return (blocks + tasks - 1) // tasks * CHUNK


@nb.njit(cache=True, nogil=True)
def _bad_sevens(flat: np.ndarray, lo: int, hi: int) -> int:
    """How many of rows ``lo:hi`` are not 7 distinct ids 0..51.

    Written without an early exit and with ``min(c, 63)`` as the shift (an id of 52 or more then
    sets a bit outside the deck mask; ``1 << c`` for c >= 64 would be undefined) so LLVM
    vectorizes it: about 1.6x the scoring loop's speed (it finds the bad row after a failed
    checked scoring).
    """
    bad = 0
    for i in range(np.uint64(lo), np.uint64(hi)):
        b = np.uint64(SEVEN) * i
        m = np.int64(0)
        for j in range(SEVEN):
            m |= np.int64(1) << min(np.int64(flat[b + np.uint64(j)]), OUTSIDE_BIT)
        bad += np.int64(ctpop64(m & DECK_MASK) != SEVEN)
    return bad


@nb.njit(cache=True, nogil=True)
def first_bad_seven(flat: np.ndarray) -> int:
    """Index of the first row of a flat uint8 array of 7-card rows that is not 7 distinct ids
    0..51, or -1."""
    n = flat.shape[0] // SEVEN
    if _bad_sevens(flat, np.int64(0), n) == 0:  # not a literal 0: one specialization
        return -1
    for i in range(n):
        if _bad_sevens(flat, i, i + 1):
            return i
    return -1


#: What an intrinsic's typing returns: its signature and the code generator for it.
Typing = tuple[Signature, Callable[[BaseContext, ir.IRBuilder, Signature, Sequence[ir.Value]], ir.Value]]

#: Columns of the checked kernel's byte table: a byte's card key, then its lane bit.
KEY_LANE_COLUMNS = 2


def _key_lane_sum(typingctx: object, table: types.Type, flat: types.Type, b: types.Type) -> Typing | None:
    if not (isinstance(table, types.Array) and table.dtype == types.uint64 and table.ndim == 2
            and table.layout == "C" and isinstance(flat, types.Array) and flat.dtype == types.uint8
            and flat.ndim == 1 and flat.layout == "C" and b == types.uint64):
        return None
    sig = types.UniTuple(types.uint64, 2)(table, flat, b)

    def codegen(context: BaseContext, builder: ir.IRBuilder, signature: Signature,
                args: Sequence[ir.Value]) -> ir.Value:
        tab = context.make_array(signature.args[0])(context, builder, args[0])
        ids = context.make_array(signature.args[1])(context, builder, args[1])
        pair = ir.VectorType(ir.IntType(64), KEY_LANE_COLUMNS)
        rows = builder.bitcast(tab.data, pair.as_pointer())
        acc = None
        for j in range(SEVEN):
            at = builder.add(args[2], ir.Constant(ir.IntType(64), j))
            c = builder.zext(builder.load(builder.gep(ids.data, [at])), ir.IntType(64))
            # a byte reads one of the table's 256 rows (the kernel checks the table has them)
            row = builder.load(builder.gep(rows, [c]), align=8)
            acc = row if acc is None else builder.add(acc, row)
        key = builder.extract_element(acc, ir.Constant(ir.IntType(32), 0))
        lanes = builder.extract_element(acc, ir.Constant(ir.IntType(32), 1))
        return context.make_tuple(builder, signature.return_type, [key, lanes])

    return sig, codegen


#: ``(sum of table[c, 0], sum of table[c, 1])`` over the 7 card bytes ``c`` at ``flat[b:b + 7]``,
#: each table row read and added as one 16-byte vector. Numba's own code reads and adds the two
#: columns apart (7 more loads and adds per hand: 265 against 296 M rows/s in the kernel below),
#: and reading the bytes in numba code first measured 5-7 % slower. It reads without bounds
#: checks: its caller checks that the rows it passes lie in ``flat``. Usable only inside numba
#: code (typed ``Any``: the wrapper's own signature starts with typingctx).
key_lane_sum: Any = intrinsic(_key_lane_sum)


def _vector_proof_pays() -> bool:
    """Whether the CPU numba compiles for has AVX-512BW (byte compares into mask registers),
    where the vector proof measured faster; compiled for AVX2 it takes more instructions than
    the per-row proof (see :data:`eight_rows_bad`). A target named by NUMBA_CPU_NAME (a portable
    cache) counts only with the features it is given."""
    # numba.config sets these from the environment when it loads (mypy cannot see them)
    if getattr(nb.config, "CPU_NAME", None):
        return "+avx512bw" in (getattr(nb.config, "CPU_FEATURES", None) or "")
    return bool(get_host_cpu_features().get("avx512bw", False))


#: Prove plain rows 8 per vector (:func:`score_seven_rows`'s default): on CPUs with AVX-512BW.
VECTOR_PROOF = _vector_proof_pays()
#: Rows proven per vector: 8 rows of 7 bytes, 56 bytes of one 64-byte load.
PROOF_ROWS = 8
#: Bytes the proof loads per group (8 past its 56: the window must lie inside the ids).
PROOF_BYTES = 64
#: How far a group's window reaches past its own rows.
PROOF_OVERRUN = PROOF_BYTES - SEVEN * PROOF_ROWS
#: The byte each row is padded with to 8 bytes: above every limit of the range test and equal
#: to no valid id, so the duplicate test finds it equal only to a byte that is bad anyway.
PAD_BYTE = 0xFF
#: Byte-rotations of a padded row (by 1..4 bytes) that put every pair of its 8 bytes side by side.
PAIR_ROTATIONS = 4


def _eight_rows_bad(typingctx: object, flat: types.Type, b: types.Type) -> Typing | None:
    if not (isinstance(flat, types.Array) and flat.dtype == types.uint8 and flat.ndim == 1
            and flat.layout == "C" and b == types.uint64):
        return None
    sig = types.uint64(flat, b)

    def codegen(context: BaseContext, builder: ir.IRBuilder, signature: Signature,
                args: Sequence[ir.Value]) -> ir.Value:
        ids = context.make_array(signature.args[0])(context, builder, args[0])
        i64 = ir.IntType(64)
        v8 = ir.VectorType(ir.IntType(8), PROOF_BYTES)
        q8 = ir.VectorType(i64, PROOF_ROWS)
        # 64 bytes from flat[b]: the caller checks they lie in flat; the last 8 are not used
        x = builder.load(builder.bitcast(builder.gep(ids.data, [args[1]]), v8.as_pointer()), align=1)
        pad = ir.Constant(v8, [PAD_BYTE] * PROOF_BYTES)
        # row r's 7 bytes to bytes 8r..8r+6 (one uint64 lane per row), byte 8r+7 the pad
        order = [7 * r + j if j < SEVEN else PROOF_BYTES for r in range(PROOF_ROWS) for j in range(8)]
        y = builder.shuffle_vector(x, pad, ir.Constant(ir.VectorType(ir.IntType(32), PROOF_BYTES), order))
        # an id above 51 (the pad is above no limit) ...
        limit = ir.Constant(v8, ([DECK_SIZE - 1] * SEVEN + [PAD_BYTE]) * PROOF_ROWS)
        bad = builder.icmp_unsigned(">", y, limit)
        # ... or two equal bytes in a row: rotating each lane by 1..4 bytes meets every pair
        lanes = builder.bitcast(y, q8)
        for k in range(1, PAIR_ROTATIONS + 1):
            left = builder.shl(lanes, ir.Constant(q8, [8 * k] * PROOF_ROWS))
            right = builder.lshr(lanes, ir.Constant(q8, [64 - 8 * k] * PROOF_ROWS))
            rot = builder.bitcast(builder.or_(left, right), v8)
            bad = builder.or_(bad, builder.icmp_unsigned("==", y, rot))
        return builder.bitcast(bad, i64)

    return sig, codegen


#: Nonzero when one of the 8 rows at ``flat[b:b + 56]`` is not 7 distinct ids 0..51 (one bit per
#: bad byte), from one 64-byte load. LLVM's generic vector code: on AVX-512 with VBMI (Zen 4)
#: one byte permute, one range compare and four rotate-and-compares, about 20 instructions for
#: 8 rows; the same code compiled for Cascade Lake (no VBMI) about 24, for AVX2 (Haswell) about
#: 48 (vs about 32 for the per-row popcount proof). It reads without bounds checks: its
#: caller checks that ``flat[b:b + 64]`` lies in ``flat``. Usable only inside numba code.
eight_rows_bad: Any = intrinsic(_eight_rows_bad)


@nb.njit(cache=True, nogil=True)
def _checked_block(flat: np.ndarray, lo: int, hi: int, card_keys: np.ndarray, key_lanes: np.ndarray,
                   offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray, out: np.ndarray,
                   pending: np.ndarray, by_vector: bool) -> int:
    """Score rows ``lo:hi`` (at most ``len(pending)``) of a flat uint8 array, proving each;
    returns the number of bad rows (their ``out`` is left unset).

    With ``by_vector``, rows go in groups of :data:`PROOF_ROWS`: :data:`eight_rows_bad` proves
    a group (one branch, which valid input always takes the same way), then it is scored as
    :func:`_sevens_block` scores (flushes to ``pending``, scored after the block). From the
    first group with a bad row on, for the rows whose 64-byte window would pass the end of
    ``flat``, and for every row without ``by_vector``, rows go one at a time:
    ``key_lanes[byte]`` is (card key, lane bit) for ids 0..51 and (0, 0) above, read as one
    vector per card (:data:`key_lane_sum`); the lane bits are *added*, so a repeated card
    carries into another bit and a byte of 52+ adds nothing: a row is 7 distinct cards exactly
    when the sum has 7 bits set, and the sum is also a flush's rank lanes.
    ``card_keys`` has a row per byte value too (0 above 51). Random hands, AMD EPYC (Zen 4),
    one thread, CPU time, OMPEval's loop in the same run: 321 against 309 M rows/s, where the
    per-row popcount proof for every row ran at 296.
    """
    # what makes the unchecked vector reads safe: every row lies in flat, every byte value has
    # a table row, and each proof's 64-byte window is checked against flat's end below
    if not 0 <= lo <= hi or SEVEN * hi > flat.shape[0]:
        raise ValueError("rows outside the card ids")
    if (key_lanes.shape[0] != BYTE_VALUES or key_lanes.shape[1] != KEY_LANE_COLUMNS
            or card_keys.shape[0] != BYTE_VALUES):
        raise ValueError("key_lanes and card_keys must have a row per byte value")
    n_pending = np.uint64(0)
    group = np.uint64(PROOF_ROWS)
    ends = np.uint64(lo) + (np.uint64(hi - lo) // group * group if by_vector else np.uint64(0))
    # the last group's window ends PROOF_OVERRUN bytes past its rows
    while ends > np.uint64(lo) and np.uint64(SEVEN) * ends + np.uint64(PROOF_OVERRUN) > np.uint64(flat.shape[0]):
        ends -= group
    g = np.uint64(lo)
    while g < ends:
        # no call in this loop: the vector constants stay in registers
        if eight_rows_bad(flat, np.uint64(SEVEN) * g) != 0:
            break
        for i in range(g, g + group):
            key = _row_sum(flat, np.uint64(SEVEN) * i, card_keys)
            rk = key & np.uint64(RANK_KEY_MASK)
            out[i] = ranks[rk + np.uint64(np.int64(offsets[rk >> np.uint64(HASH_SHIFT)]))]
            pending[n_pending] = i
            n_pending += np.uint64(((key + np.uint64(SUIT_BIAS)) & np.uint64(FLUSH_CHECK)) != 0)
        g += group
    bad = 0
    for i in range(g, np.uint64(hi)):
        key, m = key_lane_sum(key_lanes, flat, np.uint64(SEVEN) * i)
        if ctpop64(np.int64(m)) != SEVEN:
            bad += 1
            continue
        rk = key & np.uint64(RANK_KEY_MASK)
        out[i] = ranks[rk + np.uint64(np.int64(offsets[rk >> np.uint64(HASH_SHIFT)]))]
        pending[n_pending] = i
        n_pending += np.uint64(((key + np.uint64(SUIT_BIAS)) & np.uint64(FLUSH_CHECK)) != 0)
    for k in range(n_pending):
        i = pending[k]
        key, m = key_lane_sum(key_lanes, flat, np.uint64(SEVEN) * i)
        out[i] = _flush_score(key, m, flush)
    return bad


@nb.njit(cache=True, nogil=True)
def _checked_range(flat: np.ndarray, lo: int, hi: int, card_keys: np.ndarray, key_lanes: np.ndarray,
                   offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray, out: np.ndarray,
                   by_vector: bool) -> int:
    """Rows ``lo:hi`` in blocks of :data:`CHUNK` sharing one pending list; the bad rows."""
    pending = np.empty(CHUNK, np.uint64)
    bad = 0
    for s in range(lo, hi, CHUNK):
        bad += _checked_block(flat, s, min(hi, s + CHUNK), card_keys, key_lanes, offsets, ranks,
                              flush, out, pending, by_vector)
    return bad


@nb.njit(cache=True, parallel=True, nogil=True)
def _checked_parallel(flat: np.ndarray, card_keys: np.ndarray, key_lanes: np.ndarray,
                      offsets: np.ndarray, ranks: np.ndarray, flush: np.ndarray, out: np.ndarray,
                      by_vector: bool, rows: int) -> int:
    """Rows in parallel tasks of ``rows`` rows (a multiple of :data:`CHUNK`, see
    :func:`task_rows`); the bad rows."""
    n = out.shape[0]
    bad = 0
    for t in nb.prange((n + rows - 1) // rows):
        lo = t * rows
        bad += _checked_range(flat, lo, min(n, lo + rows), card_keys, key_lanes, offsets, ranks,
                              flush, out, by_vector)
    return bad


def _key_lanes(card_keys: np.ndarray) -> np.ndarray:
    """(card key, lane bit) for every byte value ((0, 0) beyond the deck), 4 kB."""
    table = np.zeros((BYTE_VALUES, KEY_LANE_COLUMNS), np.uint64)
    table[:DECK_SIZE, 0] = card_keys
    table[:, 1] = byte_lanes()
    return table


#: :func:`byte_lanes`, computed once (read-only).
BYTE_LANES = byte_lanes()
BYTE_LANES.flags.writeable = False


def _check_sizes(flat: np.ndarray, out: np.ndarray) -> None:
    """The kernels index ``flat`` by ``out``'s length: they must agree."""
    if flat.shape[0] != SEVEN * out.shape[0]:
        raise ValueError(f"{flat.shape[0]} card ids do not make {out.shape[0]} rows of {SEVEN}")


def score_sevens(flat: np.ndarray, tables: EvalTables, out: np.ndarray) -> None:
    """``out[i]`` = score of the 7 card ids ``flat[7 * i:7 * i + 7]`` (C-contiguous uint8, any
    card order), for rows already known to be 7 distinct ids 0..51 (check user input with
    :func:`first_bad_seven` first; arrays the engine built need no check).

    About 3x the generic :func:`pipeline.core.fasteval.score_rows` on random hands: no per-row
    check, no branch, unsigned indices (see :func:`_sevens_block`). Batches above
    :data:`SERIAL_MAX` rows run in parallel tasks of whole :data:`CHUNK`-row blocks
    (:func:`task_rows`).
    """
    _check_sizes(flat, out)
    if out.shape[0] <= SERIAL_MAX:
        _sevens_range(flat, 0, out.shape[0], *tables, BYTE_LANES, out)
    else:
        _sevens_parallel(flat, *tables, BYTE_LANES, out, task_rows(out.shape[0]))


def card_bytes(cards: np.ndarray) -> tuple[np.ndarray, int]:
    """``(cards as uint8, -1)``, or ``(cards, i)`` for the first row ``i`` holding an id outside
    0..51. uint8 input is returned as it is; wider integers are range-checked before they are
    narrowed (300 would become a valid-looking 44)."""
    if cards.dtype == np.uint8:
        return cards, -1
    if cards.size and (cards.min() < 0 or cards.max() >= DECK_SIZE):
        return cards, int(np.flatnonzero(((cards < 0) | (cards >= DECK_SIZE)).any(axis=1))[0])
    return cards.astype(np.uint8), -1


def score_seven_rows(cards: np.ndarray, tables: EvalTables, out: np.ndarray,
                     by_vector: bool | None = None) -> int:
    """``out[i]`` = score of row ``i`` of an integer (N, 7) id array (cards in any order);
    returns the first row that is not 7 distinct ids 0..51 (``out`` is then incomplete), or -1.

    The proof rides in the scoring loop (:func:`_checked_block`): 8 rows per vector when
    ``by_vector`` (default :data:`VECTOR_PROOF`), else one row at a time. uint8 rows are read in
    place, other integer types are range-checked and narrowed to uint8 first.
    """
    arr, bad_row = card_bytes(cards)
    if bad_row >= 0:
        return bad_row
    flat = np.ascontiguousarray(arr).reshape(-1)
    _check_sizes(flat, out)
    key_lanes = _key_lanes(tables.card_keys)
    card_keys = np.ascontiguousarray(key_lanes[:, 0])
    vector = VECTOR_PROOF if by_vector is None else bool(by_vector)
    n = out.shape[0]
    if n <= SERIAL_MAX:
        bad = _checked_range(flat, 0, n, card_keys, key_lanes, *tables[1:], out, vector)
    else:
        bad = _checked_parallel(flat, card_keys, key_lanes, *tables[1:], out, vector, task_rows(n))
    return int(first_bad_seven(flat)) if bad else -1


__all__ = ["card_bytes", "first_bad_seven", "score_seven_rows", "score_sevens"]
