"""The ``pokertables`` command line (typer). Each command group lives in its own module.

Errors a user can fix (bad cards, bad files, missing artifacts) print one line and exit 2;
internal errors exit 1; ``--debug`` shows tracebacks.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Precomputed poker tables: build them, look hands up, analyse games.")

STATE = {"debug": False, "artifacts": Path(os.environ.get("POKERTABLES_ARTIFACTS", "artifacts"))}


@app.callback()
def _root(
    artifacts: Path = typer.Option(STATE["artifacts"], "--artifacts", "-a",
                                   help="artifacts folder to read/write (env POKERTABLES_ARTIFACTS)"),
    debug: bool = typer.Option(False, "--debug", help="show tracebacks on errors"),
) -> None:
    STATE["artifacts"] = artifacts
    STATE["debug"] = debug


def artifacts_dir() -> Path:
    """The artifacts folder chosen on the command line."""
    return Path(STATE["artifacts"])


def _register() -> None:
    from pipeline.cli import build_cmd, equity_cmd, eval_cmd, showdown_cmd, verify_cmd, vp_cmd  # noqa: F401  (commands register on import)
    from pipeline.cli import sweep_cmd  # noqa: F401


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``pokertables`` console script."""
    _register()
    from pipeline.errors import PokertablesError

    debug = "--debug" in (argv if argv is not None else sys.argv[1:])
    try:
        # standalone mode: usage errors exit 2 and typer.Exit exits with its code
        app(args=argv, prog_name="pokertables")
    except (PokertablesError, ValueError, FileNotFoundError, PermissionError) as exc:  # ValueError: until every raise site uses InputError
        if debug:
            raise
        msg = str(exc) if not isinstance(exc, OSError) or not exc.filename else \
            f"{exc.strerror}: {exc.filename}"
        print(f"error: {msg}", file=sys.stderr)
        sys.exit(2)
    except BrokenPipeError:
        sys.exit(0)
    except Exception as exc:  # noqa: BLE001
        if debug:
            raise
        print(f"internal error: {type(exc).__name__}: {exc} (rerun with --debug for a traceback)",
              file=sys.stderr)
        sys.exit(1)
