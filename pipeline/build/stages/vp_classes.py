"""Stage ``vp_classes``: the suit-canonical video poker deal classes (derived, never typed in).

reads:   nothing (canonicalises every deal under the 24 suit relabellings)
writes:  vp_classes.h5 (/hands uint8[134,459, 5], /weight, /index5; /deck53/* the 150,891
         classes of the 53-card joker deck; /deck54/* those of the 54-card two-joker deck),
         parquet/vp_deal_classes.parquet (52 cards)
config:  [vp_classes]
"""

from __future__ import annotations

import h5py
import numpy as np
import pyarrow as pa

from pipeline.build.config import BuildConfig
from pipeline.build.score_files import cards_text
from pipeline.build.stages import Context, Stage
from pipeline.build.store import atomic_path, write_parquet_atomic
from pipeline.core.cards import CARD_ID_FORMULA, COLEX_FORMULA, RANKS
from pipeline.videopoker.solver.deals import RANK_PATTERNS, DealClasses, deal_classes, rank_pattern

OUTPUTS = ("vp_classes.h5", "parquet/vp_deal_classes.parquet")
#: settings of this stage's config section besides ``enabled``
KEYS: tuple[str, ...] = ()
CANONICAL_RULE = ("representative: suits relabelled so the suits' 13-bit rank masks decrease "
                  "c >= d >= h >= s; weight = number of deals with that representative")


def stages(config: BuildConfig) -> list[Stage]:
    """The single ``vp_classes`` stage."""
    return [Stage("vp_classes", OUTPUTS, run, settings=config.section("vp_classes"))]


def _write_group(g: h5py.Group, cls: DealClasses) -> None:
    g.attrs.update({"classes": len(cls), "deck_size": cls.deck_size,
                    "deals": int(cls.weight.sum()), "canonical_rule": CANONICAL_RULE,
                    "card_ids": CARD_ID_FORMULA + {52: "", 53: "; 52 = joker",
                                                   54: "; 52, 53 = jokers"}[cls.deck_size],
                    "index_scheme": "colex", "index_formula": COLEX_FORMULA})
    g["hands"] = cls.hands
    g["hands"].attrs["meaning"] = "ascending card ids of the class representative"
    g["weight"] = cls.weight.astype(np.uint8)
    g["weight"].attrs["meaning"] = "number of deals in the class (4, 12 or 24; 1..48 with jokers)"
    g["index5"] = cls.index5
    g["index5"].attrs["meaning"] = "colex index of the representative (rows ascend by it)"


def run(ctx: Context) -> None:
    """Derive the classes of both decks; write vp_classes.h5 and the Parquet copy."""
    ctx.progress("canonicalising 2,598,960 deals", 0.1)
    c52 = deal_classes(52)
    ctx.progress("canonicalising 2,869,685 joker-deck deals", 0.4)
    c53 = deal_classes(53)
    c54 = deal_classes(54)
    ctx.progress("writing vp_classes.h5", 0.7)
    with atomic_path(ctx.path("vp_classes.h5")) as tmp:
        with h5py.File(tmp, "w") as f:
            f.attrs["title"] = "suit-canonical video poker deal classes"
            _write_group(f, c52)
            _write_group(f.create_group("deck53"), c53)
            _write_group(f.create_group("deck54"), c54)
    pattern = rank_pattern(c52.hands)
    ranks = c52.hands.astype(np.int64) >> 2
    tbl = pa.table({
        "index5": pa.array(c52.index5),
        "cards": cards_text(c52.hands),
        "ranks": pa.array(["".join(RANKS[r] for r in row[::-1]) for row in ranks]),
        "weight": pa.array(c52.weight.astype(np.uint8)),
        "rank_pattern": pa.DictionaryArray.from_arrays(pa.array(pattern.astype(np.int32)),
                                                       pa.array(list(RANK_PATTERNS))),
    })
    write_parquet_atomic(tbl, ctx.path("parquet/vp_deal_classes.parquet"), compression="zstd")
    ctx.progress("done", 1.0)
