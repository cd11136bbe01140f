"""Writing artifacts safely: atomic HDF5/Parquet files, file digests, the manifest, the build lock.

Every artifact is written to a temporary file, flushed and fsynced, then renamed; a stage
writes into a staging folder inside the artifacts folder, and the build runner moves its
outputs into place only once the whole stage succeeded, so a crash leaves either the previous
good files or none. The manifest is
rewritten the same way after each stage; :mod:`pipeline.build.locks` keeps two builds apart
and two commits apart.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import h5py
import numpy as np

from pipeline.build.locks import COMMIT_LOCK, LOCK, build_lock, commit_lock
from pipeline.errors import BuildError
from pipeline.query.artifacts import (
    MANIFEST,
    TMP_PREFIX,
    dataset_offset,
    map_dataset,
    read_manifest,
    sha256_file,
)

STAGING = ".pokertables-staging"
__all__ = [
    "COMMIT_LOCK",
    "LOCK",
    "MANIFEST",
    "STAGING",
    "TMP_PREFIX",
    "BuildError",
    "atomic_path",
    "build_lock",
    "commit_lock",
    "clean_stale_temps",
    "create_mapped_dataset",
    "dataset_offset",
    "describe_file",
    "fsync_dir",
    "map_dataset",
    "map_for_fill",
    "move_file",
    "read_manifest",
    "sha256_file",
    "write_json_atomic",
    "write_parquet_atomic",
]


def fsync_dir(folder: Path) -> None:
    """Flush a folder's entries to disk, so a rename into it survives a crash."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_path(target: Path) -> Iterator[Path]:
    """Yield a temporary path beside ``target``; on success fsync it and rename it over ``target``.

    On any exception the temporary file is removed and ``target`` is untouched.
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=TMP_PREFIX + target.name + ".", dir=target.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        with open(tmp_path, "rb+") as fh:
            os.fsync(fh.fileno())
        os.chmod(tmp_path, 0o644)
        os.replace(tmp_path, target)
        fsync_dir(target.parent)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            tmp_path.unlink()
        if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
            raise BuildError(f"disk full while writing {target} ({_mib(shutil.disk_usage(target.parent).free)} "
                             "free): nothing was replaced") from None
        raise


def write_json_atomic(path: Path, obj: Any) -> None:
    """Write ``obj`` as indented JSON to ``path`` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(obj, indent=2, sort_keys=False) + "\n")


def create_mapped_dataset(f: h5py.File, name: str, shape: tuple[int, ...], dtype: Any) -> None:
    """Create a contiguous, uncompressed dataset whose storage is allocated now (no fill write).

    Allocating early fixes the dataset's file offset, so after the file is closed the data can
    be filled through a memory map (see :func:`map_dataset`) without an in-RAM copy.
    """
    dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
    dcpl.set_layout(h5py.h5d.CONTIGUOUS)
    dcpl.set_alloc_time(h5py.h5d.ALLOC_TIME_EARLY)
    dcpl.set_fill_time(h5py.h5d.FILL_TIME_NEVER)
    dcpl.set_obj_track_times(False)  # no timestamps: identical inputs give identical bytes
    space = h5py.h5s.create_simple(shape)
    tid = h5py.h5t.py_create(np.dtype(dtype))
    parts = name.strip("/").split("/")
    group = f
    for p in parts[:-1]:
        group = group.require_group(p)
    h5py.h5d.create(group.id, parts[-1].encode(), tid, space, dcpl=dcpl)


def _mib(n: int) -> str:
    return f"{n / (1 << 20):,.1f} MiB"


def map_for_fill(path: Path, name: str) -> np.memmap:
    """Memory-map a dataset of a temp file for filling, after reserving its disk blocks.

    Storing into an unreserved (sparse) mapping on a full disk kills the process with SIGBUS;
    ``posix_fallocate`` makes a full disk a clean :class:`BuildError` naming the space needed.
    """
    off, shape, dtype = dataset_offset(path, name)
    nbytes = int(np.prod(shape)) * np.dtype(dtype).itemsize
    fd = os.open(path, os.O_RDWR)
    try:
        os.posix_fallocate(fd, off, nbytes)
    except OSError as exc:
        if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
            free = shutil.disk_usage(path.parent).free
            where = str(path.parent).split("/" + STAGING)[0]  # the artifacts folder, not the staging
            target = path.name[len(TMP_PREFIX):].rsplit(".", 1)[0] if path.name.startswith(TMP_PREFIX) \
                else path.name
            raise BuildError(f"disk full: {target} needs {_mib(nbytes)} for /{name} but {where} has "
                             f"{_mib(free)} free; free space and build again (nothing was replaced)") from None
        if exc.errno not in (errno.EOPNOTSUPP, errno.EINVAL):
            raise
    finally:
        os.close(fd)
    return np.memmap(path, dtype=dtype, mode="r+", offset=off, shape=shape)


