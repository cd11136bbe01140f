"""What the command groups share: the ``pokertables`` typer application and its global options
(:data:`app`, :func:`artifacts_dir`), the progress displays on stderr (a build's live bar or
timed log lines, an equity run's bar), and the note that a query must first compile its kernels.

Each command group (:mod:`pipeline.cli.build`, :mod:`pipeline.cli.equity`,
:mod:`pipeline.cli.hands`, :mod:`pipeline.cli.vp`, :mod:`pipeline.cli.bucket`) imports from
here and registers on :data:`app`; :mod:`pipeline.cli` imports them all and runs it
(:func:`pipeline.cli.main`). Nothing here loads numpy, rich or the engines until a command runs.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, TextIO

import typer
from typer.core import TyperGroup

from pipeline.core.strict_numbers import strict_float, strict_int

if TYPE_CHECKING:
    from rich.progress import TaskID

    from pipeline.build.runner import StageResult
    from pipeline.build.stages import Stage

#: parsers of the number options (typer's own reads "8_0" as 80): ASCII digits only
whole = strict_int
decimal = strict_float


def say_waiting(text: str) -> None:
    """Tell the user at once that a command waits for a lock, and for whom (stderr)."""
    print(f"{text} ...", file=sys.stderr, flush=True)


def whole_at_least(low: int) -> Callable[[str], int]:
    """A parser of a whole-number option that must be at least ``low``."""
    def parse(text: str) -> int:
        n = strict_int(text)
        if n < low:
            raise ValueError(f"{n} is below {low}")
        return n
    return parse


# ---------------------------------------------------------------- the application
class AlphabeticalGroup(TyperGroup):
    """A command group whose help lists its commands by name, sub-groups (``vp``) last, not in
    the order their modules happen to register them."""

    def list_commands(self, ctx: object) -> list[str]:  # ctx unused: any context
        """The group's command names: commands, then sub-groups, each sorted by name."""
        return sorted(self.commands, key=lambda n: (isinstance(self.commands[n], TyperGroup), n))


app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  cls=AlphabeticalGroup,
                  help="Precomputed poker tables: build them, look hands up, analyse games.")

#: the artifacts folder when neither -a nor POKERTABLES_ARTIFACTS names one (a build then takes
#: its config's folder)
DEFAULT_ARTIFACTS = "artifacts"
STATE: dict[str, Any] = {"debug": False, "json": False,
                         "artifacts": os.environ.get("POKERTABLES_ARTIFACTS", DEFAULT_ARTIFACTS)}


def _version(value: bool) -> None:
    if value:
        from pipeline.version import __version__

        # eager: it runs before --json is parsed, so it reads what main() saw on the line
        typer.echo(json.dumps({"version": __version__}) if STATE["json"] else f"pokertables {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    artifacts: str = typer.Option(STATE["artifacts"], "--artifacts", "-a",
                                   help="artifacts folder to read/write (env POKERTABLES_ARTIFACTS)"),
    config_dir: Optional[list[Path]] = typer.Option(
        None, "--config-dir", help="folder with rules/*.toml, paytables/*.toml and/or casino/*.toml that add to and "
        "override the built-in ones; repeat for more (env POKERTABLES_CONFIG)"),
    debug: bool = typer.Option(False, "--debug", help="show tracebacks on errors"),
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="print the version and exit"),
    as_json: bool = typer.Option(False, "--json", help="with --version: print it as JSON; any "
                                 "error as {\"error\": ...} on stdout"),
) -> None:
    from pipeline.registry import set_config_dirs

    STATE["artifacts"] = artifacts
    STATE["debug"] = debug
    set_config_dirs(config_dir or [])


#: The flags whose names are not ``--`` and the field's name (errors name a question's fields,
#: :class:`pipeline.errors.InputError`; the command line shows them as its flags).
FLAGS = {"opponents": "-n", "time_limit": "--time"}


def flag(field: str) -> str:
    """The command line's flag for a question's field (``opponents`` -> ``-n``)."""
    return FLAGS.get(field, "--" + field.replace("_", "-"))


