"""The build's two lanes: the order stages run in, and the second process the side lane's stages
are computed in while the build process computes the others.

Most stages keep one core busy and the other idle for much of their time (numba compiling,
numpy passes, writing and compressing files). The video-poker family (:data:`SIDE_LANE`: the
deal classes, a stage per paytable and their summary) reads only its own outputs and compiles
only its own kernels, so a second process computes it beside the rest. That process only
*computes*: it gets a stage's name and staging folder, runs the stage into it and reports
progress and its numba compiling; the build process keys every stage, decides what is stale,
hashes and commits, exactly as for a stage it ran itself, so keys, the manifest and "up to
date" mean what they meant. A stage waits until every stage that writes one of its inputs has
committed, whichever lane that stage ran in.
"""

from __future__ import annotations

import os
import pickle
import signal
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing import get_context
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from pipeline.build.config import BuildConfig
from pipeline.build.stages import Stage
from pipeline.errors import BuildError, PokertablesError

# Both lists live here, not with the stage list in pipeline.build.config: every stage's key
# covers that module, and where a stage is computed changes none of its bytes.
#: Stage modules ``pokertables build`` computes in a second process beside the others: the
#: video-poker family reads only its own outputs, compiles only its own kernels and keeps one
#: core busy most of the time, as the other stages do.
SIDE_LANE = ("vp_classes", "paytable", "vp_summary")
#: Stage modules a build starts before the plan's other stages that write none of their inputs:
#: those writing the tables ``pokertables warm`` reads (the Makefile's ``WARM_READS``), so
#: ``make tables`` starts compiling the query kernels beside the build a few seconds in.
RUN_FIRST = ("seven", "eval_tables", "rules")

#: seconds the second process gets to end by itself before it is ended
_JOIN_S = 5.0


def family(stage: Stage) -> str:
    """The stage module's short name (``paytable`` for ``pipeline.build.stages.paytable``)."""
    return stage.module.rsplit(".", 1)[-1]


def side_lane(stage: Stage) -> bool:
    """Whether ``stage`` belongs to the lane a second process computes."""
    return family(stage) in SIDE_LANE


def run_order(stages: list[Stage]) -> list[Stage]:
    """``stages`` in the order a build starts them: the plan's order, except that a
    :data:`RUN_FIRST` stage moves ahead of every stage it does not read from; never a stage
    before one that writes its input (a stable topological order)."""
    needs = writers(stages)
    first = {s.name: family(s) not in RUN_FIRST for s in stages}  # False sorts first
    rank = {s.name: (first[s.name], i) for i, s in enumerate(stages)}
    done: set[str] = set()
    out: list[Stage] = []
    left = list(stages)
    while left:
        ready = [s for s in left if needs[s.name] <= done]
        if not ready:  # a cycle among declared inputs: keep the plan's order for the rest
            ready = left[:1]
        nxt = min(ready, key=lambda s: rank[s.name])
        out.append(nxt)
        done.add(nxt.name)
        left.remove(nxt)
    return out


def writers(stages: list[Stage]) -> dict[str, set[str]]:
    """For each stage, the stages of this build that write one of its inputs."""
    writer = {out: s.name for s in stages for out in s.outputs}
    return {s.name: {writer[i] for i in s.inputs if i in writer and writer[i] != s.name} for s in stages}


def fingerprint(stage: Stage) -> tuple[Any, ...]:
    """The parts of ``stage`` its key covers besides code (outputs, inputs, settings, source
    files), as plain values: the second process checks the stage it planned under the name is
    this one, since another would write other bytes under this stage's key."""
    return (stage.outputs, stage.inputs, repr(sorted(stage.settings.items())),
            tuple(str(p) for p in stage.sources))


@dataclass
class Compiled:
    """numba compiling a side stage did in the second process (as :class:`CompileClock` has it)."""

    total: float = 0.0
    compiles: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)

    def add(self, other: Compiled) -> None:
        """Add another stage's compiling to these totals."""
        self.total += other.total
        for k, n in other.compiles.items():
            self.compiles[k] = self.compiles.get(k, 0) + n
        for k, t in other.seconds.items():
            self.seconds[k] = self.seconds.get(k, 0.0) + t


