"""Stage family ``rules:<name>``: score tables for each non-standard rule set.

reads:   the rule set's TOML (found by name through :mod:`pipeline.registry`)
writes:  rules/<name>/five.h5 (/score uint16[C(n,5)] by colex of deck-local ids; /classes/*),
         rules/<name>/seven.h5 when the rule set has ``seven = true``
config:  [rules] enabled, sets = [...] (default: every known rule set except standard)

The tables of a rule set are one pure task (:func:`tables_task`) on the build's executor; on
Dask the first rule-set stage also starts the sibling rule sets that have no tables yet.
"""

from __future__ import annotations

from collections.abc import Callable

import h5py
import numpy as np

from pipeline.build.config import BuildConfig
from pipeline.build.stages import Context, Stage
from pipeline.build.store import atomic_path
from pipeline.core.cards import CARD_ID_FORMULA, COLEX_FORMULA
from pipeline.registry import rule_set_names, rules_path
from pipeline.rules import CATEGORIES, RuleSet, load_rules
from pipeline.rules.tables import RuleTables, build_five, build_k

#: settings of this stage's config section besides ``enabled``
KEYS: tuple[str, ...] = ("sets",)


def stages(config: BuildConfig) -> list[Stage]:
    """One stage per configured rule set (the standard set is served by five/six/seven)."""
    settings = config.section("rules")
    # a user folder may redefine "standard"; only a set that differs from the top-level tables
    # gets tables of its own (is_standard below)
    names = settings.get("sets") or rule_set_names()
    out = []
    for name in names:
        path = rules_path(name)
        rules = load_rules(path)
        if rules.is_standard:
            continue
        outputs = [f"rules/{rules.name}/five.h5"] + ([f"rules/{rules.name}/seven.h5"] if rules.seven else [])
        out.append(Stage(f"rules:{rules.name}", tuple(outputs), _runner(rules, names),
                         settings={"rule_set": rules.name}, sources=(path,)))
    return out


def _attrs(rules: RuleSet, k: int) -> dict[str, object]:
    return {"k": k, "rule_set": rules.name, "description": rules.description,
            "deck_ranks": rules.ranks, "deck_size": rules.deck_size,
            "local_id": f"local id = card id - {4 * rules.lowest_rank} (card id = 4*rank + suit)",
            "card_ids": CARD_ID_FORMULA, "index_scheme": "colex over deck-local ids",
            "index_formula": COLEX_FORMULA + " (c = deck-local ids)",
            "score_meaning": "uint16 1..classes, higher is better under this rule set "
                             "(for lowball: the better low)"}


def tables_task(rules: RuleSet) -> tuple[RuleTables, np.ndarray | None]:
    """Pure task: a rule set's 5-card tables and (if it has them) its 7-card scores."""
    t = build_five(rules)
    return t, (build_k(rules, t.score5, 7) if rules.seven else None)


def _runner(rules: RuleSet, siblings: list[str]) -> Callable[[Context], None]:
    def run(ctx: Context) -> None:
        if ctx.executor.distributed:
            for name in siblings:
                other = load_rules(rules_path(name))
                if other.name != rules.name and not other.is_standard and \
                        not (ctx.artifacts / f"rules/{other.name}/five.h5").exists():
                    ctx.executor.prefetch(f"rules:{other.name}", tables_task, other)
        ctx.progress(f"scoring {rules.name} hands", 0.1)
        t, seven = ctx.executor.take(f"rules:{rules.name}", tables_task, rules)
        folder = ctx.path(f"rules/{rules.name}")
        counts5 = np.bincount(t.score5, minlength=len(t.names) + 1)[1:]
        with atomic_path(folder / "five.h5") as tmp:
            with h5py.File(tmp, "w") as f:
                f.create_dataset("score", data=t.score5)
                f["score"].attrs.update(_attrs(rules, 5))
                g = f.create_group("classes")
                g["score"] = np.arange(1, len(t.names) + 1, dtype=np.uint16)
                g["category"] = t.category
                g["category"].attrs["names"] = list(CATEGORIES)
                g["ranks"] = t.ranks
                g["suit"] = t.suit
                g["name"] = np.array(t.names, dtype="S")
                g["count5"] = counts5.astype(np.int64)
                if seven is not None:
                    g["count7"] = np.bincount(seven, minlength=len(t.names) + 1)[1:].astype(np.int64)
        if seven is not None:
            with atomic_path(folder / "seven.h5") as tmp:
                with h5py.File(tmp, "w") as f:
                    f.create_dataset("score", data=seven)
                    f["score"].attrs.update(_attrs(rules, 7))
        ctx.progress("done", 1.0)

    return run