def artifacts_dir() -> Path:
    """The artifacts folder chosen on the command line (an empty text is refused: it would mean
    the current folder, where a build's clean-up has no business)."""
    from pipeline.errors import InputError

    text = str(STATE["artifacts"])
    if not text.strip():
        raise InputError("the artifacts folder is empty text (-a \"\" or POKERTABLES_ARTIFACTS=\"\"); "
                         "name a folder, e.g. -a artifacts")
    return Path(text)


# ---------------------------------------------------------------- build progress
#: seconds between progress lines in a log
LOG_INTERVAL = 5.0


class LogProgress:
    """Plain progress lines for a build whose stderr is not a terminal (``make tables > log
    2>&1``, CI): one line per stage start and finish and, while a stage runs, a line every
    ``interval`` seconds with the stage, its fraction done, what it is doing and the elapsed
    time, from a ticker thread, so a long stage whose code reports rarely never leaves the log
    silent. Two stages may run at once (a build's two lanes): each line names its stage."""

    def __init__(self, stream: TextIO | None = None, interval: float = LOG_INTERVAL) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.interval = interval
        self._lock = threading.Lock()
        self._running: dict[str, list[Any]] = {}  # stage -> [text, fraction, start]
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _line(self, text: str) -> None:
        print(text, file=self.stream, flush=True)

    def _tick(self) -> None:
        while not self._stop.wait(self.interval):
            with self._lock:
                for name, (text, fraction, t0) in self._running.items():
                    self._line(f"build: {name}: {100 * fraction:5.1f}% {text} "
                               f"({time.perf_counter() - t0:.0f}s)")

    def start(self, stage: Stage) -> None:
        """A stage is about to be checked (and built if stale)."""
        with self._lock:
            self._running[stage.name] = ["checking", 0.0, time.perf_counter()]
        if self._thread is None:
            self._thread = threading.Thread(target=self._tick, name="build-progress", daemon=True)
            self._thread.start()

    def update(self, text: str, fraction: float, stage: str = "") -> None:
        """What a running stage (the latest started, unless named) is doing and how far it is (0..1)."""
        with self._lock:
            name = stage or next(reversed(self._running), "")
            state = self._running.get(name)
            if state is None:
                return
            if state[0] == "checking":
                self._line(f"build: {name}: building")
            state[0], state[1] = text, fraction

    def finish(self, result: StageResult) -> None:
        """The stage was built or found up to date."""
        with self._lock:
            self._running.pop(result.name, None)
            self._line(f"build: {result.name}: " + ("up to date" if result.status == "skipped"
                                                      else f"built in {result.seconds:.1f}s"))

    def close(self) -> None:
        """Stop the ticker."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()


class RichProgress:
    """A build's progress bar per stage on a terminal's stderr."""

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        self.console = Console(stderr=True)
        self.progress = Progress(TextColumn("[bold]{task.fields[stage]:<28}"), BarColumn(),
                                 TextColumn("{task.description}"), TimeElapsedColumn(),
                                 console=self.console, transient=False)
        self.tasks: dict[str, TaskID] = {}   # stage -> its bar (two may run at once)
        self.task: TaskID | None = None      # the latest started

    def start(self, stage: Stage) -> None:
        """Add a bar for a stage that is about to be checked or built."""
        if not self.progress.live.is_started:
            self.progress.start()
        self.task = self.tasks[stage.name] = self.progress.add_task("checking", total=1.0, stage=stage.name)

    def update(self, text: str, fraction: float, stage: str = "") -> None:
        """Move a stage's bar (the latest started, unless named; ``fraction`` 0..1) and show what it is doing."""
        task = self.tasks.get(stage) if stage else self.task
        if task is not None:
            self.progress.update(task, description=text, completed=fraction)

    def finish(self, result: StageResult) -> None:
        """Mark a stage built (with seconds) or skipped."""
        task = self.tasks.get(result.name)
        if task is None:
            return
        self.progress.update(task, completed=1.0,
                             description="skipped (up to date)" if result.status == "skipped"
                             else f"built in {result.seconds:.2f}s")

    def close(self) -> None:
        """Stop the live display."""
        if self.progress.live.is_started:
            self.progress.stop()


# ---------------------------------------------------------------- query progress
#: A progress bar appears only for runs that last longer than this (s).
PROGRESS_AFTER = 1.0
#: When stderr is not a terminal (a log, a pipe), a run that lasts longer than this says how far
#: it is in one plain line, and again every this many seconds (a quick answer's stderr stays
#: empty; ``--stderr 0.00001`` runs for minutes and was silent).
PIPED_PROGRESS_EVERY = 10.0


