"""Stage keys come from the import graph: editing a module a stage imports only indirectly makes
that stage stale (and ``build --dry-run`` names the module); editing an unrelated one does not.

The edits happen in a temporary copy of the package, which a subprocess runs against the
suite's built artifacts with ``--dry-run`` only: nothing is rebuilt or written.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from cli_runner import run_cli
from doc_examples import matches

from pipeline.build.keys import stale_reasons
from pipeline.core.codegraph import ImportGraph

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the package and the build config in a temporary folder: no numba or import-graph
    caches; the bytecode comes along (checked against each source's size and mtime, which the
    copy keeps), so the dry runs do not compile ~200 modules again."""
    root = tmp_path_factory.mktemp("src")
    shutil.copytree(ROOT / "pipeline", root / "pipeline",
                    ignore=shutil.ignore_patterns("numba-*", "*.nbi", "*.nbc", "codegraph_facts.json"))
    shutil.copytree(ROOT / "configs", root / "configs")
    return root


def _dry_run(root: Path, artifacts: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return run_cli("-a", str(artifacts), "build", "--dry-run", *extra, cwd=root,
                   env={"PYTHONPATH": str(root)}, timeout=300)


def _plan(root: Path, artifacts: Path) -> dict[str, dict[str, object]]:
    res = _dry_run(root, artifacts, "--json")
    assert res.returncode == 0, res.stderr
    return {s["name"]: s for s in json.loads(res.stdout)["stages"]}


def _edit(path: Path, line: str) -> str:
    old = path.read_text()
    path.write_text(old + line)
    return old


def test_the_copy_is_what_runs(copy: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(copy)}
    out = subprocess.run([sys.executable, "-c", "import pipeline; print(pipeline.__file__)"], cwd=copy,
                         env=env, capture_output=True, text=True, check=True).stdout.strip()
    assert Path(out).resolve() == (copy / "pipeline" / "__init__.py").resolve()


def test_unchanged_copy_is_up_to_date(copy: Path, artifacts: Path) -> None:
    plan = _plan(copy, artifacts)
    assert plan and all(s["status"] == "up-to-date" for s in plan.values()), plan


def test_indirect_import_change_makes_preflop_and_paytables_stale(copy: Path, artifacts: Path) -> None:
    combos = copy / "pipeline" / "core" / "combos.py"
    old = _edit(combos, "\nONE_MORE_LINE = 1\n")
    try:
        plan = _plan(copy, artifacts)
        text = _dry_run(copy, artifacts)
    finally:
        combos.write_text(old)
    # neither stage module imports combos itself: preflop reaches it through equity.allhands,
    # paytables through videopoker.deals
    graph = ImportGraph(ROOT)
    for stage in ("preflop", "paytable"):
        assert "pipeline.core.combos" not in graph.direct(f"pipeline.build.stages.{stage}")
    stale = [n for n in plan if n == "preflop" or n.startswith("paytable:")]
    assert "preflop" in stale and len(stale) > 1
    for name in stale:
        assert plan[name]["status"] == "would-run"
        assert any(r.startswith("code:") and "pipeline.core.combos" in r for r in plan[name]["reasons"])
    # every stage names combos exactly when its own import closure holds it (others, such as
    # seven_parquet, may still rerun because an input they read is rebuilt first)
    for name in ("five", "six", "seven", "seven_parquet", "vp_classes", "preflop_matchups"):
        named = any("pipeline.core.combos" in r for r in plan[name]["reasons"])
        imports = "pipeline.core.combos" in graph.closure(f"pipeline.build.stages.{name}")
        assert named == imports, (name, plan[name])
    line = next(ln for ln in text.stdout.splitlines() if ln.startswith("preflop "))
    assert "would-run" in line and "code: pipeline.core.combos" in line, text.stdout
    # docs/building.md shows this very plan (a block the doc test cannot run: it needs the edit)
    shown = _building_page_plan()
    assert matches(shown, text.stdout.splitlines()), "\n".join(
        ["docs/building.md shows:", *shown, "--- printed:", text.stdout])


def _building_page_plan() -> list[str]:
    """The output lines of docs/building.md's dry-run example (after a combos.py edit)."""
    lines = (ROOT / "docs" / "building.md").read_text().splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith(
        "<!-- not run: it shows the plan after a one-line edit of pipeline/core/combos.py"))
    assert lines[start + 1] == "```" and lines[start + 2] == "$ pokertables build --dry-run"
    end = lines.index("```", start + 2)
    return lines[start + 3:end]


