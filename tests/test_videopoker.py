"""Video poker (issue 3): deal classes, exact returns, brute-force holds, loader errors, CLI, stages."""

from __future__ import annotations

import functools
import itertools
import json
import random
import shutil
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from cli_runner import run_main
from vp_reference import JOB96, JOB96_FINAL, MY_STAGES, PAYTABLES, ROOT, naive_category

from pipeline.build.store import TMP_PREFIX
from pipeline.videopoker.catalog.paytable_file import current_artifact, read_summary
from pipeline.videopoker.paytables.deal_text import parse_deal
from pipeline.videopoker.paytables.paytable import load_paytable, parse_paytable
from pipeline.videopoker.solver.analysis import analyze, compute_counts
from pipeline.videopoker.solver.deals import RANK_PATTERNS, canonical_index, deal_classes, deck_hands, rank_pattern
from pipeline.videopoker.solver.holds import hold_table

DEUCES = PAYTABLES / "deuces-wild-full-pay.toml"
JOKER = PAYTABLES / "joker-poker-kings.toml"
DDB = PAYTABLES / "double-double-bonus-9-6.toml"


@functools.cache
def _counts(path: Path) -> tuple[np.ndarray, list[np.ndarray]]:
    """compute_counts of a paytable file, once per module (the tests only read them)."""
    return compute_counts(load_paytable(path))


@pytest.fixture(scope="module")
def job96():
    return analyze(load_paytable(JOB96), counts=_counts(JOB96))  # the counts the module shares


# ------------------------------------------------------------------ deal classes

def test_classes_counts_by_weight_and_rank_pattern() -> None:
    cls = deal_classes(52)
    assert len(cls) == 134_459
    assert int(cls.weight.sum()) == 2_598_960
    assert dict(Counter(cls.weight.tolist())) == {4: 2_301, 12: 48_503, 24: 83_655}
    pat = Counter(RANK_PATTERNS[p] for p in rank_pattern(cls.hands))
    assert pat == {"five singletons": 65_637, "one pair": 57_200, "two pair": 6_864,
                   "three of a kind": 4_290, "full house": 312, "four of a kind": 156}
    assert (np.diff(cls.index5) > 0).all()


def test_classes_are_closed_under_suit_relabelling() -> None:
    """Any suit permutation of a deal lands in the same class; weights are orbit sizes."""
    rng = random.Random(3)
    cls = deal_classes(52)
    hands = deck_hands(52, 5)
    rows = [rng.randrange(hands.shape[0]) for _ in range(300)]
    canon = canonical_index(hands[rows])
    for row, c in zip(rows, canon):
        perm = list(itertools.permutations(range(4)))[rng.randrange(24)]
        moved = sorted(4 * (x >> 2) + perm[x & 3] for x in hands[row].tolist())
        assert canonical_index(np.array([moved], np.uint8))[0] == c
        orbit = {tuple(sorted(4 * (x >> 2) + p[x & 3] for x in hands[row].tolist()))
                 for p in itertools.permutations(range(4))}
        assert int(cls.weight[np.searchsorted(cls.index5, c)]) == len(orbit)


def test_joker_deck_classes() -> None:
    cls = deal_classes(53)
    assert int(cls.weight.sum()) == 2_869_685
    assert len(cls) == 134_459 + 16_432  # no joker + (joker + a 4-card suit class)


# ------------------------------------------------------------------ exact results



def test_job96_exact_return_and_final_hands(job96) -> None:
    assert job96.return_exact == Fraction(1653526326983, 1661102543100)
    assert job96.denominator == 19_933_230_517_200
    assert job96.final_counts == JOB96_FINAL
    assert job96.paytable.labels[-1] == "nothing"
    assert abs(float(job96.variance) - 19.514676) < 1e-5  # Wizard of Odds: 19.51468


def _built(path: Path, artifacts: Path) -> tuple[Fraction, list[int], int]:
    """(exact return, final-hand counts, their denominator) of a shipped game: the build's solve
    of this very TOML by this solver (``current_artifact`` checks both digests), not solved a
    second time here (test_vp_catalog.py solves Deuces Wild in this process)."""
    art = current_artifact(load_paytable(path), artifacts)
    assert art is not None, path
    ret, _, finals, den = read_summary(art)
    return ret, finals, den


