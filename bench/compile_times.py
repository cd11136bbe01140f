"""Cold-cache compile time of every kernel `make tables` compiles: the tables in
docs/building.md. With a fresh NUMBA_CACHE_DIR (nothing loaded from a cache), charging each
kernel its own compile seconds (pipeline.core.jit_clock) and counting its specializations.

Usage:
  python bench/compile_times.py [ARTIFACTS]
      `pokertables warm`'s kernels: warm's question groups one after the other in this process
      (default ARTIFACTS: artifacts/; needs eval_tables.h5 and the preflop tables).
  python bench/compile_times.py --build [CONFIG] [--into FOLDER] [STAGE...]
      the build's kernels: every enabled stage of CONFIG (default configs/build.toml), or the
      STAGEs named (forced), built into FOLDER (default: a fresh temporary one; a copy of built
      artifacts, `cp -al`, lets named stages find their inputs), then the compile seconds per
      stage too.
  --helpers (either mode): one row per numba helper instead of their sum.

Prints Markdown tables; numba's own helpers (np.empty and the like) are summed in one row.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

if TYPE_CHECKING:
    from pipeline.build.runner import StageResult
    from pipeline.build.stages import Stage
    from pipeline.core.jit_clock import CompileClock


def main() -> None:
    """Compile cold, print the table."""
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="numba-cold-")  # before numba loads
    args = sys.argv[1:]
    helpers = "--helpers" in args
    if helpers:
        args.remove("--helpers")
    if args[:1] == ["--build"]:
        _build(args[1:], helpers)
    else:
        _warm(args[0] if args else str(ROOT / "artifacts"), helpers)


def _warm(artifacts: str, helpers: bool) -> None:
    """Warm's questions, one group after the other."""
    from pipeline.equity.warm import WARM_GROUPS, warm_here

    seconds: dict[str, float] = {}
    compiles: dict[str, int] = {}
    t0 = time.perf_counter()
    total = 0.0
    for _, questions in WARM_GROUPS:
        _, took, n, s = warm_here(artifacts, list(questions))
        total += took
        for k, v in s.items():
            seconds[k] = seconds.get(k, 0.0) + v
        for k, c in n.items():
            compiles[k] = compiles.get(k, 0) + c
    wall = time.perf_counter() - t0
    _print_kernels(seconds, compiles, total, helpers)
    print(f"\n{wall:.1f}s wall in one process; CPU: {_cpu()}")


class _StageCompiles:
    """A build display that only notes the compile seconds of each stage (from the clock's
    running total at the stage's start and finish)."""

    def __init__(self, clock: CompileClock) -> None:
        self.clock = clock
        self.rows: list[tuple[str, float, float, int]] = []  # stage, seconds, compile s, specializations
        self._at = (0.0, 0)

    def start(self, stage: Stage) -> None:
        self._at = (self.clock.total, sum(self.clock.compiles.values()))

    def update(self, text: str, fraction: float, stage: str = "") -> None:
        pass

    def finish(self, result: StageResult) -> None:
        self.rows.append((result.name, result.seconds, self.clock.total - self._at[0],
                          sum(self.clock.compiles.values()) - self._at[1]))


def _build(args: list[str], helpers: bool) -> None:
    """Every enabled stage, or the named ones, into a fresh folder (or the one given)."""
    into = None
    if "--into" in args:
        i = args.index("--into")
        into = args[i + 1]
        del args[i:i + 2]
    from pipeline.build.config import load_config
    from pipeline.build.runner import run_build
    from pipeline.core.jit_clock import CompileClock

    folder = into or tempfile.mkdtemp(prefix="compile-build-")
    config = args.pop(0) if args and args[0].endswith(".toml") else ROOT / "configs" / "build.toml"
    cfg = load_config(config, folder)
    t0 = time.perf_counter()
    c0 = time.process_time()
    with CompileClock() as clock:
        display = _StageCompiles(clock)
        run_build(cfg, args or None, force=bool(args), progress=display)
    wall = time.perf_counter() - t0
    cpu = time.process_time() - c0
    _print_kernels(clock.seconds, clock.compiles, clock.total, helpers)
    print("\n| stage | seconds | compile CPU s | specializations |")
    print("|---|---:|---:|---:|")
    for name, secs, comp, n in display.rows:
        print(f"| `{name}` | {secs:.1f} | {comp:.1f} | {n} |")
    print(f"\nbuilt into {folder}: {wall:.1f}s wall, {cpu:.1f}s CPU, {clock.total:.1f}s of it compiling; "
          f"CPU: {_cpu()}")


def _print_kernels(seconds: dict[str, float], compiles: dict[str, int], total: float,
                   each_helper: bool) -> None:
    ours = sorted((k for k in seconds if k.startswith("pipeline.") or each_helper),
                  key=lambda k: -seconds[k])
    print("| kernel | specializations | seconds |")
    print("|---|---:|---:|")
    for k in ours:
        print(f"| `{k.removeprefix('pipeline.')}` | {compiles[k]} | {seconds[k]:.1f} |")
    helpers = [k for k in seconds if k not in ours]
    print(f"| numba's helpers ({len(helpers)}) | {sum(compiles[k] for k in helpers)} | "
          f"{sum(seconds[k] for k in helpers):.1f} |")
    print(f"| **all** ({len(ours)} kernels) | {sum(compiles.values())} | {total:.1f} |")


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    import platform

    return platform.processor() or "unknown"


if __name__ == "__main__":
    main()
