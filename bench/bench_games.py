"""Bench section "games": a row per game: Monte Carlo deals per second on one thread (heads-up,
two known hands, preflop or third street) and the time of one exact spot, with the issue's
targets (heads-up Omaha flop exact in 20 ms; heads-up Omaha Monte Carlo 5 M deals/s a thread)."""

from __future__ import annotations

from pathlib import Path

from bench_tables import best_of  # bench/ is on sys.path (bench/run.py)

ROOT = Path(__file__).resolve().parent.parent
#: Monte Carlo deals per timed run.
DEALS = 2_000_000
#: (game, hero, villain, board or dead cards for the exact spot, what that spot is)
ROWS = (
    ("holdem", "AsKs", "QdQc", "2c7h8h", "flop"),
    ("short-deck", "AsKs", "QhQd", "9cTc6h", "flop"),
    ("omaha", "AsAdKsKd", "QhQdJhTd", "Qs7h2d", "flop"),
    ("omaha5", "AsAdKcQdJc", "Th9h8c7c6d", "Ks8h2d", "flop"),
    ("omaha6", "AsAdKsKdQhJh", "Tc9c8d7d6s5s", "Qs7h2d", "flop"),
    ("omaha-hi-lo", "As2s3dKd", "AhKhQcJc", "4c5hTd", "flop"),
    ("stud", "AsAdKc9h7s2d", "QhJhTh8h", "", "sixth street"),
    ("stud-hi-lo", "As2d3c6h9s9d", "KhQhJh5c", "", "sixth street"),
    ("razz", "As2d3c6hKd8c", "4c5c7dQh", "", "sixth street"),
)
#: The issue's targets.
FLOP_MS = 20.0
OMAHA_MC_PER_S = 5e6


def run(report) -> None:
    """Time every game: Monte Carlo on one thread, then one exact spot (all threads)."""
    import numba

    from pipeline.equity.engine import equity_seats
    from pipeline.query.tables import Tables

    tables = Tables(ROOT / "artifacts")
    report.head("games: equity per game (heads-up, two known hands)")
    threads = numba.get_num_threads()
    report.say(f"  {'game':<12} {'MC deals/s (1 thread)':>22} {'exact spot':>28}")
    for game, hero, vs, cards, spot in ROWS:
        stud = game in ("stud", "stud-hi-lo", "razz")
        mc_hero, mc_vs = (hero[:6], vs[:6]) if stud else (hero, vs)  # third street / preflop
        equity_seats(tables, mc_hero, [vs], game=game, samples=10_000, seed=1)  # compile
        numba.set_num_threads(1)
        try:
            t_mc = best_of(lambda: equity_seats(tables, mc_hero, [mc_vs], game=game,
                                                samples=DEALS, seed=1), 2)
        finally:
            numba.set_num_threads(threads)
        kw = {"board": cards} if not stud else {}
        res = equity_seats(tables, hero, [vs], game=game, **kw)
        t_ex = best_of(lambda: equity_seats(tables, hero, [vs], game=game, **kw), 3)
        per_s = DEALS / t_mc
        report.say(f"  {game:<12} {per_s / 1e6:>20.2f} M {1e3 * t_ex:>10.2f} ms "
                   f"({spot}, {res.deals:,} deals)")
        report.value(f"{game}/mc_deals_per_s", per_s)
        report.value(f"{game}/exact_ms", 1e3 * t_ex)
        if game == "omaha":
            report.target("heads-up Omaha flop exact in process", 1e3 * t_ex <= FLOP_MS,
                          f"{1e3 * t_ex:.2f} ms (target <= {FLOP_MS:g} ms)")
            report.target("heads-up Omaha Monte Carlo per thread", per_s >= OMAHA_MC_PER_S,
                          f"{per_s / 1e6:.2f} M deals/s (target >= {OMAHA_MC_PER_S / 1e6:g} M)")
