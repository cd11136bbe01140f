"""The ``pokertables`` command line (typer): one module per command group, each registering on
the application of :mod:`pipeline.cli.common` (which also holds what the groups share):

* :mod:`pipeline.cli.build`: ``build``, ``verify``, ``warm``
* :mod:`pipeline.cli.equity`: ``equity``, ``preflop``, ``range``, ``hits``
* :mod:`pipeline.cli.hands`: ``eval``, ``showdown``
* :mod:`pipeline.cli.vp`: the ``vp`` group, a package of three modules (``play``, ``games``, ``draw``)
* :mod:`pipeline.cli.bucket`: ``bucket`` (the card-abstraction tables)
* :mod:`pipeline.cli.casino`: the ``casino`` group (house-banked poker games)
* :mod:`pipeline.cli.serve`: ``serve`` (the JSON API and the page, :mod:`pipeline.serve`)

This package imports the module of the command a line names (all of them for the root's help
or an unknown command: :func:`command_named`) and runs the application (:func:`main`, the
console script), with typer's coercion of plain values done without pydantic
(:mod:`pipeline.cli.coercion`): ``pokertables eval`` loads no other command's module, no
pydantic and no numba (tests/test_cli_startup.py).
Every failure speaks one language: errors a user can fix (bad cards, bad files, missing
artifacts, usage errors such as a missing argument) exit 2 with one ``error:`` line on stderr,
or with ``--json`` one ``{"error": ...}`` object on stdout; internal errors exit 1 the same way
(``internal error: ...``); ``--debug`` shows tracebacks.
"""

from __future__ import annotations

import json
import os
import sys
from typing import TYPE_CHECKING, NoReturn, Protocol, TypeVar

if TYPE_CHECKING:  # typer loads when a command runs (start-up time), not on import
    import typer


class HelpTexts(Protocol):
    """What :func:`literal_help` reads of a click command (typer's own click is private, so
    the command tree is typed by the attributes used)."""

    help: str | None
    short_help: str | None


#: the command tree handed to :func:`literal_help`, returned as the same type
Command = TypeVar("Command", bound=HelpTexts)

#: numpy's OpenBLAS starts a thread per core when numpy is imported, and that thread spins on
#: the other core for about 0.1 s of CPU (measured: ``pokertables eval`` 0.30 -> 0.21 s of user CPU);
#: no command multiplies matrices, so one BLAS thread unless the user chose otherwise. Set
#: before anything imports numpy; child processes (warm's and the build's workers) inherit it.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


#: each top-level command or group and the modules that register it (on import)
COMMAND_MODULES = {
    **dict.fromkeys(("build", "verify", "warm"), ("pipeline.cli.build",)),
    **dict.fromkeys(("equity", "preflop", "range", "hits"), ("pipeline.cli.equity",)),
    **dict.fromkeys(("eval", "showdown"), ("pipeline.cli.hands",)),
    "bucket": ("pipeline.cli.bucket",),
    "casino": ("pipeline.cli.casino",),
    "serve": ("pipeline.cli.serve",),
    "vp": ("pipeline.cli.vp.draw", "pipeline.cli.vp.games", "pipeline.cli.vp.play"),
}
#: the root options that take a value (``_root`` in :mod:`pipeline.cli.common`)
ROOT_VALUE_OPTIONS = ("--artifacts", "-a", "--config-dir")


def command_named(args: list[str]) -> str | None:
    """The command (or group) a command line runs: the first word after the root options; None
    when there is none or the root's own help is asked for first."""
    words = iter(args)
    for word in words:
        if word in ("--help", "--"):
            return None
        if word in ROOT_VALUE_OPTIONS:
            next(words, None)
        elif not word.startswith("-"):
            return word
    return None


