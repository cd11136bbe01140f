"""The ``pokertables`` command line (typer). Each command group lives in its own module.

Errors a user can fix (bad cards, bad files, missing artifacts) print one line and exit 2;
internal errors exit 1; ``--debug`` shows tracebacks.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Optional

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Precomputed poker tables: build them, look hands up, analyse games.")

#: the artifacts folder when neither -a nor POKERTABLES_ARTIFACTS names one (a build then takes
#: its config's folder)
DEFAULT_ARTIFACTS = "artifacts"
STATE: dict[str, Any] = {"debug": False, "artifacts": os.environ.get("POKERTABLES_ARTIFACTS", DEFAULT_ARTIFACTS)}


def _version(value: bool) -> None:
    if value:
        from pipeline import __version__

        typer.echo(f"pokertables {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    artifacts: str = typer.Option(STATE["artifacts"], "--artifacts", "-a",
                                   help="artifacts folder to read/write (env POKERTABLES_ARTIFACTS)"),
    config_dir: Optional[list[Path]] = typer.Option(
        None, "--config-dir", help="folder with rules/*.toml and/or paytables/*.toml that add to and "
        "override the built-in ones; repeat for more (env POKERTABLES_CONFIG)"),
    debug: bool = typer.Option(False, "--debug", help="show tracebacks on errors"),
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="print the version and exit"),
) -> None:
    from pipeline.registry import set_config_dirs

    STATE["artifacts"] = artifacts
    STATE["debug"] = debug
    set_config_dirs(config_dir or [])


def artifacts_dir() -> Path:
    """The artifacts folder chosen on the command line (an empty text is refused: it would mean
    the current folder, where a build's clean-up has no business)."""
    from pipeline.errors import InputError

    text = str(STATE["artifacts"])
    if not text.strip():
        raise InputError("the artifacts folder is empty text (-a \"\" or POKERTABLES_ARTIFACTS=\"\"); "
                         "name a folder, e.g. -a artifacts")
    return Path(text)


def _register() -> None:
    from pipeline.cli import (  # noqa: F401  (commands register on import)
        build_cmd,
        equity_cmd,
        eval_cmd,
        hits_cmd,
        preflop_cmd,
        range_cmd,
        showdown_cmd,
        sweep_cmd,
        verify_cmd,
        vp_catalog_cmd,
        vp_chart_cmd,
        vp_cmd,
        warm_cmd,
    )


def _reader_gone() -> bool:
    """Whether stdout is a pipe whose reader has closed it (``| head`` after its lines)."""
    import select

    try:
        poll = select.poll()
        poll.register(1, select.POLLERR)  # fd 1: the process's stdout, whatever wraps it
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
    from pipeline.errors import PokertablesError

    if isinstance(exc, PokertablesError):
        return str(exc)
    if isinstance(exc, (FileNotFoundError, PermissionError, IsADirectoryError, NotADirectoryError)):
        # a file or folder the user named (an input file, the artifacts folder)
        return f"{exc.strerror}: {exc.filename}" if exc.filename else str(exc)
    return None


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``pokertables`` console script.

    Errors the user can fix (:class:`pipeline.errors.PokertablesError`, a file they named that is
    missing or unreadable) print one ``error:`` line and exit 2; anything else is a bug in
    pokertables and exits 1 with an ``internal error`` line (``--debug`` shows the traceback).
    """
    _register()
    debug = "--debug" in (argv if argv is not None else sys.argv[1:])
    try:
        # standalone mode: usage errors exit 2 and typer.Exit exits with its code
        app(args=argv, prog_name="pokertables")
    except BrokenPipeError:
        _quiet_exit()
    except SystemExit as exc:
        # click turns a closed pipe it meets into exit 1; the reader leaving is not an error
        if exc.code not in (0, None) and _reader_gone():
            _quiet_exit()
        raise
    except Exception as exc:  # noqa: BLE001  (the one place every error ends up)
        if debug:
            raise
        msg = _user_message(exc)
        if msg is not None:
            print(f"error: {msg}", file=sys.stderr)
            sys.exit(2)
        print(f"internal error: {type(exc).__name__}: {exc} (run with --debug for a traceback)",
              file=sys.stderr)
        sys.exit(1)
