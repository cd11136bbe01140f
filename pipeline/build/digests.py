"""Content digests of artifacts, and the expected digests of the default build shipped with the
package (``pipeline/data/expected_digests.json``).

A digest covers what a file *holds*, not how the library laid it out: per HDF5 dataset the
sha256 of the array bytes with its shape and dtype; per Parquet column the sha256 of its decoded
values (strings as offsets + bytes), or for columns of more than :data:`BIG_COLUMN` rows a cheap
aggregate for integers (sum and xor mod 2^64, plus the value histogram of 8/16-bit columns) and a
sha256 accumulated batch by batch for the others (card text, floats, histogram lists). The builds are
deterministic, so ``verify`` can tell a forged manifest from a genuine one.

The file also ships each artifact's whole-file sha256 as the reference build wrote it. A file
whose bytes hash to that value holds exactly the reference content, so ``verify`` skips the
per-item digests (and decoding the big Parquet columns) for it; a file written by other library
versions (a different byte layout) still gets every item digest compared.

Regenerate after an intended change to what the default build produces::

    python -m pipeline.build.digests --write            # from the repository root, after `make tables`
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from pipeline.query.artifacts import read_manifest

if TYPE_CHECKING:
    import pyarrow as pa

EXPECTED = Path(__file__).resolve().parent.parent / "data" / "expected_digests.json"
#: columns longer than this get an aggregate digest (hashing 1.3 GB of decoded rows costs seconds)
BIG_COLUMN = 20_000_000
#: artifact kinds that carry numbers and get content digests
DIGESTED_SUFFIXES = (".h5", ".parquet")
#: top-level key of the shipped file: artifact path -> whole-file sha256 of the reference build
FILE_SHA256 = "file_sha256"


def _sha(*parts: bytes | memoryview) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p)
    return h.hexdigest()


def _sha_range(path: Path, offset: int, nbytes: int, chunk: int = 1 << 22) -> str:
    """sha256 of ``nbytes`` bytes of a file from ``offset`` (plain reads beat page faults)."""
    h = hashlib.sha256()
    buf = bytearray(chunk)
    view = memoryview(buf)
    with open(path, "rb", buffering=0) as fh:
        fh.seek(offset)
        left = nbytes
        while left:
            n = fh.readinto(view[:min(chunk, left)])
            if not n:
                raise OSError(f"{path} ends before its dataset does")
            h.update(view[:n])
            left -= n
    return h.hexdigest()


def sha256_file_and_ranges(path: Path, ranges: dict[str, tuple[int, int]],
                           chunk: int = 1 << 22) -> tuple[str, dict[str, str]]:
    """(sha256 of the whole file, sha256 of each ``(offset, nbytes)`` range) in one read."""
    whole = hashlib.sha256()
    parts = {k: hashlib.sha256() for k in ranges}
    pos = 0
    with open(path, "rb", buffering=0) as fh:
        while True:
            b = fh.read(chunk)
            if not b:
                break
            whole.update(b)
            end = pos + len(b)
            for k, (off, n) in ranges.items():
                lo, hi = max(off, pos), min(off + n, end)
                if lo < hi:
                    parts[k].update(memoryview(b)[lo - pos:hi - pos])
            pos = end
    return whole.hexdigest(), {k: h.hexdigest() for k, h in parts.items()}


def contiguous_ranges(path: Path) -> dict[str, tuple[int, int]]:
    """Dataset name -> (file offset, bytes) of every contiguous, uncompressed HDF5 dataset."""
    from pipeline.query.artifacts import dataset_names, open_h5

    out: dict[str, tuple[int, int]] = {}
    with open_h5(path) as f:
        for name in dataset_names(f):
            o = f[name]
            if o.size and o.compression is None and o.chunks is None:
                off = o.id.get_offset()
                if off is not None:
                    out[name] = (int(off), o.size * o.dtype.itemsize)
    return out


def h5_digests(path: Path, ranges: dict[str, str] | None = None) -> dict[str, dict[str, Any]]:
    """Per dataset: shape, dtype and sha256 of the array bytes (read straight from the file when
    the dataset is contiguous, so the array is never held in memory; ``ranges`` holds digests
    already computed by :func:`sha256_file_and_ranges`)."""
    from pipeline.query.artifacts import dataset_names, open_h5

    out: dict[str, dict[str, Any]] = {}
    with open_h5(path) as f:
        for name in sorted(dataset_names(f)):
            ds = f[name]
            off = ds.id.get_offset()
            if ranges is not None and name in ranges:
                digest = ranges[name]
            elif off is not None and ds.size and ds.compression is None and ds.chunks is None:
                digest = _sha_range(path, off, ds.size * ds.dtype.itemsize)
            else:
                digest = _sha(np.ascontiguousarray(ds[()]).tobytes())
            out[name] = {"shape": list(ds.shape), "dtype": str(ds.dtype), "sha256": digest}
    return out


def _sum_xor(v: np.ndarray) -> tuple[int, int]:
    """Sum mod 2^64 and xor of integer values taken as uint64 (no copy for unsigned columns)."""
    u = v if v.dtype.kind == "u" else v.view(np.uint64) if v.dtype.itemsize == 8 else v.astype(np.uint64)
    if u.dtype.kind == "u" and u.dtype.itemsize < 8 and v.dtype.kind != "u":
        u = u.astype(np.uint64)
    return int(u.sum(dtype=np.uint64)), int(np.bitwise_xor.reduce(u)) if len(u) else 0


class ValueStream:
    """sha256 of a column's values fed batch by batch, equal whatever the batch sizes: one
    running hash of the value lengths (strings, lists) and one of the value bytes, so the batches
    of a column hash like the whole column. Lists hash their lengths, then their values as a
    column of their own (a fixed-size list of uint16 is its flattened numbers)."""

    def __init__(self) -> None:
        self.lengths = hashlib.sha256()
        self.data = hashlib.sha256()
        self.items: ValueStream | None = None

    def feed(self, arr: pa.Array) -> None:
        """Add one batch (a pyarrow Array) of the column."""
        import pyarrow as pa

        if pa.types.is_dictionary(arr.type):
            arr = arr.cast(arr.type.value_type)
        t = arr.type
        if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_binary(t) \
                or pa.types.is_large_binary(t):
            arr = arr.cast(pa.large_binary())
            offsets = np.frombuffer(arr.buffers()[1], np.int64)[arr.offset:arr.offset + len(arr) + 1]
            data = arr.buffers()[2]
            self.lengths.update(np.diff(offsets).tobytes())
            if data is not None:
                self.data.update(memoryview(data)[int(offsets[0]):int(offsets[-1])])
        elif pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
            lengths = arr.value_lengths().to_numpy(zero_copy_only=False)
            self.lengths.update(np.asarray(lengths, np.int64).tobytes())
            self.items = self.items or ValueStream()
            self.items.feed(arr.flatten())
        else:
            values = arr.to_numpy(zero_copy_only=False)
            if values.dtype == object:  # a struct or map: no fixed byte form to hash
                raise ValueError(f"column of type {t} has no value digest")
            self.data.update(np.ascontiguousarray(values).tobytes())

    def hexdigest(self) -> str:
        """The column's digest."""
        tail = self.items.hexdigest().encode() if self.items is not None else b""
        return _sha(self.lengths.digest(), self.data.digest(), tail)


