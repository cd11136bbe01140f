"""The read side's view of an artifacts folder: the manifest, file digests and memory maps.

Every reader opens an artifact through :func:`open_checked` (or an :class:`ArtifactFolder`),
the one integrity-checked path. A file is trusted when its size, mtime, ctime and inode are the
ones recorded when its bytes were last proven to match the manifest's sha256 (by the build, or
by an earlier verified open, kept in a small sidecar cache). ctime and inode cannot be set back by
a user, so flipping bytes and restoring the mtime forces a re-hash, and a mismatch is refused.

It is also the read side's one door into HDF5 (:func:`open_h5`, :func:`read_datasets`,
:func:`describe_dataset`, :func:`map_dataset`): the family readers (:mod:`pipeline.query.tables`
for the score and rule files, :mod:`pipeline.query.classes`, :mod:`pipeline.query.preflop`,
:mod:`pipeline.videopoker.solver.deals` for ``vp_classes.h5``) and the build's checks open files
through it, so only this module and each family's one writer import h5py (``tests/test_layout.py``).

Everything here only reads artifacts; the build side imports it to describe what it wrote.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import h5py
import numpy as np

from pipeline.core.constants import MAX_MANIFEST_BYTES, N_SCORES
from pipeline.errors import ArtifactError

if TYPE_CHECKING:
    from pipeline.core.evalkeys import EvalTables

MANIFEST = "manifest.json"
#: sidecar cache of verified stat signatures: rel -> [size, mtime_ns, ctime_ns, inode, sha256]
VERIFIED = ".verified.json"
#: the command that repairs any artifact problem
REBUILD = "`pokertables build --force`"
#: temp files of this package start with this (the build cleans leftovers)
TMP_PREFIX = ".pokertables-tmp-"


@contextlib.contextmanager
def open_h5(path: Path | str) -> Iterator[h5py.File]:
    """An HDF5 file opened read-only, closed on leaving the block."""
    with h5py.File(path, "r") as f:
        yield f


def dataset_names(group: h5py.Group) -> list[str]:
    """The path of every dataset under an open file or group, in HDF5's visiting order."""
    names: list[str] = []
    group.visititems(lambda n, o: names.append(n) if isinstance(o, h5py.Dataset) else None)
    return names


def read_datasets(path: Path | str, names: list[str] | tuple[str, ...], missing_ok: bool = False
                  ) -> dict[str, Any]:
    """Datasets of an HDF5 file by path, each read whole, in one open. A missing one raises
    ``KeyError`` naming it, or is left out when ``missing_ok``."""
    out: dict[str, Any] = {}
    with open_h5(path) as f:
        for n in names:
            if n in f:
                out[n] = f[n][()]
            elif not missing_ok:
                raise KeyError(n)
    return out


def describe_dataset(path: Path | str, name: str
                     ) -> tuple[int | None, tuple[int, ...], np.dtype, dict[str, Any]]:
    """(file offset or None when not contiguous, shape, dtype, attributes) of one dataset."""
    with open_h5(path) as f:
        ds = f[name]
        off = ds.id.get_offset()
        return None if off is None else int(off), tuple(ds.shape), ds.dtype, dict(ds.attrs)


def dataset_offset(path: Path, name: str) -> tuple[int, tuple[int, ...], np.dtype]:
    """Return (file offset, shape, dtype) of a contiguous dataset, for memory-mapping."""
    off, shape, dtype, _ = describe_dataset(path, name)
    if off is None:
        raise ArtifactError(f"{path}:{name} has no contiguous storage to map")
    return off, shape, dtype


def map_dataset(path: Path, name: str, mode: Literal["r", "r+"] = "r") -> np.memmap[Any, np.dtype[Any]]:
    """Memory-map a contiguous HDF5 dataset (``mode='r+'`` to fill it during a build)."""
    off, shape, dtype = dataset_offset(path, name)
    return np.memmap(path, dtype=dtype, mode=mode, offset=off, shape=shape)


