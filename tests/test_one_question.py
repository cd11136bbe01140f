"""Issue 41: one question from every door. The same bad question asked through the command line,
the HTTP API, the Python API, the breakdown, hits and every game gets the same message naming the
same field (the command line writing the field as its flag); and a board given on the command
line reaches the planner inside one question object, read once.

Cheap by design: the command line in process (its process behaviour is tested elsewhere), one
server for the module, no kernel runs."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_runner import run_main

import pipeline
from pipeline.cli.common import flag
from pipeline.equity.breakdown import equity_breakdown
from pipeline.equity.engine import equity_seats, preflop
from pipeline.equity.games.spec import GAMES
from pipeline.equity.hand_api import omaha_equity
from pipeline.equity.question import Ask, Question
from pipeline.errors import InputError
from pipeline.query.tables import Tables

#: a valid hero of each game (hold'em first), and whether the game has a board
HEROES = {"holdem": ("AsKs", True), "omaha": ("AsAdKsKd", True), "omaha5": ("AsAdKsKdQc", True),
          "omaha6": ("AsAdKsKdQcJc", True), "omaha-hi-lo": ("AsAdKsKd", True),
          "short-deck": ("AsKs", True), "stud": ("AsKs2c", False), "stud-hi-lo": ("AsKs2c", False),
          "razz": ("AsKs2c", False)}
assert set(HEROES) == {"holdem", *GAMES}

#: the bad questions: (name, keyword arguments of Question.parse, the field at fault)
BAD = [
    ("thirty opponents", {"opponents": 30}, "opponents"),
    ("a dead card in the hero's hand", {"dead": "As"}, "hero"),
    ("no samples", {"samples": 0}, "samples"),
    ("a negative seed", {"samples": 1000, "seed": -1}, "seed"),
]
#: the same, for the games with a board: a card both on the board and dead
BOARD_BAD = ("a board card dead too", {"board": "Ks 7d 8c", "dead": "Ks"}, "dead")


def expected(hero: str, game: str, kw: dict[str, Any]) -> InputError:
    """The one validator's error for the question."""
    with pytest.raises(InputError) as info:
        Question.parse(hero, **kw, game=None if game == "holdem" else game)
    return info.value


def cli_args(hero: str, game: str, kw: dict[str, Any]) -> list[str]:
    """The command line of the question."""
    args = ["equity", hero]
    if game != "holdem":
        args += ["--game", game]
    for k, v in kw.items():
        args += ["-n" if k == "opponents" else f"--{k}", str(v)]
    return args


@pytest.fixture(scope="module")
def http(artifacts: Path) -> Iterator[Callable[[str, dict[str, Any]], tuple[int, str]]]:
    """POST a body to a server on loopback (one per module): (status, the error message)."""
    from serve_harness import running_server

    with running_server(artifacts) as client:
        def post(path: str, body: dict[str, Any]) -> tuple[int, str]:
            r = client.post(path, body)
            return r.status, r.body.get("error", "")
        yield post


def _cli_error(capsys: pytest.CaptureFixture[str], artifacts: Path, args: list[str]) -> str:
    code, _, err = run_main(capsys, "-a", str(artifacts), *args)
    assert code == 2, (args, err)
    return err.strip()


def _python_error(call: Callable[[], object]) -> InputError:
    with pytest.raises(InputError) as info:
        call()
    return info.value


CASES = [(game, *bad) for game in HEROES for bad in BAD] + \
        [(game, *BOARD_BAD) for game, (_, board) in HEROES.items() if board]


@pytest.mark.parametrize(("game", "name", "kw", "field"), CASES,
                         ids=[f"{c[0]}: {c[1]}" for c in CASES])
