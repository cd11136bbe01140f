"""``--pay "full house=8"``: editing a line's pay in place gives exactly the shipped game with
those pays (Jacks or Better 9/6 with full house 8 and flush 5 *is* 8/5: the same exact return,
published 97.2984%), is named as edited, is solved in memory (nothing read from or written under
artifacts/), and a bad line name or value is one ``error:`` line naming it."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from built_copy import artifact_files
from cli_runner import one_error_line, run_main

from pipeline.errors import InputError
from pipeline.videopoker.catalog.games import load_named
from pipeline.videopoker.catalog.paytable_file import current_artifact, read_summary
from pipeline.videopoker.paytables.edit import edit_pays
from pipeline.videopoker.solver.analysis import analyze
from pipeline.videopoker.solver.deals import deal_classes

#: Wizard of Odds' published optimal return of Jacks or Better 8/5 (percent, as published)
JOB_8_5_PUBLISHED = "97.2984"


@pytest.fixture(scope="module")
def classes52():  # type: ignore[no-untyped-def]
    return deal_classes(52)


def test_edited_game_is_the_shipped_game_with_those_pays(classes52, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    base = load_named("jacks-or-better-9-6")
    edited = edit_pays(base, ["Full House=8", "flush = 5"])
    assert edited.name == "Jacks or Better 9/6 (edited: full house=8, flush=5)"
    assert [ln.pays for ln in edited.lines] == [ln.pays for ln in load_named("jacks-or-better-8-5").lines]
    assert [ln.pays for ln in base.lines][3:5] == [9, 6]  # the original is untouched
    got = analyze(edited, classes52).return_exact
    # the shipped 8/5 as the build solved it (its TOML and this solver: current_artifact)
    shipped = current_artifact(load_named("jacks-or-better-8-5"), artifacts)
    assert shipped is not None
    assert got == read_summary(shipped)[0]
    assert f"{float(got) * 100:.4f}" == JOB_8_5_PUBLISHED


def test_a_line_by_hand_name_and_fractional_pays() -> None:
    db = load_named("double bonus 9/7")
    ten = edit_pays(db, ["full house=10"])
    assert [ln.pays for ln in ten.lines] == [ln.pays for ln in load_named("double-bonus-10-7").lines]
    half = edit_pays(load_named("jacks-or-better-9-6"), ["two pair=2.5"])
    assert half.lines[7].pays == Fraction(5, 2) and half.name.endswith("(edited: two pair=2.5)")
    # ddb names its quads lines by their labels; "four aces" is one of them
    ddb = edit_pays(load_named("ddb 9/6"), ["FOUR ACES=200"])
    assert [ln.pays for ln in ddb.lines if ln.label == "four aces"] == [200]


def test_edited_game_never_matches_an_artifact(artifacts: Path) -> None:
    base = load_named("jacks-or-better-9-6")
    same_pays = edit_pays(base, ["full house=9"])  # same pays, still an edited game
    assert same_pays.digest != base.digest and len(same_pays.digest) == 64
    assert current_artifact(same_pays, artifacts) is None
    assert edit_pays(base, ["full house=8"]).digest != edit_pays(base, ["flush=8"]).digest


@pytest.mark.parametrize("edits,needle", [
    (["fulhouse=8"], "unknown pay line 'fulhouse'"),
    (["full house=abc"], "pay 'abc' is not a number"),
    (["full house=-1"], "negative pay -1"),
    (["full house"], "write LINE=PAY"),
    (["=8"], "no line name"),
    (["full house=2.0005"], "at most 3 decimal places"),
    (["full house=1e9"], "more than 1,000,000"),
    (["full house=nan"], "finite"),
    (["full house=8", "FULL HOUSE=7"], "edited twice"),
])
def test_bad_edits_name_the_bad_value(edits: list[str], needle: str) -> None:
    with pytest.raises(InputError, match=None) as exc:
        edit_pays(load_named("jacks-or-better-9-6"), edits)
    assert needle in str(exc.value)


def test_ambiguous_hand_asks_for_the_label() -> None:
    with pytest.raises(InputError, match="several lines pay four of a kind; name one of: .*four aces"):
        edit_pays(load_named("double-double-bonus-9-6"), ["four of a kind=60"])


def test_cli_pay_on_vp_commands(artifacts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = str(artifacts)
    before = artifact_files(artifacts)
    code, out, err = run_main(capsys, "-a", a, "vp", "analyze", "9/6 jacks", "--pay", "full house=8",
                              "--pay", "flush=5", "--json")
    assert code == 0, err
    edited = json.loads(out)
    assert edited["name"] == "Jacks or Better 9/6 (edited: full house=8, flush=5)"
    code, out, err = run_main(capsys, "-a", a, "vp", "analyze", "jacks-or-better-8-5", "--json")
    assert code == 0, err
    assert edited["return_exact"] == json.loads(out)["return_exact"]
    code, out, err = run_main(capsys, "-a", a, "vp", "grade", "Js Jd 5h 8c Qs", "Js Jd", "-p",
                              "jacks-or-better-9-6", "--pay", "full house=8", "--pay", "flush=5")
    assert code == 0, err
    assert out.splitlines()[0] == "Js Jd 5h 8c Qs under Jacks or Better 9/6 (edited: full house=8, flush=5)"
    code, out, err = run_main(capsys, "-a", a, "vp", "hold", "Ah Kh Qh Jh 2c", "-p", "jacks 9/6",
                              "--pay", "royal flush=4000", "--json")
    assert code == 0, err
    h = json.loads(out)
    assert h["name"].endswith("(edited: royal flush=4000)") and h["best"] == "Ah Kh Qh Jh"
    assert artifact_files(artifacts) == before  # solved in memory: nothing written under artifacts/
    for args, needle in ((["vp", "analyze", "jacks-or-better-9-6", "--pay", "fulhouse=8"], "'fulhouse'"),
                         (["vp", "chart", "jacks-or-better-9-6", "--pay", "flush=x"], "'x'"),
                         (["vp", "breakeven", "jacks-or-better-9-6", "--pay", "flush"], "LINE=PAY")):
        code, out, err = run_main(capsys, "-a", a, *args)
        assert code == 2 and out == "" and needle in one_error_line(err)


def test_deal_with_pay_deals_the_same_deck(artifacts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = str(artifacts)
    code, out, err = run_main(capsys, "-a", a, "vp", "deal", "-p", "jacks-or-better-9-6", "--seed", "5",
                              "-n", "3", "--json")
    assert code == 0, err
    plain = json.loads(out)
    code, out, err = run_main(capsys, "-a", a, "vp", "deal", "-p", "jacks-or-better-9-6", "--seed", "5",
                              "-n", "3", "--pay", "flush=5", "--json")
    assert code == 0, err
    edited = json.loads(out)
    assert edited["deals"] == plain["deals"] and edited["name"] == "Jacks or Better 9/6 (edited: flush=5)"
