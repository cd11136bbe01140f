"""Property-based fuzzing (hypothesis) of the paytable loader and the showdown reader:
arbitrary input gives a result or one clear ValueError, never a crash."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.core.cards import format_cards, parse_cards
from pipeline.showdown import VERDICTS, judge
from pipeline.videopoker.paytables.paytable import parse_paytable

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


# ---------------------------------------------------------------- issue 10: configs, manifests, arrays
plain_text = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=12)
config_value = st.one_of(st.integers(-2**70, 2**70), st.floats(allow_nan=True), st.booleans(),
                         plain_text, st.lists(st.integers(-3, 12), max_size=4),
                         st.lists(plain_text, max_size=3))


def _toml_value(v: object) -> str:
    import json

    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        return ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return json.dumps(v, ensure_ascii=False)


def _toml_doc(sections: dict) -> str:
    return "".join(f"[{name}]\n" + "".join(f"{k} = {_toml_value(v)}\n" for k, v in sec.items())
                   for name, sec in sections.items())
config_keys = st.sampled_from(["enabled", "zstd_level", "sets", "dir", "heads_up", "opponents",
                               "stderr_target", "seed", "first_round", "max_samples", "colour"])
config_sections = st.sampled_from(["five", "six", "seven", "seven_parquet", "rules", "paytables",
                                   "preflop", "vp_classes", "bogus"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(config_sections, st.dictionaries(config_keys, config_value, max_size=4), max_size=4))
def test_build_config_is_valid_or_one_clear_error(tmp_path_factory, sections: dict) -> None:  # type: ignore[no-untyped-def]
    """Any config either loads with every value in range, or fails naming the file: nothing else."""
    from pipeline.build.config import SCHEMA, load_config
    from pipeline.errors import ConfigError

    p = tmp_path_factory.mktemp("cfg") / "build.toml"
    p.write_text(_toml_doc(sections))
    try:
        cfg = load_config(p)
    except ConfigError as exc:
        assert str(p) in str(exc) and "\n" not in str(exc).strip() and len(str(exc)) < 400
    else:
        for name, sec in cfg.sections.items():
            for k, v in sec.items():
                assert SCHEMA[name][k](v) is None


manifest_value = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8)),
                              lambda c: st.one_of(st.lists(c, max_size=3),
                                                  st.dictionaries(st.text(max_size=8), c, max_size=3)),
                              max_leaves=12)
entry = st.fixed_dictionaries({}, optional={"bytes": manifest_value, "sha256": st.one_of(
    manifest_value, st.just("0" * 64)), "datasets": manifest_value, "mtime_ns": manifest_value})


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.one_of(manifest_value, st.fixed_dictionaries({"files": st.one_of(
    manifest_value, st.dictionaries(st.sampled_from(["five.h5", "../x", "/etc/passwd", ""]), entry,
                                    max_size=3))}, optional={"stages": manifest_value})))
def test_manifest_of_any_shape_is_refused_or_checked(tmp_path_factory, manifest: object) -> None:  # type: ignore[no-untyped-def]
    """Readers and verify answer any manifest with an ArtifactError or a report, never a crash."""
    import json

    from pipeline.build.verify import verify
    from pipeline.errors import ArtifactError
    from pipeline.query.tables import Tables

    folder = tmp_path_factory.mktemp("mf")
    (folder / "manifest.json").write_text(json.dumps(manifest))
    try:
        Tables(folder).score5("As Ks Qs Js Ts")
    except ArtifactError as exc:
        assert "\n" not in str(exc)
    else:
        raise AssertionError("a folder without five.h5 cannot answer")
    rep = verify(folder, content=False, stages=["five"])
    assert not rep.ok


@settings(max_examples=200, deadline=None)
@given(st.one_of(
    st.lists(st.one_of(st.integers(-2**66, 2**66), st.booleans(), st.floats(allow_nan=True), st.text(max_size=3)),
             max_size=9),
    st.builds(lambda shape, kind: np.zeros(shape, dtype=kind),
              st.lists(st.integers(0, 8), min_size=0, max_size=3).map(tuple),
              st.sampled_from([np.int64, np.uint8, np.int8, np.float64, np.bool_, np.uint64, np.uint16])),
    st.builds(lambda rows: np.array(rows, dtype=np.int64),
              st.lists(st.lists(st.integers(-60, 60), min_size=7, max_size=7), min_size=1, max_size=5))))
def test_api_inputs_score_or_one_clear_error(tables, hand: object) -> None:  # type: ignore[no-untyped-def]
    """score7 on any list or array: valid scores 1..7462, or a ValueError - never a wrong number."""
    try:
        out = tables.score7(hand)
    except ValueError as exc:
        assert str(exc) and "\n" not in str(exc)
    else:
        vals = np.atleast_1d(np.asarray(out))
        assert vals.size == 0 or (vals.min() >= 1 and vals.max() <= 7462)
        if isinstance(hand, list):
            assert all(type(c) is int for c in hand) and len(set(hand)) == 7