def _register(args: list[str] | None = None) -> None:
    """Register the command that ``args`` runs, or every command (None, or a command line whose
    command is not known: the root's help and its usage errors list them all). Importing only
    the one command module saves a process the others' imports and typer's building of their
    commands (~30 ms of ``pokertables eval``). The imports are written out, not computed, so the
    import graph (tests/test_layout.py) sees them."""
    command = command_named(args) if args is not None else None
    wanted = set(COMMAND_MODULES.get(command or "") or
                 (m for group in COMMAND_MODULES.values() for m in group))
    # noqa: F401 below: the commands register on import
    if "pipeline.cli.build" in wanted:
        from pipeline.cli import build  # noqa: F401
    if "pipeline.cli.equity" in wanted:
        from pipeline.cli import equity  # noqa: F401
    if "pipeline.cli.hands" in wanted:
        from pipeline.cli import hands  # noqa: F401
    if "pipeline.cli.bucket" in wanted:
        from pipeline.cli import bucket  # noqa: F401
    if "pipeline.cli.casino" in wanted:
        from pipeline.cli import casino  # noqa: F401
    if "pipeline.cli.serve" in wanted:
        from pipeline.cli import serve  # noqa: F401
    if "pipeline.cli.vp.draw" in wanted:
        from pipeline.cli.vp import draw, games, play  # noqa: F401


def _keep_stdout() -> int | None:
    """A duplicate of fd 1 as the process started, for :func:`_reader_gone` to ask later.

    rich answers a broken pipe (``pokertables --help | head -n 1``) by pointing fd 1 at
    /dev/null and raising ``SystemExit(1)``; fd 1 then no longer tells that the reader left,
    the duplicate still does. None when there is no stdout to duplicate."""
    try:
        return os.dup(1)  # not inherited by child processes
    except OSError:
        return None


def _reader_gone(fd: int | None = 1) -> bool:
    """Whether stdout (``fd``: fd 1, or its duplicate from the start) is a pipe whose reader
    has closed it (``| head`` after its lines)."""
    import select

    if fd is None:
        return False
    try:
        poll = select.poll()
        poll.register(fd, select.POLLERR)  # the process's stdout, whatever wraps it
        return bool(poll.poll(0))
    except (OSError, ValueError, AttributeError):
        return False