def test_deuces_wild_full_pay_exact(artifacts: Path) -> None:
    ret, finals, den = _built(DEUCES, artifacts)
    assert ret == Fraction(32187682693, 31944279675)
    assert sum(finals) == den == 19_933_230_517_200
    # published lines that no equal-EV tie touches (Wizard of Odds)
    got = dict(zip(load_paytable(DEUCES).labels, finals))
    assert got["royal flush"] == 440_202_756
    assert got["four deuces"] == 4_060_462_824
    assert got["wild royal flush"] == 35_796_957_696
    assert got["five of a kind"] == 63_818_309_856
    assert got["four of a kind"] == 1_294_427_430_576
    assert got["full house"] == 423_165_297_240


@pytest.mark.parametrize("stem,published", [
    ("jacks-or-better-9-5", 0.984498), ("jacks-or-better-8-5", 0.972984),
    ("bonus-poker-8-5", 0.991660), ("double-bonus-10-7", 1.001725),
    ("double-double-bonus-9-6", 0.989808), ("joker-poker-kings", 1.006463)])
def test_published_returns(stem: str, published: float, artifacts: Path) -> None:
    path = PAYTABLES / f"{stem}.toml"
    ret, finals, den = _built(path, artifacts)
    assert round(float(ret), 6) == published
    assert sum(finals) == den
    assert ret == Fraction(sum(c * p for c, p in zip(finals, load_paytable(path).pays)), den)


def test_joker_common_denominator(artifacts: Path) -> None:
    from math import comb, lcm
    _, finals, den = _built(JOKER, artifacts)
    assert den == sum(finals) == comb(53, 5) * lcm(*(comb(48, k) for k in range(6)))


# ------------------------------------------------------------------ brute force

@functools.lru_cache(maxsize=2)
def _hand_keys(deck: int) -> tuple[np.ndarray, np.ndarray]:
    """Every 5-card hand (colex) as two keys: its cards 0-1 (< deck^2) and 2-4 (< deck^3)."""
    h = deck_hands(deck, 5).astype(np.int32)
    return h[:, 0] * deck + h[:, 1], (h[:, 2] * deck + h[:, 3]) * deck + h[:, 4]


def _brute_force_evs(pt, cards: list[int], pay_cat: np.ndarray) -> dict[frozenset, Fraction]:
    """EV of every hold by enumerating every draw: all deals F with H in F and F avoiding D-H.

    One pass over all C(deck, 5) hands: a hand F is a draw of exactly the hold H = F & D, so
    each hand is counted under (its pay category, the 5-bit mask of the deal cards it holds)."""
    deck = pt.deck_size
    bit = np.zeros(deck, np.int32)        # card -> its bit in the deal's hold mask (0: unseen)
    for t, c in enumerate(cards):
        bit[c] = 1 << t
    two = (bit[:, None] | bit[None, :]).ravel()
    three = (bit[:, None, None] | bit[None, :, None] | bit[None, None, :]).ravel()
    k01, k234 = _hand_keys(deck)
    code = two[k01] | three[k234]
    by_cat = np.bincount(pay_cat.astype(np.int32) * 32 + code,
                         minlength=32 * pt.n_categories).reshape(-1, 32)
    pays = [int(p) for p in pt.pays]      # exact: these pays are integers
    assert pays == list(pt.pays)
    out = {}
    for m in range(32):
        held = frozenset(c for t, c in enumerate(cards) if m >> t & 1)
        total = sum(p * int(by_cat[cat, m]) for cat, p in enumerate(pays))
        out[held] = Fraction(total, int(by_cat[:, m].sum()))
    return out


@pytest.mark.parametrize("path,deal", [
    (JOB96, "Jh Qh Kh Ah 2c"), (JOB96, "2c 7d 9h Js 4c"), (JOB96, "Kh Kd 5s 5c 9h"),
    (JOB96, "Ts Js Qs 9h 8d"), (DDB, "As Ad Ah Ac 3d"), (DDB, "5c 5d 5h 9s Ac"),
    (DEUCES, "2c 2d 5h 6h 9s"), (DEUCES, "3d 4c 5d 6c 8c"), (DEUCES, "2c 2d 2h 2s Kc"),
    (JOKER, "Jk As Ks 7d 2c"), (JOKER, "6c 9d Jd Ac Jk")])
