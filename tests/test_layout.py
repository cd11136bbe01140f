"""The package layout's rules, checked on the source: which sub-package may import which, and
who may print. Imports inside functions count too (a lazy import is still an import)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.core.codegraph import ImportGraph

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "pipeline"


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _lazy_exports(package: str) -> dict[str, str]:
    """A package's lazy ``_EXPORTS = {"Name": "module:attribute"}`` as name -> module."""
    path = ROOT / Path(*package.split(".")) / "__init__.py"
    if not path.is_file():
        return {}
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "_EXPORTS"
                                                for t in node.targets):
            return {str(k): str(v).partition(":")[0] for k, v in ast.literal_eval(node.value).items()}
    return {}


def _is_module(name: str) -> bool:
    path = ROOT / Path(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _imports_in(tree: ast.AST, name: str, is_package: bool) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in module ``name``'s syntax tree, at any
    depth (inside functions and under ``if TYPE_CHECKING:`` too).

    ``import a.b`` names ``a.b`` (its parent packages run implicitly and are not listed).
    ``from a import b`` names the submodule ``a.b`` and ``a`` itself when ``b`` is a submodule
    (``b`` is looked up in ``a``'s namespace first); the module that defines ``b`` when ``a``
    exports it lazily (``a._EXPORTS``); and ``a`` otherwise. So a module importing a name from
    its own parent package depends on that package, which the cycle check then sees.
    """
    package = name if is_package else name.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            lazy = _lazy_exports(mod)
            for a in node.names:
                if _is_module(f"{mod}.{a.name}"):
                    out += [(node.lineno, f"{mod}.{a.name}"), (node.lineno, mod)]
                else:
                    out.append((node.lineno, lazy.get(a.name, mod)))
    return sorted(set(out))


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in a file (:func:`_imports_in`)."""
    return _imports_in(ast.parse(path.read_text(), filename=str(path)), _module_name(path),
                       path.name == "__init__.py")


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
LAYERS = {"core": 0, "errors": 0, "version": 0, "registry": 1, "rules": 1, "query": 2, "equity": 3,
          "abstraction": 3, "videopoker": 3, "casino": 3, "showdown": 3, "build": 4, "answers": 4, "serve": 5, "cli": 6,
          "__main__": 7, "": 7}
#: Inside ``equity`` and ``videopoker``, the sub-packages by method, lowest first; the package's own
#: top-level modules (the front door: planner, public API) sit above them all. A sub-package may
#: import itself and the ones strictly below; siblings of one rank never import each other.
INNER_LAYERS = {
    "equity": {"hands": 0, "spots": 1, "ranges": 2, "tables": 2, "montecarlo": 3, "exact": 3, "games": 4, "": 5},
    "videopoker": {"paytables": 0, "solver": 1, "charts": 2, "catalog": 3, "tools": 4, "": 5},
}
NAMES = {_module_name(p) for p in MODULES}
#: Longest module allowed (lines).
MAX_MODULE_LINES = 500


def _graph() -> dict[str, set[str]]:
    """Module -> the pipeline modules it imports (:func:`_imports`). A parent package counts when
    a module imports from it by name (``from pipeline.cli import app`` in a command module, which
    the package imports back: a cycle), not merely because Python runs it before its children."""
    out: dict[str, set[str]] = {}
    for path in MODULES:
        me = _module_name(path)
        out[me] = {m for _, m in _imports(path) if m in NAMES and m != me}
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


def _inner(module: str) -> str:
    """The method sub-package of an ``equity`` or ``videopoker`` module (``exact``,
    ``solver``...), or ``""`` for the package's own top-level modules."""
    parts = module.split(".")
    return parts[2] if len(parts) > 3 else ""


def _inner_upward(graph: dict[str, set[str]]) -> list[str]:
    bad = []
    for m, deps in sorted(graph.items()):
        ranks = INNER_LAYERS.get(_sub(m))
        if ranks is None:
            continue
        for d in sorted(deps):
            if _sub(d) != _sub(m) or _inner(d) == _inner(m):
                continue
            if ranks[_inner(d)] >= ranks[_inner(m)]:
                bad.append(f"{m} imports {d}")
    return bad


def test_every_subpackage_has_a_layer() -> None:
    assert {_sub(m) for m in NAMES} <= set(LAYERS)
    for package, ranks in INNER_LAYERS.items():
        assert {_inner(m) for m in NAMES if _sub(m) == package} == set(ranks)


def test_method_subpackages_import_only_downward() -> None:
    """exact counting, Monte Carlo, ranges ... import only the building blocks below them; the
    front door (engine, public API) is the only place that sees them all."""
    assert _inner_upward(_graph()) == []
    made_up = {"pipeline.equity.hands.symmetry": {"pipeline.equity.exact.count"},
               "pipeline.equity.exact.count": {"pipeline.equity.montecarlo.driver"},
               "pipeline.videopoker.solver.solve": {"pipeline.videopoker.charts.chart"},
               "pipeline.videopoker.tools.sweep": {"pipeline.videopoker.solver.solve"}}
    assert _inner_upward(made_up) == ["pipeline.equity.exact.count imports pipeline.equity.montecarlo.driver",
                                      "pipeline.equity.hands.symmetry imports pipeline.equity.exact.count",
                                      "pipeline.videopoker.solver.solve imports pipeline.videopoker.charts.chart"]


def test_no_module_over_500_lines() -> None:
    """One idea per module: a module past 500 lines is two ideas; split it."""
    assert [f"{_module_name(p)}: {n}" for p in MODULES
            if (n := len(p.read_text().splitlines())) > MAX_MODULE_LINES] == []


def test_no_module_imports_a_layer_above_its_own() -> None:
    assert _upward(_graph()) == []


def test_no_import_cycle_between_modules() -> None:
    """Zero cycles among all modules, the command-line package and imports from a parent
    package included."""
    graph = _graph()
    assert "pipeline.cli" in graph and "pipeline.cli.common" in graph["pipeline.cli.build"]
    assert "pipeline.cli.vp" in graph["pipeline.cli.vp.play"]  # a command module and its group's package
    assert _cycles(graph) == []


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


@pytest.mark.parametrize(("source", "found"), [
    # a name from the parent package: the package (the old graph dropped this edge)
    ("from pipeline.cli.common import app", {"pipeline.cli.common"}),
    ("from pipeline.equity import MAX_OPPONENTS", {"pipeline.equity"}),
    ("from pipeline.equity import equity", {"pipeline.equity.hand_api"}),  # a lazy export
    ("from pipeline.equity.tables import preflop", {"pipeline.equity.tables", "pipeline.equity.tables.preflop"}),
    ("import pipeline.equity.tables.preflop as pq", {"pipeline.equity.tables.preflop"}),
    ("from . import breakdown", {"pipeline.equity", "pipeline.equity.breakdown"}),
    ("from .tables import preflop", {"pipeline.equity.tables", "pipeline.equity.tables.preflop"}),
    # a lazy export: the module that defines it; anything else: the package
    ("from pipeline import Tables", {"pipeline.query.tables"}),
    ("from pipeline.query import Tables", {"pipeline.query.tables"}),
    ("from pipeline import __version__", {"pipeline"}),
])
def test_the_import_reader_resolves_names(source: str, found: set[str]) -> None:
    assert {m for _, m in _imports_in(ast.parse(source), "pipeline.equity.engine", False)} == found


def test_the_cycle_check_sees_a_child_importing_its_package() -> None:
    """A module that imports a name from the package that imports it back is a cycle."""
    graph = _graph()
    graph["pipeline.cli.hands"] = graph["pipeline.cli.hands"] | {"pipeline.cli"}
    assert any({"pipeline.cli", "pipeline.cli.hands"} <= set(group) for group in _cycles(graph))
    # the vp package: a command module is imported by the command line's package, not by its own
    graph = _graph()
    graph["pipeline.cli.vp"] = graph["pipeline.cli.vp"] | {"pipeline.cli.vp.play"}
    assert any({"pipeline.cli.vp", "pipeline.cli.vp.play"} <= set(group) for group in _cycles(graph))


# ---------------------------------------------------------------- module size, private state
#: the longest a module may be: past it, split it by concern
MAX_MODULE_LINES = 500


def test_no_module_is_over_500_lines() -> None:
    long = {f"{p.relative_to(ROOT)}: {n}" for p in MODULES
            if (n := len(p.read_text().splitlines())) > MAX_MODULE_LINES}
    assert long == set()


#: underscored names that are public API of the standard library's objects, with why
PRIVATE_ALLOWED = {
    # namedtuple's documented methods and field list (underscored so as not to clash with fields)
    "_fields": "collections.namedtuple / typing.NamedTuple field names",
    "_asdict": "collections.namedtuple / typing.NamedTuple method",
    "_replace": "collections.namedtuple / typing.NamedTuple method",
    "_make": "collections.namedtuple / typing.NamedTuple method",
}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__")) \
        and name not in PRIVATE_ALLOWED


def _private_uses(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, what) of every use of another module's or object's private state: importing a
    ``_name`` or a ``_module``, ``obj._attr`` on anything but ``self``, ``cls`` or ``super()``,
    and ``getattr``/``setattr``/``hasattr``/``delattr`` with a literal ``"_name"``."""
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            bad += [(node.lineno, f"imports {a.name}") for a in node.names
                    if any(_private(part) for part in a.name.split("."))]
        elif isinstance(node, ast.ImportFrom):
            if any(_private(part) for part in (node.module or "").split(".")):
                bad.append((node.lineno, f"imports from {node.module}"))
            bad += [(node.lineno, f"imports {a.name} from {node.module}") for a in node.names
                    if _private(a.name)]
        elif isinstance(node, ast.Attribute) and _private(node.attr):
            own = (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")) or (
                isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name)
                and node.value.func.id == "super")
            if not own:
                bad.append((node.lineno, f"uses {ast.unparse(node)}"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in ("getattr", "setattr", "hasattr", "delattr") and len(node.args) > 1:
            key = node.args[1]
            if isinstance(key, ast.Constant) and isinstance(key.value, str) and _private(key.value):
                bad.append((node.lineno, f"uses {ast.unparse(node)}"))
    return bad


def test_no_module_uses_another_modules_private_state() -> None:
    """A ``_name`` belongs to its module or object: another module neither imports it nor
    reaches into an object for it (a name two modules share is public: drop the underscore)."""
    bad = [f"{p.relative_to(ROOT)}:{line} {what}" for p in MODULES
           for line, what in _private_uses(ast.parse(p.read_text()))]
    assert bad == []


@pytest.mark.parametrize(("source", "flagged"), [
    ("from pipeline.build.store import _fsync_dir", True),
    ("from pipeline.build.store import fsync_dir", False),
    ("from pipeline.x import __version__", False),
    ("import pipeline._hidden", True),
    ("t._cache[1] = 2", True),
    ("self.other._cache", True),
    ("self._cache = {}", False),
    ("cls._cache = {}", False),
    ("super()._setup()", False),
    ("getattr(t, '_cache', None)", True),
    ("getattr(fn, '__name__', 'task')", False),
    ("EvalTables._fields", False),
])
def test_the_private_check_sees_what_it_forbids(source: str, flagged: bool) -> None:
    assert bool(_private_uses(ast.parse(source))) is flagged


#: The only modules that may import h5py, with the artifact families each opens or writes. The
#: read side opens every HDF5 file through pipeline.query.artifacts (open_h5, read_datasets,
#: describe_dataset, map_dataset); each family has one writer; the paytable and abstraction files
#: have one owner module each that both writes or reads its own format.
H5PY_OWNERS = {
    "pipeline.query.artifacts": "opens every artifact for the read side and the build's checks",
    "pipeline.videopoker.catalog.paytable_file": "paytables/<slug>.h5: the one writer and reader",
    "pipeline.casino.artifact": "casino/<slug>.h5: the one writer and reader",
    "pipeline.query.abstraction.reader": "abstraction/<street>.h5: the reader",
    "pipeline.build.store": "writer's helper: contiguous datasets to fill through a memory map, "
                            "the manifest's description of a written file",
    "pipeline.build.score_files": "five.h5, six.h5, seven.h5 /score: the writer",
    "pipeline.build.stages.five": "five.h5 /classes: the writer",
    "pipeline.build.stages.eval_tables": "eval_tables.h5: the writer",
    "pipeline.build.stages.rules": "rules/<name>.h5: the writer",
    "pipeline.build.stages.vp_classes": "vp_classes.h5: the writer",
    "pipeline.build.stages.preflop": "preflop.h5: the writer",
    "pipeline.build.stages.preflop_matchups": "preflop_matchups.h5: the writer",
    "pipeline.build.stages.abstraction": "abstraction/*.h5: the writer",
}


def _h5py_importers() -> set[str]:
    return {_module_name(p) for p in MODULES if any(mod.split(".")[0] == "h5py" for _, mod in _imports(p))}


def test_only_the_owners_import_h5py() -> None:
    """One door into HDF5 on the read side, one writer per artifact family: a new module that
    opens an HDF5 file itself (five.h5 read in a fourth place, raw h5py in the CLI) fails here."""
    assert sorted(_h5py_importers() - set(H5PY_OWNERS)) == []
    assert "pipeline.query.artifacts" in _h5py_importers()


def test_the_command_line_never_opens_hdf5_itself() -> None:
    """Artifacts are opened by their owners (query, videopoker.paytable_file ...), not the CLI."""
    bad = [f"{_module_name(p)}:{line}" for p in MODULES if _sub(_module_name(p)) == "cli"
           for line, mod in _imports(p) if mod.split(".")[0] == "h5py"]
    assert bad == []


# ---------------------------------------------------------------- no module only tests call
def _entry_points() -> set[str]:
    """Where the product starts: the console script (pyproject), ``python -m pipeline``, the
    public names of ``pipeline`` and ``pipeline.equity`` (lazy exports) and every build stage
    module, which the stage registry imports by name (``pipeline.build.stages.plan``: one
    module per ``STAGE_MODULES`` entry, nothing else in the folder)."""
    import pipeline
    import pipeline.equity
    from pipeline.build.config import STAGE_MODULES
    from pipeline.core.files import parse_toml

    scripts = parse_toml((ROOT / "pyproject.toml").read_text(), "pyproject.toml")["project"]["scripts"]
    return ({"pipeline", "pipeline.__main__"} | {v.partition(":")[0] for v in scripts.values()}
            | {v.partition(":")[0] for v in pipeline._EXPORTS.values()}
            | {v.partition(":")[0] for v in pipeline.equity._EXPORTS.values()}
            | {f"pipeline.build.stages.{s}" for s in STAGE_MODULES})


def _run_from(graph: ImportGraph, roots: set[str]) -> set[str]:
    """Modules that run when the roots do: their runtime imports, transitively, with the
    ``__init__`` of every package on the way (``ImportGraph.closure``)."""
    out: set[str] = set()
    for m in roots:
        out |= set(graph.closure(m))
    return out


def test_no_module_only_tests_call() -> None:
    """Every module runs when the command line, ``python -m pipeline``, a public name or a
    build stage does: imports read by the product's own reader (inside functions too; not the
    ``if TYPE_CHECKING:`` ones, which never run). A module that only tests or benchmarks
    import fails here; delete it or wire it into the product."""
    from pipeline.build.config import STAGE_MODULES

    stage_files = {p.stem for p in (PKG / "build" / "stages").glob("*.py") if p.stem != "__init__"}
    assert stage_files == set(STAGE_MODULES)  # the registry finds exactly these
    graph = ImportGraph(ROOT)
    assert sorted(NAMES - _run_from(graph, _entry_points())) == []

    # the check sees a module only a test would call: cut the product's edges to enumerate.py
    # (the engine's counter and the raw-array door)
    class Cut(ImportGraph):
        def direct(self, module: str) -> frozenset[str]:
            got = super().direct(module)
            cut = module in ("pipeline.equity.exact.count", "pipeline.equity.hand_api")
            return got - {"pipeline.equity.exact.enumerate"} if cut else got

    assert "pipeline.equity.exact.enumerate" in _run_from(graph, _entry_points())
    assert "pipeline.equity.exact.enumerate" not in _run_from(Cut(ROOT), _entry_points())
