"""The command line's manners: a closed pipe ends quietly, a cold kernel cache is announced."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.cli.common import EQUITY_KERNEL_MODULES, cold_modules
from pipeline.core.kernel_cache import folder_for, module_cache_dir

ROOT = Path(__file__).resolve().parent.parent


# a preflop question: read from the tables, so the run pays no kernel compile (a flop one
# compiled the exact kernels, ~18 s, for a test about the pipe)
@pytest.mark.parametrize("args", [["equity", "AK,QQ", "--breakdown"], ["vp", "list"]])
def test_head_closes_the_pipe_quietly(artifacts: Path, args: list[str]) -> None:
    cmd = " ".join([sys.executable, "-m", "pipeline", "-a", str(artifacts),
                    *(f"'{a}'" for a in args)])
    # stdout and stderr both into the closed pipe: neither may complain
    r = subprocess.run(["bash", "-c", f"{cmd} 2>&1 | head -n 1; exit ${{PIPESTATUS[0]}}"],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert len(r.stdout.splitlines()) == 1 and "Error" not in r.stdout


@pytest.mark.parametrize("args", [["--help"], ["vp", "--help"], ["equity", "--help"], [], ["vp"]])
@pytest.mark.parametrize("reader", ["head -n 1", "true"])
def test_help_into_a_closed_pipe_exits_0_quietly(args: list[str], reader: str) -> None:
    """rich prints help pages and answers a broken pipe by pointing fd 1 at /dev/null and
    exiting 1; the CLI still sees the reader left and exits 0 without a word. ``true`` closes
    the pipe before the help is written (a broken pipe every time), ``head -n 1`` after a line."""
    cmd = " ".join([sys.executable, "-m", "pipeline", *args])
    r = subprocess.run(["bash", "-c", f"{cmd} | {reader}; exit ${{PIPESTATUS[0]}}"],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stderr == "" and len(r.stdout.splitlines()) <= 1


def test_a_cold_cache_is_seen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pipeline.equity.engine as engine

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert cold_modules(engine.__file__, EQUITY_KERNEL_MODULES) == list(EQUITY_KERNEL_MODULES)
    # one module's index in numba's cache folder for it makes it warm
    mirror = module_cache_dir(Path(engine.__file__).parent / "exact" / "range_random.py", tmp_path)
    mirror.mkdir(parents=True)
    (mirror / "range_random._count_chunk-1.py311.nbi").write_bytes(b"")
    assert "exact/range_random" not in cold_modules(engine.__file__, EQUITY_KERNEL_MODULES)
    assert "exact/ranges" in cold_modules(engine.__file__, EQUITY_KERNEL_MODULES)


def _stderr_on_a_terminal(args: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    """Run the CLI with stderr on a pseudo-terminal (the compile note is for people watching)."""
    import pty

    master, slave = pty.openpty()
    try:
        r = subprocess.run([sys.executable, "-m", "pipeline", *args], stdout=subprocess.PIPE,
                           stderr=slave, text=True, cwd=ROOT, env=env, timeout=600)
    finally:
        os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 1 << 16)
        except OSError:  # EIO: the terminal's other end is closed and drained
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    return r.returncode, r.stdout, b"".join(chunks).decode(errors="replace")


#: a kernel module the flop question below never runs: left out of its cache, it keeps the
#: cache cold in the engine's eyes while the question itself loads every kernel it runs
COLD_MODULE = "montecarlo/fixed"


def _seeded_cache(cache: Path, artifacts: Path) -> None:
    """A numba cache folder (``NUMBA_CACHE_DIR`` layout: the digest folder a process given
    ``NUMBA_CACHE_DIR=cache`` uses) holding copies of the shared cache's files, except those of
    :data:`COLD_MODULE`. The two subprocesses below then load the
    question's kernels instead of compiling them twice into empty folders (seconds each); the
    shared cache gets them here, compiled once for every test that asks the same."""
    import shutil

    import pipeline
    from pipeline.equity.engine import equity_seats
    from pipeline.query.tables import Tables

    for board in ("2c7h8h", "2c7h9h"):
        equity_seats(Tables(artifacts), "AsKs", ["QdQc"], board=board)
    pkg = Path(pipeline.__file__).parent
    root = os.environ["NUMBA_CACHE_DIR"]  # set by import pipeline
    cold = pkg / "equity" / COLD_MODULE
    for source_dir in {p.parent for p in pkg.rglob("*.py")}:
        shared = module_cache_dir(source_dir / "x.py", root)
        for f in shared.glob("*.nb[ic]") if shared.is_dir() else ():
            if source_dir == cold.parent and f.name.startswith(cold.name + "."):
                continue
            dest = module_cache_dir(source_dir / "x.py", folder_for(cache))
            dest.mkdir(parents=True, exist_ok=True)
            shutil.copy2(f, dest / f.name)


def test_cold_query_says_it_compiles(artifacts: Path, tmp_path: Path) -> None:
    """On a terminal, a valid question while a kernel module is not compiled yet says so; a bad
    one gets only its error line, and piped stderr never gets the note (output alike warm or
    cold)."""
    import pipeline.equity.engine as engine

    _seeded_cache(tmp_path, artifacts)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    with pytest.MonkeyPatch.context() as m:  # the engine's view of the seeded folder
        m.setenv("NUMBA_CACHE_DIR", str(folder_for(tmp_path)))
        assert COLD_MODULE in cold_modules(engine.__file__, EQUITY_KERNEL_MODULES)
    code, _, err = _stderr_on_a_terminal(["-a", str(artifacts), "equity", "AsKs", "--vs", "QdQc",
                                          "--board", "2c7h8h"], env)
    assert code == 0 and "compiling the equity kernels" in err, err
    code, _, err = _stderr_on_a_terminal(["-a", str(artifacts), "equity", "AsKs", "--vs", "AsQs"], env)
    assert code == 2 and "compiling" not in err and "appears twice" in err, err
    r = subprocess.run([sys.executable, "-m", "pipeline", "-a", str(artifacts), "equity", "AsKs",
                        "--vs", "QdQc", "--board", "2c7h9h"], capture_output=True, text=True,
                       cwd=ROOT, env=env, timeout=600)
    assert r.returncode == 0 and r.stderr == "", r.stderr


def test_command_tables_show_each_help_paragraph_as_one_cell() -> None:
    """A group's command table shows each command's first help paragraph; rich kept the
    docstring's line breaks there, one source line per table row. The cell text is the
    paragraph on one line (rich then wraps it to the cell)."""
    import typer.main

    from pipeline.cli import _register, literal_help
    from pipeline.cli.common import app

    _register()
    todo = [literal_help(typer.main.get_command(app))]
    seen = 0
    while todo:
        cmd = todo.pop()
        todo.extend(getattr(cmd, "commands", {}).values())
        if not cmd.help:
            continue
        first = cmd.help.split("\n\n")[0]
        seen += "\n" in first  # a docstring wrapped over lines, as most are
        assert "\n" not in cmd.short_help and cmd.short_help == " ".join(first.split()), cmd.name
    assert seen >= 3  # the check met multi-line paragraphs (bucket, hits, range, ...)


@given(st.text(alphabet="[]/\\ab#@5 ,K", max_size=30))
def test_help_escape_is_richs(text: str) -> None:
    """The CLI's copy of rich's markup escape (kept so a command's start skips importing rich's
    text machinery) answers as rich's own does."""
    from rich.markup import escape as rich_escape

    from pipeline.cli import escape

    assert escape(text) == rich_escape(text)
    assert escape("[50]KK,QQ[/50] \\[b] x\\") == rich_escape("[50]KK,QQ[/50] \\[b] x\\")