def _is_int(t: pa.DataType) -> bool:
    import pyarrow as pa

    return bool(pa.types.is_integer(t))


def column_digest(col: pa.Array | pa.ChunkedArray, hist: np.ndarray | None = None) -> dict[str, Any]:
    """Digest of one pyarrow column's values (layout-independent); ``hist`` is the column's
    ``np.bincount`` when the caller already has it."""
    import pyarrow as pa

    if pa.types.is_dictionary(col.type):
        col = col.cast(col.type.value_type)
    arr = col.combine_chunks() if isinstance(col, pa.ChunkedArray) else col
    info: dict[str, Any] = {"rows": len(arr), "type": str(arr.type), "nulls": arr.null_count}
    if pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type) or pa.types.is_binary(arr.type):
        arr = arr.cast(pa.large_binary())
        offsets = np.frombuffer(arr.buffers()[1], np.int64)[arr.offset:arr.offset + len(arr) + 1]
        data = arr.buffers()[2]
        lo, hi = int(offsets[0]), int(offsets[-1])
        info["sha256"] = _sha((offsets - lo).tobytes(), memoryview(data)[lo:hi] if data else b"")
        return info
    if pa.types.is_nested(arr.type):  # lists (histograms): lengths and values
        stream = ValueStream()
        stream.feed(arr)
        info["sha256"] = stream.hexdigest()
        return info
    values = arr.to_numpy(zero_copy_only=False)
    if len(values) > BIG_COLUMN and values.dtype.kind in "iu":
        agg: list[int | str] = list(_sum_xor(values))
        if values.dtype.itemsize <= 2:
            h = np.bincount(values) if hist is None else hist
            agg.append(hashlib.sha256(np.trim_zeros(h.astype(np.int64), "b").tobytes()).hexdigest())
        info["aggregate"] = agg
    else:
        info["sha256"] = _sha(np.ascontiguousarray(values).tobytes())
    return info


