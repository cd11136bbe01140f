"""Run build stages: decide what is stale, run it under the build lock, record the manifest.

A build holds the folder's build lock throughout (one build at a time) and its commit lock only
while it recovers a killed build's leftovers and while it commits each stage: a sweep or another
short writer commits between two stages instead of waiting for the whole build
(:mod:`pipeline.build.locks`)."""

from __future__ import annotations

import contextlib
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pipeline.build.commit import JOURNAL, commit_stage, recover
from pipeline.build.config import BuildConfig
from pipeline.build.executor import Executor, LocalExecutor
from pipeline.build.keys import parts_key, stage_parts, stale_reasons
from pipeline.build.locks import COMMIT_LOCK, LOCK, OnWait, build_lock, commit_lock
from pipeline.build.reuse import Donor
from pipeline.build.stages import Context, Stage, plan
from pipeline.build.store import (
    STAGING,
    TMP_PREFIX,
    clean_stale_temps,
    describe_file,
    read_manifest,
)
from pipeline.core.codegraph import ImportGraph
from pipeline.errors import ArtifactError, BuildError
from pipeline.query.artifacts import MANIFEST, open_checked
from pipeline.version import __version__


@dataclass(frozen=True)
class StageResult:
    """Outcome of one stage in a build: ``status`` is ``built``, ``skipped`` or ``linked``
    (reused from another folder, see :func:`run_build`)."""

    name: str
    status: str
    seconds: float
    bytes: int
    outputs: tuple[str, ...]
    reasons: tuple[str, ...] = ()   # why it was built (see :func:`check_stage`)


@dataclass(frozen=True)
class PlannedStage:
    """A stage with its key and whether it would run: ``reasons`` is empty when up to date."""

    stage: Stage
    key: str
    parts: dict[str, Any]
    reasons: tuple[str, ...]
    #: inputs a stale stage before this one rebuilds first (dry runs only): this stage then
    #: reruns only if the rebuilt input's bytes change
    upstream: tuple[str, ...] = ()

    @property
    def stale(self) -> bool:
        """Whether the stage would (re)build."""
        return bool(self.reasons)

    @property
    def status(self) -> str:
        """``would-run``, ``may-run`` (only an input is rebuilt first) or ``up-to-date``."""
        return "would-run" if self.reasons else "may-run" if self.upstream else "up-to-date"


def stage_key(stage: Stage, manifest: dict[str, Any], graph: ImportGraph | None = None) -> str:
    """Hash of everything a stage's outputs depend on (see :mod:`pipeline.build.keys`)."""
    return parts_key(stage.name, _parts(stage, manifest, graph or ImportGraph()))


def _parts(stage: Stage, manifest: dict[str, Any], graph: ImportGraph) -> dict[str, Any]:
    files = manifest.get("files", {})
    inputs = {i: files.get(i, {}).get("sha256") for i in stage.inputs}
    return stage_parts(stage.module, stage.settings, inputs, stage.sources, graph)


def _output_problems(stage: Stage, manifest: dict[str, Any], folder: Path) -> list[str]:
    out = []
    for rel in stage.outputs:
        if rel not in manifest.get("files", {}) or not (folder / rel).exists():
            out.append(f"output missing: {rel}")
            continue
        try:  # the readers' check: a changed file (even with its mtime restored) is stale
            open_checked(folder, rel, manifest)
        except ArtifactError:
            out.append(f"output changed: {rel}")
    return out


def check_stage(stage: Stage, manifest: dict[str, Any], folder: Path, force: bool = False,
                graph: ImportGraph | None = None) -> PlannedStage:
    """Key a stage against ``manifest`` and say why it would run (no reasons: up to date)."""
    parts = _parts(stage, manifest, graph or ImportGraph())
    key = parts_key(stage.name, parts)
    entry = manifest.get("stages", {}).get(stage.name)
    reasons: list[str] = []
    if not entry:
        reasons.append("new")
    elif entry.get("key") != key:
        reasons += stale_reasons(parts, entry.get("parts")) or ["key"]
    if entry:
        reasons += _output_problems(stage, manifest, folder)
    if force:
        reasons.append("forced")
    return PlannedStage(stage, key, parts, tuple(reasons))


