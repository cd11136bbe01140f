"""Video-poker answers the build stores (issue 39): each paytable artifact holds ``vp breakeven``'s
default search (the break-even royal); ``vp breakeven GAME`` and ``vp compare`` read it without
a solve, and print exactly what the search made now prints (exact fractions, strategy changes,
solves). The line ranges behind the searches give the solver's own final-hand counts at every
pay (a tie rule other than the built games' included), and the stage key covers their code."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cli_runner import run_main

from pipeline.answers import Context, vp
from pipeline.videopoker.paytables.paytable import load_paytable, parse_paytable
from pipeline.videopoker.solver.analysis import compute_counts
from pipeline.videopoker.solver.deals import DealClasses, deal_classes
from pipeline.videopoker.solver.linepay import line_range
from pipeline.videopoker.solver.solve import final_counts_many
from pipeline.videopoker.tools import breakeven
from pipeline.videopoker.tools.breakeven import with_pay

#: cheap games: no wild cards (the search climbs from 800), and deuces wild, whose 100.76%
#: return makes the search come down through the pays of the wild lines' order
GAMES = ("jacks-or-better-9-6", "deuces-wild-full-pay")


def _no_solver(*args: object, **kwargs: object) -> None:
    raise AssertionError("a stored answer made a solver")


def test_stored_answers_equal_the_search_now(artifacts: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from pipeline.cli.vp.games import _search as print_search

    built, empty = Context(artifacts), Context(tmp_path)
    said: dict[str, dict[str, dict[str, Any]]] = {"now": {}, "stored": {}}
    # no artifact: solved in memory
    now = {g: vp.breakeven(empty, g, text=said["now"].setdefault(g, {})) for g in GAMES}
    with monkeypatch.context() as m:
        m.setattr(breakeven.PaySolver, "__init__", _no_solver)
        stored = {g: vp.breakeven(built, g, text=said["stored"].setdefault(g, {})) for g in GAMES}
        cols = vp.compare(built, list(GAMES))["games"]
    for g in GAMES:
        assert now[g].pop("seconds") >= 0 and stored[g].pop("seconds") >= 0
        assert stored[g] == now[g], g
        assert json.dumps(stored[g]) == json.dumps(now[g])  # key order too
        # the text report too, but for its last line (the seconds it took)
        printed = []
        for kind in ("now", "stored"):
            print_search(said[kind][g], 0.0)
            printed.append(capsys.readouterr().out.splitlines())
        assert printed[0][:-1] == printed[1][:-1] and len(printed[0]) > 8
    assert now[GAMES[0]]["break_even_exact"] == "976/1" and now[GAMES[1]]["break_even_exact"] == "451/1"
    assert [c["break_even_royal"] for c in cols] == [now[g]["break_even"] for g in GAMES]
    assert [c["source"] for c in cols] == ["artifact"] * len(GAMES)
    code, out, err = run_main(capsys, "-a", str(artifacts), "vp", "breakeven", GAMES[0], "--json")
    assert code == 0 and json.loads(out)["break_even_exact"] == "976/1", err


def test_line_range_counts_are_the_solvers_with_the_low_variance_rule() -> None:
    """A range's counts at any pay are the sweep kernel's (the solver's holds and tie rule, one
    pay vector at a time), under a tie rule that compares second moments (the built games all
    use the default rule), on a slice of the deal classes (a bounds-checked tier test)."""
    pt = load_paytable("jacks-or-better-9-6")
    text = Path(pt.source).read_text().replace('name = "', 'tie_break = "low-variance"\nname = "', 1)
    pt = parse_paytable(text, "low-variance.toml")
    assert pt.tie_break == "low-variance"
    every = deal_classes(52)
    part = slice(0, len(every), 37)  # 3,634 classes of every kind
    # contiguous and read-only, as the built and derived deal classes are: the kernels then run
    # the specializations the sweeps and the break-even tests compile (a strided or writable
    # card array is another numba type: about 10 CPU s of compiling for this test alone)
    hands, weight, index5 = (np.ascontiguousarray(a[part]) for a in (every.hands, every.weight, every.index5))
    for a in (hands, weight, index5):
        a.setflags(write=False)
    classes = DealClasses(52, hands, weight, index5)
    counts = compute_counts(pt)
    r = line_range(pt, 0, classes, counts, Fraction(0), Fraction(3000))
    assert r.hi == 1979  # the low-variance rule's squared sums cap the pay (check_pays)
    assert 0 < len(r.deals) < len(classes)  # most classes keep one hold over the whole range
    pays = [Fraction(p) for p in (0, 1, 800, 1234, 1979)]
    units = [with_pay(pt, 0, p).pay_units()[0] for p in pays]  # scale 1: whole pays
    want = final_counts_many(classes.hands, classes.weight, counts[1], counts[0], units, 52,
                             [pt.tie_break] * len(pays))
    assert [r.counts_at(p)[0] for p in pays] == want


def test_the_paytable_stage_key_covers_the_stored_searches() -> None:
    from pipeline.core.codegraph import ImportGraph
    from pipeline.videopoker.solver.digest import PAYTABLE_STAGE, SOURCE_ROOT

    closure = set(ImportGraph(SOURCE_ROOT).closure(PAYTABLE_STAGE))
    assert {"pipeline.videopoker.tools.breakeven", "pipeline.videopoker.tools.breakeven_answer",
            "pipeline.videopoker.tools.changes", "pipeline.videopoker.solver.linepay"} <= closure
