"""Wild cards have one definition (``pipeline.videopoker.wild``), and every kernel agrees with it:
the second joker of a two-joker deck is as wild as the first (issue 20, item 1). The last test
re-runs the kernel tests that need no artifacts with numba's bounds checks on, so an
out-of-bounds read or write fails a test instead of silently corrupting memory."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pipeline.videopoker.catalog import load_named
from pipeline.videopoker.classify import classify_deals
from pipeline.videopoker.patterns import game_traits, hold_codes
from pipeline.videopoker.wild import JOKER, WILD_CODE, is_wild

ROOT = Path(__file__).resolve().parent.parent
#: set in the bounds-checked child run so it does not start another one
CHILD = "POKERTABLES_BOUNDSCHECK_CHILD"
#: kernel tests on small inputs (no artifacts needed) that the bounds-checked tier re-runs
BOUNDSCHECKED = (
    "tests/test_wild.py",
    "tests/test_vp_charts.py::test_ruin_recursion_equals_the_plain_per_bankroll_loop",
    "tests/test_vp_charts.py::test_long_run_ruin_with_fractional_pays_is_bracketed_not_certain",
    "tests/test_fasteval.py",
)


def test_every_card_id_is_wild_as_the_rules_say() -> None:
    joker, deuces, none = WILD_CODE["joker"], WILD_CODE["deuces"], WILD_CODE["none"]
    for c in range(JOKER + 2):
        assert is_wild(c, joker) == (c >= JOKER)
        assert is_wild(c, deuces) == (c < JOKER and c // 4 == 0)
        assert not is_wild(c, none)


def test_second_joker_plays_like_the_first_in_pay_and_hold_patterns() -> None:
    """Swapping joker 52 for joker 53 changes no pay category and no hold's pattern."""
    pt = load_named("double-joker-full-pay")
    traits = game_traits(pt)
    rng = np.random.default_rng(20)
    rows = []
    while len(rows) < 400:
        naturals = np.sort(rng.choice(JOKER, 4, replace=False))
        rows.append([*naturals, JOKER])
    first = np.array(rows, np.uint8)
    second = first.copy()
    second[:, 4] = JOKER + 1
    cat1, cat2 = classify_deals(pt, first), classify_deals(pt, second)
    assert np.array_equal(cat1, cat2)
    assert np.array_equal(hold_codes(first, cat1, traits), hold_codes(second, cat2, traits))
    both = first.copy()
    both[:, 3] = JOKER
    both[:, 4] = JOKER + 1
    both = np.sort(both, axis=1)
    # two jokers and three naturals: at least three of a kind, whatever the naturals
    cats = classify_deals(pt, both)
    assert (cats < pt.labels.index("three of a kind") + 1).all()


@pytest.mark.skipif(os.environ.get(CHILD) == "1", reason="inside the bounds-checked run already")
def test_kernel_tests_pass_with_bounds_checks(tmp_path: Path) -> None:
    """The bounds-checked tier: the kernel tests above, compiled with NUMBA_BOUNDSCHECK=1 into a
    cache of their own (the shared cache holds unchecked code)."""
    env = {**os.environ, "NUMBA_BOUNDSCHECK": "1", "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
           CHILD: "1"}
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider",
                          *BOUNDSCHECKED], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
