"""Video-poker games by common name: every shipped game is found by its own name and by the words
players use ("9/6 jacks", "deuces wild nsud", "nsud", "ddb 9/6"); a name fitting several games is
an error listing exactly those; slugs and paths keep working; a config folder's game is found by
its name; the ``vp`` commands take the names."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_runner import one_error_line, run_main

from pipeline.errors import InputError
from pipeline.registry import set_config_dirs
from pipeline.videopoker.catalog.games import resolve_paytable, search_games

ROOT = Path(__file__).resolve().parent.parent
PAYTABLES = ROOT / "pipeline" / "data" / "paytables"
SHIPPED = sorted(p.stem for p in PAYTABLES.glob("*.toml"))


def _name(slug: str) -> str:
    """The ``name`` line of a shipped TOML, read here with a regular expression."""
    text = (PAYTABLES / f"{slug}.toml").read_text()
    m = re.search(r'^name\s*=\s*"((?:[^"\\]|\\.)*)"', text, re.M)
    assert m, slug
    return m.group(1).replace('\\"', '"')


@pytest.mark.parametrize("slug", SHIPPED)
def test_every_game_is_found_by_its_name_and_slug(slug: str) -> None:
    want = PAYTABLES / f"{slug}.toml"
    assert resolve_paytable(_name(slug)) == want
    assert resolve_paytable(_name(slug).upper()) == want
    assert resolve_paytable(slug) == want
    assert resolve_paytable(str(want)) == want
    assert search_games(_name(slug))[0].slug == slug


@pytest.mark.parametrize("text,slug", [
    ("9/6 jacks", "jacks-or-better-9-6"),
    ("jacks 9/6", "jacks-or-better-9-6"),
    ("Jacks 9-6", "jacks-or-better-9-6"),
    ("job 8/5", "jacks-or-better-8-5"),
    ("jaks 9/5", "jacks-or-better-9-5"),               # a close spelling
    ("deuces wild nsud", "deuces-wild-nsud"),
    ("nsud", "deuces-wild-nsud"),                      # the initials of "Not So Ugly Deuces"
    ("not so ugly deuces", "deuces-wild-nsud"),
    ("full pay deuces", "deuces-wild-full-pay"),
    ("fpdw", "deuces-wild-full-pay"),
    ("double double bonus 9/6", "double-double-bonus-9-6"),
    ("ddb 10/6", "double-double-bonus-10-6"),
    ("tdb", "triple-double-bonus-9-7"),
    ("bonus poker 8/5", "bonus-poker-8-5"),
    ("bonus poker deluxe", "bonus-poker-deluxe-9-6"),
    ("joker poker", "joker-poker-kings"),              # "poker" picks it over Double Joker
    ("double joker", "double-joker-full-pay"),
    ("loose deuces", "loose-deuces"),
    ("white hot aces", "white-hot-aces-9-5"),
    ("jacks or better video poker 9/6", "jacks-or-better-9-6"),
])
def test_common_names(text: str, slug: str) -> None:
    assert resolve_paytable(text) == PAYTABLES / f"{slug}.toml"


@pytest.mark.parametrize("text,prefixes", [
    ("jacks", ("jacks-or-better-",)),
    ("9/6", ("jacks-or-better-9-6", "double-double-bonus-9-6", "bonus-poker-deluxe-9-6")),
    ("deuces wild", ("deuces-wild-", "loose-deuces")),
    ("double bonus", ("double-bonus-", "double-double-bonus-", "super-double-bonus-",
                      "triple-double-bonus-")),
])
def test_ambiguous_names_list_every_candidate(text: str, prefixes: tuple[str, ...]) -> None:
    want = sorted(s for s in SHIPPED if s.startswith(prefixes))
    with pytest.raises(InputError) as exc:
        resolve_paytable(text)
    msg = str(exc.value)
    assert f"fits {len(want)} games" in msg
    assert sorted(re.findall(r"(?:: |; )([a-z0-9-]+) \(", msg)) == want


def test_unknown_names_and_paths() -> None:
    with pytest.raises(InputError, match="did you mean jacks-or-better-9-6"):
        resolve_paytable("jacks-or-better-96")
    with pytest.raises(InputError, match="does not exist"):
        resolve_paytable("nowhere/x.toml")
    with pytest.raises(InputError, match="unknown paytable 'xyzzy'"):
        resolve_paytable("xyzzy")


def test_search_ranks_the_closest_names_first() -> None:
    got = search_games("double bonus")
    # both words in all six; the two named exactly "Double Bonus <pay>" have no other word
    assert [m.slug for m in got[:2]] == ["double-bonus-10-7", "double-bonus-9-7"]
    assert {m.slug for m in got if m.complete} == {s for s in SHIPPED if "double-bonus" in s}
    # games with one of the words come after, not complete
    assert all(not m.complete for m in got[6:]) and any(m.slug == "bonus-poker-8-5" for m in got)
    assert search_games("") == [] and search_games("zzzz") == []
    top = search_games("9/6 jacks")[0].as_json()
    assert top == {"slug": "jacks-or-better-9-6", "name": "Jacks or Better 9/6", "found": 2,
                   "words": 2, "extra": 2, "complete": True, "exact": False}


def test_a_config_folder_game_is_found_by_its_name(tmp_path: Path) -> None:
    folder = tmp_path / "paytables"
    folder.mkdir()
    text = (PAYTABLES / "jacks-or-better-9-6.toml").read_text()
    (folder / "house-special.toml").write_text(
        text.replace('name = "Jacks or Better 9/6"', 'name = "Lucky Seven Special 7/5"'))
    set_config_dirs([tmp_path])
    try:
        assert resolve_paytable("lucky seven 7/5") == folder / "house-special.toml"
        assert resolve_paytable("lss") == folder / "house-special.toml"
    finally:
        set_config_dirs([])


def test_vp_commands_take_common_names(artifacts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = str(artifacts)
    code, out, err = run_main(capsys, "-a", a, "vp", "grade", "Js Jd 5h 8c Qs", "Js Jd", "-p",
                              "9/6 jacks", "--json")
    assert code == 0, err
    g = json.loads(out)
    assert g["name"] == "Jacks or Better 9/6" and g["optimal"]
    code, out, err = run_main(capsys, "-a", a, "vp", "hold", "2s 2d 5h 8c Qs", "-p", "nsud", "--json")
    assert code == 0, err
    assert json.loads(out)["name"] == 'Deuces Wild "Not So Ugly Deuces"'
    code, out, err = run_main(capsys, "-a", a, "vp", "deal", "-p", "ddb 9/6", "--seed", "3", "--json")
    assert code == 0, err
    assert json.loads(out)["slug"] == "double-double-bonus-9-6"
    code, out, err = run_main(capsys, "-a", a, "vp", "analyze", "jacks")
    assert code == 2 and out == ""
    assert "fits 3 games" in one_error_line(err)


def test_search_box_words_and_the_api_filter(artifacts: Path) -> None:
    from pipeline.answers import Context
    from pipeline.answers.vp import games

    complete = lambda q: [m.slug for m in search_games(q) if m.complete]  # noqa: E731
    assert complete("jac") == [s for s in SHIPPED if s.startswith("jacks-or-better-")]
    assert sorted(complete("dou bon 9")) == ["double-bonus-9-7", "double-double-bonus-9-6",
                                             "super-double-bonus-9-5", "triple-double-bonus-9-7"]
    rows = games(Context(artifacts), "9/6 jacks")
    assert [r["slug"] for r in rows] == ["jacks-or-better-9-6"] and rows[0]["name"] == "Jacks or Better 9/6"
    assert len(games(Context(artifacts))) == len(SHIPPED)
    assert [r["slug"] for r in games(Context(artifacts), "deuces wild")][0] == "deuces-wild-full-pay"
