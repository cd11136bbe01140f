"""Wild cards have one definition (``pipeline.videopoker.paytables.wild``), and every kernel agrees with it:
the second joker of a two-joker deck is as wild as the first (issue 20, item 1); no module
defines a joker id of its own or tests a card for one joker id only. The last test re-runs
kernel tests that need no artifacts, enough of them to run every kernel family they cover, with
numba's bounds checks on, so an out-of-bounds read or write fails a test instead of silently
corrupting memory."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import numpy as np
import pytest
from bounds_tier import BOUNDSCHECKED, CHILD, take

from pipeline.videopoker.catalog.games import load_named
from pipeline.videopoker.charts.patterns import game_traits, hold_codes
from pipeline.videopoker.paytables.wild import JOKER, WILD_CODE, is_wild
from pipeline.videopoker.solver.classify import classify_deals

ROOT = Path(__file__).resolve().parent.parent
#: the one module that defines the joker card id
WILD_MODULE = ROOT / "pipeline" / "videopoker" / "paytables" / "wild.py"


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
    # read-only, as the solver's deal arrays are: the kernels' shipped specializations, not
    # a compile of their own
    first.flags.writeable = second.flags.writeable = False
    cat1, cat2 = classify_deals(pt, first), classify_deals(pt, second)
    assert np.array_equal(cat1, cat2)
    assert np.array_equal(hold_codes(first, cat1, traits), hold_codes(second, cat2, traits))
    both = first.copy()
    both[:, 3] = JOKER
    both[:, 4] = JOKER + 1
    both = np.sort(both, axis=1)
    both.flags.writeable = False
    # two jokers and three naturals: at least three of a kind, whatever the naturals
    cats = classify_deals(pt, both)
    assert (cats < pt.labels.index("three of a kind") + 1).all()


def _joker_literal_problems(text: str, where: str, owner: bool = False) -> list[str]:
    """Where ``text`` (a module) defines a joker id of its own (``JOKER`` bound to an int, another
    ``*JOKER*`` name bound to 52 or 53, or ``JOKER`` imported from elsewhere; allowed in the
    ``owner`` module), or
    compares a card with one joker id (``== 52``, ``!= 53``, ``in (52, 53)``: the second joker is
    missed, as in issue 20 item 1). An operand naming a deck (``deck_size == 52``) is a deck
    size, not a joker test."""
    out = []
    for node in ast.walk(ast.parse(text, where)):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and not owner:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for t in targets if isinstance(t, ast.Name) and "JOKER" in t.id]
            bound = node.value
            value = bound.value if isinstance(bound, ast.Constant) else None
            if names and type(value) is int and ("JOKER" in names or value in (52, 53)):
                out.append(f"{where}:{node.lineno}: defines {names[0]} = {value}; "
                           "import JOKER from pipeline.videopoker.paytables.wild")
        elif isinstance(node, ast.ImportFrom) and not owner:
            if node.module != "pipeline.videopoker.paytables.wild" and any(a.name == "JOKER" for a in node.names):
                out.append(f"{where}:{node.lineno}: imports JOKER from {node.module}")
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for op, a, b in zip(node.ops, operands, operands[1:]):
                pairs: list[tuple[ast.expr, ast.expr]]
                if isinstance(op, (ast.Eq, ast.NotEq)):
                    pairs = [(x, y) for x, y in ((a, b), (b, a))
                             if isinstance(x, ast.Constant) and x.value in (52, 53)]
                elif isinstance(op, (ast.In, ast.NotIn)) and isinstance(b, (ast.Tuple, ast.List, ast.Set)):
                    pairs = [(b, a)] if any(isinstance(e, ast.Constant) and e.value in (52, 53)
                                            for e in b.elts) else []
                else:
                    pairs = []
                if any("deck" not in ast.unparse(other).lower() for _, other in pairs):
                    out.append(f"{where}:{node.lineno}: `{ast.unparse(node)}` tests one joker id; "
                               "use is_wild or `>= JOKER` (pipeline.videopoker.paytables.wild)")
    return out


def test_joker_id_has_one_owner_and_no_single_id_tests() -> None:
    """Issue 20, item 1 was a second joker that ``c == 52`` missed: no module in pipeline/
    defines or imports a joker id but from pipeline.videopoker.paytables.wild, and no video-poker module
    tests a card against one joker id."""
    vp = ROOT / "pipeline" / "videopoker"
    problems = []
    for f in sorted((ROOT / "pipeline").rglob("*.py")):
        found = _joker_literal_problems(f.read_text(), str(f.relative_to(ROOT)), owner=f == WILD_MODULE)
        problems += [p for p in found if "JOKER from" in p or f.is_relative_to(vp)]
    assert not problems, "\n".join(problems)
    # the checker sees each bad form, one per line, and lets a deck size and `>= JOKER` through
    bad = ("JOKER = 52\nFIRST_JOKER: int = 53\nfrom pipeline.core.cards import JOKER\n"
           "a = c == 52\nb = 53 != hand[4]\nd = c in (52, 53)\nok = deck_size == 52\n"
           "ok2 = c >= JOKER\nok3 = pt.deck_size != 53\nMAX_JOKERS = 2\n")
    found = _joker_literal_problems(bad, "probe.py")
    assert [p.split(":")[1] for p in found] == ["1", "2", "3", "4", "5", "6"], found
    assert _joker_literal_problems("JOKER = 52\n", "wild.py", owner=True) == []


@pytest.mark.beside_browser  # its child fills the browser files' idle core (tests/bounds_tier.py)
@pytest.mark.full_tier  # ~30 s of bounds-checked compiling: `make test` runs it, `make check` not
@pytest.mark.skipif(os.environ.get(CHILD) == "1", reason="inside the bounds-checked run already")
def test_kernel_tests_pass_with_bounds_checks(tmp_path: Path) -> None:
    """The bounds-checked tier: the kernel tests named in :data:`bounds_tier.BOUNDSCHECKED`,
    compiled with NUMBA_BOUNDSCHECK=1 into a cache of their own (the shared cache holds
    unchecked code). They compile at LLVM's -O1 (:data:`bounds_tier.BOUNDSCHECK_OPT`), not
    -O3: every check stays (optimisation only removes checks it proves redundant) and the cold
    compiles cost about a tenth less CPU; the cache is a temporary folder of this run, so
    nothing compiled there can reach the shared cache. The browser files' server fixture may
    have started the child already (:mod:`bounds_tier`)."""
    code, stdout, stderr = take(tmp_path).finish()
    assert code == 0, stdout[-4000:] + stderr[-2000:]
    # every kernel test named there ran and passed (none of them needs the artifacts)
    passed = {ln.split()[1] for ln in stdout.splitlines() if ln.startswith("PASSED ")}
    assert {t for t in BOUNDSCHECKED if "::" in t} <= passed, stdout[-3000:]
