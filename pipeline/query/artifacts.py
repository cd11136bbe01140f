"""The read side's view of an artifacts folder: the manifest, file digests and memory maps.

Everything here only reads; the build side imports it to describe what it wrote.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Literal

import h5py
import numpy as np

from pipeline.errors import ArtifactError

MANIFEST = "manifest.json"


def dataset_offset(path: Path, name: str) -> tuple[int, tuple[int, ...], np.dtype]:
    """Return (file offset, shape, dtype) of a contiguous dataset, for memory-mapping."""
    with h5py.File(path, "r") as f:
        ds = f[name]
        off = ds.id.get_offset()
        if off is None:
            raise ArtifactError(f"{path}:{name} has no contiguous storage to map")
        return int(off), tuple(ds.shape), ds.dtype


def map_dataset(path: Path, name: str, mode: Literal["r", "r+"] = "r") -> np.memmap[Any, np.dtype[Any]]:
    """Memory-map a contiguous HDF5 dataset (``mode='r+'`` to fill it during a build)."""
    off, shape, dtype = dataset_offset(path, name)
    return np.memmap(path, dtype=dtype, mode=mode, offset=off, shape=shape)


def sha256_file(path: Path, chunk: int = 1 << 22) -> str:
    """Hex sha256 of a file, read in 4 MiB chunks."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while True:
            b = fh.read(chunk)
            if not b:
                break
            h.update(b)
    return h.hexdigest()


def read_manifest(folder: Path, strict: bool = True) -> dict[str, Any]:
    """The manifest of an artifacts folder, or an empty one if there is none yet.

    A corrupt manifest raises :class:`ArtifactError` when ``strict``; otherwise it counts as empty,
    so a build simply rebuilds everything it lists.
    """
    p = Path(folder) / MANIFEST
    if not p.exists():
        return {"files": {}, "stages": {}}
    try:
        data = json.loads(p.read_text())
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        return data
    except ValueError as exc:
        if strict:
            raise ArtifactError(f"{p} is corrupt ({exc})") from None
        return {"files": {}, "stages": {}}
