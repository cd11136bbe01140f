"""What a ``pokertables`` process loads before its first answer (issue 33's ``eval`` <= 0.3 s; the
seconds themselves are measured by ``bench/run.py startup``, not here): only the command's own
module, no pydantic (typer's coercion of plain values answered by :mod:`pipeline.cli.coercion`,
equal to typer's own), no numba, no Parquet or plotting libraries."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer
import typer.main

from pipeline.cli import COMMAND_MODULES, ROOT_VALUE_OPTIONS, _register, command_named
from pipeline.cli.coercion import PlainFirst, install
from pipeline.cli.common import app

ROOT = Path(__file__).resolve().parent.parent

#: a child that runs one command in process and then reports the modules it loaded (stderr)
CHILD = ("import sys, json; from pipeline.cli import main; main(sys.argv[1:]); "
         "print(json.dumps(sorted(sys.modules)), file=sys.stderr)")
#: libraries a hand lookup has no use for
HEAVY = ("numba", "llvmlite", "pyarrow", "pandas", "matplotlib", "pydantic", "pydantic_core", "rich",
         "importlib.metadata")


def _loaded(artifacts: Path, *args: str) -> tuple[str, set[str]]:
    r = subprocess.run([sys.executable, "-c", CHILD, "-a", str(artifacts), *args], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout, set(json.loads(r.stderr.splitlines()[-1]))


def test_eval_loads_only_what_a_lookup_needs(artifacts: Path) -> None:
    out, loaded = _loaded(artifacts, "eval", "As Ks Qs Js Ts")
    assert out == ("As Ks Qs Js Ts: Ace-high straight flush (straight flush), score 7462 of 7462 "
                   "(Cactus Kev rank 1)\n")
    assert sorted(m for m in loaded if m.split(".")[0] in HEAVY or m in HEAVY) == []
    assert sorted(m for m in loaded if m.startswith("pipeline.cli")) == [
        "pipeline.cli", "pipeline.cli.coercion", "pipeline.cli.common", "pipeline.cli.hands"]
    assert not any(m.startswith(("pipeline.build", "pipeline.equity", "pipeline.videopoker"))
                   for m in loaded)


def test_stored_vp_answers_load_no_pydantic_or_numba(artifacts: Path) -> None:
    _, loaded = _loaded(artifacts, "vp", "breakeven", "double-double-bonus-9-6")
    assert {"numba", "pydantic", "pyarrow"} & loaded == set()


@pytest.mark.parametrize(("args", "command"), [
    (["eval", "As Ks Qs Js Ts"], "eval"),
    (["-a", "eval", "vp", "list"], "vp"),
    (["--artifacts", "x", "--config-dir", "eval", "--debug", "equity", "AK"], "equity"),
    (["--artifacts=x", "-ax", "--json", "casino", "list"], "casino"),
    (["--help", "eval"], None), (["--", "eval"], None), ([], None), (["-a", "x"], None),
    (["nonsense", "eval"], "nonsense"),
])
def test_the_command_of_a_command_line(args: list[str], command: str | None) -> None:
    assert command_named(args) == command


def test_the_command_map_matches_the_commands() -> None:
    """Every top-level command and group is mapped to the modules that define it, and the root
    options that take a value are the ones :func:`command_named` skips."""
    _register()
    root = typer.main.get_command(app)
    assert set(getattr(root, "commands", {})) == set(COMMAND_MODULES)
    for info in app.registered_commands:
        assert info.callback is not None
        assert info.callback.__module__ in COMMAND_MODULES[str(info.name)]
    for group in app.registered_groups:
        assert group.typer_instance is not None
        modules = {c.callback.__module__ for c in group.typer_instance.registered_commands if c.callback}
        assert modules == set(COMMAND_MODULES[str(group.name)])
    valued = {opt for p in root.params if isinstance(p, typer.core.TyperOption) and not p.is_flag
              for opt in p.opts}
    assert valued == set(ROOT_VALUE_OPTIONS)


#: values a command line hands to a parameter: numbers as people type them and as they should
#: not, text, empty text
VALUES = ["7", "08", "-3", "1.5", "1e3", "8_0", " 9", "\uff11", "", "abc", "0", "3.0", "nan"]


def test_plain_coercion_equals_typers_own() -> None:
    """For every parameter of every command, :class:`PlainFirst` returns what typer's own
    coercion returns, or raises what it raises (a number option's refusal in typer's words)."""
    assert install()
    _register()
    todo = [typer.main.get_command(app)]
    compared = 0
    while todo:
        cmd = todo.pop()
        todo.extend(getattr(cmd, "commands", {}).values())
        ctx = typer.Context(cmd)
        for param in cmd.params:
            ours = param.get_runtime_param()  # type: ignore[attr-defined]
            assert isinstance(ours, PlainFirst)
            theirs = ours.full()
            multi = param.multiple or param.nargs == -1
            given = [(v,) if multi else v for v in VALUES] + ([tuple(VALUES), ()] if multi else [])
            default = param.default  # what an option left out is coerced from
            for value in given + ([default] if default is not None and not callable(default) else []):
                if ours.descriptor.annotation is bool or ours.descriptor.file_annotation is not None:
                    continue  # flags never reach coercion with text; files would be opened
                got, want = _outcome(ours, value, param, ctx), _outcome(theirs, value, param, ctx)
                assert got == want, (cmd.name, param.name, value)
                compared += 1
    assert compared > 1000


def _outcome(coercion: object, value: object, param: object, ctx: object) -> tuple[str, object]:
    try:
        return "value", coercion.coerce(value, param=param, ctx=ctx)  # type: ignore[attr-defined]
    except Exception as exc:  # noqa: BLE001  (the error itself is compared)
        return type(exc).__name__, str(exc)


def test_typers_coercion_is_built_once_per_parameter() -> None:
    """A parameter that falls back to typer's coercion (a path) builds it once, however often it
    is coerced, even under a ``get_runtime_param`` that keeps nothing itself."""
    from pathlib import PurePath

    from pipeline.cli.coercion import _wrap

    built: list[object] = []

    class Typers:
        def coerce(self, value: object, param: object, ctx: object) -> object:
            return PurePath(str(value))

    def uncached(param: object) -> Typers:
        built.append(param)
        return Typers()

    class Descriptor:
        annotation = Path
        file_annotation = None

        class parameter_info:  # noqa: N801  (typer's attribute name)
            parser = None

    class Param:
        type_descriptor = Descriptor()
        multiple = False
        nargs = 1

    get = _wrap(uncached)
    param = Param()
    first = get(param)
    assert get(param) is first
    for name in ("a.toml", "b.toml", "c.toml"):
        assert get(param).coerce(name, param, None) == PurePath(name)
    assert len(built) == 1
