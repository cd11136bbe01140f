"""numba compiles the same kernels without the work nothing here uses (pipeline.core.lean_compile)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

from fresh_python import after_pipeline

from pipeline.core import lean_compile

#: kernels compiled in both processes of the comparison, with the signatures the engine uses
KERNELS = {
    "pipeline.equity.games.evaluate:seven_high":
        "int64(uint8[:, ::1], int64, int64, uint64[::1], int32[::1], int16[::1], int16[::1])",
    "pipeline.core.combos:_colex_chunk": "(int64, int64, int64, int64, int64, int64, int64[:, ::1])",
}

#: compiles KERNELS in a fresh process with a fresh cache folder; with "numba" as argv[1] numba's
#: own pieces are put back first (the originals the trims keep); prints {kernel: {function name:
#: optimised IR}} and how many numba:llvm_lock events fired
_COMPARE = textwrap.dedent("""
    import importlib, json, sys
    import pipeline
    from numba.core import base, cpu, event
    from llvmlite.binding import ffi
    if sys.argv[1] == "numba":
        cpu.CPUTargetOptions.finalize = cpu.CPUTargetOptions.finalize.__wrapped__
        ffi.register_lock_callback = ffi.register_lock_callback.__wrapped__
        base._initialize_llvm_lock_event.__wrapped__()  # numba runs it once: its own callbacks again
    fired = []
    class Seen(event.Listener):
        def on_start(self, ev): fired.append(ev.kind)
        def on_end(self, ev): pass
    event.register("numba:llvm_lock", Seen())
    out = {}
    for name, sig in json.loads(sys.argv[2]).items():
        mod, attr = name.split(":")
        kernel = getattr(importlib.import_module(mod), attr)
        kernel.compile(sig)
        ir = kernel.inspect_llvm(kernel.signatures[0])
        funcs, current = {}, None
        for line in ir.splitlines():
            if line.startswith("define "):
                current = line.split("@", 1)[1].split("(", 1)[0]
                funcs[current] = []
            if current is not None:
                funcs[current].append(line)
                if line == "}":
                    current = None
        out[name] = {k: "\\n".join(v) for k, v in funcs.items()}
    print(json.dumps({"ir": out, "lock_events": len(fired)}))
""")


#: numba's mangled names carry the compile flags as an ABI tag ("B<length>c8tJTI..."): the flags
#: differ by the wrapper setting, so names are compared without their tags
_ABI_TAG = re.compile(r"B(\d+)(?=c8tJTI)")


def _untagged(text: str) -> str:
    out, at = [], 0
    for m in _ABI_TAG.finditer(text):
        if m.start() < at:
            continue
        out.append(text[at:m.start()])
        at = m.end() + int(m.group(1))
    return "".join(out) + text[at:]


def _compiled(variant: str, cache: Path) -> dict:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    out = subprocess.run([sys.executable, "-c", _COMPARE, variant, json.dumps(KERNELS)],
                         capture_output=True, text=True, check=True, env=env)
    return json.loads(out.stdout)


def test_same_machine_code_without_the_unused_work(tmp_path: Path) -> None:
    """The kernels' optimised LLVM IR is numba's own, function for function, less the C
    wrappers; and no LLVM lock event fires while compiling with the trims."""
    lean = _compiled("lean", tmp_path / "lean")
    own = _compiled("numba", tmp_path / "numba")
    assert lean["lock_events"] == 0 and own["lock_events"] > 0
    for name in KERNELS:
        theirs = {_untagged(f): _untagged(body) for f, body in own["ir"][name].items()}
        ours = {_untagged(f): _untagged(body) for f, body in lean["ir"][name].items()}
        wrappers = {f for f in theirs if f.startswith("cfunc.")}
        assert wrappers, f"numba's pipeline built no C wrapper for {name}"
        assert not any(f.startswith("cfunc.") for f in ours)
        assert ours == {f: body for f, body in theirs.items() if f not in wrappers}


def test_installed_when_numba_is_imported_after_pipeline() -> None:
    out = after_pipeline(
        "import numba; from numba.core import cpu; from llvmlite.binding import ffi; "
        "print(getattr(cpu.CPUTargetOptions.finalize, '_pokertables_lean', False), "
        "any(a.__qualname__.startswith('_initialize_llvm_lock_event') "
        "for a, _ in ffi.lib._lock._cblist))")
    assert out == "True False"


def test_numba_imported_first_keeps_its_lock_events_and_loses_the_wrapper() -> None:
    code = ("import numba; from llvmlite.binding import ffi; import pipeline; "
            "from numba.core import cpu; "
            "print(getattr(cpu.CPUTargetOptions.finalize, '_pokertables_lean', False), "
            "any(a.__qualname__.startswith('_initialize_llvm_lock_event') "
            "for a, _ in ffi.lib._lock._cblist))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True True"


def test_a_kernel_may_still_ask_for_its_c_wrapper() -> None:
    import numba as nb

    @nb.njit(no_cfunc_wrapper=False)
    def wrapped(x: int) -> int:
        return x + 1

    @nb.njit
    def plain(x: int) -> int:
        return x + 1

    assert wrapped(1) == plain(1) == 2
    assert "@cfunc." in wrapped.inspect_llvm(wrapped.signatures[0])
    assert "@cfunc." not in plain.inspect_llvm(plain.signatures[0])


def test_numba_cfunc_keeps_working() -> None:
    """numba.cfunc compiles another way: its C callback is still built and callable."""
    import ctypes

    import numba as nb

    @nb.cfunc("int64(int64)")
    def add_one(x: int) -> int:
        return x + 1

    assert ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64)(add_one.address)(41) == 42


def test_another_numba_is_left_alone() -> None:
    """Modules without the expected pieces: nothing patched, install says so."""
    import types

    for name in lean_compile.TRIMS:
        assert lean_compile.install(types.ModuleType(name)) is False
    assert lean_compile.install(types.ModuleType("numba.core.other")) is False