def test_comment_docstring_and_version_edits_rebuild_nothing(copy: Path, artifacts: Path) -> None:
    """Issue 21: keys hash each module's meaning (its syntax tree without docstrings, comments
    and __version__), so these edits leave every stage up to date."""
    solve = copy / "pipeline" / "videopoker" / "solver" / "solve.py"
    version = copy / "pipeline" / "version.py"
    old_solve = _edit(solve, "\n# a comment only\n")
    text = solve.read_text()
    solve.write_text(text.replace('"""', '"""Reworded. ', 1))  # the module docstring changes
    old_version = version.read_text()
    assert "__version__ = " in old_version
    version.write_text(old_version.replace("__version__ = ", "__version__ = '9.9.9'  # was ", 1))
    try:
        plan = _plan(copy, artifacts)
        text_out = _dry_run(copy, artifacts).stdout
    finally:
        solve.write_text(old_solve)
        version.write_text(old_version)
    assert all(s["status"] == "up-to-date" for s in plan.values()), plan
    assert text_out.strip().splitlines()[-1].startswith("0 stage(s) would run"), text_out[-2000:]


def test_unrelated_module_change_leaves_stages_up_to_date(copy: Path, artifacts: Path) -> None:
    showdown = copy / "pipeline" / "showdown.py"
    old = _edit(showdown, "\nONE_MORE_LINE = 1\n")
    try:
        plan = _plan(copy, artifacts)
    finally:
        showdown.write_text(old)
    assert plan["preflop"]["status"] == "up-to-date"
    assert all(s["status"] == "up-to-date" for s in plan.values()), plan


def test_graph_follows_function_level_and_submodule_imports(tmp_path: Path) -> None:
    pkg = tmp_path / "pipeline"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("_EXPORTS = {'Thing': 'pipeline.lazy:Thing'}\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "leaf.py").write_text("X = 1\n")
    (pkg / "lazy.py").write_text("Thing = 1\n")
    (pkg / "typed.py").write_text("")
    (pkg / "stage.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "from pipeline.sub import leaf\n"
        "from pipeline import Thing\n"
        "if TYPE_CHECKING:\n    import pipeline.typed\n"
        "def f():\n    from . import inner\n")
    (pkg / "inner.py").write_text("import numpy\n")
    g = ImportGraph(tmp_path)
    assert g.closure("pipeline.stage") == ["pipeline", "pipeline.inner", "pipeline.lazy", "pipeline.stage",
                                          "pipeline.sub", "pipeline.sub.leaf"]


def test_graph_facts_cache_answers_as_a_fresh_parse(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A no-change plan reads each module's digest and imports from the facts cache (keyed by
    the bytes' sha256) instead of parsing: same answers, an edit is a new key, a damaged cache
    file is ignored."""
    import ast

    import pipeline.core.codegraph as cg

    pkg = tmp_path / "pipeline"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pipeline import b\n")
    (pkg / "b.py").write_text('"""doc"""\nX = 1\n')
    store = tmp_path / "facts.json"
    fresh = ImportGraph(tmp_path, facts=cg.FactsCache(None))
    first = cg.FactsCache(store)
    g = ImportGraph(tmp_path, facts=first)
    assert g.closure("pipeline.a") == fresh.closure("pipeline.a") == ["pipeline", "pipeline.a", "pipeline.b"]
    assert g.digest("pipeline.b") == fresh.digest("pipeline.b")
    first.save()

    def no_parse(*args: object, **kwargs: object) -> ast.Module:
        raise AssertionError("parsed although the facts were cached")

    with monkeypatch.context() as m:
        m.setattr(cg.ast, "parse", no_parse)
        cached = ImportGraph(tmp_path, facts=cg.FactsCache(store))
        assert cached.closure("pipeline.a") == fresh.closure("pipeline.a")
        assert cached.digest("pipeline.b") == fresh.digest("pipeline.b")
    (pkg / "b.py").write_text('"""doc"""\nX = 2\n')
    edited = ImportGraph(tmp_path, facts=cg.FactsCache(store))
    assert edited.digest("pipeline.b") == ImportGraph(tmp_path, facts=cg.FactsCache(None)).digest("pipeline.b")
    assert edited.digest("pipeline.b") != fresh.digest("pipeline.b")
    store.write_text("{not json")
    assert ImportGraph(tmp_path, facts=cg.FactsCache(store)).closure("pipeline.a") == fresh.closure("pipeline.a")


def test_stale_reasons_name_each_part() -> None:
    old = {"settings": "a", "code": {"pipeline.x": "1", "pipeline.y": "2"}, "inputs": {"seven.h5": "s"},
           "sources": {"paytables/j.toml": "t"}, "versions": {"numpy": "1.0"}}
    new = {"settings": "b", "code": {"pipeline.x": "1", "pipeline.y": "3", "pipeline.z": "4"},
           "inputs": {"seven.h5": "s2"}, "sources": {"paytables/j.toml": "t"}, "versions": {"numpy": "2.0"}}
    assert stale_reasons(new, old) == ["settings", "code: pipeline.y, pipeline.z", "input: seven.h5",
                                       "versions: numpy 1.0 -> 2.0"]
    assert stale_reasons(old, old) == []