def plan_build(config: BuildConfig, names: list[str] | None = None, force: bool = False
               ) -> list[PlannedStage]:
    """What a build would do, without building or taking the lock: one entry per planned stage.

    A stage is keyed with its inputs as they are now. When an earlier stale stage rebuilds one
    of them, the stage is ``may-run``: a real build re-keys it after its inputs were rebuilt and
    reruns it only if their bytes changed (the builds are deterministic, so often they do not).
    """
    manifest = read_manifest(config.artifacts, strict=False)
    graph = ImportGraph()
    planned = []
    rebuilt: set[str] = set()
    for stage in plan(config, names):
        p = check_stage(stage, manifest, config.artifacts, force, graph)
        upstream = tuple(i for i in stage.inputs if i in rebuilt)
        if upstream:
            p = PlannedStage(p.stage, p.key, p.parts, p.reasons, upstream)
        if p.stale or upstream:
            rebuilt.update(stage.outputs)
        planned.append(p)
    return planned


def _nothing_to_do(stages: list[Stage], folder: Path) -> list[StageResult] | None:
    """The all-skipped results when every stage is current (no lock needed, so a read-only
    artifacts folder builds as a no-op), else ``None``."""
    if (folder / JOURNAL).exists() or (folder / STAGING).exists() or \
            next(folder.rglob(TMP_PREFIX + "*"), None) is not None:
        return None  # a killed build left work for the lock holder: finish or clean it
    manifest = read_manifest(folder, strict=False)
    graph = ImportGraph()  # one graph for all stages: their import closures overlap
    results = []
    for stage in stages:
        if check_stage(stage, manifest, folder, graph=graph).stale:
            return None
        size = sum(manifest["files"][o]["bytes"] for o in stage.outputs)
        results.append(StageResult(stage.name, "skipped", 0.0, size, stage.outputs))
    return results


#: what an artifacts folder may hold besides the artifacts before its first manifest (the
#: repository's artifacts/README.md, and what a killed first build leaves)
_BOOKKEEPING = frozenset({"README.md", LOCK, COMMIT_LOCK, JOURNAL, STAGING})


def _check_ours(folder: Path, artifact_names: set[str]) -> None:
    """Refuse to build into a folder this project does not own: one with a manifest, or new, or
    holding only artifacts and bookkeeping, is ours; any other (the current folder, a home
    folder) is not, since a build cleans up temporary files there."""
    if not folder.is_dir() or (folder / MANIFEST).exists():
        return
    foreign = sorted(p.name for p in folder.iterdir()
                     if p.name not in _BOOKKEEPING and p.name not in artifact_names
                     and not p.name.startswith(TMP_PREFIX))
    if foreign:
        shown = ", ".join(foreign[:3]) + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
        raise BuildError(f"{folder} is not an artifacts folder: it has no {MANIFEST} and holds "
                         f"{shown}; build into a new or empty folder (-a)")


class BuildProgress(Protocol):
    """What a build tells its display: a stage about to be checked (and built if stale), how
    far the running stage is (``fraction`` 0..1), and the stage's result."""

    def start(self, stage: Stage) -> None: ...

    def update(self, text: str, fraction: float) -> None: ...

    def finish(self, result: StageResult) -> None: ...


