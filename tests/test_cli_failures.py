"""Issue 29, item 3: every failure speaks one language. Every ``--help`` page opens; usage
errors are one ``error:`` line on stderr (no boxes); with ``--json`` every error, usage errors
included, is one ``{"error": ...}`` object on stdout with exit 2; ``--version`` and ``warm``
take ``--json``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_runner import one_error_line, run_main


def _commands() -> Iterator[tuple[list[str], Any]]:
    """(path, click command) of the root, every group and every command, registered as the
    console script registers them."""
    import typer.main

    from pipeline.cli import _register
    from pipeline.cli.common import app

    _register()
    todo: list[tuple[list[str], Any]] = [([], typer.main.get_command(app))]
    while todo:
        path, cmd = todo.pop()
        yield path, cmd
        todo.extend((path + [name], sub) for name, sub in getattr(cmd, "commands", {}).items())


ALL = sorted(path for path, _ in _commands())
LEAVES = sorted(path for path, cmd in _commands() if not hasattr(cmd, "commands"))


def test_the_walk_sees_every_command() -> None:
    assert ["range"] in LEAVES and ["vp", "analyze"] in LEAVES and ["vp"] in ALL and [] in ALL
    assert len(LEAVES) >= 19


@pytest.mark.parametrize("path", ALL, ids=lambda p: " ".join(p) or "pokertables")
def test_every_help_page_opens(capsys: pytest.CaptureFixture[str], path: list[str]) -> None:
    """``range --help`` crashed: its help text holds ``[50]KK,QQ[/50]``, which rich read as
    markup. Help text is shown as written."""
    code, out, err = run_main(capsys, *path, "--help")
    assert code == 0 and err == "", err[-2000:]
    assert "Usage: pokertables" in out
    if path == ["range"]:
        assert "[50]KK,QQ[/50]" in out


@pytest.mark.parametrize("path", LEAVES, ids=lambda p: " ".join(p))
def test_every_command_says_a_usage_error_in_json(capsys: pytest.CaptureFixture[str],
                                                  path: list[str]) -> None:
    code, out, err = run_main(capsys, *path, "--json", "--no-such-option")
    assert code == 2 and err == "", err[-2000:]
    answer = json.loads(out)
    assert list(answer) == ["error"] and answer["error"].startswith("No such option: --")
    assert answer["error"].endswith(f"(see `pokertables {' '.join(path)} --help`)")


def test_the_query_commands_take_json() -> None:
    """README: every command takes ``--json`` (``serve``, a server, answers in JSON anyway)."""
    lacking = [" ".join(path) for path, cmd in _commands()
               if not hasattr(cmd, "commands") and path != ["serve"]
               and "--json" not in [o for p in cmd.params for o in getattr(p, "opts", [])]]
    assert lacking == []


@pytest.mark.parametrize("args,needle", [
    (["hits", "AA"], "Missing option '--board'"),
    (["eval"], "Missing argument 'cards'"),
    (["--bogus"], "No such option: --bogus"),
    (["nosuch"], "No such command 'nosuch'"),
    (["vp", "nosuch"], "No such command 'nosuch'"),
    (["equity", "AsKs", "--vs", "QdQc", "-n", "x"], "'--opponents'"),
    (["bucket"], "HOLE"),
])
def test_usage_errors_are_one_line(capsys: pytest.CaptureFixture[str], args: list[str],
                                   needle: str) -> None:
    code, out, err = run_main(capsys, *args)
    assert code == 2 and out == "", out
    assert needle in one_error_line(err) and "╭" not in err and "Usage:" not in err


@pytest.mark.parametrize("args,needle", [
    (["equity", "AKx"], "bad range token 'AKx'"),
    (["eval", "As Ks Qs Js Xx"], "Xx"),
    (["hits", "AA"], "Missing option '--board'"),
    (["eval"], "Missing argument 'cards'"),
    (["bucket", "AhXx"], "Xx"),
    (["vp", "analyze", "no-such-game"], "no-such-game"),
    (["nosuch"], "No such command"),
])
def test_json_errors_are_json_on_stdout(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                        args: list[str], needle: str) -> None:
    code, out, err = run_main(capsys, "-a", str(tmp_path), *args, "--json")
    assert code == 2 and err == "", err[-2000:]
    answer = json.loads(out)
    assert list(answer) == ["error"] and needle in answer["error"], answer


def test_version_takes_json(capsys: pytest.CaptureFixture[str]) -> None:
    from pipeline.version import __version__

    assert run_main(capsys, "--version", "--json") == (0, json.dumps({"version": __version__}) + "\n", "")
    assert run_main(capsys, "--json", "--version")[1] == json.dumps({"version": __version__}) + "\n"
    assert run_main(capsys, "--version") == (0, f"pokertables {__version__}\n", "")


def test_warm_takes_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """An empty folder: nothing to compile against, said as JSON."""
    code, out, err = run_main(capsys, "-a", str(tmp_path), "warm", "--json")
    assert code == 0 and err == "", err
    assert json.loads(out)["skipped"] is True


@pytest.mark.parametrize("as_json", [False, True])
def test_an_internal_error_is_one_line_or_one_object(capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch, as_json: bool) -> None:
    """A bug (here a parser that raises RuntimeError) exits 1 with an ``internal error:`` line,
    or its JSON object with ``--json``; no traceback either way."""
    import pipeline.core.cards

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(pipeline.core.cards, "parse_cards", broken)
    code, out, err = run_main(capsys, "eval", "As Ks Qs Js Ts", *(["--json"] if as_json else []))
    said = "internal error: RuntimeError: boom (run with --debug for a traceback)"
    assert code == 1 and "Traceback" not in out + err
    assert (out, err) == ((json.dumps({"error": said}) + "\n", "") if as_json else ("", said + "\n"))


def test_showdown_bad_lines_speak_the_same_language(capsys: pytest.CaptureFixture[str],
                                                    artifacts: Path) -> None:
    """Text: one ``error:`` line per bad line on stderr; ``--json``: the object's ``errors`` and
    nothing on stderr (it printed plain ``line N:`` lines there too); exit 2 either way."""
    text = "AH 2C 3D 4S 5H KH KC 7D 8S 9C\n2H 3D 5S\n"
    code, out, err = run_main(capsys, "-a", str(artifacts), "showdown", stdin=text)
    assert code == 2 and out == "Black wins.\n"
    assert err.startswith("error: line 2: ") and len(err.splitlines()) == 1, err
    code, out, err = run_main(capsys, "-a", str(artifacts), "showdown", "--json", stdin=text)
    assert code == 2 and err == "", err
    assert [e["line"] for e in json.loads(out)["errors"]] == [2]


def test_debug_works_after_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    """The internal-error hint says 'run with --debug': it is taken after a command too (it was
    'No such option: --debug' there, e.g. ``range --help --debug``)."""
    from pipeline.errors import InputError

    code, out, err = run_main(capsys, "range", "--help", "--debug")
    assert code == 0 and "Usage: pokertables range" in out and err == ""
    with pytest.raises(InputError, match="expected 5 or 6 or 7 cards"):
        run_main(capsys, "eval", "AsKs", "--debug")  # the exception itself, for its traceback
