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

Parsing and dumping the ~100 syntax trees takes about two seconds, which every no-change
build would pay. What the graph needs of a source (its digest, its import statements, its
lazy exports) is a pure function of the file's bytes, so it is kept across processes in a JSON
file in the package's ``__pycache__`` folder, keyed by the bytes' sha256
(:class:`FactsCache`): an edited file is a new key, and the cache is skipped when it cannot be
read or written.
"""

from __future__ import annotations

import ast
import atexit
import hashlib
import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

PACKAGE = "pipeline"
#: module-level names whose assignment is release bookkeeping, not behaviour
IGNORED_ASSIGNMENTS = frozenset({"__version__"})
#: where :class:`FactsCache` keeps what it learned about each source's bytes
FACTS_FILE = Path(__file__).resolve().parent.parent / "__pycache__" / "codegraph_facts.json"
#: how the facts are computed; a file of another scheme (older code) is ignored
FACTS_SCHEME = 1
#: sources remembered at most (each edit of a file adds one; the least recently used go)
FACTS_KEEP = 2000
#: permissions of the facts file (readable by all, like Python's own byte-code caches)
FACTS_MODE = 0o644


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


class FactsCache:
    """What the graph needs of one source file, by the sha256 of its bytes: ``digest`` (of
    :func:`normalized_code`), ``imports`` (the run-time import statements as
    ``["import", names]`` / ``["from", module, level, names]``) and ``exports`` (its lazy
    exports). Loaded from ``path`` on first use and written back once, at exit, if anything
    was added (atomically: a concurrent writer's file is replaced whole, never mixed)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._facts: dict[str, dict[str, Any]] | None = None
        self._used: set[str] = set()
        self._dirty = False

    def get(self, data: bytes, filename: str) -> dict[str, Any]:
        """The facts of a source whose bytes are ``data`` (parsed now if not known)."""
        facts = self._load()
        key = sha256_bytes(data)
        self._used.add(key)
        found = facts.get(key)
        if found is None:
            tree = ast.parse(data, filename=filename)
            found = {"imports": _import_statements(tree), "exports": _lazy_exports_of(tree),
                     "digest": sha256_bytes(normalized_code(tree).encode())}
            facts[key] = found
            if not self._dirty and self.path is not None:
                atexit.register(self.save)
            self._dirty = True
        return found

    def _load(self) -> dict[str, dict[str, Any]]:
        if self._facts is None:
            self._facts = {}
            if self.path is not None:
                try:
                    saved = json.loads(self.path.read_text())
                    if saved.get("scheme") == FACTS_SCHEME and isinstance(saved.get("facts"), dict):
                        self._facts = saved["facts"]
                except (OSError, ValueError, AttributeError):
                    pass  # none yet, or unreadable: parse
        return self._facts

    def save(self) -> None:
        """Write the facts (those used by this process last, so they are kept longest)."""
        if not self._dirty or self.path is None or self._facts is None:
            return
        facts = self._facts
        order = [k for k in facts if k not in self._used] + [k for k in facts if k in self._used]
        keep = {k: facts[k] for k in order[-FACTS_KEEP:]}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".codegraph-", suffix=".tmp")
            with os.fdopen(fd, "w") as f:
                json.dump({"scheme": FACTS_SCHEME, "facts": keep}, f)
            os.chmod(tmp, FACTS_MODE)  # mkstemp's 0600 would hide it from other users
            os.replace(tmp, self.path)
            self._dirty = False
        except OSError:
            pass  # a read-only install: parse again next time


#: one cache per process, shared by every graph (the facts depend on bytes alone)
_FACTS = FactsCache(FACTS_FILE)


class ImportGraph:
    """The ``pipeline`` modules each module imports, read from the sources under ``root``."""

    def __init__(self, root: Path | None = None, facts: FactsCache | None = None) -> None:
        self.root = Path(root) if root is not None else source_root()
        self._direct: dict[str, frozenset[str]] = {}
        self._digest: dict[str, str] = {}
        # each source is read once per graph, and parsed once per content (FactsCache): a plan
        # keys ~35 stages over the same ~100 modules; re-parsing them per stage made a no-op
        # build take 20 s, parsing them once per process still took 2 s
        self._facts_cache = facts if facts is not None else _FACTS
        self._facts: dict[str, dict[str, Any] | None] = {}
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
            facts = self._facts_of(module)
            if facts is None:
                raise CodeGraphError(f"module {module} has no source file under {self.root}")
            self._digest[module] = str(facts["digest"])
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

    def _facts_of(self, module: str) -> dict[str, Any] | None:
        if module not in self._facts:
            path = self.file(module)
            self._facts[module] = None if path is None else \
                self._facts_cache.get(path.read_bytes(), str(path))
        return self._facts[module]

    def _scan(self, module: str) -> set[str]:
        path = self.file(module)
        facts = self._facts_of(module)
        if path is None or facts is None:
            return set()
        is_pkg = path.name == "__init__.py"
        out: set[str] = set()
        for statement in facts["imports"]:
            if statement[0] == "import":
                for name in statement[1]:
                    self._add(name, out)
                continue
            _, target, level, names = statement
            base = _absolute(module, is_pkg, target, level)
            if base is None or not _in_package(base):
                continue
            self._add(base, out)
            for name in names:
                if name == "*":
                    continue
                sub = f"{base}.{name}"
                if self.file(sub) is not None:
                    self._add(sub, out)
                else:
                    lazy = self._lazy_exports(base).get(name)
                    if lazy:
                        self._add(lazy, out)
        return out

    def _add(self, name: str, out: set[str]) -> None:
        if _in_package(name):
            out.add(name)
            out.update(_parents(name))

    def _lazy_exports(self, module: str) -> dict[str, str]:
        facts = self._facts_of(module)
        return dict(facts["exports"]) if facts is not None else {}


def _import_statements(tree: ast.Module) -> list[list[Any]]:
    """The import statements that run (not under ``if TYPE_CHECKING:``), in a JSON-ready form:
    ``["import", [names]]`` or ``["from", module or None, level, [names]]``."""
    out: list[list[Any]] = []
    for node in _runtime_nodes(tree):
        if isinstance(node, ast.Import):
            out.append(["import", [a.name for a in node.names]])
        elif isinstance(node, ast.ImportFrom):
            out.append(["from", node.module, node.level, [a.name for a in node.names]])
    return out


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
