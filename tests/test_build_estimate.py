"""``build --dry-run`` estimates the time and disk of what would run: a stage's last build in the
folder, else its declared estimate; and the abstraction build's time and size is stated once
(the stages' estimates), which the README, the build config and the artifacts catalog repeat."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_runner import run_here

from pipeline.build.config import load_config
from pipeline.build.estimate import describe, estimate
from pipeline.build.stages import Stage, plan
from pipeline.build.stages.abstraction import ESTIMATES

ROOT = Path(__file__).resolve().parent.parent


def _stage(name: str, outputs: tuple[str, ...], est: tuple[float, int] | None = None) -> Stage:
    return Stage(name, outputs, lambda ctx: None, estimate=est)


def test_estimate_takes_the_last_build_then_the_declared_figure() -> None:
    manifest = {"stages": {"a": {"seconds": 12.5}},
                "files": {"a.h5": {"bytes": 1000}, "dir/x.parquet": {"bytes": 20},
                          "dir/y.parquet": {"bytes": 3}, "other.h5": {"bytes": 99}}}
    built = _stage("a", ("a.h5", "dir"), (999.0, 10 ** 9))  # built here: its own estimate unused
    new = _stage("b", ("b.h5",), (60.0, 5_000_000))
    unknown = _stage("c", ("c.h5",))
    est = estimate([built, new, unknown], manifest)
    assert (est.seconds, est.bytes, est.stages, est.unknown) == (72.5, 1023 + 5_000_000, 3, ("c",))
    assert describe(est) == ("estimate for the 3 stage(s) that would run: about 72 s, 5 MB written "
                             "(1 not estimated: c)")


def test_abstraction_build_is_stated_once_and_repeated() -> None:
    cfg = load_config(ROOT / "configs" / "build.toml")
    stages = plan(cfg, ["abstraction"])
    assert {s.name for s in stages} == set(ESTIMATES)  # every stage declares its figures
    est = estimate(stages, {})
    assert est.unknown == ()
    minutes, gb = round(est.seconds / 60), est.bytes / 1e9
    statement = f"about {minutes} min and {gb:.1f} GB"
    for page in ("README.md", "configs/build.toml", "artifacts/README.md"):
        assert statement in " ".join((ROOT / page).read_text().replace("#", " ").split()), page


def test_dry_run_prints_the_estimate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run_here(capsys, "-a", str(tmp_path), "build", "abstraction", "--dry-run")
    assert r.returncode == 0, r.stderr
    total = sum(s for s, _ in ESTIMATES.values())
    assert r.stdout.splitlines()[-1] == (f"estimate for the {len(ESTIMATES)} stage(s) that would "
                                         f"run: about {total:.0f} s, "
                                         f"{sum(b for _, b in ESTIMATES.values()) / 1e9:.1f} GB written")
    r = run_here(capsys, "-a", str(tmp_path), "build", "abstraction", "--dry-run", "--json")
    got = json.loads(r.stdout)["estimate"]
    assert got == {"seconds": total, "bytes": sum(b for _, b in ESTIMATES.values()), "not_estimated": []}
