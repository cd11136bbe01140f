"""Cold-cache compile time of every query kernel `pokertables warm` compiles: the table in
docs/building.md. Runs warm's question groups one after the other in this process with a fresh
NUMBA_CACHE_DIR (nothing loaded from a cache), charging each kernel its own compile seconds
(pipeline.core.jit_clock) and counting its specializations.

Usage: python bench/compile_times.py [ARTIFACTS]   (default: artifacts/; needs eval_tables.h5
and the preflop tables). Prints a Markdown table; numba's own helpers (np.empty and the like)
are summed in one row.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    """Compile cold, print the table."""
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="numba-cold-")  # before numba loads
    from pipeline.equity.warm import WARM_GROUPS, warm_here

    artifacts = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "artifacts")
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
    ours = sorted((k for k in seconds if k.startswith("pipeline.")), key=lambda k: -seconds[k])
    print("| kernel | specializations | seconds |")
    print("|---|---:|---:|")
    for k in ours:
        print(f"| `{k.removeprefix('pipeline.')}` | {compiles[k]} | {seconds[k]:.1f} |")
    helpers = [k for k in seconds if not k.startswith("pipeline.")]
    print(f"| numba's helpers ({len(helpers)}) | {sum(compiles[k] for k in helpers)} | "
          f"{sum(seconds[k] for k in helpers):.1f} |")
    print(f"| **all** ({len(ours)} kernels) | {sum(compiles.values())} | {total:.1f} |")
    print(f"\n{wall:.1f}s wall in one process; CPU: {_cpu()}")


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