def stream_big_parquet(path: Path, batch: int = 1 << 22) -> tuple[dict[str, dict[str, Any]], dict[str, np.ndarray]]:
    """(digests, histograms of 8/16-bit columns) of a Parquet file too big to decode whole:
    integer columns get the aggregate digest of :func:`column_digest`, every other column (card
    text, floats, lists) a :class:`ValueStream` sha256, each accumulated batch by batch so memory
    stays at one batch."""
    import pyarrow.parquet as pq

    pf = pq.ParquetFile(path)
    sums: dict[str, int] = {}
    xors: dict[str, int] = {}
    hists: dict[str, np.ndarray] = {}
    meta: dict[str, dict[str, Any]] = {}
    streams: dict[str, ValueStream] = {}
    for rb in pf.iter_batches(batch_size=batch):
        for name, col in zip(rb.schema.names, rb.columns):
            m = meta.setdefault(name, {"rows": 0, "type": str(col.type), "nulls": 0})
            m["rows"] += len(col)
            m["nulls"] += col.null_count
            if not _is_int(col.type):  # card text, floats, histograms: hashed as they stream
                streams.setdefault(name, ValueStream()).feed(col)
                continue
            v = col.to_numpy(zero_copy_only=False)
            total, xor = _sum_xor(v)
            sums[name] = (sums.get(name, 0) + total) % (1 << 64)
            xors[name] = xors.get(name, 0) ^ xor
            if v.dtype.itemsize <= 2:
                h = np.bincount(v, minlength=1 << (8 * v.dtype.itemsize))
                hists[name] = hists[name] + h if name in hists else h
    out = {}
    for name, m in meta.items():
        if name in streams:
            out[name] = {**m, "sha256": streams[name].hexdigest()}
            continue
        agg: list[int | str] = [sums[name], xors[name]]
        if name in hists:
            agg.append(hashlib.sha256(np.trim_zeros(hists[name].astype(np.int64), "b").tobytes()).hexdigest())
        out[name] = {**m, "aggregate": agg}
    return out, hists


def parquet_digests(path: Path, table: pa.Table | None = None,
                    hists: dict[str, np.ndarray] | None = None) -> dict[str, dict[str, Any]]:
    """Per column: rows, type and a digest of the values (``table``: the file already read;
    ``hists``: column histograms already computed)."""
    import pyarrow.parquet as pq

    if table is None and pq.read_metadata(path).num_rows > BIG_COLUMN:
        return stream_big_parquet(path)[0]
    t = table if table is not None else pq.read_table(path)
    hists = hists or {}
    return {name: column_digest(t.column(name), hists.get(name)) for name in t.column_names}


def content_digests(path: Path, table: pa.Table | None = None,
                    hists: dict[str, np.ndarray] | None = None) -> dict[str, dict[str, Any]]:
    """Content digests of an ``.h5`` or ``.parquet`` artifact (empty for other kinds)."""
    if path.suffix == ".h5":
        return h5_digests(path)
    if path.suffix == ".parquet":
        return parquet_digests(path, table, hists)
    return {}


class ExpectedDigests(NamedTuple):
    """The shipped reference digests (all maps empty if none are shipped)."""

    items: dict[str, dict[str, Any]]  # artifact path -> item -> content digest
    files: dict[str, str]             # artifact path -> whole-file sha256 of the reference build
    configs: dict[str, str] = {}      # stage -> config id (settings + sources) of the reference build


#: key of the per-stage config ids in the shipped digests file
STAGE_CONFIGS = "stage_configs"


