"""Issue 29, item 5 (smaller breaks): a long run with piped stderr says how far it is; a UTF-8
byte-order mark is not a bad card; ``:0.5`` and ``AsKs-AhKh`` are named for what is wrong."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from cli_runner import one_error_line, run_main

from pipeline.core.cards import parse_cards
from pipeline.errors import InputError


def test_a_long_run_with_piped_stderr_says_how_far_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--stderr 0.00001`` runs for minutes: off a terminal it printed nothing at all. Now a
    plain line every PIPED_PROGRESS_EVERY seconds (none for a quick answer)."""
    import pipeline.cli.common as common

    clock = [100.0]
    monkeypatch.setattr(common.time, "perf_counter", lambda: clock[0])
    err = io.StringIO()  # not a terminal
    monkeypatch.setattr(common.sys, "stderr", err)
    update, close = common.progress_bar()
    for step in range(1, 26):
        clock[0] = 100.0 + step
        update(step / 100, f"{step * 1000:,} deals")
    close()
    lines = err.getvalue().splitlines()
    assert lines == ["equity:  10.0% 10,000 deals (10s)", "equity:  20.0% 20,000 deals (20s)"], lines
    err.truncate(0)
    err.seek(0)
    update, close = common.progress_bar()
    update(1.0, "done")  # a quick answer: stderr stays empty
    assert err.getvalue() == ""


def test_a_byte_order_mark_is_not_a_card(capsys: pytest.CaptureFixture[str], artifacts: Path) -> None:
    assert parse_cards("\ufeffAs Ks Qs Js Ts") == parse_cards("As Ks Qs Js Ts")
    code, out, err = run_main(capsys, "-a", str(artifacts), "showdown", stdin="\ufeffAH 2C 3D 4S 5H KH KC 7D 8S 9C\n")
    assert (code, out, err) == (0, "Black wins.\n", "")


@pytest.mark.parametrize("text,needle", [
    ("AsKs-AhKh", "'-' after 'AsKs' is not part of a card"),
    ("As/Ks Qs Js Ts", "'/' after 'As' is not part of a card"),
    ("As Ks Qs Js Tx", "bad card 'Tx'"),
])
def test_a_bad_card_text_names_what_is_wrong(text: str, needle: str) -> None:
    with pytest.raises(InputError) as err:
        parse_cards(text)
    assert needle in str(err.value)


@pytest.mark.parametrize("token,needle", [
    (":0.5", "no hand before the weight (a weight follows a hand: KK:0.5)"),
    ("[50][/50]", "no hand inside the bracket"),
    ("AsKs-AhKh", "a span runs between hand classes (A5s-A2s, T9s-54s), not combos"),
])
def test_range_tokens_are_named_for_what_is_wrong(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                  token: str, needle: str) -> None:
    code, out, err = run_main(capsys, "-a", str(tmp_path), "range", token)
    assert code == 2 and out == "" and needle in one_error_line(err), err