def write_parquet_atomic(table: Any, path: Path, **options: Any) -> None:
    """Write a pyarrow Table to ``path`` atomically (options go to ``pyarrow.parquet.write_table``)."""
    import pyarrow.parquet as pq

    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, **options)


def describe_file(path: Path) -> dict[str, Any]:
    """Manifest facts about one artifact: bytes, sha256, mtime and datasets (HDF5) or rows (Parquet)."""
    st = path.stat()
    info: dict[str, Any] = {"bytes": st.st_size, "sha256": sha256_file(path), "mtime_ns": st.st_mtime_ns}
    if path.suffix == ".h5":
        datasets: dict[str, Any] = {}

        def visit(name: str, obj: Any) -> None:
            if isinstance(obj, h5py.Dataset):
                datasets[name] = {"shape": list(obj.shape), "dtype": str(obj.dtype),
                                  "offset": obj.id.get_offset()}

        with h5py.File(path, "r") as f:
            f.visititems(visit)
        info["datasets"] = datasets
    elif path.suffix == ".parquet":
        import pyarrow.parquet as pq

        md = pq.read_metadata(path)
        info["rows"] = md.num_rows
        info["columns"] = [md.schema.column(i).name for i in range(md.num_columns)]
    return info


def move_file(src: Path, dst: Path) -> None:
    """Rename ``src`` over ``dst``; where ``dst``'s folder is on another file system (a symlinked
    subfolder), copy into a temporary file beside ``dst`` first, so the final step is still one
    rename inside the destination's file system and readers never see a partial file."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.replace(src, dst)
        return
    except OSError as exc:
        if exc.errno != errno.EXDEV:
            raise
    fd, tmp = tempfile.mkstemp(prefix=TMP_PREFIX + dst.name + ".", dir=dst.parent)
    os.close(fd)
    try:
        shutil.copy2(src, tmp)
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, dst)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    os.unlink(src)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux renameat2 RENAME_EXCHANGE); False where unsupported."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    return fn(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0


@contextlib.contextmanager
def atomic_folder(target: Path) -> Iterator[Path]:
    """Yield a temporary folder beside ``target``; on success it replaces ``target`` whole.

    For datasets written as a folder of files (Hive partitions): readers see the old folder or
    the new one, never a mix (an atomic exchange where the OS has it, else two renames in a
    row). On any exception the temporary folder is removed and ``target`` is untouched.
    """
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=TMP_PREFIX + target.name + ".", dir=target.parent))
    try:
        yield tmp
        for p in tmp.rglob("*"):
            if p.is_file():
                with open(p, "rb+") as fh:
                    os.fsync(fh.fileno())
        os.chmod(tmp, 0o755)
        if target.exists() and _exchange(tmp, target):
            shutil.rmtree(tmp)  # now the old folder
        else:
            if target.exists():
                old = Path(tempfile.mkdtemp(prefix=TMP_PREFIX + target.name + ".old.", dir=target.parent))
                os.replace(target, old / "x")
                os.replace(tmp, target)
                shutil.rmtree(old)
            else:
                os.replace(tmp, target)
        fsync_dir(target.parent)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def clean_stale_temps(folder: Path) -> list[Path]:
    """Remove temporary files and staging folders left by a killed build (hold the lock)."""
    removed = []
    if (Path(folder) / STAGING).exists():
        shutil.rmtree(Path(folder) / STAGING, ignore_errors=True)
        removed.append(Path(folder) / STAGING)
    for p in Path(folder).rglob(TMP_PREFIX + "*"):
        with contextlib.suppress(FileNotFoundError):
            if p.is_dir():
                shutil.rmtree(p)  # a dataset folder left by atomic_folder
            else:
                p.unlink()
            removed.append(p)
    return removed
