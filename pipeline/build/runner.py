"""Run build stages: decide what is stale, run it under the build lock, record the manifest.

A build holds the folder's build lock throughout (one build at a time) and its commit lock only
while it recovers a killed build's leftovers and while it commits each stage: a sweep or another
short writer commits between two stages instead of waiting for the whole build
(:mod:`pipeline.build.locks`)."""

from __future__ import annotations

import contextlib
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pipeline.build.commit import JOURNAL, commit_stage, recover
from pipeline.build.config import BuildConfig
from pipeline.build.executor import Executor, LocalExecutor
from pipeline.build.keys import parts_key, stage_parts, stale_reasons
from pipeline.build.lanes import Compiled, SideProcess, run_order, side_lane, writers
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
from pipeline.core.jit_clock import CompileClock
from pipeline.errors import ArtifactError, BuildError
from pipeline.query.artifacts import MANIFEST, open_checked
from pipeline.registry import config_dirs
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
    far a running stage is (``fraction`` 0..1; ``stage`` names it, since a build with two lanes
    runs two stages at once), and the stage's result."""

    def start(self, stage: Stage) -> None: ...

    def update(self, text: str, fraction: float, stage: str = "") -> None: ...

    def finish(self, result: StageResult) -> None: ...


def run_build(config: BuildConfig, names: list[str] | None = None, force: bool = False,
              wait: bool = False, progress: BuildProgress | None = None,
              executor: Executor | None = None, reuse: Path | None = None,
              on_wait: OnWait | None = None, lanes: bool = False,
              clock: CompileClock | None = None) -> list[StageResult]:
    """Build the planned stages into ``config.artifacts``; return one result per stage.

    ``reuse`` names another artifacts folder: a stale stage whose key there equals the wanted
    key is hard-linked from it (:mod:`pipeline.build.reuse`), not rebuilt (``force`` rebuilds).

    ``progress`` is an optional :class:`BuildProgress` (the CLI passes a rich display). ``executor`` runs the stages'
    parallel tasks (default: in this process); the caller closes it. ``on_wait`` is told at once
    when a lock must be waited for, and who holds it.

    With ``lanes`` (and the local executor), the side lane's stages are computed in a second
    process while this one computes the others (:mod:`pipeline.build.lanes`), when both lanes
    have stale stages; ``clock`` then gets that process's numba compiling added at the end.
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
    with build_lock(folder, wait=wait, on_wait=on_wait):
        with commit_lock(folder, on_wait):  # a sweep may be writing its staged files
            recover(folder)
            clean_stale_temps(folder)
        graph = ImportGraph()
        # digest the code now, when plan() has just imported it: a source edited while the
        # build runs then gives a different key next time (a rebuild), never a stale skip
        for stage in stages:
            for module in graph.closure(stage.module):
                graph.digest(module)
        run = _Run(config, force, progress, executor, on_wait, graph,
                   Donor(reuse) if reuse is not None and not force else None)
        try:
            run.all(run_order(stages), lanes and not executor.distributed)
        finally:
            for staging in run.staged:  # nothing this build staged outlives it (a sweep's is its own)
                shutil.rmtree(staging, ignore_errors=True)
            with contextlib.suppress(OSError):
                (folder / STAGING).rmdir()  # only when empty
            if clock is not None:
                clock.add(run.side_compiled.total, run.side_compiled.compiles, run.side_compiled.seconds)
    return [run.results[s.name] for s in stages]


class _Stopped(Exception):
    """The other lane failed: this one stops before its next stage."""


#: seconds between checks for Ctrl-C while the build process waits on the other lane
_POLL_S = 0.5


class _Run:
    """One build's stages under the build lock: each keyed when every stage writing one of its
    inputs has committed, then built (here or in the second process), hashed and committed
    here. With two lanes, this process's main thread runs its lane and a helper thread feeds
    the second process; keying, the manifest and commits are shared under locks."""

    def __init__(self, config: BuildConfig, force: bool, progress: BuildProgress | None,
                 executor: Executor, on_wait: OnWait | None, graph: ImportGraph,
                 donor: Donor | None) -> None:
        self.config, self.folder, self.force = config, config.artifacts, force
        self.progress, self.executor, self.on_wait = progress, executor, on_wait
        self.graph, self.donor = graph, donor
        self.manifest = read_manifest(self.folder, strict=False)  # a corrupt one means: rebuild all
        self.results: dict[str, StageResult] = {}
        self.staged: list[Path] = []
        self.side_compiled = Compiled()
        self._needs: dict[str, set[str]] = {}
        self._keying = threading.Lock()     # the manifest in memory, the import graph, staged
        self._committing = threading.Lock()  # one commit at a time from this process
        self._done = threading.Condition()
        self._failed: BaseException | None = None
        self._two_lanes = False  # with one lane, every input's stage ran before (run_order)

    def all(self, order: list[Stage], lanes: bool) -> None:
        """Run ``order``: all here, or the side lane's stages beside in a second process when
        both lanes have stale work (else the second process would cost more than it saves)."""
        self._needs = writers(order)
        side = [s for s in order if side_lane(s)] if lanes else []
        main = [s for s in order if s not in side]
        if not (side and main and self._some_stale(order, side) and self._some_stale(order, main)):
            for stage in order:
                self._stage(stage, None)
            return
        proc = SideProcess(self.config, config_dirs())
        helper = threading.Thread(target=self._side, args=(side, proc), name="build-side", daemon=True)
        self._two_lanes = True
        helper.start()
        try:
            for stage in main:
                self._stage(stage, None)
        except _Stopped:
            pass  # the side lane failed: its error is raised below
        except BaseException as exc:
            self._fail(exc)
            proc.stop()  # what it computes is only staged
            raise
        finally:
            while helper.is_alive():
                helper.join(_POLL_S)
            proc.close()
        if self._failed is not None:
            raise self._failed

    def _some_stale(self, order: list[Stage], lane: list[Stage]) -> bool:
        """Whether a stage of ``lane`` would run: stale now, or reading a stale stage's output."""
        stale: set[str] = set()
        for stage in order:
            if self._needs[stage.name] & stale or \
                    check_stage(stage, self.manifest, self.folder, self.force, self.graph).stale:
                stale.add(stage.name)
        return any(s.name in stale for s in lane)

    def _side(self, stages: list[Stage], proc: SideProcess) -> None:
        try:
            for stage in stages:
                self._stage(stage, proc)
        except _Stopped:
            pass
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread, which raises it
            self._fail(exc)

    def _fail(self, exc: BaseException) -> None:
        with self._done:
            if self._failed is None:
                self._failed = exc
            self._done.notify_all()

    def _wait_for(self, stage: Stage) -> None:
        """Return once every stage writing one of ``stage``'s inputs has committed (raise
        :class:`_Stopped` if a lane failed)."""
        if not self._two_lanes:
            return
        with self._done:
            while self._failed is None and not self._needs.get(stage.name, set()) <= self.results.keys():
                self._done.wait(_POLL_S)
            if self._failed is not None:
                raise _Stopped

    def _stage(self, stage: Stage, proc: SideProcess | None) -> None:
        """Key one stage; build it here (``proc`` None) or in the second process if stale; commit."""
        self._wait_for(stage)
        folder, progress = self.folder, self.progress
        with self._keying:
            # keyed now, after the stages writing its inputs committed: a rebuilt input changes this key
            planned = check_stage(stage, self.manifest, folder, self.force, self.graph)
            manifest = self.manifest
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
            # failed stage leaves there is removed at the end of the build
            staging = folder / STAGING / stage.name.replace(":", "_")
            with self._keying:
                self.staged.append(staging)
            reused = self.donor.link(stage.name, key, stage.outputs, staging) if self.donor else None
            t0 = time.perf_counter()
            if reused is None:
                for inp in stage.inputs:
                    if not (folder / inp).exists():
                        raise BuildError(f"stage {stage.name} needs {inp}, which is not built; "
                                         f"`pokertables -a {folder} build` builds every stage in order")
                report = _reporter(progress, stage.name)
                if proc is None:
                    stage.run(Context(folder, self.config, report, outputs=stage.outputs, staging=staging,
                                      executor=self.executor))
                else:
                    self.side_compiled.add(proc.run(stage, staging, report))
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
            with self._committing, commit_lock(folder, self.on_wait):
                # the manifest as it is now: a sweep (or the other lane) may have committed
                # while this computed
                manifest = read_manifest(folder, strict=False)
                _commit(folder, staging, stage, manifest, outputs, record)
                with self._keying:
                    self.manifest = manifest
            res = StageResult(stage.name, "built" if reused is None else "linked", seconds, size,
                              stage.outputs, planned.reasons)
        with self._done:
            self.results[stage.name] = res
            self._done.notify_all()
        if progress:
            progress.finish(res)


def _reporter(progress: BuildProgress | None, stage: str) -> Callable[[str, float], None]:
    """The ``ctx.progress`` of one stage: its updates, naming it (two may run at once)."""
    if progress is None:
        return lambda text, fraction: None
    return lambda text, fraction: progress.update(text, fraction, stage)


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
