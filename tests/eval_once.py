"""The evaluator's tables (:func:`pipeline.core.fasteval.build_eval_tables`) built once per test
process: three test files check kernels against them and a build costs about two CPU seconds.
The arrays are read-only, so no test can change what another one reads."""

from __future__ import annotations

from functools import cache

from pipeline.core.fasteval import EvalTables, build_eval_tables


@cache
def eval_tables() -> EvalTables:
    """:func:`build_eval_tables`, built on the first call in this process."""
    tables = build_eval_tables()
    assert not any(a.flags.writeable for a in tables)  # shared: must stay as built
    return tables
