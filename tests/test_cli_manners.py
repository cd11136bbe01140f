"""The command line's manners: a closed pipe ends quietly, a cold kernel cache is announced."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.cli.warm_cmd import EQUITY_KERNEL_MODULES, cold_modules

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("args", [["equity", "AK,QQ", "--board", "Ks 9d 4c", "--breakdown"],
                                  ["vp", "list"]])
def test_head_closes_the_pipe_quietly(artifacts: Path, args: list[str]) -> None:
    cmd = " ".join([sys.executable, "-m", "pipeline", "-a", str(artifacts),
                    *(f"'{a}'" for a in args)])
    # stdout and stderr both into the closed pipe: neither may complain
    r = subprocess.run(["bash", "-c", f"{cmd} 2>&1 | head -n 1; exit ${{PIPESTATUS[0]}}"],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert len(r.stdout.splitlines()) == 1 and "Error" not in r.stdout


def test_a_cold_cache_is_seen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pipeline.equity.seats as seats

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert cold_modules(seats.__file__, EQUITY_KERNEL_MODULES) == list(EQUITY_KERNEL_MODULES)
    # one module's index in the mirrored cache folder makes it warm
    mirror = tmp_path / Path(seats.__file__).resolve().parent.relative_to("/")
    mirror.mkdir(parents=True)
    (mirror / "rangerandom._count_chunk-1.py311.nbi").write_bytes(b"")
    assert "rangerandom" not in cold_modules(seats.__file__, EQUITY_KERNEL_MODULES)


def test_cold_query_says_it_compiles(artifacts: Path, tmp_path: Path) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    r = subprocess.run([sys.executable, "-m", "pipeline", "-a", str(artifacts), "equity", "AsKs",
                        "--vs", "QdQc", "--board", "2c7h8h"], capture_output=True, text=True,
                       cwd=ROOT, env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "compiling the equity kernels" in r.stderr
