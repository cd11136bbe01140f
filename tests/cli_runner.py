"""One way for tests to run the ``pokertables`` command in a subprocess and check its answer."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_cli(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None, stdin: str | None = None,
            timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``python -m pipeline ARGS`` in ``cwd`` (the repository by default) with ``env`` added."""
    return subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout, input=stdin, env={**os.environ, **(env or {})})


def assert_one_error(r: subprocess.CompletedProcess[str], needle: str) -> None:
    """Exit 2 and exactly one ``error: ...`` line on stderr, containing ``needle``."""
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert r.returncode == 2, (r.stdout[-500:], r.stderr[-1500:])
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], lines