def stage_config_id(parts: dict[str, Any]) -> str:
    """What a stage was configured with (its settings and source files, not its code): the
    shipped digests describe the stages built with the default config only."""
    shaping = {"settings": parts.get("settings"), "sources": parts.get("sources")}
    return hashlib.sha256(json.dumps(shaping, sort_keys=True).encode()).hexdigest()


def default_stages(manifest: dict[str, Any], configs: dict[str, str]) -> set[str]:
    """Stages of ``manifest`` built as the reference build was: same settings and sources, and
    every input made by such a stage (a summary of a changed paytable is not the default's)."""
    stages = manifest.get("stages", {})
    files = manifest.get("files", {})
    memo: dict[str, bool] = {}

    def default(name: str) -> bool:
        if name not in memo:
            memo[name] = False  # an input cycle cannot make a stage default
            parts = stages.get(name, {}).get("parts") or {}
            ok = name in configs and stage_config_id(parts) == configs[name]
            for rel in (parts.get("inputs") or {}):
                owner = files.get(rel, {}).get("stage")
                ok = ok and owner is not None and default(owner)
            memo[name] = ok
        return memo[name]

    return {name for name in stages if default(name)}


def load_expected(path: Path = EXPECTED) -> ExpectedDigests:
    """Read the shipped expected digests once: content digests and whole-file sha256s."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return ExpectedDigests({}, {})
    if not isinstance(data, dict):
        return ExpectedDigests({}, {})
    items = data.get("files", {})
    files = data.get(FILE_SHA256, {})
    configs = data.get(STAGE_CONFIGS, {})
    return ExpectedDigests(items if isinstance(items, dict) else {},
                           {str(k): str(v) for k, v in files.items()} if isinstance(files, dict) else {},
                           {str(k): str(v) for k, v in configs.items()} if isinstance(configs, dict) else {})


def compare(rel: str, got: dict[str, dict[str, Any]], want: dict[str, dict[str, Any]]) -> list[str]:
    """Problems where ``got`` (digests of a file) differs from the shipped ``want``."""
    out = []
    for name in sorted(set(want) | set(got)):
        if name not in got:
            out.append(f"{name}: missing (the default build has it)")
        elif name not in want:
            out.append(f"{name}: not in the default build's digests")
        elif got[name] != want[name]:
            out.append(f"{name}: content differs from the digest shipped for the default build "
                       "(forged, corrupt, or built from a changed config)")
    return out


def compute_all(folder: Path) -> dict[str, dict[str, Any]]:
    """Content digests of every ``.h5``/``.parquet`` artifact the manifest of ``folder`` lists."""
    files = read_manifest(folder)["files"]
    return {rel: content_digests(folder / rel) for rel in sorted(files)
            if rel.endswith(DIGESTED_SUFFIXES) and (folder / rel).is_file()}


def main(argv: list[str] | None = None) -> int:
    """``python -m pipeline.build.digests [--write|--check] [--artifacts DIR]``."""
    ap = argparse.ArgumentParser(prog="python -m pipeline.build.digests", description=__doc__.split("\n")[0])
    ap.add_argument("--artifacts", type=Path, default=Path("artifacts"), help="built default artifacts")
    ap.add_argument("--write", action="store_true", help=f"write {EXPECTED.name} from the artifacts")
    args = ap.parse_args(argv)
    digests = compute_all(args.artifacts)
    if args.write:
        from pipeline.query.artifacts import sha256_file

        shas = {rel: sha256_file(args.artifacts / rel) for rel in digests}
        stages = read_manifest(args.artifacts)["stages"]
        configs = {name: stage_config_id(st.get("parts") or {}) for name, st in stages.items()
                   if not name.startswith("sweep:")}
        EXPECTED.parent.mkdir(parents=True, exist_ok=True)
        EXPECTED.write_text(json.dumps({"about": "content digests of the default build; regenerate with "
                                                 "`python -m pipeline.build.digests --write`",
                                        "files": digests, FILE_SHA256: shas, STAGE_CONFIGS: configs},
                                       indent=2, sort_keys=True) + "\n")
        print(f"wrote {len(digests)} file digests to {EXPECTED}")
        return 0
    want = load_expected().items
    bad = 0
    for rel, got in digests.items():
        problems = compare(rel, got, want[rel]) if rel in want else ["no shipped digest"]
        for p in problems:
            print(f"{rel}: {p}")
        bad += bool(problems) and rel in want
    print(f"{len(digests)} file(s), {bad} differing from the shipped digests")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