def progress_bar() -> tuple[Callable[[float, str], None], Callable[[], None]]:
    """A (callback, close) pair drawing a rich progress bar on stderr once the run has lasted
    :data:`PROGRESS_AFTER` seconds when stderr is a terminal, or else writing a plain progress
    line every :data:`PIPED_PROGRESS_EVERY` seconds."""
    t0 = time.perf_counter()
    state: dict[str, Any] = {}

    def update(frac: float, text: str) -> None:
        if not sys.stderr.isatty():
            now = time.perf_counter()
            if now - state.get("logged", t0) >= PIPED_PROGRESS_EVERY:
                state["logged"] = now
                print(f"equity: {100 * frac:5.1f}% {text} ({now - t0:.0f}s)", file=sys.stderr, flush=True)
            return
        if "announced" not in state:
            # first call: the question passed validation, so a bad input never gets this line
            state["announced"] = True
            announce_compile()
        if time.perf_counter() - t0 < PROGRESS_AFTER:
            return
        if "bar" not in state:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            bar = Progress(TextColumn("equity"), BarColumn(), TextColumn("{task.description}"),
                           TimeElapsedColumn(), console=Console(stderr=True), transient=True)
            bar.start()
            state["bar"] = bar
            state["task"] = bar.add_task(text, total=1.0)
        state["bar"].update(state["task"], completed=frac, description=text)

    def close() -> None:
        if "bar" in state:
            state["bar"].stop()

    return update, close


# ---------------------------------------------------------------- compiled kernels
# Numba compiles a kernel on its first call and caches the machine code in the folder named by
# the sources' digest (:mod:`pipeline.core.kernel_cache`, which sets NUMBA_CACHE_DIR when
# ``pipeline`` is imported, so a changed source is a cold cache); a fresh clone has no cache,
# so its first postflop or Monte Carlo query would sit silent for 15-20 s. ``pokertables warm``
# (:mod:`pipeline.cli.build`) compiles ahead.

#: The equity kernels' modules, as paths under ``pipeline/equity`` without ``.py``: a query
#: compiles when one of them has no cache index yet.
EQUITY_KERNEL_MODULES = ("exact/count", "exact/enumerate", "exact/ranges", "exact/range_random",
                         "montecarlo/driver", "montecarlo/fixed", "montecarlo/ranged", "games/kernels",
                         "games/evaluate",
                         "breakdown", "exact/allhands", "exact/headsup_preflop")


def _cache_dirs(module_file: Path) -> list[Path]:
    """Where numba keeps a module's cache: its folder for the module under NUMBA_CACHE_DIR (the
    digest folder ``import pipeline`` chose), or ``__pycache__`` where none was writable."""
    from pipeline.core.kernel_cache import module_cache_dir

    root = os.environ.get("NUMBA_CACHE_DIR")
    if root:
        return [module_cache_dir(module_file, root)]
    return [module_file.parent / "__pycache__"]


def cold_modules(package_file: str, modules: tuple[str, ...]) -> list[str]:
    """The modules (paths relative to the folder of ``package_file``, the ``__file__`` of a
    module there) with no numba cache index."""
    here = Path(package_file).resolve().parent
    cold = []
    for m in modules:
        dirs = _cache_dirs(here / f"{m}.py")
        if not any(d.is_dir() and any(d.glob(f"{Path(m).name}.*.nbi")) for d in dirs):
            cold.append(m)
    return cold


def announce_compile() -> None:
    """Say on stderr when the equity kernels are not compiled yet (a fresh clone before
    ``make tables``): the first answer then takes seconds of compiling. Called by the CLI's
    progress callback, so only for a terminal and only once the question is known to be valid
    (a bad input still gets its one ``error:`` line, and piped output stays the same warm or
    cold)."""
    import pipeline.equity.engine as engine

    if cold_modules(engine.__file__, EQUITY_KERNEL_MODULES):
        print("compiling the equity kernels for their first use (once, about 20 s; "
              "`make tables` or `pokertables warm` does it ahead)", file=sys.stderr)
