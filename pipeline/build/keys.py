"""Stage keys derived from the code itself: the import graph of a stage's module.

A stage's outputs depend on the source of every ``pipeline`` module its module imports,
directly or through other modules, at module level or inside functions; on its settings, the
sha256 of its input artifacts and source files; and on the versions of the libraries that
compute and write the numbers. :func:`stage_parts` gathers those facts and :func:`parts_key`
hashes them, so no stage lists its code by hand and none can drift stale.

The graph is read with :mod:`ast` from the source files, never by importing them: imports
under ``if TYPE_CHECKING:`` do not run and are skipped; ``from pipeline.x import y`` counts
``pipeline.x.y`` when ``y`` is a submodule; importing ``pipeline.x.y`` also runs the
``__init__`` of ``pipeline`` and ``pipeline.x``, so those count too. A package's lazy
exports (a module-level ``_EXPORTS = {"Name": "pipeline.module"}`` dict) are followed when a
module imports such a name (values are ``"module"`` or ``"module:attribute"``).
"""

from __future__ import annotations

import ast
import hashlib
import json
import sys
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path
from typing import Any

from pipeline.core.files import read_small_file
from pipeline.errors import BuildError

PACKAGE = "pipeline"
#: Libraries whose version enters every key: they compute or write the artifacts' bytes.
KEY_LIBRARIES = ("numpy", "numba", "h5py", "pyarrow")


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
        """sha256 of a module's source file."""
        if module not in self._digest:
            p = self.file(module)
            if p is None:
                raise BuildError(f"module {module} has no source file under {self.root}")
            self._digest[module] = sha256_bytes(p.read_bytes())
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


def library_versions() -> dict[str, str]:
    """Versions of Python (major.minor) and of the libraries that write the artifacts."""
    out = {"python": f"{sys.version_info.major}.{sys.version_info.minor}"}
    for lib in KEY_LIBRARIES:
        try:
            out[lib] = metadata.version(lib)
        except metadata.PackageNotFoundError:
            out[lib] = "absent"
    return out


def source_label(path: Path) -> str:
    """How a source file is named in a key: its folder and file name, not where it lives."""
    p = Path(path)
    return f"{p.parent.name}/{p.name}"


#: the config key that switches a stage on or off
ENABLED = "enabled"


def stage_parts(module: str, settings: dict[str, Any], inputs: dict[str, str | None],
                sources: Iterable[Path], graph: ImportGraph,
                versions: dict[str, str] | None = None) -> dict[str, Any]:
    """Everything a stage's outputs depend on, as JSON-ready digests.

    ``module`` is the stage's module; ``inputs`` maps each input artifact to its manifest sha256.
    """
    # whether a stage is switched on decides if it runs, never what it writes
    shaping = {k: v for k, v in settings.items() if k != ENABLED}
    return {
        "settings": sha256_bytes(json.dumps(shaping, sort_keys=True, default=str).encode()),
        "code": {m: graph.digest(m) for m in graph.closure(module)},
        "inputs": dict(sorted(inputs.items())),
        "sources": {source_label(p): sha256_bytes(read_small_file(p, "source file")) for p in sources},
        "versions": versions if versions is not None else library_versions(),
    }


def parts_key(name: str, parts: dict[str, Any]) -> str:
    """The stage key: one sha256 over the stage's name and all its parts."""
    return sha256_bytes(json.dumps({"name": name, **parts}, sort_keys=True).encode())


def stale_reasons(parts: dict[str, Any], old: dict[str, Any] | None) -> list[str]:
    """Why a stage built with ``old`` parts (from the manifest) differs from ``parts``.

    Each reason is ``settings``, ``code: <modules>``, ``input: <file>``, ``source: <file>`` or
    ``versions: <library old -> new>``; an entry from before parts were recorded gives
    ``key (built before per-part digests were recorded)``.
    """
    if not old:
        return ["key (built before per-part digests were recorded)"]
    reasons: list[str] = []
    if parts["settings"] != old.get("settings"):
        reasons.append("settings")
    code_old = old.get("code", {})
    changed = sorted(m for m in set(parts["code"]) | set(code_old)
                     if parts["code"].get(m) != code_old.get(m))
    if changed:
        reasons.append("code: " + ", ".join(changed))
    for kind, label in (("inputs", "input"), ("sources", "source")):
        new_d, old_d = parts[kind], old.get(kind, {})
        for f in sorted(set(new_d) | set(old_d)):
            if new_d.get(f) != old_d.get(f):
                reasons.append(f"{label}: {f}")
    v_new, v_old = parts["versions"], old.get("versions", {})
    diff = [f"{lib} {v_old.get(lib, '-')} -> {v_new.get(lib, '-')}"
            for lib in sorted(set(v_new) | set(v_old)) if v_new.get(lib) != v_old.get(lib)]
    if diff:
        reasons.append("versions: " + ", ".join(diff))
    return reasons
