"""Numbers are read by their type and in ASCII digits (issue 38, item 9).

Python reads ``int("٨")`` as 8 and ``int("8_0")`` as 80, and a lax request model reads
``"samples": true`` as 1 and ``"exact": "yes"`` as true: each of these is refused here, naming the
value, at every door (a pay edit, a break-even amount, a range weight, a CLI count, an HTTP body).
The Dask workers' code digest covers the package data and the numeric libraries' versions."""

from __future__ import annotations

import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from cli_runner import one_error_line, run_main
from pydantic import ValidationError

from pipeline.errors import InputError

#: digits of other scripts, and separators, that Python's int/float/Fraction accept
NOT_ASCII = ["٨", "８", "8_0", "1_000", "৮"]


@pytest.mark.parametrize("pay", NOT_ASCII + ["nan", "inf", "0x10"])
def test_a_pay_edit_takes_ascii_digits_only(pay: str) -> None:
    from pipeline.videopoker.catalog.games import load_named
    from pipeline.videopoker.paytables.edit import edit_pays

    pt = load_named("jacks-or-better-9-6")
    with pytest.raises(InputError, match="is not (a|a finite) number"):
        edit_pays(pt, [f"full house={pay}"])
    assert edit_pays(pt, ["full house=8"]).pays[pt.labels.index("full house")] == 8
    assert edit_pays(pt, ["flush = 5.5"]).pays[pt.labels.index("flush")] == Fraction(11, 2)


@pytest.mark.parametrize("text", ["٩٩%", "1_0", "９", "99.5_0"])
def test_break_even_amounts_take_ascii_digits_only(text: str) -> None:
    from pipeline.videopoker.tools.breakeven import parse_amount

    with pytest.raises(InputError, match="finite number"):
        parse_amount(text, "--step")
    assert parse_amount("99.5%", "--target", pay=False) == Fraction(199, 200)
    assert parse_amount("1/3", "--target", pay=False) == Fraction(1, 3)


@pytest.mark.parametrize("text", ["AKo:٠.٥", "AKo:0.5_0", "[٥٠]AKo[/٥٠]", "٥%"])
def test_range_weights_take_ascii_digits_only(text: str) -> None:
    from pipeline.equity.ranges.parse import parse_range

    with pytest.raises(InputError):
        parse_range(text, lambda opponents=1: None)
    assert float(parse_range("AKo:0.5").weights.max()) == 0.5


def test_omaha_range_weights_take_ascii_digits_only() -> None:
    from pipeline.equity.games.ranges import parse_game_range

    with pytest.raises(InputError, match="weight"):
        parse_game_range("AAxx:٠.٥", 4)


@pytest.mark.parametrize(("args", "needle"), [
    (["vp", "deal", "--count", "1_0"], "'1_0' is not a whole number"),
    (["vp", "deal", "--seed", "٧"], "'٧' is not a whole number"),
    (["equity", "AsKs", "--samples", "1_000"], "'1_000' is not a whole number"),
    (["equity", "AsKs", "--time", "nan"], "'nan' is not a number"),
    (["vp", "chart", "jacks-or-better-9-6", "--max-lines", "1"], "1 is below 2"),
    (["vp", "hold", "Js Jd 5h 8c Qs", "-p", "jacks-or-better-9-6", "--pay", "full house=٨"],
     "pay '٨' is not a number"),
])
def test_cli_counts_take_ascii_digits_only(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           args: list[str], needle: str) -> None:
    code, out, err = run_main(capsys, "-a", str(tmp_path / "none"), *args)
    assert code == 2 and out == "" and needle in one_error_line(err), err
    assert "Value error" not in err


@pytest.mark.parametrize(("kind", "body", "field"), [
    ("equity", {"hero": "AsKs", "samples": True}, "samples"),
    ("equity", {"hero": "AsKs", "samples": "1000"}, "samples"),
    ("equity", {"hero": "AsKs", "samples": 1000.0}, "samples"),
    ("equity", {"hero": "AsKs", "exact": "yes"}, "exact"),
    ("equity", {"hero": "AsKs", "exact": 1}, "exact"),
    ("equity", {"hero": "AsKs", "seed": False}, "seed"),
    ("vp/deal", {"count": True}, "count"),
    ("vp/chart", {"paytable": "jacks-or-better-9-6", "derive": "true"}, "derive"),
    ("vp/chart", {"paytable": "jacks-or-better-9-6", "max_lines": "10"}, "max_lines"),
])
def test_request_bodies_take_values_by_their_json_type(kind: str, body: dict[str, object],
                                                        field: str) -> None:
    from pipeline.serve.models import MODELS

    with pytest.raises(ValidationError) as exc:
        MODELS[kind].model_validate(body)
    assert exc.value.errors()[0]["loc"] == (field,)


def test_request_bodies_still_take_what_they_should() -> None:
    from pipeline.serve.models import MODELS

    b = MODELS["equity"].model_validate({"hero": "AsKs", "samples": 1000, "stderr": 1, "exact": False})
    assert (b.samples, b.stderr, b.exact) == (1000, 1.0, False)  # a JSON 1 is a fine float


def test_the_worker_digest_covers_package_data_and_library_versions(tmp_path: Path) -> None:
    """A worker with another paytable file, another numba or another Python is other code."""
    from pipeline.build.executor import code_digest, runtime_versions, tree_digest

    root = Path(__file__).resolve().parent.parent / "pipeline"
    copy = tmp_path / "pipeline"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns("__pycache__"))
    versions = runtime_versions()
    assert {"python", "numpy", "numba", "llvmlite"} <= set(versions)
    base = tree_digest(copy, versions)
    assert base == code_digest()  # the package as this process runs it
    toml = copy / "data" / "paytables" / "jacks-or-better-9-6.toml"
    toml.write_text(toml.read_text().replace("9", "8", 1))
    assert tree_digest(copy, versions) != base
    shutil.copy2(root / "data" / "paytables" / "jacks-or-better-9-6.toml", toml)
    assert tree_digest(copy, versions) == base
    for lib in ("numba", "numpy", "python"):
        assert tree_digest(copy, {**versions, lib: "0.0"}) != base