def test_hold_evs_match_brute_force(path: Path, deal: str) -> None:
    pt = load_paytable(path)
    pay_cat, counts = _counts(path)
    cards = parse_deal(deal, pt.deck_size)
    rows = hold_table(pt, cards, pay_cat, counts)
    brute = _brute_force_evs(pt, cards, pay_cat)
    assert len(rows) == 32
    for r in rows:
        held = frozenset(cards[p - 1] for p in r["positions"])
        num, den = map(int, r["ev_exact"].split("/"))
        assert Fraction(num, den) == brute[held], (deal, r["hold"])
        assert abs(r["ev"] - float(brute[held])) < 1e-12
    best = max(brute.values())
    assert Fraction(*map(int, rows[0]["ev_exact"].split("/"))) == best
    assert [r["best"] for r in rows].count(True) == 1


def test_best_hold_of_royal_draw(job96) -> None:
    rows = hold_table(job96.paytable, parse_deal("Jh Qh Kh Ah 2c", 52), job96.pay_category,
                      job96.counts)
    assert rows[0]["hold"] == "Jh Qh Kh Ah"
    assert rows[0]["ev_exact"] == "872/47"


# ------------------------------------------------------------------ classifier vs a naive judge

@pytest.mark.parametrize("path", [JOB96, DDB, DEUCES, JOKER])
def test_classifier_against_naive_judge(path: Path) -> None:
    pt = load_paytable(path)
    pay_cat, _ = _counts(path)
    hands = deck_hands(pt.deck_size, 5)
    rng = np.random.default_rng(7)
    rows = list(rng.choice(hands.shape[0], 400, replace=False))
    # add every kind of interesting deal: pat hands of every category, wilds
    cats = np.bincount(pay_cat, minlength=pt.n_categories)
    for p in range(pt.n_categories):
        if cats[p]:
            rows.extend(rng.choice(np.flatnonzero(pay_cat == p), 8).tolist())
    for i in rows:
        cards = hands[i].tolist()
        nwild = sum(1 for c in cards if (pt.wild == "deuces" and c < 4) or c == 52)
        if nwild > 2:
            continue  # 52^3 substitutions: too slow for the naive judge
        assert pay_cat[i] == naive_category(pt, cards), (pt.name, cards)


def test_three_and_four_deuces() -> None:
    pt = load_paytable(DEUCES)
    pay_cat, _ = _counts(DEUCES)
    from pipeline.core.cards import colex_index
    lab = pt.labels
    assert lab[pay_cat[colex_index([0, 1, 2, 3, 47])]] == "four deuces"
    assert lab[pay_cat[colex_index([0, 1, 2, 51, 47])]] == "wild royal flush"  # 2 2 2 As Ks
    assert lab[pay_cat[colex_index([0, 1, 2, 51, 50])]] == "five of a kind"    # 2 2 2 As Ah
    assert lab[pay_cat[colex_index([0, 1, 2, 51, 46])]] == "four of a kind"    # 2 2 2 As Kh
    assert lab[pay_cat[colex_index([0, 1, 2, 7, 15])]] == "straight flush"     # 2 2 2 3s 5s
    assert lab[pay_cat[colex_index([0, 1, 2, 7, 14])]] == "four of a kind"     # 2 2 2 3s 5h


# ------------------------------------------------------------------ paytable loader errors

GOOD = '''name = "t"
wild = "none"
[[line]]
hand = "royal flush"
pays = 800
[[line]]
hand = "pair"
ranks = "JQKA"
pays = 1
'''


@pytest.mark.parametrize("text,needle", [
    (GOOD.replace('pays = 800', 'pays = 800\ncolour = "red"'), ":3: line 1: unknown key 'colour'"),
    (GOOD.replace('name = "t"', 'name = "t"\nmaker = "x"'), ":2: unknown key 'maker'"),
    (GOOD.replace('"pair"', '"pairs"'), ":6: line 2: unknown hand 'pairs'"),
    (GOOD.replace('pays = 1\n', 'pays = -1\n'), ":6: line 2: negative pay -1"),
    (GOOD.replace('pays = 1\n', 'pays = "one"\n'), "line 2: pays must be a number"),
    ('name = "t"\nwild = "none"\n', "has no lines"),
    (GOOD.replace('wild = "none"', 'wild = "none'), "malformed TOML"),
    (GOOD + '[[line]]\nhand = "pair"\nranks = "JQKA"\npays = 1\n', ":10: line 3: duplicate of line 2"),
    (GOOD.replace('"none"', '"jokers"'), ":2: unknown wild 'jokers'"),
    (GOOD.replace('"JQKA"', '"JQKB"'), "line 2: ranks 'JQKB': unknown rank 'B'"),
    (GOOD.replace('hand = "royal flush"', 'hand = "royal flush"\nranks = "A"'), "'ranks' applies to"),
    (GOOD.replace('"royal flush"', '"four deuces"'), "'four deuces' needs wild = \"deuces\""),
    (GOOD.replace('"royal flush"', '"five of a kind"'), "needs wild cards"),
    (GOOD.replace('hand = "pair"\n', ''), "line 2: missing 'hand'"),
])
def test_loader_errors(tmp_path: Path, text: str, needle: str) -> None:
    f = tmp_path / "bad.toml"
    f.write_text(text)
    with pytest.raises(ValueError) as exc:
        load_paytable(f)
    assert str(f) in str(exc.value)
    assert needle in str(exc.value), str(exc.value)