def map_eval_tables(path: Path) -> EvalTables:
    """The cache-resident evaluator's four arrays in ``eval_tables.h5``, memory-mapped read-only."""
    from pipeline.core.evalkeys import EvalTables, card_keys

    ev = EvalTables(*(map_dataset(path, name) for name in EvalTables._fields))
    # the batch scorers index with these arrays unchecked and return their values unchecked:
    # the scores and keys are checked once here (0.2 ms) instead of every batch's output
    if (ev.ranks.size == 0 or int(ev.ranks.max()) > N_SCORES or int(ev.flush.max()) > N_SCORES
            or not np.array_equal(ev.card_keys, card_keys())):
        raise ArtifactError(f"{path} holds a score above {N_SCORES} or a wrong card key: the file is "
                            f"corrupt; rebuild with `pokertables build eval_tables --force`")
    return ev


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


def _bad_manifest(p: Path, why: str) -> ArtifactError:
    return ArtifactError(f"{p} is corrupt ({why}); rebuild with {REBUILD}")


def check_manifest_shape(data: Any, p: Path) -> dict[str, Any]:
    """Return ``data`` if it has the manifest's shape, else raise :class:`ArtifactError` naming ``p``.

    Shape: ``{"files": {rel: {"bytes": int, "sha256": hex str, ...}}, "stages": {...}}``.
    """
    if not isinstance(data, dict):
        raise _bad_manifest(p, f"a JSON {type(data).__name__}, not an object")
    files = data.get("files")
    if not isinstance(files, dict):
        raise _bad_manifest(p, "no \"files\" object")
    if not isinstance(data.get("stages", {}), dict):
        raise _bad_manifest(p, "\"stages\" is not an object")
    for rel, info in files.items():
        if not isinstance(info, dict):
            raise _bad_manifest(p, f"entry {rel[:80]!r} is not an object")
        size, digest = info.get("bytes"), info.get("sha256")
        if type(size) is not int or size < 0:
            raise _bad_manifest(p, f"entry {rel[:80]!r} has no valid \"bytes\"")
        if not isinstance(digest, str) or len(digest) != 64:
            raise _bad_manifest(p, f"entry {rel[:80]!r} has no valid \"sha256\"")
        # the build records every HDF5 file's datasets; readers check shapes against them
        if rel.endswith(".h5") and "datasets" not in info:
            raise _bad_manifest(p, f"entry {rel[:80]!r} has no \"datasets\"")
        ds = info.get("datasets", {})
        if not isinstance(ds, dict) or not all(
                isinstance(d, dict) and isinstance(d.get("shape"), list) and isinstance(d.get("dtype"), str)
                for d in ds.values()):
            raise _bad_manifest(p, f"entry {rel[:80]!r} has malformed \"datasets\"")
    return data


def read_manifest(folder: Path, strict: bool = True) -> dict[str, Any]:
    """The manifest of an artifacts folder, or an empty one if there is none yet.

    A corrupt or wrongly shaped manifest raises :class:`ArtifactError` when ``strict``;
    otherwise it counts as empty, so a build simply rebuilds everything it lists.
    """
    p = Path(folder) / MANIFEST
    if not p.exists() and not p.is_symlink():
        return {"files": {}, "stages": {}}
    try:
        st = p.stat()
        if not stat.S_ISREG(st.st_mode):
            raise _bad_manifest(p, "not a regular file")
        if st.st_size > MAX_MANIFEST_BYTES:
            raise _bad_manifest(p, f"{st.st_size} bytes, more than a manifest can be")
        data = json.loads(p.read_bytes())
        return check_manifest_shape(data, p)
    except (ArtifactError, ValueError, RecursionError, OSError) as exc:
        if strict:
            if isinstance(exc, ArtifactError):
                raise
            if isinstance(exc, OSError):
                raise _bad_manifest(p, str(exc.strerror)) from None
            raise ArtifactError(f"{p} is not valid JSON (corrupt); rebuild with {REBUILD}") from None
        return {"files": {}, "stages": {}}


