"""The one way tests run the ``pokertables`` command: in a subprocess (:func:`run_cli`) or, when
speed matters and no process state is at stake, in this process (:func:`run_main`)."""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_cli(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None,
            stdin: str | bytes | None = None, timeout: float = 600,
            drop_env: tuple[str, ...] = ()) -> subprocess.CompletedProcess[Any]:
    """``python -m pipeline ARGS`` in ``cwd`` (the repository by default) with ``env`` added and
    the ``drop_env`` variables removed; text in and out, bytes when ``stdin`` is bytes."""
    base = {k: v for k, v in os.environ.items() if k not in drop_env}
    return subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=cwd, capture_output=True,
                          text=not isinstance(stdin, bytes), timeout=timeout, input=stdin,
                          env={**base, **(env or {})})


@contextlib.contextmanager
def as_a_process(stdin: str | None = None, cwd: Path | None = None,
                 env: Mapping[str, str] | None = None) -> Iterator[None]:
    """Run the body (a command by its entry point, in this process) as a process of its own
    would: reading ``stdin`` (when given), in ``cwd`` (when given) with ``env`` added; after
    it, every piece of process state a command changes is as before: standard input, the
    working folder, the environment, the CLI's root options (``pipeline.cli.common.STATE``)
    and the ``--config-dir`` folders. The one place that list is kept, for both in-process
    runners (:func:`run_main`, ``doc_examples.run_in_process``)."""
    from pipeline.cli.common import STATE
    from pipeline.registry import set_config_dirs

    saved_stdin, here = sys.stdin, os.getcwd()
    saved_env, saved_state = dict(os.environ), dict(STATE)
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()))
    try:
        os.environ.update(env or {})
        if cwd is not None:
            os.chdir(cwd)
        yield
    finally:
        sys.stdin = saved_stdin
        os.chdir(here)
        if dict(os.environ) != saved_env:
            os.environ.clear()
            os.environ.update(saved_env)
        STATE.clear()
        STATE.update(saved_state)
        set_config_dirs([])


def run_main(capsys: pytest.CaptureFixture[str], *args: str, stdin: str | None = None,
             cwd: Path | None = None) -> tuple[int, str, str]:
    """The command in this process (in ``cwd`` if given), state restored after it as
    :func:`as_a_process` says: (exit code, stdout, stderr)."""
    from pipeline.cli import main

    with as_a_process(stdin, cwd):
        try:
            main(list(args))
            code = 0
        except SystemExit as exc:
            code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def run_here(capsys: pytest.CaptureFixture[str], *args: str, stdin: str | None = None,
             cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """:func:`run_main` shaped as :func:`run_cli`'s result (returncode, stdout, stderr): for a
    test about what the command prints, where a process of its own (about a CPU second to start
    Python, import numba and load the cached kernels) proves nothing more."""
    code, out, err = run_main(capsys, *args, stdin=stdin, cwd=cwd)
    return subprocess.CompletedProcess(["pokertables", *args], code, out, err)


def one_error_line(err: str) -> str:
    """The single ``error: ...`` line of ``err`` (asserting there is exactly one, no traceback)."""
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in err, err[:2000]
    return lines[0]


def assert_one_error(r: subprocess.CompletedProcess[str], needle: str) -> None:
    """Exit 2 and exactly one ``error: ...`` line on stderr, containing ``needle``."""
    assert r.returncode == 2, (r.stdout[-500:], r.stderr[-1500:])
    assert needle in one_error_line(r.stderr)
