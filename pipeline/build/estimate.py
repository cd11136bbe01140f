"""How long a planned build would take and how much it would write (``build --dry-run``).

A stage built before in this folder is estimated by its last build there (the manifest keeps
each stage's seconds and each file's size); one never built here by its own ``estimate``
(measured on the 2-core reference machine: the large optional stages declare one); a stage
with neither counts as unknown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pipeline.build.stages import Stage


@dataclass(frozen=True)
class Estimate:
    """Seconds and bytes of the stages that would run, and the names of those not estimated."""

    seconds: float
    bytes: int
    stages: int
    unknown: tuple[str, ...]


def stage_estimate(stage: Stage, manifest: dict[str, Any]) -> tuple[float, int] | None:
    """(seconds, bytes) of one stage: its last build in this folder, else its own estimate."""
    built = manifest.get("stages", {}).get(stage.name)
    files = manifest.get("files", {})
    if built and isinstance(built.get("seconds"), (int, float)):
        size = 0
        for out in stage.outputs:
            folder = out.rstrip("/") + "/"
            size += sum(int(f.get("bytes", 0)) for rel, f in files.items()
                        if rel == out or rel.startswith(folder))
        return float(built["seconds"]), size
    return stage.estimate


def estimate(stages: list[Stage], manifest: dict[str, Any]) -> Estimate:
    """The sum of :func:`stage_estimate` over ``stages`` (the ones a build would run)."""
    seconds, size, unknown = 0.0, 0, []
    for stage in stages:
        found = stage_estimate(stage, manifest)
        if found is None:
            unknown.append(stage.name)
            continue
        seconds += found[0]
        size += found[1]
    return Estimate(seconds, size, len(stages), tuple(unknown))


def describe(est: Estimate) -> str:
    """One line for the dry run: ``estimate for N stage(s): about 280 s, 0.6 GB written``."""
    gb = est.bytes / 1e9
    size = f"{gb:.1f} GB" if gb >= 0.1 else f"{est.bytes / 1e6:.0f} MB"
    text = f"estimate for the {est.stages} stage(s) that would run: about {est.seconds:.0f} s, {size} written"
    if est.unknown:
        text += f" ({len(est.unknown)} not estimated: {', '.join(est.unknown)})"
    return text
