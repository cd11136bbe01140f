"""``pokertables warm`` spreads the query kernels' groups over worker processes and, once it
finished for these sources, only checks its stamp; its compile clock charges each kernel its
own compile time."""

from __future__ import annotations

from pathlib import Path

import numba as nb
import numpy as np
import pytest

import pipeline.equity.warm as warm_mod
from pipeline.core.jit_clock import CompileClock
from pipeline.equity.engine import equity_seats
from pipeline.equity.games.kernels import mc_range
from pipeline.equity.games.omaha_mc import MC_KERNELS
from pipeline.equity.games.spec import GAME_NAMES, GAMES
from pipeline.equity.planner import EXACT_SOLVERS
from pipeline.equity.seating import seat_table
from pipeline.equity.solve_games import game_plans
from pipeline.equity.warm import WARM_GROUPS, Ask, game_questions, parsed, split
from pipeline.query.tables import Tables

#: Every question warm asks that is not one of its named kinds.
ASKS = [q for _, qs in WARM_GROUPS for q in qs if isinstance(q, Ask)]


def _planned(q: Ask, tables: Tables) -> str:
    """How the engine answers ``q``, planned but not run: ``mc``, ``exact`` (another game) or
    the name of the hold'em exact solver that takes it."""
    question = parsed(q)
    if question.budget.monte_carlo:
        return "mc"
    if q.game != "holdem":
        exact, _ = game_plans(question, tables)
        assert exact is not None
        return "exact" if exact.seconds <= question.limit else "mc"
    table = seat_table(question, tables)
    for solver in EXACT_SOLVERS:
        plan = solver(question, table, tables)
        if plan is not None and plan.seconds <= question.limit:
            return solver.__name__
    return "mc"


def test_warm_asks_every_game_a_monte_carlo_and_an_exact_question(tables: Tables) -> None:
    """Each game the engine answers (its list, not one written here) gets a Monte Carlo spot
    and a spot the planner answers exactly; each Monte Carlo kernel of the other games is run
    by some warm question; each exact solver of hold'em answers some warm question."""
    how = {(q.game, _planned(q, tables)) for q in ASKS}
    for game in GAME_NAMES:
        assert (game, "mc") in how, game
        exact = "exact" if game != "holdem" else EXACT_SOLVERS[-1].__name__
        assert (game, exact) in how, game
    mc_games = {q.game for q in ASKS if q.samples}
    used = {MC_KERNELS.get(GAMES[g].code, mc_range) for g in mc_games if g in GAMES}
    assert used == {mc_range, *MC_KERNELS.values()}
    assert {s.__name__ for s in EXACT_SOLVERS} <= {h for _, h in how}


def test_after_warm_no_game_question_compiles(tables: Tables) -> None:
    """Once warm's questions of the other games ran (the kernels loaded from numba's cache, or
    compiled where it is cold), other questions of every game (ranges, three seats, random
    seats, another street) compile nothing: warm's questions cover their kernels' argument
    types."""
    games = [qs for _, qs in WARM_GROUPS if any(isinstance(q, Ask) and q.game in GAMES for q in qs)]
    assert len(games) == 1  # the games share kernels: one group, one worker
    assert set(games[0]) == set(game_questions())
    warm_mod.warm_here(str(tables.path), list(games[0]))
    others = [
        ("AsAdKsKd", ["QQxx", "random"], "Qs7h2d9c", "", "omaha", None),
        ("AsAdKsKd", ["QQxx", "random"], "", "", "omaha", 2000),
        ("AsAdKcQdJc", ["random"], "Ks8h2d3c", "", "omaha5", 2000),
        ("AsAdKsKdQhJh", ["KKxxxx"], "", "", "omaha6", 2000),
        ("As2s3dKd", ["AAxx", "Ah Kh Qc Jc"], "4c5hTd", "", "omaha-hi-lo", 2000),
        ("As2s3dKd", ["Ah Kh Qc Jc"], "4c5hTdJs", "", "omaha-hi-lo", None),
        ("AsKs", ["QQ+", "random"], "9cTc6h", "", "short-deck", 2000),
        ("AsKs", ["random"], "9cTc6hJd", "", "short-deck", None),
        ("AsAd3c", ["Kh", "Qd"], "", "", "stud", 2000),
        ("AsAd3cKd9h", ["KhQhJh5c"], "", "2s", "stud", None),
        ("As2d3c", ["Kh", "9d"], "", "", "stud-hi-lo", 2000),
        ("As2d3c", ["4c", "Kd"], "", "", "razz", 2000),
        ("As2d3c6hKd", ["4c5c7dQh"], "", "", "razz", None),
    ]
    with CompileClock() as clock:
        for hero, vs, board, dead, game, samples in others:
            equity_seats(tables, hero, vs, board=board, dead=dead, game=game,
                         samples=samples, seed=1 if samples else None)
    assert dict(clock.compiles) == {}


