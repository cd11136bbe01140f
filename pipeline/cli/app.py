"""The ``pokertables`` typer application and the options every command shares.

Command modules import :data:`app` (and :func:`artifacts_dir`) from here and register on it;
:mod:`pipeline.cli` imports them all and runs the application (:func:`pipeline.cli.main`).
"""

from __future__ import annotations

import os
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
        from pipeline.version import __version__

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