def test_loader_defaults_and_labels() -> None:
    pt = load_paytable(DDB)
    assert pt.labels[2:5] == ["four aces with 2-4", "four 2-4 with A-4", "four aces"]
    assert pt.labels[-2:] == ["jacks or better", "nothing"]
    assert load_paytable(JOKER).deck_size == 53
    frac = parse_paytable(GOOD.replace("pays = 1\n", "pays = 1.5\n"))
    assert frac.pays[1] == Fraction(3, 2)


# ------------------------------------------------------------------ command line

@pytest.mark.parametrize("text", [GOOD.replace('"pair"', '"pairs"'), 'name = "t"\n',
                                  GOOD.replace('pays = 1\n', 'pays = -1\n'), "name = [",
                                  GOOD + '[[line]]\nhand = "royal flush"\npays = 800\n'])
def test_cli_bad_paytable_exits_2_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     text: str) -> None:
    f = tmp_path / "bad.toml"
    f.write_text(text)
    art = tmp_path / "art"
    for args in (["vp", "analyze", str(f)], ["vp", "analyze", str(f), "--json"],
                 ["vp", "hold", "Jh Qh Kh Ah 2c", "--paytable", str(f)]):
        # in this process: an error needs no fresh interpreter, whose start costs seconds each time
        code, out, err = run_main(capsys, "--artifacts", str(art), *args)
        assert code == 2, err
        if "--json" in args:  # the error as JSON on stdout (issue 29)
            assert err == "" and str(f) in json.loads(out)["error"], out
        else:
            assert err.startswith("error: ") and str(f) in err
            assert "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.toml"]


def test_cli_bad_cards_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for cards in ("Jh Qh Kh Ah Ah", "Jh Qh Kh Ah", "Jh Qh Kh Ah Xx", "Jh Qh Kh Ah Jk"):
        code, _, err = run_main(capsys, "--artifacts", str(tmp_path), "vp", "hold", cards, "--paytable", str(JOB96))
        assert code == 2 and err.startswith("error: "), (cards, err)