def test_every_door_gives_the_same_message(capsys: pytest.CaptureFixture[str], artifacts: Path,
                                           tables: Tables, http: Any, game: str, name: str,
                                           kw: dict[str, Any], field: str) -> None:
    hero = HEROES[game][0]
    want = expected(hero, game, kw)
    assert want.field == field, (want.field, str(want))
    assert field in str(want), str(want)  # the message names the field ...
    on_cli = want.render(flag)
    if want.template and "{" + field + "}" in want.template:
        assert flag(field) in on_cli  # ... and the command line its flag
    # the command line, equity and its breakdown
    assert _cli_error(capsys, artifacts, cli_args(hero, game, kw)) == f"error: {on_cli}"
    # the HTTP API, equity
    body = {"hero": hero, **kw, **({} if game == "holdem" else {"game": game})}
    assert http("/api/equity", body) == (400, str(want))
    # the Python API
    g = None if game == "holdem" else game
    got = _python_error(lambda: equity_seats(tables, hero, game=g, **kw))
    assert (got.field, str(got)) == (field, str(want))
    if game == "holdem":
        for call in (lambda: pipeline.hand_equity(tables, hero, **kw),
                     lambda: equity_breakdown(tables, hero, **kw),
                     lambda: equity_breakdown(tables, hero, **kw, seat=1)):
            got = _python_error(call)
            assert (got.field, str(got)) == (field, str(want))
        assert _cli_error(capsys, artifacts, [*cli_args(hero, game, kw), "--breakdown"]) == \
            f"error: {on_cli}"
        assert http("/api/equity", {**body, "breakdown": 0}) == (400, str(want))
    if game == "omaha":
        got = _python_error(lambda: omaha_equity(tables, hero, **{k: v for k, v in kw.items()
                                                                  if k != "opponents"},
                                                 opponents=kw.get("opponents", 1)))
        assert (got.field, str(got)) == (field, str(want))


def test_preflop_and_hits_doors(capsys: pytest.CaptureFixture[str], artifacts: Path,
                                tables: Tables, http: Any) -> None:
    """The preflop command's player cap and hits' card check are the equity question's."""
    want = expected("AK", "holdem", {"opponents": 30})
    assert _cli_error(capsys, artifacts, ["preflop", "AK", "-n", "30"]) == f"error: {want.render(flag)}"
    assert http("/api/preflop", {"hand": "AK", "opponents": 30}) == (400, str(want))
    got = _python_error(lambda: preflop(tables, "AK", opponents=30))
    assert (got.field, str(got)) == ("opponents", str(want))
    want = expected("AK", "holdem", BOARD_BAD[1])
    assert _cli_error(capsys, artifacts, ["hits", "AK", "--board", "Ks 7d 8c", "--dead", "Ks"]) == \
        f"error: {want.render(flag)}"
    assert http("/api/hits", {"range": "AK", "board": "Ks 7d 8c", "dead": "Ks"}) == (400, str(want))
    got = _python_error(lambda: Question.parse("AK", board="Ks 7d 8c", dead="Ks", ask=Ask.HITS))
    assert (got.field, str(got)) == ("dead", str(want))


#: a command-line flag as a message would write it: ``--samples``, ``-n`` (after a space, a
#: bracket, a slash, a quote or a backtick)
FLAG_TEXT = re.compile(r"(^|[\s(/'\"`])(--[a-z][a-z-]*|-[a-z])\b")


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the docstring constants of a module, its classes and functions (prose for
    readers, which may show a command line; never a message)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) \
                and node.body and isinstance(node.body[0], ast.Expr) \
                and isinstance(node.body[0].value, ast.Constant):
            out.add(id(node.body[0].value))
    return out


def _flag_texts(path: Path) -> list[str]:
    """Every string constant of a module but its docstrings (messages, f-string parts, message
    templates kept in variables) that names a command-line flag."""
    tree = ast.parse(path.read_text())
    docs = _docstrings(tree)
    return [f"{path.name}:{node.lineno}: {node.value!r}" for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and id(node) not in docs and FLAG_TEXT.search(node.value)]


def test_engine_messages_name_no_flag() -> None:
    """No string the engine, video poker or the answers write names a command-line flag: their
    messages name fields (``{samples}``), which each door writes its own way. Every string
    constant counts (an error's text, an f-string's parts, a template kept in a variable), not
    only those written inside an error's call; docstrings are prose and do not."""
    root = Path(pipeline.__file__).parent
    bad = [hit for sub in ("equity", "videopoker", "answers")
           for path in sorted((root / sub).rglob("*.py")) for hit in _flag_texts(path)]
    assert bad == []


