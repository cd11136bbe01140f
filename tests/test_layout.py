"""The package layout's rules, checked on the source: which sub-package may import which, and
who may print. Imports inside functions count too (a lazy import is still an import)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "pipeline"


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in a file, at any depth."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            out.append((node.lineno, mod))
            out += [(node.lineno, f"{mod}.{a.name}") for a in node.names
                    if (ROOT / Path(*f"{mod}.{a.name}".split("."))).with_suffix(".py").exists()
                    or (ROOT / Path(*f"{mod}.{a.name}".split("."))).is_dir()]
    return out


MODULES = sorted(PKG.rglob("*.py"))


def _sub(module: str) -> str:
    """The sub-package of a module name (``core``, ``build``...), or the top-level module's name."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _violations(rule: str) -> list[str]:
    bad = []
    for path in MODULES:
        me = _module_name(path)
        for line, mod in _imports(path):
            if not mod.startswith("pipeline."):
                continue
            if rule == "core" and _sub(me) == "core" and _sub(mod) not in ("core", "errors"):
                bad.append(f"{me}:{line} imports {mod}")
            if rule == "query" and _sub(me) == "query" and _sub(mod) == "build":
                bad.append(f"{me}:{line} imports {mod}")
            if rule == "cli" and _sub(mod) == "cli" and _sub(me) != "cli" and me != "pipeline.__main__":
                bad.append(f"{me}:{line} imports {mod}")
    return bad


def test_the_rules_see_imports() -> None:
    # the checker itself: it finds a function-level import and resolves relative ones
    found = dict(_imports(PKG / "query" / "tables.py"))
    assert "pipeline.query.lookup" in found.values()
    assert len(MODULES) > 40


@pytest.mark.parametrize("rule", ["core", "query", "cli"])
def test_import_directions(rule: str) -> None:
    assert _violations(rule) == []


def test_only_cli_prints() -> None:
    bad = []
    for path in MODULES:
        # build/digests.py is also a maintainer's command (python -m pipeline.build.digests --write)
        if _sub(_module_name(path)) == "cli" or path.name == "__main__.py" or path.name == "digests.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
                target = next((k.value for k in node.keywords if k.arg == "file"), None)
                to_console = target is None or (isinstance(target, ast.Attribute) and target.attr in
                                                ("stdout", "stderr"))
                if to_console:
                    bad.append(f"{path.relative_to(ROOT)}:{node.lineno}")
            if isinstance(node, ast.Attribute) and node.attr in ("stdout", "stderr") and \
                    isinstance(node.value, ast.Name) and node.value.id == "sys":
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno} uses sys.{node.attr}")
    assert bad == []


def test_lookup_imports_no_build_module(artifacts: Path) -> None:
    code = ("import sys, pipeline.query; t = pipeline.query.Tables(sys.argv[1]); "
            "assert t.score7('As Ks Qs Js Ts 2c 3d') == 7462; "
            "print('\\n'.join(m for m in sys.modules if m.startswith('pipeline')))")
    r = subprocess.run([sys.executable, "-c", code, str(artifacts)], capture_output=True, text=True,
                       cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stderr
    loaded = r.stdout.split()
    assert "pipeline.query.tables" in loaded
    assert [m for m in loaded if m.startswith("pipeline.build")] == []
    assert [m for m in loaded if m.startswith("pipeline.cli")] == []


# ---------------------------------------------------------------- layers, cycles, stage modules
#: The layers, lowest first: a module may import its own layer and the ones below, never above.
#: ``pipeline`` itself (lazy exports of the public API) and ``pipeline.__main__`` sit on top.
LAYERS = {"core": 0, "errors": 0, "registry": 1, "rules": 1, "query": 2, "equity": 3,
          "videopoker": 3, "showdown": 3, "build": 4, "cli": 5, "__main__": 6, "": 6}
NAMES = {_module_name(p) for p in MODULES}


def _graph() -> dict[str, set[str]]:
    """Module -> the pipeline modules it imports (its parent packages, which Python runs
    implicitly, left out: a package's __init__ is not a dependency its children choose)."""
    out: dict[str, set[str]] = {}
    for path in MODULES:
        me = _module_name(path)
        deps = {m for _, m in _imports(path) if m in NAMES and m != me}
        out[me] = {d for d in deps if not me.startswith(d + ".")}
    return out


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                group = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    group.append(x)
                    if x == v:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def _upward(graph: dict[str, set[str]]) -> list[str]:
    return [f"{m} imports {d}" for m, deps in sorted(graph.items()) for d in sorted(deps)
            if LAYERS[_sub(d)] > LAYERS[_sub(m)]]


def test_every_subpackage_has_a_layer() -> None:
    assert {_sub(m) for m in NAMES} <= set(LAYERS)


def test_no_module_imports_a_layer_above_its_own() -> None:
    assert _upward(_graph()) == []


def test_no_import_cycle_between_modules() -> None:
    assert _cycles(_graph()) == []


def test_no_stage_module_imports_another() -> None:
    from pipeline.build.config import STAGE_MODULES

    stages = {f"pipeline.build.stages.{s}" for s in STAGE_MODULES}
    graph = _graph()
    assert stages <= NAMES
    assert [f"{m} imports {d}" for m in sorted(stages) for d in sorted(graph[m]) if d.startswith(
        "pipeline.build.stages.")] == []


def test_the_checks_catch_what_they_forbid() -> None:
    """The checkers themselves, on a made-up graph: an upward import, a cycle."""
    graph = {"pipeline.core.a": {"pipeline.cli.b"}, "pipeline.cli.b": {"pipeline.core.a"},
             "pipeline.query.c": set()}
    assert _upward(graph) == ["pipeline.core.a imports pipeline.cli.b"]
    assert _cycles(graph) == [["pipeline.cli.b", "pipeline.core.a"]]


def _reachable(graph: dict[str, set[str]], roots: set[str]) -> set[str]:
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        m = todo.pop()
        if m not in seen and m in graph:
            seen.add(m)
            todo += graph[m]
    return seen


def test_every_module_is_used_by_the_product() -> None:
    """No module that only tests and benchmarks call: each is reached from the command line,
    a build stage or a public name (``pipeline.X``), following imports."""
    import pipeline
    from pipeline.build.config import STAGE_MODULES

    public = {pipeline._EXPORTS[n].partition(":")[0] for n in pipeline.__all__ if n in pipeline._EXPORTS}
    # packages run on import of their children; their own imports (lazy exports) count
    roots = {"pipeline.__main__", "pipeline.cli", "pipeline"} | public | \
        {f"pipeline.build.stages.{s}" for s in STAGE_MODULES}
    graph = _graph()
    packages = {_module_name(p) for p in MODULES if p.name == "__init__.py"}
    roots |= packages
    assert sorted(set(graph) - _reachable(graph, roots)) == []
    # the check sees a module only a test would call: cut the engine's one edge to enumerate.py
    cut = {**graph, "pipeline.equity.exactcount": graph["pipeline.equity.exactcount"] -
           {"pipeline.equity.enumerate"}}
    assert "pipeline.equity.enumerate" not in _reachable(cut, roots)


def test_the_command_line_never_opens_hdf5_itself() -> None:
    """Artifacts are opened by their owners (query, videopoker.paytable_file ...), not the CLI."""
    bad = [f"{_module_name(p)}:{line}" for p in MODULES if _sub(_module_name(p)) == "cli"
           for line, mod in _imports(p) if mod.split(".")[0] == "h5py"]
    assert bad == []
