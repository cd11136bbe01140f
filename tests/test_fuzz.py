"""Property-based fuzzing (hypothesis) of the paytable loader and the showdown reader:
arbitrary input gives a result or one clear ValueError, never a crash."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.core.cards import format_cards, parse_cards
from pipeline.showdown import VERDICTS, judge
from pipeline.videopoker.paytable import parse_paytable

HANDS = ["royal flush", "wild royal flush", "five of a kind", "four deuces", "straight flush",
         "four of a kind", "full house", "flush", "straight", "three of a kind", "two pair",
         "pair", "nonsense", ""]
KEYS = ["hand", "pays", "ranks", "kicker", "label", "colour"]

toml_value = st.one_of(st.integers(-5, 1000), st.sampled_from(HANDS), st.text(max_size=6),
                       st.floats(allow_nan=True), st.booleans())
line = st.dictionaries(st.sampled_from(KEYS), toml_value, max_size=4)


def _toml(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v) if v == v and abs(v) != float("inf") else "nan"
    return '"' + str(v).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wild=st.sampled_from(["none", "deuces", "joker", "other", 3]), lines=st.lists(line, max_size=6),
       junk=st.text(max_size=20))
def test_paytable_loader_never_crashes(wild: object, lines: list[dict], junk: str) -> None:
    text = f"name = \"fuzz\"\nwild = {_toml(wild)}\n"
    for ln in lines:
        text += "[[line]]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in ln.items())
    for candidate in (text, text + junk):
        try:
            pt = parse_paytable(candidate, where="fuzz.toml")
        except ValueError as exc:
            msg = str(exc)
            assert msg and "\n" not in msg.strip() and "fuzz.toml" in msg
        else:
            assert pt.name == "fuzz" and len(pt.pays) >= 1


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_showdown_reader_never_crashes_on_bytes(tables, data: bytes) -> None:
    res = judge(data, tables.table(5))
    ok = int((res.status == 0).sum())
    assert res.output.count(b"\n") == ok
    assert all(1 <= ln for ln, _ in res.errors)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(0, 51), min_size=10, max_size=10, unique=True), min_size=1,
                max_size=20), st.sampled_from([" ", "", ","]), st.booleans())
def test_showdown_reader_agrees_with_table(tables, deals: list[list[int]], sep: str,
                                           lower: bool) -> None:
    text = "\n".join((sep if sep else "").join(format_cards(d).split()) if sep != " " else format_cards(d)
                     for d in deals)
    text = text.lower() if lower else text
    res = judge(text.encode(), tables.table(5))
    want = []
    for d in deals:
        b, w = tables.score5(d[:5]), tables.score5(d[5:])
        want.append(VERDICTS[0] if b > w else VERDICTS[1] if w > b else VERDICTS[2])
    assert res.output.decode().splitlines() == want and not res.errors
    assert [parse_cards(x) for x in text.splitlines()] == deals
    assert np.all(res.status == 0)
