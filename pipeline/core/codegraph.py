"""The ``pipeline`` package's own import graph and code identity, read from its sources.

:class:`ImportGraph` finds the ``pipeline`` modules a module imports, directly or through
others, at module level or inside functions, by reading the sources with :mod:`ast` (never by
importing them): imports under ``if TYPE_CHECKING:`` do not run and are skipped; ``from
pipeline.x import y`` counts ``pipeline.x.y`` when ``y`` is a submodule; importing
``pipeline.x.y`` also runs the ``__init__`` of ``pipeline`` and ``pipeline.x``, so those count
too; a package's lazy exports (a module-level ``_EXPORTS = {"Name": "pipeline.module"}``) are
followed when a module imports such a name.

A module's digest hashes its meaning, not its bytes: the syntax tree without docstrings and
comments (which never reach the tree) and without the ``__version__`` assignment. Build stage
keys (:mod:`pipeline.build.keys`) and the video-poker solver digest both use it, so a comment,
a reformat or a version bump rebuilds nothing while any real code change does.
"""

from __future__ import annotations

import ast
import hashlib
from collections.abc import Iterable
from pathlib import Path

PACKAGE = "pipeline"
#: module-level names whose assignment is release bookkeeping, not behaviour
IGNORED_ASSIGNMENTS = frozenset({"__version__"})


class CodeGraphError(Exception):
    """A module named in the graph has no source file (a packaging fault, not user input)."""


def normalized_code(tree: ast.Module) -> str:
    """``ast.dump`` of ``tree`` without docstrings and ``__version__`` assignments (the tree
    is changed in place: docstrings play no part in the import scan either)."""
    body_owners = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    for node in ast.walk(tree):
        if isinstance(node, body_owners) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                node.body = node.body[1:] or [ast.Pass()]
    tree.body = [n for n in tree.body if not (
        isinstance(n, (ast.Assign, ast.AnnAssign))
        and any(isinstance(t, ast.Name) and t.id in IGNORED_ASSIGNMENTS
                for t in (n.targets if isinstance(n, ast.Assign) else [n.target])))]
    return ast.dump(tree, annotate_fields=True, include_attributes=False)


def code_hash(digests: dict[str, str]) -> str:
    """One sha256 over ``module -> digest`` pairs in name order (a closure's code identity)."""
    h = hashlib.sha256()
    for module in sorted(digests):
        h.update(module.encode())
        h.update(digests[module].encode())
    return h.hexdigest()


def source_root() -> Path:
    """The folder holding the ``pipeline`` package that is running (its parent folder)."""
    return Path(__file__).resolve().parent.parent.parent


def sha256_bytes(data: bytes) -> str:
    """Hex sha256 of some bytes."""
    return hashlib.sha256(data).hexdigest()


class ImportGraph:
    """The ``pipeline`` modules each module imports, read from the sources under ``root``."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = Path(root) if root is not None else source_root()
        self._direct: dict[str, frozenset[str]] = {}
        self._digest: dict[str, str] = {}
        # each source is read and parsed once per graph: a plan keys ~35 stages over the
        # same ~100 modules, and re-parsing them per stage made a no-op build take 20 s
        self._trees: dict[str, ast.Module | None] = {}
        self._exports: dict[str, dict[str, str]] = {}
        self._closures: dict[str, list[str]] = {}

    def file(self, module: str) -> Path | None:
        """Source file of ``module`` (``x.py`` or ``x/__init__.py``), or None if there is none."""
        rel = Path(*module.split("."))
        for cand in (self.root / rel.with_suffix(".py"), self.root / rel / "__init__.py"):
            if cand.is_file():
                return cand
        return None

    def digest(self, module: str) -> str:
        """sha256 of a module's meaning: its syntax tree without docstrings, comments,
        formatting or ``__version__`` (:func:`normalized_code`), so an edit that changes
        no behaviour changes no key."""
        if module not in self._digest:
            tree = self._tree(module)
            if tree is None:
                raise CodeGraphError(f"module {module} has no source file under {self.root}")
            self._digest[module] = sha256_bytes(normalized_code(tree).encode())
        return self._digest[module]

    def direct(self, module: str) -> frozenset[str]:
        """The ``pipeline`` modules ``module`` imports itself (with their parent packages)."""
        found = self._direct.get(module)
        if found is None:
            found = frozenset(self._scan(module))
            self._direct[module] = found
        return found

    def closure(self, module: str) -> list[str]:
        """``module`` and every ``pipeline`` module it imports, transitively, sorted."""
        found = self._closures.get(module)
        if found is None:
            seen = {module} | set(_parents(module))
            todo = list(seen)
            while todo:
                for dep in self.direct(todo.pop()):
                    if dep not in seen:
                        seen.add(dep)
                        todo.append(dep)
            found = sorted(m for m in seen if self.file(m) is not None)
            self._closures[module] = found
        return list(found)

    def _tree(self, module: str) -> ast.Module | None:
        if module not in self._trees:
            path = self.file(module)
            self._trees[module] = None if path is None else ast.parse(path.read_bytes(), filename=str(path))
        return self._trees[module]

    def _scan(self, module: str) -> set[str]:
        path = self.file(module)
        tree = self._tree(module)
        if path is None or tree is None:
            return set()
        is_pkg = path.name == "__init__.py"
        out: set[str] = set()
        for node in _runtime_nodes(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    self._add(alias.name, out)
            elif isinstance(node, ast.ImportFrom):
                base = _absolute(module, is_pkg, node.module, node.level)
                if base is None or not _in_package(base):
                    continue
                self._add(base, out)
                for alias in node.names:
                    if alias.name == "*":
                        continue
                    sub = f"{base}.{alias.name}"
                    if self.file(sub) is not None:
                        self._add(sub, out)
                    else:
                        target = self._lazy_exports(base).get(alias.name)
                        if target:
                            self._add(target, out)
        return out

    def _add(self, name: str, out: set[str]) -> None:
        if _in_package(name):
            out.add(name)
            out.update(_parents(name))

    def _lazy_exports(self, module: str) -> dict[str, str]:
        found = self._exports.get(module)
        if found is None:
            found = _lazy_exports_of(self._tree(module))
            self._exports[module] = found
        return found


def _lazy_exports_of(tree: ast.Module | None) -> dict[str, str]:
    """A package's ``_EXPORTS = {"Name": "module[:attribute]"}`` as name -> module."""
    for node in tree.body if tree is not None else []:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "_EXPORTS" for t in targets) and node.value:
                value = ast.literal_eval(node.value)
                if isinstance(value, dict):
                    return {str(k): str(v).partition(":")[0] for k, v in value.items()}
    return {}


def _in_package(name: str) -> bool:
    return name == PACKAGE or name.startswith(PACKAGE + ".")


def _parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _absolute(module: str, is_pkg: bool, target: str | None, level: int) -> str | None:
    """The absolute module name of ``from <level dots><target> import ...`` inside ``module``."""
    if level == 0:
        return target
    parts = module.split(".")
    if not is_pkg:
        parts = parts[:-1]
    if level - 1 > len(parts):
        return None
    base = parts[:len(parts) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _runtime_nodes(tree: ast.AST) -> Iterable[ast.AST]:
    """Every node of ``tree`` except the bodies of ``if TYPE_CHECKING:`` (never run)."""
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))
