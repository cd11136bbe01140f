"""Run the command examples of the docs and compare their output (numbers included).

An example is a fenced code block holding ``$ command`` lines, each followed by the output it
prints. Blocks after a ``<!-- not run: why -->`` line are left alone (a Dask cluster, a full
build). In the expected output a line ``...`` stands for any number of lines, and wall-clock
times (``0.04 s``, ``in 2.3s``, ``(1.25s)``) are not compared.

Commands run with bash in a scratch folder that links the repository's ``pipeline`` and
``configs`` and the built ``artifacts``, with ``pokertables`` on the PATH. Each example runs in
a fresh folder: steps that share files go in one command (``&&``, continued with ``\\``).

A recorded output may show a failure only on purpose: an ``error:`` line only when the command
is marked ``# error example`` (a shell comment, so it still runs as written); a traceback or an
``internal error:`` line never (:func:`recorded_failure`), so an output refreshed from a broken
command cannot pass as the page's answer.

Maintainers refresh a page's outputs with ``python tests/doc_examples.py --write docs/PAGE.md``
(after ``make tables``), then read the diff.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```")
NOT_RUN = "<!-- not run:"
#: wall-clock times: "0.04 s", "2.3s", "(1.25s)" (not "5s" inside words)
SECONDS = re.compile(r"(?<![\w.])\d+(?:\.\d+)?\s?s\b")
SKIP = "..."
#: The shell comment that marks an example whose output is meant to be an ``error:`` line.
ERROR_MARK = re.compile(r"#\s*error example\b")
#: Output lines no example may record: a bug's, or a Python traceback's.
NEVER = ("Traceback (most recent call last)", "internal error:")
#: The plain progress line a query writes to a stderr that is not a terminal once it has run
#: for 10 s (pipeline.cli.common.progress_bar), e.g. ``equity:  27.6% 16,384 deals (39s)``:
#: a quick example prints one only when its first run compiles its kernels (a cold numba cache)
#: or the machine is loaded, so like a wall-clock time it is not compared
PROGRESS = re.compile(r"^equity: +\d+\.\d% .* \(\d+s\)$")


@dataclass
class Example:
    """One ``$ command`` and the output lines the page shows for it."""

    page: Path
    line: int
    command: str
    expected: list[str]


def recorded_failure(example: Example) -> str | None:
    """Why the output recorded for ``example`` cannot be right, or None: a traceback or an
    internal error anywhere, an ``error:`` line in an example not marked ``# error example``,
    or a marked example that records no ``error:`` line."""
    marked = ERROR_MARK.search(example.command) is not None
    for ln in example.expected:
        if ln.lstrip().startswith(NEVER):
            return f"records a failure no example may show: {ln.strip()[:80]!r}"
        if ln.startswith("error:") and not marked:
            return (f"records {ln[:80]!r} but the command is not marked '# error example' "
                    "(a broken example refreshed into the page?)")
    if marked and not any(ln.startswith("error:") for ln in example.expected):
        return "is marked '# error example' but records no error: line"
    return None


def examples(page: Path) -> list[Example]:
    """The runnable examples of a page, in order."""
    out: list[Example] = []
    lines = page.read_text().splitlines()
    inside = skip = False
    current: Example | None = None
    for i, ln in enumerate(lines, 1):
        if FENCE.match(ln):
            if inside:
                inside, current = False, None
            else:
                inside = True
                skip = i >= 2 and lines[i - 2].startswith(NOT_RUN)
            continue
        if not inside or skip:
            continue
        if ln.startswith("$ "):
            cmd = ln[2:]
            current = Example(page, i, cmd, [])
            out.append(current)
        elif current is not None:
            if current.expected == [] and current.command.endswith("\\"):
                current.command = current.command[:-1] + " " + ln.strip()
                current.line = i  # the output starts after the command's last line
                continue
            current.expected.append(ln)
    return out


def _scratch(folder: Path, artifacts: Path) -> None:
    for name, target in (("pipeline", ROOT / "pipeline"), ("configs", ROOT / "configs"),
                         ("artifacts", artifacts)):
        link = folder / name
        if not link.exists():
            link.symlink_to(target)


#: what the examples' commands see: relative artifacts, so paths print alike; a wide terminal
EXAMPLE_ENV = {"POKERTABLES_ARTIFACTS": "artifacts", "COLUMNS": "200"}
#: shell syntax (pipes, redirection, lists, variables, substitutions, globs, an assignment
#: before the command): such an example runs in bash exactly as written
SHELL_SYNTAX = re.compile(r"[|&;<>`$(){}*?\\]|^\w+=")


#: a quoted word the shell passes as it is: single quotes, or double quotes around no ``$``,
#: backquote or backslash (a ``|`` in ``"Qh 6h | Kh 8h 2c"`` is a card separator, not a pipe)
LITERAL = re.compile(r"'[^']*'|\"[^\"$`\\]*\"")
#: ``echo WORD | pokertables ...``: the command reads WORD and a newline on its standard input
ECHO_PIPE = re.compile(rf"^echo ({LITERAL.pattern}) \| (pokertables .*)$")


def in_process_args(command: str) -> list[str] | None:
    """The arguments of a plain ``pokertables ...`` command (its ``# ...`` comment dropped), or
    None when the command needs the shell."""
    import shlex

    code = LITERAL.sub("''", command).split("#", 1)[0]
    if SHELL_SYNTAX.search(code):
        return None
    words = shlex.split(command, comments=True)
    return words[1:] if words and words[0] == "pokertables" else None


def in_process_call(command: str) -> tuple[list[str], str | None] | None:
    """(arguments, standard input or None) of a command that runs in this process: a plain
    ``pokertables ...`` (:func:`in_process_args`) or one fed by ``echo WORD |``; else None."""
    import shlex

    fed = ECHO_PIPE.match(command)
    if fed is None:
        args = in_process_args(command)
        return None if args is None else (args, None)
    args = in_process_args(fed.group(2))
    return None if args is None else (args, shlex.split(fed.group(1))[0] + "\n")


def run_in_process(args: list[str], folder: Path, stdin: str | None = None) -> list[str]:
    """``pokertables ARGS`` by its entry point in this process, in ``folder`` with
    :data:`EXAMPLE_ENV`: the output lines (stdout then stderr) that the console script prints.
    A plain command needs no shell, and a process of its own cost each example about a CPU
    second (starting Python, importing the package and numba, loading the cached kernels again),
    about 70 s over the pages; here the kernels load once per test process."""
    import contextlib
    import io

    from cli_runner import as_a_process

    from pipeline.cli import main

    # text streams over bytes, as a console script's are (showdown writes to stdout.buffer)
    out_b, err_b = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(out_b, encoding="utf-8", write_through=True)
    err = io.TextIOWrapper(err_b, encoding="utf-8", write_through=True)
    with as_a_process(stdin, folder, EXAMPLE_ENV):
        # the -a default is read from the environment when the CLI is imported: give it as
        # the console script would see it (a later -a on the example's line still wins)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(["-a", EXAMPLE_ENV["POKERTABLES_ARTIFACTS"], *args])
            except SystemExit:
                pass
    out.flush()
    err.flush()
    return (out_b.getvalue() + err_b.getvalue()).decode().rstrip("\n").splitlines()


def run(example: Example, folder: Path, artifacts: Path, subprocess_only: bool = False) -> list[str]:
    """The command's output lines (stdout then stderr), run in ``folder``: a plain
    ``pokertables`` command in this process (:func:`run_in_process`), anything else (or all,
    with ``subprocess_only``) with bash."""
    _scratch(folder, artifacts)
    call = None if subprocess_only else in_process_call(example.command)
    if call is not None:
        args, stdin = call
        return run_in_process(args, folder, stdin)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           **EXAMPLE_ENV}
    r = subprocess.run(["bash", "-c", example.command], cwd=folder, env=env, capture_output=True,
                       text=True, timeout=600)
    return (r.stdout + r.stderr).rstrip("\n").splitlines()


def _norm(line: str) -> str:
    return SECONDS.sub("<time>", line.rstrip())


def matches(expected: list[str], got: list[str]) -> bool:
    """Whether ``got`` fits ``expected`` (``...`` = any lines; times and :data:`PROGRESS` lines
    ignored)."""
    exp = [_norm(x) for x in expected]
    while exp and not exp[-1]:
        exp.pop()  # a blank line before the next command belongs to the page, not the output
    act = [_norm(x) for x in got if not PROGRESS.match(x)]

    def fit(i: int, j: int) -> bool:
        if i == len(exp):
            return j == len(act)
        if exp[i].strip() == SKIP:
            return any(fit(i + 1, k) for k in range(j, len(act) + 1))
        return j < len(act) and exp[i] == act[j] and fit(i + 1, j + 1)

    return fit(0, 0)


def write(page: Path, folder: Path, artifacts: Path) -> None:
    """Replace each example's output on ``page`` with what the command prints now; where the
    page shows ``...``, only the lines before it are refreshed (truncated outputs stay so)."""
    lines = page.read_text().splitlines()
    for ex in reversed(examples(page)):
        # a progress line is the run's timing, not the page's output
        got = [g for g in run(ex, folder, artifacts, subprocess_only=True) if not PROGRESS.match(g)]
        start = ex.line  # index of the first output line (0-based)
        end = start + len(ex.expected)
        k = next((k for k, x in enumerate(ex.expected) if x.strip() == SKIP), None)
        blank = [""] if ex.expected and not ex.expected[-1].strip() and k is None else []
        lines[start:end] = (got if k is None else got[:k] + ex.expected[k:]) + blank
    page.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":  # pragma: no cover  (maintainers: refresh a page's outputs)
    import tempfile

    if len(sys.argv) != 3 or sys.argv[1] != "--write":
        sys.exit("usage: python tests/doc_examples.py --write docs/PAGE.md")
    with tempfile.TemporaryDirectory() as tmp:
        write(Path(sys.argv[2]).resolve(), Path(tmp), ROOT / "artifacts")
