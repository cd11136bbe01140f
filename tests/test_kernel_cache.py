"""numba's cache folder is named by the sources that shape compiled code, so a kernel whose
callee (in another module) changed compiles again instead of running stale machine code."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.core import kernel_cache
from pipeline.core.kernel_cache import PACKAGE, UNCOMPILED, folder_for, module_cache_dir, prune_stale

#: a jitted function and a constant in one module...
CALLEE = """import numba as nb

SCALE = {scale}


@nb.njit
def callee(x):
    return x * SCALE
"""
#: ...inlined into a cached kernel of another module: numba's own cache sees only this file
KERNEL = """import numba as nb

from pipeline.core._probe_callee import callee


@nb.njit(cache=True)
def kernel(x):
    return callee(x) + 1
"""
ASK = ("import os, pipeline; from pipeline.core._probe_kernel import kernel; "
       "print(kernel(10), os.environ['NUMBA_CACHE_DIR'])")


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A copy of the package (no caches) with the two probe modules."""
    shutil.copytree(PACKAGE, tmp_path / "pipeline",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc"))
    (tmp_path / "pipeline" / "core" / "_probe_callee.py").write_text(CALLEE.format(scale=2))
    (tmp_path / "pipeline" / "core" / "_probe_kernel.py").write_text(KERNEL)
    return tmp_path


def _ask(copy: Path, cache: Path, before: str = "") -> tuple[int, Path]:
    """The probe kernel's answer in a fresh process running the copy (``before`` run first),
    and its cache folder."""
    env = {**os.environ, "PYTHONPATH": str(copy), "NUMBA_CACHE_DIR": str(cache)}
    r = subprocess.run([sys.executable, "-c", before + ASK], cwd=copy, env=env, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    answer, folder = r.stdout.split()
    return int(answer), Path(folder)


def test_a_changed_callee_gets_a_fresh_cache(copy: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    answer, first = _ask(copy, cache)
    assert answer == 21 and first.parent == cache and re.fullmatch(r"numba-[0-9a-f]{16}", first.name)
    # numba cached the kernel in the digest folder, where the command line looks for it
    probe = copy / "pipeline" / "core" / "_probe_kernel.py"
    assert list(module_cache_dir(probe, first).glob("_probe_kernel.kernel-*.nbi"))
    assert _ask(copy, cache) == (21, first)  # unchanged sources: the same folder, loaded
    # the command line holds no kernel: editing it keeps the compiled kernels
    with open(copy / "pipeline" / "cli" / "common.py", "a") as f:
        f.write("\n# an edit\n")
    assert _ask(copy, cache) == (21, first)
    # the constant the kernel inlines changes in the other module: numba's own check (the
    # kernel file's stamp) would load the old machine code and answer 21 again
    (copy / "pipeline" / "core" / "_probe_callee.py").write_text(CALLEE.format(scale=3))
    answer, second = _ask(copy, cache)
    assert answer == 31 and second != first and second.parent == cache
    # a child process inherits the digest folder as NUMBA_CACHE_DIR: re-based, not nested
    assert _ask(copy, second) == (31, second)
    # a script that imports numba before pipeline still caches in the digest folder
    (copy / "pipeline" / "core" / "_probe_callee.py").write_text(CALLEE.format(scale=4))
    answer, third = _ask(copy, cache, before="import numba; ")
    assert answer == 41 and third not in (first, second)
    assert list(third.rglob("_probe_kernel.kernel-*.nbi"))


def test_the_skipped_folders_hold_no_numba_code() -> None:
    """What the digest leaves out must not be able to shape compiled code."""
    for name in UNCOMPILED:
        for path in (PACKAGE / name).rglob("*.py"):
            text = path.read_text()
            assert not re.search(r"^\s*(import numba|from numba)", text, re.M), path


def test_prune_keeps_the_current_folder_and_recent_ones(tmp_path: Path) -> None:
    current = folder_for(tmp_path)
    old, recent = tmp_path / "numba-0123456789abcdef", tmp_path / "numba-fedcba9876543210"
    for d in (current, old, recent, tmp_path / "other"):
        (d / "x").mkdir(parents=True)
    os.utime(old / "x", (0, 0))
    os.utime(old, (0, 0))
    assert prune_stale(current) == [old]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([current.name, recent.name, "other"])
    assert prune_stale(current, idle=0) == [recent]
    assert prune_stale(tmp_path / "other") == []  # not a digest folder: nothing is touched


def test_an_unwritable_base_falls_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    locked = tmp_path / "locked"  # read-only for the cache (as an installed package can be)
    real = kernel_cache._writable
    monkeypatch.setattr(kernel_cache, "_writable", lambda p: locked not in (p, *p.parents) and real(p))
    env = {"NUMBA_CACHE_DIR": str(locked / "cache")}
    assert kernel_cache.configure(env) is None and env["NUMBA_CACHE_DIR"] == str(locked / "cache")
    monkeypatch.setattr(kernel_cache, "PACKAGE", locked)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user"))
    env = {}
    assert kernel_cache.configure(env) == folder_for(tmp_path / "user" / "pokertables")
    assert env["NUMBA_CACHE_DIR"] == str(folder_for(tmp_path / "user" / "pokertables"))


def test_the_module_cache_folder_is_numbas() -> None:
    from numba.core.caching import UserProvidedCacheLocator

    source = PACKAGE / "equity" / "exact" / "ranges.py"
    assert module_cache_dir(source, "/c") == Path("/c", UserProvidedCacheLocator.get_suitable_cache_subpath(source))