def _quiet_exit() -> None:
    """End with exit 0 and no message; stdout and stderr go to /dev/null first so the
    interpreter's final flush cannot raise again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    for fd in (1, 2):  # stdout, stderr
        os.dup2(devnull, fd)
    sys.exit(0)


def _user_message(exc: BaseException) -> str | None:
    """The one-line message of an error the user can fix, or None for a bug."""
    from pipeline.cli.common import flag
    from pipeline.errors import InputError, PokertablesError

    if isinstance(exc, InputError):
        return exc.render(flag)  # the question's fields as this command line's flags
    if isinstance(exc, PokertablesError):
        return str(exc)
    if isinstance(exc, (FileNotFoundError, PermissionError, IsADirectoryError, NotADirectoryError)):
        # a file or folder the user named (an input file, the artifacts folder)
        return f"{exc.strerror}: {exc.filename}" if exc.filename else str(exc)
    return None


def wants_json(args: list[str]) -> bool:
    """Whether the command line asks for JSON (``--json`` before any ``--``): its errors are then
    JSON too."""
    return "--json" in (args[:args.index("--")] if "--" in args else args)


def fail(message: str, code: int, as_json: bool) -> NoReturn:
    """End with one failure: ``{"error": message}`` on stdout for ``--json``, otherwise one
    ``error:`` line on stderr (newlines in the message folded into it)."""
    one_line = " ".join(message.split("\n"))
    if as_json:
        print(json.dumps({"error": one_line}), flush=True)
    else:
        print(one_line if one_line.startswith("internal error:") else f"error: {one_line}",
              file=sys.stderr, flush=True)
    sys.exit(code)


def _usage_message(exc: typer.TyperException) -> str:
    """A click error as one line; a usage error's says where to read the command's help."""
    # a number option's parser (pipeline.core.strict_numbers) is reported by pydantic as
    # "Value error, <our message>": the prefix says nothing to a user
    text = " ".join(exc.format_message().split()).replace(": Value error, ", ": ")
    ctx = getattr(exc, "ctx", None)  # usage errors carry the command's context
    if ctx is not None:
        return f"{text} (see `{ctx.command_path} --help`)"
    return text


#: rich's markup tags (``rich.markup.escape``'s pattern): a ``[`` and a tag name up to ``]``,
#: after any backslashes
_MARKUP_TAG = r"(\\*)(\[[a-z#/@][^[]*?])"


def escape(text: str) -> str:
    """``text`` as rich markup that shows it as written: rich's own ``rich.markup.escape``
    (tests/test_cli_manners.py compares them), here because importing that module (rich's text,
    style and emoji modules) cost every command ~11 ms of start-up, help shown or not."""
    import re

    text = re.sub(_MARKUP_TAG, lambda m: f"{m[1]}{m[1]}\\{m[2]}", text)
    return text + "\\" if text.endswith("\\") and not text.endswith("\\\\") else text


def literal_help(command: Command) -> Command:
    """``command`` (a click command tree) with every help text escaped for rich, so text such as
    ``[50]KK,QQ[/50]`` is shown as written, never read as markup (which crashed ``range
    --help``)."""
    import typer.core

    if not typer.core.HAS_RICH:
        return command
    todo = [command]
    while todo:
        cmd = todo.pop()
        if isinstance(cmd.help, str) and not cmd.short_help:
            # a group's command table shows the first paragraph of each command's help, and in
            # rich mode keeps its line breaks: one docstring line per row (a cell read
            # "...from the" / "abstraction tables"); the paragraph as one line wraps to the cell
            cmd.short_help = " ".join(cmd.help.split("\n\n")[0].split())
        for attr in ("help", "short_help", "epilog"):
            if isinstance(getattr(cmd, attr, None), str):
                setattr(cmd, attr, escape(getattr(cmd, attr)))
        for param in getattr(cmd, "params", ()):
            if isinstance(getattr(param, "help", None), str):
                param.help = escape(param.help)
        todo.extend(getattr(cmd, "commands", {}).values())
    return command


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``pokertables`` console script.

    Errors the user can fix (:class:`pipeline.errors.PokertablesError`, a file they named that is
    missing or unreadable, a usage error) exit 2; anything else is a bug in pokertables and exits
    1 with an ``internal error`` line (``--debug`` shows the traceback). Either way the failure
    is one ``error:`` line on stderr, or with ``--json`` one JSON object on stdout (:func:`fail`).
    """
    import typer
    import typer.main

    from pipeline.cli.coercion import install
    from pipeline.cli.common import STATE, app

    install()
    args = list(argv if argv is not None else sys.argv[1:])
    _register(args)
    head, tail = (args[:args.index("--")], args[args.index("--"):]) if "--" in args else (args, [])
    debug = "--debug" in head
    if debug:
        # a root option, taken anywhere: the hint 'run with --debug' then works after any
        # command too (`pokertables range --help --debug`)
        args = ["--debug", *[a for a in head if a != "--debug"], *tail]
    as_json = STATE["json"] = wants_json(args)
    stdout = _keep_stdout()
    try:
        try:
            # not standalone: usage errors come here to be said in the one failure language;
            # typer.Exit(n) and --help come back as the exit code
            code = literal_help(typer.main.get_command(app)).main(
                args=args, prog_name="pokertables", standalone_mode=False)
        except BrokenPipeError:
            _quiet_exit()
        except typer.TyperException as exc:  # typer's click: usage errors (exit 2) and the like
            if _reader_gone(stdout):
                _quiet_exit()
            if type(exc).__name__ == "NoArgsIsHelpError":
                # a group named with nothing after it: its help page is the answer (rich has
                # printed it already; plain click leaves it in the message)
                print(exc.format_message(), end="")
                sys.exit(exc.exit_code)
            fail(_usage_message(exc), exc.exit_code, as_json)
        except typer.Abort:
            fail("aborted", 1, as_json)
        except SystemExit as exc:
            # click (and rich, for help pages) turn a closed pipe they meet into exit 1; the
            # reader leaving is not an error
            if exc.code not in (0, None) and _reader_gone(stdout):
                _quiet_exit()
            raise
        except Exception as exc:  # noqa: BLE001  (the one place every error ends up)
            if debug:
                raise
            msg = _user_message(exc)
            if msg is not None:
                fail(msg, 2, as_json)
            fail(f"internal error: {type(exc).__name__}: {exc} (run with --debug for a traceback)", 1,
                 as_json)
        if isinstance(code, int) and not isinstance(code, bool) and code:
            if code == 1 and _reader_gone(stdout):
                _quiet_exit()
            sys.exit(code)
    finally:
        # the duplicate is this call's: a caller that runs main() many times in one process
        # (the tests, the doc examples) would otherwise keep one more descriptor per call
        if stdout is not None:
            os.close(stdout)