class SideProcess:
    """The second process: started on first use (``spawn``: a fresh interpreter, no copy of
    this one's threads), fed one stage at a time, stopped by :meth:`close` (or killed with this
    process: it is a daemon)."""

    def __init__(self, config: BuildConfig, config_dirs: list[Path]) -> None:
        self.config = config
        self.config_dirs = [str(d) for d in config_dirs]
        self._conn: Connection | None = None
        self._proc: Any = None

    def _start(self) -> Connection:
        if self._conn is None:
            ctx = get_context("spawn")
            ours, theirs = ctx.Pipe()
            self._proc = ctx.Process(target=serve, args=(theirs, self.config, self.config_dirs),
                                     name="pokertables-build-side", daemon=True)
            self._proc.start()
            theirs.close()
            self._conn = ours
        return self._conn

    def run(self, stage: Stage, staging: Path, progress: Callable[[str, float], None]) -> Compiled:
        """Compute ``stage`` into ``staging`` in the second process; return its compiling.
        The stage's own error is raised here as it was raised there."""
        conn = self._start()
        proc = self._proc
        try:
            conn.send(("run", stage.name, str(staging), fingerprint(stage)))
            while True:
                msg = conn.recv()
                if msg[0] == "progress":
                    progress(msg[1], msg[2])
                elif msg[0] == "done":
                    return Compiled(msg[1], msg[2], msg[3])
                else:  # ("error", the pickled exception)
                    raise pickle.loads(msg[1])
        except (EOFError, OSError):
            proc.join(_JOIN_S)
            raise BuildError(f"the build's second process ended (exit code {proc.exitcode}) while it "
                             f"computed stage {stage.name}; nothing of the stage was committed; "
                             "run the build again") from None

    def stop(self) -> None:
        """End the second process at once (whatever it computes is only staged); a :meth:`run`
        waiting on it then raises."""
        proc = self._proc
        if proc is not None and proc.is_alive():
            proc.terminate()
            proc.join()

    def close(self) -> None:
        """End the second process, idle or not: it holds nothing to flush (what it computed is
        committed or staged by the build process), and an interpreter's orderly teardown
        (numba, LLVM, the arrays) takes seconds the build would wait for."""
        conn, self._conn = self._conn, None
        proc, self._proc = self._proc, None
        if proc is not None:
            proc.terminate()
            proc.join()
        if conn is not None:
            conn.close()


def _error(exc: BaseException, stage: str) -> bytes:
    """``exc`` pickled for the build process: a :class:`PokertablesError` (the user's to fix) as
    it is, any other (a bug) as a RuntimeError holding its traceback from this process."""
    if isinstance(exc, PokertablesError):
        try:
            data = pickle.dumps(exc)
            pickle.loads(data)
            return data
        except Exception:  # noqa: BLE001 - not rebuildable there: sent as its text
            return pickle.dumps(BuildError(str(exc)))
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return pickle.dumps(RuntimeError(f"stage {stage} failed in the build's second process:\n{text}"))


def serve(conn: Connection, config: BuildConfig, config_dirs: list[str]) -> None:
    """The second process's loop: plan each stage it is sent, check it is the build process's
    stage, run it into the staging folder and report."""
    from pipeline.build.executor import LocalExecutor
    from pipeline.build.stages import Context, plan
    from pipeline.core.jit_clock import CompileClock
    from pipeline.registry import ENV_VAR, set_config_dirs

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C: the build process stops this one
    # the build process's user config folders, in its priority order
    os.environ[ENV_VAR] = os.pathsep.join(config_dirs)
    set_config_dirs([])
    executor = LocalExecutor()
    sending = threading.Lock()  # a stage may report progress from more than one thread

    def send(msg: tuple[Any, ...]) -> None:
        with sending:
            conn.send(msg)

    while True:
        try:
            _, name, staging, expected = conn.recv()
        except (EOFError, OSError):
            return  # the build is done, or gone
        try:
            stage = next(s for s in plan(config, [name]) if s.name == name)
            if fingerprint(stage) != expected:
                raise BuildError(f"stage {name} planned differently in the build's second process "
                                 "(a config or source file changed during the build); run the build again")
            ctx = Context(config.artifacts, config, lambda t, f: send(("progress", t, f)),
                          outputs=stage.outputs, staging=Path(staging), executor=executor)
            with CompileClock() as clock:
                stage.run(ctx)
            send(("done", clock.total, dict(clock.compiles), dict(clock.seconds)))
        except Exception as exc:  # noqa: BLE001 - every failure goes back to the build process
            send(("error", _error(exc, name)))
