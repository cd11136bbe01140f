"""Stage ``eval_tables``: the cache-resident evaluator's small tables (about 350 kB).

reads:   nothing (the tables derive from the rank-multiset evaluator, like five/six/seven.h5)
writes:  eval_tables.h5 (/card_keys uint64[52], /offsets int32[rows], /ranks uint16[n],
         /flush uint16[8192]; contiguous, uncompressed, so they can be memory-mapped)
config:  [eval_tables]
"""

from __future__ import annotations

from typing import Any

import h5py
import numpy as np

from pipeline.build.config import BuildConfig
from pipeline.build.stages import Context, Stage
from pipeline.build.store import atomic_path
from pipeline.core import fasteval
from pipeline.core.fasteval import build_eval_tables

OUTPUT = "eval_tables.h5"
CODE = ("pipeline.core.fasteval", "pipeline.core.evaluate", "pipeline.core.cards",
        "pipeline.core.combos", "pipeline.core.constants", "pipeline.build.stages.eval_tables")


def stages(config: BuildConfig) -> list[Stage]:
    """The single ``eval_tables`` stage."""
    return [Stage("eval_tables", (OUTPUT,), run, settings=config.section("eval_tables"), code=CODE)]


def run(ctx: Context) -> dict[str, Any]:
    """Compute the tables and write eval_tables.h5."""
    ctx.progress("rank keys, perfect hash, flush table", 0.1)
    t = build_eval_tables()
    with atomic_path(ctx.path(OUTPUT)) as tmp:
        with h5py.File(tmp, "w", track_order=True) as f:
            f.attrs["title"] = "cache-resident hand evaluator tables (pipeline.core.fasteval)"
            f.attrs["score"] = "uint16 1..7462, higher is stronger (same scores as five/six/seven.h5)"
            f.attrs["hand_key"] = ("key = sum of card_keys[c] over the hand's 5..7 cards; "
                                   "mask = OR of (1 << c); cards in any order")
            f.attrs["card_key"] = (f"card_keys[c] = rank_keys[c >> 2] + (1 << ({fasteval.SUIT_SHIFT} "
                                   "+ 4 * (c & 3))): rank key below bit 32, 4-bit suit counters above")
            f.attrs["rank_keys"] = np.asarray(fasteval.RANK_KEYS, np.int64)
            f.attrs["flush_test"] = (f"flush iff (key + {fasteval.SUIT_BIAS:#x}) & "
                                     f"{fasteval.FLUSH_CHECK:#x} != 0; the set bit's counter is the suit")
            f.attrs["flush_lookup"] = ("score = flush[m], m = the 13-bit rank mask of the flush suit "
                                       "(bit r set if the hand holds rank r in that suit)")
            f.attrs["nonflush_lookup"] = (f"k = key & {fasteval.RANK_KEY_MASK:#x}; score = "
                                          f"ranks[k + offsets[k >> {fasteval.HASH_SHIFT}]]")
            f.attrs["hash_shift"] = fasteval.HASH_SHIFT
            for name in t._fields:
                f.create_dataset(name, data=np.ascontiguousarray(getattr(t, name)))
    return {"ranks": int(t.ranks.shape[0]), "offsets": int(t.offsets.shape[0]),
            "bytes": int(sum(a.nbytes for a in t))}
