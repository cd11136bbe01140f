"""Bench section "rules": rule-set table builds and Omaha batch scoring next to phevaluator."""

from __future__ import annotations

from itertools import starmap
from pathlib import Path

import numpy as np
from bench_tables import best_of  # bench/ is on sys.path (bench/run.py)

ROOT = Path(__file__).resolve().parent.parent
N = 1_000_000


def run(report) -> None:
    """Time the rule-set builds and Omaha scoring; check Omaha against phevaluator."""
    from phevaluator import _pheval, evaluate_omaha_cards

    from pipeline.equity.games.omaha import score_omaha
    from pipeline.query.tables import Tables
    from pipeline.rules import load_rules
    from pipeline.rules.tables import build_five, build_k

    report.head("rules: other rule sets and Omaha")
    for name in ("short-deck", "hk-stud", "ace-to-five", "deuce-to-seven"):
        rules = load_rules(name)
        build_five(rules)  # warm-up (JIT)
        t5 = best_of(lambda: build_five(rules), 2)
        line = f"  {name:<15} five-card table C({rules.deck_size},5) in {t5:.3f}s"
        if rules.seven:
            five = build_five(rules).score5
            t7 = best_of(lambda: build_k(rules, five, 7), 2)
            line += f"; seven-card C({rules.deck_size},7) in {t7:.3f}s"
            report.value(f"{name}/seven_s", t7)
        report.value(f"{name}/five_s", t5, line)

    tables = Tables(ROOT / "artifacts")
    rng = np.random.default_rng(2026)
    deals = np.argsort(rng.random((N, 52)), axis=1)[:, :9].astype(np.int64)
    holes, boards = deals[:, :4], deals[:, 4:]
    score_omaha(tables, holes[:1000], boards[:1000])
    t_ours = best_of(lambda: score_omaha(tables, holes, boards))
    ours = score_omaha(tables, holes, boards)
    rows = np.concatenate([boards, holes], axis=1).tolist()  # phevaluator: board first, then hole
    m = 200_000
    t_ph = best_of(lambda: list(starmap(_pheval.evaluate_omaha_cards, rows[:m])), 2) * (N / m)
    ph = np.fromiter(starmap(_pheval.evaluate_omaha_cards, rows), np.int64, count=N)
    mp = 20_000
    t_pub = best_of(lambda: [evaluate_omaha_cards(*r) for r in rows[:mp]], 1) * (N / mp)
    agree = int((7463 - ph == ours).sum())
    report.say(f"  Omaha batch score_omaha (N,4)+(N,5): {N / t_ours / 1e6:.2f} M hands/s")
    report.say(f"  phevaluator C evaluate_omaha_cards per hand: {N / t_ph / 1e6:.2f} M hands/s "
               f"(ratio {t_ph / t_ours:.1f}x)")
    report.say(f"  phevaluator evaluate_omaha_cards (public): {N / t_pub / 1e6:.3f} M hands/s "
               f"(ratio {t_pub / t_ours:.1f}x)")
    report.say(f"  agreement with phevaluator (7463 - rank): {agree:,} of {N:,}")
    report.value("omaha/ours_per_s", N / t_ours)
    report.value("omaha/phevaluator_c_per_s", N / t_ph)
    report.target("Omaha agrees with phevaluator", agree == N, f"{agree:,}/{N:,}")