def test_the_checker_sees_a_flag_and_the_command_line_names_its_flags(tmp_path: Path) -> None:
    """The check above finds a flag in a message (and not in a docstring); the command line's
    own messages do name flags, each field written as the door's flag."""
    probe = tmp_path / "probe.py"
    probe.write_text('"""Run `pokertables equity AsKs -n 3`."""\n'
                     'def f(n):\n    """--samples in prose."""\n'
                     '    raise ValueError(f"give --samples or {n}")\n'
                     'MESSAGE = "use -n K"\n')
    assert sorted(h.split(": ", 1)[1] for h in _flag_texts(probe)) == ["'give --samples or '",
                                                                        "'use -n K'"]
    assert (flag("opponents"), flag("samples"), flag("time")) == ("-n", "--samples", "--time")
    cli = Path(pipeline.__file__).parent / "cli"
    assert any(_flag_texts(path) for path in cli.rglob("*.py"))  # the CLI's messages name flags
    e = InputError("{samples} must be 1 or more", field="samples")
    assert (str(e), e.render(flag)) == ("samples must be 1 or more", "--samples must be 1 or more")


#: command lines whose board walks to the engine: (what they ask, the arguments after the
#: command name, whether the planner answers (hits reads its one question itself))
WALKS = [
    ("hold'em", ["equity", "AsKs", "--vs", "QdQc"], True),
    ("omaha", ["equity", "AsAdKsKd", "--game", "omaha", "--vs", "QdQcJhJd"], True),
    ("breakdown", ["equity", "AKs", "--vs", "QdQc", "--breakdown"], True),
    ("hits", ["hits", "AK,QQ"], False),
]


@pytest.mark.parametrize(("name", "args", "planned"), WALKS, ids=[w[0] for w in WALKS])
def test_a_board_walks_to_the_planner_in_one_question(capsys: pytest.CaptureFixture[str],
                                                      artifacts: Path,
                                                      monkeypatch: pytest.MonkeyPatch, name: str,
                                                      args: list[str], planned: bool) -> None:
    """``--board`` is read once, into the one question the planner gets whole (the breakdown:
    that question with one combo's seat or budget replaced, never a question made again; hits
    reads the question itself)."""
    import dataclasses

    import pipeline.core.cards as cards
    import pipeline.equity.breakdown as breakdown
    import pipeline.equity.planner as planner
    import pipeline.equity.question as question

    board = "2c 7h 9s"
    question._card_text.cache_clear()
    question._parsed_question.cache_clear()
    reads: list[object] = []
    made: list[Question] = []
    solved: list[Question] = []
    parse_cards, from_cards, solve = cards.parse_cards, Question.from_cards, planner.solve

    def counting_parse(text: Any, count: Any = None) -> list[int]:
        if text == board:
            reads.append(text)
        return parse_cards(text, count)

    def counting_from_cards(*args: Any, **kw: Any) -> Question:
        q = from_cards(*args, **kw)
        made.append(q)
        return q

    def counting_solve(q: Question, *args: Any, **kw: Any) -> Any:
        solved.append(q)
        return solve(q, *args, **kw)

    monkeypatch.setattr(question, "parse_cards", counting_parse)
    monkeypatch.setattr(Question, "from_cards", counting_from_cards)
    monkeypatch.setattr(planner, "solve", counting_solve)
    monkeypatch.setattr(breakdown, "solve", counting_solve)
    code, out, err = run_main(capsys, "-a", str(artifacts), *args, "--board", board, "--json")
    assert code == 0, err
    assert len(reads) == 1 and len(made) == 1
    assert made[0].board == tuple(parse_cards(board))
    if not planned:
        assert solved == []
        return
    assert solved and all(q.board == made[0].board and q.dead == made[0].dead for q in solved)
    if name != "breakdown":
        assert solved == made
        return
    # each combo's question is the one question with its first seat or budget replaced
    for q in solved:
        same = {f.name for f in dataclasses.fields(Question)
                if getattr(q, f.name) == getattr(made[0], f.name)}
        assert {"board", "dead", "game", "ask"} <= same, q