def stat_signature(st: os.stat_result) -> list[int]:
    """What a user cannot restore after editing a file: size, mtime, ctime and inode."""
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def _read_verified(folder: Path) -> dict[str, Any]:
    try:
        data = json.loads((folder / VERIFIED).read_bytes())
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError, RecursionError):
        return {}


def _record_verified(folder: Path, rel: str, sig: list[int], digest: str) -> None:
    """Remember that ``rel`` with signature ``sig`` hashed to ``digest`` (best effort: a
    read-only folder simply re-hashes next time)."""
    cache = _read_verified(folder)
    cache[rel] = [*sig, digest]
    try:
        fd, tmp = tempfile.mkstemp(prefix=TMP_PREFIX + VERIFIED + ".", dir=folder)
    except OSError:
        return
    try:
        with os.fdopen(fd, "w") as fh:
            json.dump(cache, fh)
        os.chmod(tmp, 0o644)
        os.replace(tmp, folder / VERIFIED)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def open_checked(folder: Path | str, rel: str, manifest: dict[str, Any] | None = None) -> Path:
    """The path of artifact ``rel`` in ``folder`` once proven to be what its manifest says.

    Size must match; if size, mtime, ctime or inode differ from the signature recorded when the
    file was last proven, it is re-hashed. Raises :class:`ArtifactError` naming the file and
    the command that repairs it when it is missing, untracked, non-regular or changed.
    """
    folder = Path(folder)
    p = folder / rel
    if manifest is None:
        manifest = read_manifest(folder)
    info = manifest.get("files", {}).get(rel)
    try:
        st = p.stat()
    except FileNotFoundError:
        raise ArtifactError(f"{p} is missing; run `make tables` (or `pokertables build`)") from None
    if not stat.S_ISREG(st.st_mode):
        raise ArtifactError(f"{p} is not a regular file; remove it and rebuild with {REBUILD}")
    if info is None:
        raise ArtifactError(f"{p} is not in {folder / MANIFEST}; rebuild it with `pokertables build`")
    if st.st_size != info["bytes"]:
        raise ArtifactError(f"{p} is {st.st_size} bytes but the manifest says {info['bytes']}: "
                            f"corrupt or partial; rebuild with {REBUILD}")
    sig = stat_signature(st)
    built = [info["bytes"], info.get("mtime_ns"), info.get("ctime_ns"), info.get("inode")]
    if sig == built:
        return p
    known = _read_verified(folder).get(rel)
    if isinstance(known, list) and known == [*sig, info["sha256"]]:
        return p
    if sha256_file(p) != info["sha256"]:
        raise ArtifactError(f"{p} changed since it was built (sha256 differs from the manifest): "
                            f"refusing corrupt data; rebuild with {REBUILD}")
    _record_verified(folder, rel, sig, info["sha256"])
    return p


class ArtifactFolder:
    """An artifacts folder opened for reading: its manifest, read once, and checked opens."""

    def __init__(self, folder: Path | str) -> None:
        if str(folder) == "":
            raise ArtifactError("artifacts folder is an empty path; pass a folder such as 'artifacts'")
        self.path = Path(folder)
        if not self.path.is_dir():
            raise ArtifactError(f"artifacts folder {self.path} does not exist; run `make tables`")
        self.manifest = read_manifest(self.path)
        self._proven: set[str] = set()

    def open(self, rel: str) -> Path:
        """Path of a proven artifact (each file is checked once per folder object)."""
        if rel not in self._proven:
            open_checked(self.path, rel, self.manifest)
            self._proven.add(rel)
        return self.path / rel

    def entry(self, rel: str) -> dict[str, Any]:
        """The manifest entry of ``rel`` (empty if untracked)."""
        return dict(self.manifest.get("files", {}).get(rel, {}))
