"""Build progress in logs: plain timed lines when stderr is not a terminal."""

from __future__ import annotations

import io
import re
import time
from pathlib import Path

import pytest
from cli_runner import run_cli

from pipeline.build.config import BuildConfig
from pipeline.build.stages import Context, Stage
from pipeline.cli.common import LogProgress

ROOT = Path(__file__).resolve().parent.parent


def test_slow_stage_prints_lines_while_it_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pipeline.build.runner as runner

    def slow(ctx: Context) -> None:
        ctx.progress("thinking hard", 0.25)   # reports once, then stays quiet for a while
        time.sleep(0.8)
        ctx.path("slow.txt").parent.mkdir(parents=True, exist_ok=True)
        ctx.path("slow.txt").write_text("done\n")

    stage = Stage("slow", ("slow.txt",), slow, module="pipeline.errors")
    monkeypatch.setattr(runner, "plan", lambda config, names=None: [stage])
    log = io.StringIO()
    show = LogProgress(log, interval=0.1)
    try:
        res = runner.run_build(BuildConfig(root=tmp_path, artifacts=tmp_path / "art"), progress=show)
    finally:
        show.close()
    assert [r.status for r in res] == ["built"]
    lines = log.getvalue().splitlines()
    ticks = [ln for ln in lines if re.fullmatch(r"build: slow: +25\.0% thinking hard \(\d+s\)", ln)]
    assert len(ticks) >= 3, lines
    assert lines[0] == "build: slow: building" and lines[-1].startswith("build: slow: built in ")


def test_cli_uses_plain_lines_when_stderr_is_a_file(tmp_path: Path) -> None:
    r = run_cli("-a", str(tmp_path / "art"), "build", "vp_classes")
    assert r.returncode == 0, r.stderr
    assert "build: vp_classes: building" in r.stderr
    assert re.search(r"^build: vp_classes: built in \d+\.\ds$", r.stderr, re.M), r.stderr
    assert "\x1b[" not in r.stderr  # no terminal control codes in a log