@pytest.mark.full_tier  # builds or solves for seconds: not the fast tier
def test_cli_analyze_json_on_the_fly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A paytable no build has seen is computed on the fly; JSON keys as the issue says."""
    f = tmp_path / "my-game.toml"
    f.write_text(JOB96.read_text().replace('name = "Jacks or Better 9/6"', 'name = "Mine"'))
    # in this process: the real-process `vp analyze --json` runs in test_vp_charts.py
    code, out, err = run_main(capsys, "--artifacts", str(tmp_path / "none"), "vp", "analyze", str(f),
                              "--json")
    assert code == 0, err
    info = json.loads(out)
    assert list(info) == ["name", "return", "return_exact", "variance", "total_combinations",
                          "lines", "seconds", "bankroll"]
    assert info["name"] == "Mine"
    assert info["return_exact"] == "1653526326983/1661102543100"
    assert info["total_combinations"] == 19_933_230_517_200
    assert [ln["combinations"] for ln in info["lines"]] == JOB96_FINAL
    assert info["lines"][-1]["hand"] == "nothing"
    assert set(info["lines"][0]) == {"hand", "pays", "combinations", "probability", "return"}
    assert abs(sum(ln["return"] for ln in info["lines"]) - info["return"]) < 1e-12
    assert not (tmp_path / "none").exists()


def test_cli_hold_text_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # in this process: the real-process `vp hold --json` runs in test_vp_catalog.py
    code, out, err = run_main(capsys, "--artifacts", str(tmp_path), "vp", "hold", "Jh Qh Kh Ah 2c",
                              "--paytable", str(JOB96), "--json")
    assert code == 0, err
    info = json.loads(out)
    assert info["best"] == "Jh Qh Kh Ah" and len(info["holds"]) == 32
    evs = [h["ev"] for h in info["holds"]]
    assert evs == sorted(evs, reverse=True)
    code, out, _ = run_main(capsys, "--artifacts", str(tmp_path), "vp", "hold", "Jh", "Qh", "Kh", "Ah",
                            "2c", "--paytable", str(JOB96))
    assert code == 0 and "Jh Qh Kh Ah" in out.splitlines()[2]


# ------------------------------------------------------------------ stages and artifacts

def _my_config(root: Path, artifacts: Path, slugs: list[str]):
    from pipeline.build.config import BuildConfig
    from pipeline.build.stages import STAGE_MODULES

    sections = {m: {"enabled": False} for m in STAGE_MODULES if m not in MY_STAGES}
    sections["paytables"] = {"enabled": True, "slugs": slugs}
    return BuildConfig(root=root, artifacts=artifacts, sections=sections)


def test_paytable_family_picks_up_every_file() -> None:
    from pipeline.build.config import load_config
    from pipeline.build.stages import plan

    names = {s.name for s in plan(load_config(ROOT / "configs" / "build.toml"), list(MY_STAGES))}
    for f in PAYTABLES.glob("*.toml"):
        assert f"paytable:{f.stem}" in names
    assert {"vp_classes", "vp_summary"} <= names


@pytest.mark.full_tier
def test_drop_in_paytable_builds_and_rebuilds_on_edit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new TOML in a user config folder is a new stage; editing it rebuilds only that stage."""
    import h5py
    import pyarrow.parquet as pq

    from pipeline.build.runner import run_build
    from pipeline.build.stages import plan
    from pipeline.registry import ENV_VAR

    folder = tmp_path / "paytables"
    folder.mkdir()
    monkeypatch.setenv(ENV_VAR, str(tmp_path))
    shutil.copy(JOB96, folder / "job.toml")
    cfg = _my_config(tmp_path, tmp_path / "art", ["job"])
    res = {r.name: r.status for r in run_build(cfg)}
    assert res == {"vp_classes": "built", "paytable:job": "built", "vp_summary": "built"}
    shutil.copy(DEUCES, folder / "dw.toml")
    everything = _my_config(tmp_path, tmp_path / "art", [])
    del everything.sections["paytables"]["slugs"]  # no selection: every known paytable
    assert {"paytable:dw", "paytable:job", "paytable:jacks-or-better-9-6"} <= {s.name for s in plan(everything)}
    cfg = _my_config(tmp_path, tmp_path / "art", ["dw", "job"])
    res = {r.name: r.status for r in run_build(cfg)}
    assert res == {"vp_classes": "skipped", "paytable:dw": "built", "paytable:job": "skipped",
                   "vp_summary": "built"}
    (folder / "job.toml").write_text(JOB96.read_text().replace("pays = 800", "pays = 4000"))
    res = {r.name: r.status for r in run_build(cfg)}
    assert res["paytable:job"] == "built" and res["paytable:dw"] == "skipped"
    with h5py.File(tmp_path / "art" / "paytables" / "job.h5", "r") as f:
        assert f["counts/held4"].shape == (270_725, 10)
        assert f["pay_category"].shape == (2_598_960,)
        assert f["pay_category"].id.get_offset() is not None  # contiguous: memory-mappable
        assert f["strategy/ev"].shape == (134_459, 32)
        assert int(f["final_counts"][:].sum()) == 19_933_230_517_200
    summary = pq.read_table(tmp_path / "art" / "parquet" / "paytable_summary.parquet")
    assert summary.num_rows == 10 + 11
    strat = pq.read_table(tmp_path / "art" / "parquet" / "paytables" / "paytable=dw" / "part-0.parquet")
    assert strat.num_rows == 134_459
    assert not list((tmp_path / "art").rglob(TMP_PREFIX + "*"))


def test_broken_paytable_fails_its_stage_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pipeline.build.runner import run_build
    from pipeline.registry import ENV_VAR

    folder = tmp_path / "paytables"
    folder.mkdir()
    (folder / "bad.toml").write_text('name = "x"\n')
    monkeypatch.setenv(ENV_VAR, str(tmp_path))
    cfg = _my_config(tmp_path, tmp_path / "art", ["bad"])
    with pytest.raises(ValueError, match="bad.toml: the paytable has no lines"):
        run_build(cfg)
    assert not (tmp_path / "art" / "paytables" / "bad.h5").exists()
