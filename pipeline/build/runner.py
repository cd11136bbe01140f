"""Run build stages: decide what is stale, run it under the build lock, record the manifest."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline import __version__
from pipeline.build.config import BuildConfig
from pipeline.build.executor import Executor, LocalExecutor
from pipeline.build.stages import Context, Stage, plan
from pipeline.build.store import (MANIFEST, STAGING, BuildError, build_lock, clean_stale_temps, describe_file,
                    move_into_place, read_manifest, write_json_atomic)


@dataclass(frozen=True)
class StageResult:
    """Outcome of one stage in a build: ``status`` is ``built`` or ``skipped``."""

    name: str
    status: str
    seconds: float
    bytes: int
    outputs: tuple[str, ...]


def _module_digest(module: str) -> str:
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise BuildError(f"stage code module {module} not found")
    return hashlib.sha256(Path(spec.origin).read_bytes()).hexdigest()


def stage_key(stage: Stage, manifest: dict[str, Any]) -> str:
    """Hash of everything a stage's outputs depend on: settings, code, sources and inputs."""
    files = manifest.get("files", {})
    parts = {
        "name": stage.name,
        "version": __version__,
        "settings": stage.settings,
        "code": {m: _module_digest(m) for m in stage.code},
        "sources": {str(p): hashlib.sha256(Path(p).read_bytes()).hexdigest() for p in stage.sources},
        "inputs": {i: files.get(i, {}).get("sha256") for i in stage.inputs},
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


def _up_to_date(stage: Stage, key: str, manifest: dict[str, Any], folder: Path) -> bool:
    entry = manifest.get("stages", {}).get(stage.name)
    if not entry or entry.get("key") != key:
        return False
    for out in stage.outputs:
        f = manifest.get("files", {}).get(out)
        p = folder / out
        if f is None or not p.exists():
            return False
        st = p.stat()
        if st.st_size != f["bytes"] or st.st_mtime_ns != f["mtime_ns"]:
            return False
    return True


def run_build(config: BuildConfig, names: list[str] | None = None, force: bool = False,
              wait: bool = False, progress: Any = None,
              executor: Executor | None = None) -> list[StageResult]:
    """Build the planned stages into ``config.artifacts``; return one result per stage.

    ``progress`` is an optional object with ``start(stage)``, ``update(text, fraction)`` and
    ``finish(result)`` methods (the CLI passes a rich display). ``executor`` runs the stages'
    parallel tasks (default: in this process); the caller closes it.
    """
    executor = executor or LocalExecutor()
    folder = config.artifacts
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BuildError(f"cannot create artifacts folder {folder}: {exc.strerror}") from None
    stages = plan(config, names)
    results: list[StageResult] = []
    with build_lock(folder, wait=wait):
        try:
            clean_stale_temps(folder)
            manifest = read_manifest(folder, strict=False)  # a corrupt one means: rebuild all
            for stage in stages:
                key = stage_key(stage, manifest)
                if progress:
                    progress.start(stage)
                if not force and _up_to_date(stage, key, manifest, folder):
                    size = sum(manifest["files"][o]["bytes"] for o in stage.outputs)
                    res = StageResult(stage.name, "skipped", 0.0, size, stage.outputs)
                else:
                    for inp in stage.inputs:
                        if not (folder / inp).exists():
                            raise BuildError(f"stage {stage.name} needs {inp}; build its stage first")
                    # outputs are written into a staging folder and moved into place only when the
                    # whole stage succeeded: a failure or kill mid-stage changes no artifact
                    # stage names are unique, so each stage stages into its own folder; what a
                    # failed stage leaves there is removed with the staging root below
                    staging = folder / STAGING / stage.name.replace(":", "_")
                    ctx = Context(folder, config, progress.update if progress else lambda t, f: None,
                                  outputs=stage.outputs, staging=staging, executor=executor)
                    t0 = time.perf_counter()
                    stage.run(ctx)
                    seconds = time.perf_counter() - t0
                    size = 0
                    for out in stage.outputs:
                        p = staging / out
                        if not p.exists():
                            raise BuildError(f"stage {stage.name} did not write {out}")
                        info = describe_file(p)  # the rename keeps size, bytes and mtime
                        info.update(stage=stage.name, config_hash=key, package_version=__version__,
                                    build_seconds=round(seconds, 3))
                        manifest.setdefault("files", {})[out] = info
                        size += info["bytes"]
                    move_into_place(staging, folder, stage.outputs)
                    manifest.setdefault("stages", {})[stage.name] = {
                        "key": key, "outputs": list(stage.outputs), "seconds": round(seconds, 3),
                        "built_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
                    manifest["package_version"] = __version__
                    write_json_atomic(folder / MANIFEST, manifest)
                    res = StageResult(stage.name, "built", seconds, size, stage.outputs)
                results.append(res)
                if progress:
                    progress.finish(res)
        finally:
            shutil.rmtree(folder / STAGING, ignore_errors=True)  # nothing staged outlives a build
    return results
