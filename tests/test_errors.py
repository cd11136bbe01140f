"""One error hierarchy: user-fixable errors are PokertablesError subclasses and exit 2 with one
``error:`` line; anything else is a bug and exits 1 with an ``internal error`` line."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_runner import as_a_process, run_cli, run_main

import pipeline
from pipeline.cli import main
from pipeline.core.cards import parse_cards
from pipeline.errors import ArtifactError, ConfigError, InputError, PokertablesError

ROOT = Path(__file__).resolve().parent.parent


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    with as_a_process(), pytest.raises(SystemExit) as exc:
        main(list(args))
    return int(exc.value.code or 0), capsys.readouterr().err


def test_hierarchy(tmp_path: Path) -> None:
    assert issubclass(InputError, ValueError) and issubclass(ConfigError, InputError)
    assert issubclass(ArtifactError, PokertablesError) and not issubclass(ArtifactError, ValueError)
    assert pipeline.InputError is InputError  # the public names are the same classes
    with pytest.raises(InputError, match="bad card 'Xx'"):
        parse_cards("As Xx")
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\ncolour = 1\n')
    with pytest.raises(ConfigError, match="unknown key 'colour'"):
        pipeline.load_paytable(bad)
    with pytest.raises(InputError, match="paytable file .*missing.toml does not exist"):
        pipeline.load_paytable(tmp_path / "missing.toml")


@pytest.mark.parametrize("boom", [ZeroDivisionError("division by zero"), ValueError("a bug, not input")])
def test_genuine_bug_exits_1_not_2(artifacts: Path, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch, boom: Exception) -> None:
    from pipeline.query.tables import Tables

    def broken(self: Tables, hand: object) -> dict[str, object]:
        raise boom

    monkeypatch.setattr(Tables, "describe", broken)
    code, err = _main(capsys, "-a", str(artifacts), "eval", "As Ks Qs Js Ts")
    assert code == 1
    assert err.startswith(f"internal error: {type(boom).__name__}: ") and "--debug" in err


def test_bad_input_exits_2(artifacts: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _main(capsys, "-a", str(artifacts), "eval", "As Ks Qs Js Tx")
    assert code == 2 and err.startswith("error: bad card 'Tx'")


def test_missing_user_file_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, err = _main(capsys, "showdown", str(tmp_path / "nope.txt"))
    assert code == 2 and err.startswith("error: ") and "nope.txt" in err and err.count("\n") == 1


@pytest.mark.parametrize("text,needle", [
    ("[five]\ncolour = 1\n", "[five] unknown key 'colour'"),
    ("[fivee]\nenabled = true\n", "unknown key 'fivee'"),
    ("colour = 1\n", "unknown key 'colour'"),
    ("[paytables]\nslugs = [\"no-such-game\"]\n", "unknown paytable 'no-such-game'"),
])
def test_build_config_rejects_unknown_keys(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch, text: str, needle: str) -> None:
    """The first case in a real process, the others in this one (from ``tmp_path`` too)."""
    cfg = tmp_path / "build.toml"
    cfg.write_text(text)
    args = ("-a", str(tmp_path / "art"), "build", "--config", str(cfg), "--dry-run")
    if text.startswith("[five]"):
        r = run_cli(*args, cwd=tmp_path)
        code, err = r.returncode, r.stderr
    else:
        monkeypatch.chdir(tmp_path)
        code, _, err = run_main(capsys, *args)
    assert code == 2, err
    assert err.startswith("error: ") and needle in err
    assert not (tmp_path / "art").exists()


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(capsys, "--version")
    assert code == 0
    assert out.strip() == f"pokertables {pipeline.__version__}"
