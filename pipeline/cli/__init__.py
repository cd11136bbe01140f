"""The ``pokertables`` command line (typer): one module per command group, each registering on
the application of :mod:`pipeline.cli.common` (which also holds what the groups share):

* :mod:`pipeline.cli.build`: ``build``, ``verify``, ``warm``
* :mod:`pipeline.cli.equity`: ``equity``, ``preflop``, ``range``, ``hits``
* :mod:`pipeline.cli.hands`: ``eval``, ``showdown``
* :mod:`pipeline.cli.vp`: the ``vp`` group, a package of two modules (``play``, ``games``)
* :mod:`pipeline.cli.bucket`: ``bucket`` (the card-abstraction tables)

This package imports them all and runs the application (:func:`main`, the console script).
Errors a user can fix (bad cards, bad files, missing artifacts) print one line and exit 2;
internal errors exit 1; ``--debug`` shows tracebacks.
"""

from __future__ import annotations

import os
import sys


def _register() -> None:
    from pipeline.cli import bucket, build, equity, hands  # noqa: F401  (commands register on import)
    from pipeline.cli.vp import games, play  # noqa: F401


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
    from pipeline.cli.common import app

    _register()
    debug = "--debug" in (argv if argv is not None else sys.argv[1:])
    stdout = _keep_stdout()
    try:
        # standalone mode: usage errors exit 2 and typer.Exit exits with its code
        app(args=argv, prog_name="pokertables")
    except BrokenPipeError:
        _quiet_exit()
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
            print(f"error: {msg}", file=sys.stderr)
            sys.exit(2)
        print(f"internal error: {type(exc).__name__}: {exc} (run with --debug for a traceback)",
              file=sys.stderr)
        sys.exit(1)
