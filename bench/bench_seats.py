"""Seats section of `make bench` (issue 11): Monte Carlo throughput next to eval7 in the same
run, ranges from the matchup table, exact range vs range; OMPEval's figures quoted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench_equity import best_with_result  # bench/ is on sys.path (bench/run.py)

ROOT = Path(__file__).resolve().parent.parent
ALL_HANDS = ("22+,A2s+,K2s+,Q2s+,J2s+,T2s+,92s+,82s+,72s+,62s+,52s+,42s+,32s,"
             "A2o+,K2o+,Q2o+,J2o+,T2o+,92o+,82o+,72o+,62o+,52o+,42o+,32o")
#: OMPEval (C++, -O3), one thread on this machine class, from issue 11's table.
OMPEVAL = {"mc_hu": 24.6e6, "mc_5": 9.1e6, "rvr_preflop_s": 0.035}


def run(report: Any) -> None:
    """Measure and record issue 11's targets for ranges, every seat and Monte Carlo."""
    import numba

    from pipeline.equity.engine import equity_seats, preflop
    from pipeline.query.tables import Tables

    report.head("seats and ranges (issue 11)")
    tables = Tables(ROOT / "artifacts")
    try:
        import eval7
    except ImportError:  # pragma: no cover
        eval7 = None
    report.say(f"  OMPEval for reference (issue table, 1 thread): heads-up MC "
               f"{OMPEVAL['mc_hu'] / 1e6:.1f} M deals/s, vs 5 random {OMPEVAL['mc_5'] / 1e6:.1f} M "
               f"deals/s, \"QQ+,AKs\" vs \"JJ-88,AQs+,KQs\" preflop exact {OMPEVAL['rvr_preflop_s'] * 1e3:.0f} ms")

    start = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        n = 4_000_000
        equity_seats(tables, "AsKs", samples=20_000, seed=1)
        hu_job = lambda: equity_seats(tables, "AsKs", samples=n, seed=1)  # noqa: E731
        if eval7:
            hand = [eval7.Card(c) for c in ("As", "Ks")]
            rng = eval7.HandRange(ALL_HANDS)
            it = 1_000_000
            e7_job = lambda: eval7.py_hand_vs_range_monte_carlo(hand, rng, [], it)  # noqa: E731
            # interleaved, best of each: a load change on the shared machine hits both sides
            th = te = float("inf")
            for _ in range(3):
                t1, r = best_with_result(hu_job, 1)
                t2, eq7 = best_with_result(e7_job, 1)
                th, te = min(th, t1), min(te, t2)
        else:
            th, r = best_with_result(hu_job, 3)
        hu = n / th
        report.value("mc_hu_per_s", hu, f"  Monte Carlo AsKs vs 1 random, 1 thread: {hu / 1e6:.2f} M "
                     f"deals/s (equity {r.equity:.4f} +- {r.stderr:.4f})")
        if eval7:
            e7 = it / te
            report.value("mc_hu_eval7_per_s", e7, f"    eval7.py_hand_vs_range_monte_carlo, same job: "
                         f"{e7 / 1e6:.2f} M deals/s (equity {eq7:.4f}; it deals 5 board cards and walks "
                         "the opponent's combos in order, we deal 7 cards)")
            report.target("Monte Carlo heads-up >= 3x eval7 per thread", hu >= 3 * e7,
                          f"{hu / e7:.2f}x ({hu / 1e6:.2f} vs {e7 / 1e6:.2f} M deals/s; OMPEval "
                          f"{OMPEVAL['mc_hu'] / 1e6:.1f} M)")
        equity_seats(tables, "AsKs", ["QdQc"], samples=20_000, seed=1)
        tv, rv = best_with_result(lambda: equity_seats(tables, "AsKs", ["QdQc"], samples=n, seed=1), 3)
        report.value("mc_hvh_per_s", n / tv, f"  Monte Carlo AsKs vs QdQc, 1 thread: {n / tv / 1e6:.2f} M "
                     f"deals/s (equity {rv.equity:.4f} +- {rv.stderr:.4f})")
        equity_seats(tables, "AsKs", opponents=5, samples=20_000, seed=1)
        t5, r5 = best_with_result(lambda: equity_seats(tables, "AsKs", opponents=5, samples=n, seed=1), 3)
        m5 = n / t5
        report.value("mc_5_per_s", m5, f"  Monte Carlo AsKs vs 5 random, 1 thread: {m5 / 1e6:.2f} M "
                     f"deals/s (equity {r5.equity:.4f} +- {r5.stderr:.4f})")
        report.target("Monte Carlo vs 5 random >= 9 M deals/s per thread", m5 >= 9e6,
                      f"{m5 / 1e6:.2f} M deals/s (OMPEval {OMPEVAL['mc_5'] / 1e6:.1f} M)")
        args = ("QQ+,AKs", ["JJ-88,AQs+,KQs", "A5s-A2s,KQo"])
        equity_seats(tables, *args, board="Ts 7h 2c", samples=20_000, seed=1)
        t3, _ = best_with_result(lambda: equity_seats(tables, *args, board="Ts 7h 2c", samples=n, seed=1), 3)
        report.value("mc_ranges3_per_s", n / t3, f"  Monte Carlo 3 ranges on Ts 7h 2c, 1 thread: "
                     f"{n / t3 / 1e6:.2f} M deals/s (conflicting assignments redrawn)")
    finally:
        numba.set_num_threads(start)
    if start > 1:  # the same jobs on every thread (chunks are independent streams)
        for label, kw in (("mc_hu", {}), ("mc_5", {"opponents": 5})):
            t2, _ = best_with_result(lambda: equity_seats(tables, "AsKs", samples=n, seed=1, **kw), 3)
            report.value(f"{label}_{start}threads_per_s", n / t2, f"  Monte Carlo AsKs vs "
                         f"{kw.get('opponents', 1)} random, {start} threads: {n / t2 / 1e6:.2f} M deals/s")

    # range vs range preflop from the matchup table
    preflop(tables, "QQ+,AKs", vs="JJ-88,AQs+,KQs")
    tp, rp = best_with_result(lambda: preflop(tables, "QQ+,AKs", vs="JJ-88,AQs+,KQs"), repeat=5)
    from_table = bool(rp.source and "matchups" in rp.source)
    report.value("rvr_preflop_s", tp, f"  \"QQ+,AKs\" vs \"JJ-88,AQs+,KQs\" preflop: {tp * 1e3:.2f} ms, "
                 f"equity {rp.equity:.6f} ({rp.source or rp.note})")
    report.target("\"QQ+,AKs\" vs \"JJ-88,AQs+,KQs\" preflop <= 5 ms from the table",
                  from_table and tp <= 0.005,
                  f"{tp * 1e3:.2f} ms" + ("" if from_table else " (preflop_matchups.h5 not built: enumerated)"))
    ta, ra = best_with_result(lambda: equity_seats(tables, "AsAd"), repeat=5)
    report.value("preflop_hu_table_s", ta, f"  AsAd vs 1 random from preflop.h5: {ta * 1e3:.2f} ms "
                 f"(exact, {ra.deals:,} deals)")
    tf, rf = best_with_result(lambda: equity_seats(tables, "QQ+,AKs", ["JJ-88,AQs+,KQs"], board="Ts 7h 2c",
                                                exact=True), 3)
    report.value("rvr_flop_exact_s", tf, f"  exact \"QQ+,AKs\" vs \"JJ-88,AQs+,KQs\" on Ts 7h 2c: "
                 f"{tf * 1e3:.1f} ms ({rf.deals:,} deals, equity {rf.equity:.6f})")
