"""`make bench`: speed report for every part, with peer libraries measured in the same run.

Each ``bench/bench_*.py`` module exposes ``run(report: Report) -> None``. The report is
printed and written to ``bench/report.txt`` (and ``bench/report.json``). Targets from the
issues are printed next to the measurements as PASS/MISS lines; nothing here is a test.

Usage: python bench/run.py [SECTION ...]   (sections: tables vp equity seats rules trust fasteval
scale abstraction engine games serve startup casino uth; a partial run writes bench/report-<sections>.txt instead)
"""

from __future__ import annotations

import importlib
import json
import platform
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

SECTIONS = ("tables", "vp", "equity", "seats", "rules", "trust", "fasteval", "scale", "abstraction",
            "engine", "games", "serve", "startup", "casino", "uth")


class Report:
    """Collects lines and numbers; ``target`` records a PASS/MISS against an issue's target."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.data: dict[str, Any] = {}
        self.section = ""

    def head(self, title: str) -> None:
        """Start a section."""
        self.section = title
        self.say("")
        self.say(f"== {title} ==")

    def say(self, line: str) -> None:
        """Print and record a line."""
        print(line, flush=True)
        self.lines.append(line)

    def value(self, key: str, value: Any, text: str | None = None) -> None:
        """Record a named number (and print ``text`` if given)."""
        self.data[f"{self.section}/{key}"] = value
        if text:
            self.say(text)

    def target(self, what: str, ok: bool, detail: str) -> None:
        """Record a target check as PASS/MISS."""
        self.data.setdefault("targets", []).append({"what": what, "ok": bool(ok), "detail": detail})
        self.say(f"  [{'PASS' if ok else 'MISS'}] {what}: {detail}")


def main(argv: list[str]) -> int:
    """Run the selected sections (default all) and write the report files."""
    chosen = argv or list(SECTIONS)
    rep = Report()
    rep.say(f"pokertables benchmark {time.strftime('%Y-%m-%d %H:%M:%S')} on {platform.machine()}, "
            f"python {platform.python_version()}")
    for name in chosen:
        try:
            mod = importlib.import_module(f"bench_{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"bench_{name}":
                rep.say(f"(section {name}: not present)")
                continue
            raise
        mod.run(rep)
    # a partial run must not overwrite the full report
    stem = "report" if not argv else "report-" + "-".join(chosen)
    (HERE / f"{stem}.txt").write_text("\n".join(rep.lines) + "\n")
    (HERE / f"{stem}.json").write_text(json.dumps(rep.data, indent=2, default=str) + "\n")
    print(f"\nreport written to {HERE / (stem + '.txt')}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