@pytest.mark.parametrize("workers", [1, 2, 3, len(WARM_GROUPS) + 2])
def test_split_deals_every_question_once_to_balanced_workers(workers: int) -> None:
    parts = split(WARM_GROUPS, workers)
    asked = [q for part in parts for q in part]
    every = [q for _, qs in WARM_GROUPS for q in qs]
    assert sorted(map(str, asked)) == sorted(map(str, every)) and len(asked) == len(every)
    assert len(parts) == min(workers, len(WARM_GROUPS))
    # a group never straddles two workers (its questions share kernels)
    owner = {str(q): i for i, part in enumerate(parts) for q in part}
    for _, qs in WARM_GROUPS:
        assert len({owner[str(q)] for q in qs}) == 1
    cost = {str(q): c for c, qs in WARM_GROUPS for q in qs[:1]}
    loads = [sum(cost.get(str(q), 0.0) for q in part) for part in parts]
    # largest-first dealing: no worker carries more than the fair share plus the largest group
    assert max(loads) <= sum(loads) / len(parts) + max(c for c, _ in WARM_GROUPS)
    if workers == 2:  # the measured costs split about evenly
        assert max(loads) - min(loads) <= min(c for c, _ in WARM_GROUPS)
    # each worker asks its groups smallest first: the two-hands preflop question (whose
    # count, before the preflop tables are built, compiles the build's headsup_preflop)
    # comes early, so the build loads that kernel instead of compiling it too
    start = {str(qs[0]): c for c, qs in WARM_GROUPS}
    for part in parts:
        costs = [start[str(q)] for q in part if str(q) in start]
        assert costs == sorted(costs)
    two_hands = str(Ask("AsKs", ("QdQc",)))
    if workers == 2:
        assert any(str(part[0]) == two_hands for part in parts)


def test_stamp_says_warm_only_for_the_same_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(warm_mod, "STAMP", tmp_path / "stamp.json")
    cache = tmp_path / "numba"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(cache))
    index = cache / warm_mod.PACKAGE.relative_to(warm_mod.PACKAGE.anchor) / "kernels.f-1.py311.nbi"
    index.parent.mkdir(parents=True)
    index.write_bytes(b"")
    arts = tmp_path / "artifacts"
    arts.mkdir()
    assert not warm_mod.is_warm(arts)
    warm_mod._write_stamp(arts)
    assert warm_mod.is_warm(arts)
    assert warm_mod.warm(arts).up_to_date  # returns at once: no table is even opened
    (arts / "seven.h5").write_bytes(b"")  # another table: other questions could run now
    assert not warm_mod.is_warm(arts)
    warm_mod._write_stamp(arts)
    assert warm_mod.is_warm(arts)
    index.unlink()  # the compiled kernels are gone
    assert not warm_mod.is_warm(arts)
    index.write_bytes(b"")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert not warm_mod.is_warm(arts)


def test_compile_clock_charges_each_kernel_its_own_time() -> None:
    # fresh dispatchers, not cached: they compile here, the caller after its callee
    @nb.njit
    def inner(x: np.ndarray) -> float:
        return float(x.sum())

    @nb.njit
    def outer(x: np.ndarray) -> float:
        return inner(x) + 1.0

    with CompileClock() as clock:
        assert outer(np.arange(4.0)) == 7.0
        outer(np.arange(4.0))  # compiled already: no event
    mine = {k: v for k, v in clock.compiles.items() if k.endswith(("inner", "outer"))}
    assert sorted(k.rsplit(".", 1)[-1] for k in mine) == ["inner", "outer"]
    assert all(n == 1 for n in mine.values())
    # exclusive times add up to the outermost compile's wall time
    assert abs(sum(clock.seconds.values()) - clock.total) < 1e-6
    assert all(s > 0 for s in clock.seconds.values())


def test_warm_falls_back_to_one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where no worker process can start (a sandbox without semaphores), every question is
    asked in this process instead, and the report says one process."""
    asked: list[list[object]] = []

    def fake_here(artifacts: str, questions: list[object]) -> tuple[int, float, dict[str, int], dict[str, float]]:
        asked.append(list(questions))
        return 0, 0.0, {}, {}

    def no_pool(*args: object, **kwargs: object) -> None:
        raise OSError("no semaphores here")

    class FakeTables:
        def __init__(self, folder: object) -> None:
            pass

        def eval_tables(self) -> None:
            return None

    import pipeline.query.tables

    monkeypatch.setattr(warm_mod, "STAMP", tmp_path / "stamp.json")
    monkeypatch.setattr(warm_mod, "warm_here", fake_here)
    monkeypatch.setattr(warm_mod, "ProcessPoolExecutor", no_pool)
    monkeypatch.setattr(pipeline.query.tables, "Tables", FakeTables)
    rep = warm_mod.warm(tmp_path, workers=2, force=True)
    assert rep.workers == 1 and len(asked) == 1
    assert sorted(map(str, asked[0])) == sorted(str(q) for _, qs in WARM_GROUPS for q in qs)
