"""Where numba's on-disk cache lives: a folder named by a digest of the sources that can shape
compiled code, so a cached kernel is never stale.

numba's ``cache=True`` checks only the source stamp of the kernel's own file. A kernel that
inlines or calls a jitted function of another module (``hand_score`` of
:mod:`pipeline.core.fasteval` in the exact and Monte Carlo kernels), or freezes another
module's constant, kept its old machine code after that module changed: wrong speed at best,
wrong answers at worst. Keying the whole cache folder by the sources makes that impossible by
construction: any change to a module that can reach compiled code starts a fresh folder.

:func:`configure` runs in ``pipeline/__init__.py``, before anything imports numba (numba reads
``NUMBA_CACHE_DIR`` when it is imported): the folder is ``<base>/numba-<digest>``, where the
base is the user's ``NUMBA_CACHE_DIR`` if set, else the package's ``__pycache__``, else (a
read-only install) a per-user cache folder. ``pokertables warm`` prunes the other
``numba-*`` folders (:func:`prune_stale`).

This module imports nothing heavy: it runs at every start of the command line.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from collections.abc import MutableMapping
from functools import cache
from pathlib import Path

#: the package whose sources are digested
PACKAGE = Path(__file__).resolve().parent.parent
#: top-level sub-packages that hold no numba code and whose constants no kernel reads: they
#: are left out of the digest so editing the command line or the web app keeps the kernels
#: (tests/test_kernel_cache.py checks they import no numba)
UNCOMPILED = ("cli", "serve", "answers")
#: the environment variable numba reads its cache folder from
ENV = "NUMBA_CACHE_DIR"
#: cache folders are named ``numba-`` and this many hex digits of the digest
DIGEST_HEX = 16
PREFIX = "numba-"
#: a stale cache folder is removed once nothing wrote in it for this long (seconds)
STALE_AFTER = 3600.0
_FOLDER = re.compile(rf"{PREFIX}[0-9a-f]{{{DIGEST_HEX}}}")


def digest_sources(package: Path = PACKAGE, skip: tuple[str, ...] = UNCOMPILED,
                   suffix: str = ".py") -> str:
    """The sha256 (hex) over the path and bytes of every file of ``package`` whose name ends with
    ``suffix`` (``""``: every file) outside its top-level folders ``skip`` and any
    ``__pycache__`` (the ``.py`` files: about 1 MB in ~140 files, a few milliseconds). The one
    source hash: the kernel cache's folder, the video-poker solver's fingerprint and the Dask
    workers' code digest all come from it."""
    h = hashlib.sha256()
    files: list[str] = []
    for folder, dirs, names in os.walk(package):
        if folder == str(package):
            dirs[:] = [d for d in dirs if d not in skip]
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        files.extend(os.path.join(folder, n) for n in names if n.endswith(suffix))
    for path in sorted(files):
        with open(path, "rb") as f:
            data = f.read()
        rel = os.path.relpath(path, package).replace(os.sep, "/")
        h.update(f"{rel}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


@cache
def source_digest() -> str:
    """:func:`digest_sources` of this package, computed once per process."""
    return digest_sources()


def folder_for(base: Path | str) -> Path:
    """The cache folder for this package's sources under ``base``."""
    return Path(base) / f"{PREFIX}{source_digest()[:DIGEST_HEX]}"


def module_cache_dir(py_file: Path | str, root: Path | str) -> Path:
    """Where numba keeps the cache of ``py_file``'s kernels under the cache folder ``root``
    (its ``_UserProvidedCacheLocator``): a folder named by the source folder's name and the
    sha1 of its absolute path, not a mirror of the path (tests/test_kernel_cache.py checks
    numba still agrees)."""
    folder = os.path.dirname(os.path.abspath(py_file))
    return Path(root) / f"{os.path.basename(folder)}_{hashlib.sha1(folder.encode()).hexdigest()}"


def _writable(path: Path) -> bool:
    """Whether ``path`` (or, while it does not exist, its nearest existing parent) is writable."""
    for p in (path, *path.parents):
        if p.exists():
            return p.is_dir() and os.access(p, os.W_OK | os.X_OK)
    return False


def _user_cache() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pokertables"


def configure(environ: MutableMapping[str, str] = os.environ) -> Path | None:
    """Point ``NUMBA_CACHE_DIR`` in ``environ`` at :func:`folder_for` a base (module docstring)
    and return it; ``None`` (numba's own default) when no candidate base is writable. A value
    that already names a digest folder (inherited from a parent process) is re-based on its
    parent, so child processes, which may see other sources, get their own folder."""
    given = environ.get(ENV)
    if given:
        base = Path(given)
        if _FOLDER.fullmatch(base.name):
            base = base.parent
        candidates = [base]
    else:
        candidates = [PACKAGE / "__pycache__", _user_cache()]
    for base in candidates:
        if _writable(base):
            folder = folder_for(base)
            environ[ENV] = str(folder)
            config = sys.modules.get("numba.core.config")
            if config is not None and environ is os.environ:
                # numba came first (a script that imports it before pipeline): it read the
                # variable already, and picks a kernel's cache folder when the kernel's module
                # is imported, which is still to come
                config.CACHE_DIR = str(folder)  # type: ignore[attr-defined]
            return folder
    return None


def _newest_write(path: Path) -> float:
    """The latest modification time of ``path`` or anything under it."""
    times = [path.stat().st_mtime]
    if path.is_dir():
        times += [p.stat().st_mtime for p in path.rglob("*")]
    return max(times)


def prune_stale(current: Path | str | None = None, idle: float = STALE_AFTER) -> list[Path]:
    """Remove the ``numba-<digest>`` folders next to ``current`` (default: this process's
    cache folder) other than ``current`` itself, and numba's files in the package's
    ``__pycache__`` folders from before the digest folders, once nothing wrote in them for
    ``idle`` seconds (a process still running on other sources keeps its folder). Returns
    what was removed; nothing when the cache folder is not a digest folder."""
    import shutil
    import time

    here = Path(current or os.environ.get(ENV, ""))
    if not _FOLDER.fullmatch(here.name) or not here.parent.is_dir():
        return []
    stale = [p for p in here.parent.iterdir() if p != here and p.is_dir() and _FOLDER.fullmatch(p.name)]
    if here.parent == PACKAGE / "__pycache__":
        stale += PACKAGE.rglob("__pycache__/*.nb[ic]")
    now = time.time()
    gone = []
    for old in stale:
        try:
            if now - _newest_write(old) < idle:
                continue
            if old.is_dir():
                shutil.rmtree(old)
            else:
                old.unlink()
        except OSError:
            continue  # removed meanwhile, or not ours to remove
        gone.append(old)
    return gone