def run_build(config: BuildConfig, names: list[str] | None = None, force: bool = False,
              wait: bool = False, progress: BuildProgress | None = None,
              executor: Executor | None = None, reuse: Path | None = None,
              on_wait: OnWait | None = None) -> list[StageResult]:
    """Build the planned stages into ``config.artifacts``; return one result per stage.

    ``reuse`` names another artifacts folder: a stale stage whose key there equals the wanted
    key is hard-linked from it (:mod:`pipeline.build.reuse`), not rebuilt (``force`` rebuilds).

    ``progress`` is an optional :class:`BuildProgress` (the CLI passes a rich display). ``executor`` runs the stages'
    parallel tasks (default: in this process); the caller closes it. ``on_wait`` is told at once
    when a lock must be waited for, and who holds it.
    """
    executor = executor or LocalExecutor()
    folder = config.artifacts
    stages = plan(config, names)
    _check_ours(folder, {rel.split("/")[0] for st in plan(config) for rel in (*st.outputs, *st.inputs)})
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BuildError(f"cannot create artifacts folder {folder}: {exc.strerror}") from None
    mf = folder / MANIFEST
    if (mf.exists() or mf.is_symlink()) and not mf.is_file():
        raise BuildError(f"{mf} is not a regular file; remove it and build again")
    if not force:
        done = _nothing_to_do(stages, folder)
        if done is not None:
            for res in done:
                if progress:
                    progress.start(next(s for s in stages if s.name == res.name))
                    progress.finish(res)
            return done
    results: list[StageResult] = []
    staged: list[Path] = []
    with build_lock(folder, wait=wait, on_wait=on_wait):
        try:
            with commit_lock(folder, on_wait):  # a sweep may be writing its staged files
                recover(folder)
                clean_stale_temps(folder)
            manifest = read_manifest(folder, strict=False)  # a corrupt one means: rebuild all
            graph = ImportGraph()
            donor = Donor(reuse) if reuse is not None and not force else None
            # digest the code now, when plan() has just imported it: a source edited while the
            # build runs then gives a different key next time (a rebuild), never a stale skip
            for stage in stages:
                for module in graph.closure(stage.module):
                    graph.digest(module)
            for stage in stages:
                # keyed now, after earlier stages ran: a rebuilt input changes this key
                planned = check_stage(stage, manifest, folder, force, graph)
                key = planned.key
                if progress:
                    progress.start(stage)
                if not planned.stale:
                    size = sum(manifest["files"][o]["bytes"] for o in stage.outputs)
                    res = StageResult(stage.name, "skipped", 0.0, size, stage.outputs)
                else:
                    # outputs are written into a staging folder and moved into place only when the
                    # whole stage succeeded: a failure or kill mid-stage changes no artifact
                    # stage names are unique, so each stage stages into its own folder; what a
                    # failed stage leaves there is removed below
                    staging = folder / STAGING / stage.name.replace(":", "_")
                    staged.append(staging)
                    reused = donor.link(stage.name, key, stage.outputs, staging) if donor else None
                    t0 = time.perf_counter()
                    if reused is None:
                        for inp in stage.inputs:
                            if not (folder / inp).exists():
                                raise BuildError(f"stage {stage.name} needs {inp}, which is not built; "
                                                 f"`pokertables -a {folder} build` builds every stage in order")
                        ctx = Context(folder, config, progress.update if progress else lambda t, f: None,
                                      outputs=stage.outputs, staging=staging, executor=executor)
                        stage.run(ctx)
                    seconds = time.perf_counter() - t0
                    outputs: dict[str, Any] = {}
                    for out in stage.outputs:
                        p = staging / out
                        if not p.exists():
                            raise BuildError(f"stage {stage.name} did not write {out}")
                        if reused is not None:
                            info = reused[0][out]  # proven against the donor's manifest: not re-hashed
                        else:
                            info = describe_file(p)  # the rename keeps size, bytes and mtime
                            info.update(stage=stage.name, config_hash=key, package_version=__version__,
                                        build_seconds=round(seconds, 3))
                        outputs[out] = info
                    size = sum(info["bytes"] for info in outputs.values())
                    record = reused[1] if reused is not None else {
                        "key": key, "parts": planned.parts, "outputs": list(stage.outputs),
                        "seconds": round(seconds, 3),
                        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
                    with commit_lock(folder, on_wait):
                        # the manifest as it is now: a sweep may have committed while this computed
                        manifest = read_manifest(folder, strict=False)
                        _commit(folder, staging, stage, manifest, outputs, record)
                    res = StageResult(stage.name, "built" if reused is None else "linked", seconds, size,
                                      stage.outputs, planned.reasons)
                results.append(res)
                if progress:
                    progress.finish(res)
        finally:
            for staging in staged:  # nothing this build staged outlives it (a sweep's is its own)
                shutil.rmtree(staging, ignore_errors=True)
            with contextlib.suppress(OSError):
                (folder / STAGING).rmdir()  # only when empty
    return results


def _commit(folder: Path, staging: Path, stage: Stage, manifest: dict[str, Any],
            outputs: dict[str, Any], record: dict[str, Any]) -> None:
    """Record a stage's outputs and its record in ``manifest`` and commit them (hold the commit
    lock)."""
    manifest.setdefault("files", {}).update(outputs)
    manifest.setdefault("stages", {})[stage.name] = record
    manifest["package_version"] = __version__
    # outputs an older version of this stage wrote (say, before its Parquet was partitioned) go
    # with the commit, so no orphan lingers in the manifest
    retired = tuple(rel for rel, info in list(manifest["files"].items())
                    if info.get("stage") == stage.name and rel not in stage.outputs)
    for rel in retired:
        del manifest["files"][rel]
    commit_stage(folder, staging, stage.name, stage.outputs, manifest, retired)
