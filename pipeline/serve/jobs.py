"""Long work in the background (an edited paytable's exact solve, a long Monte Carlo): ``POST
/api/jobs`` starts one and returns its id, ``GET /api/jobs/{id}`` reports its state, progress and,
once done, its answer. Jobs live in memory only (nothing is written anywhere); a bounded number
wait or run at once and the oldest finished ones are forgotten first."""

from __future__ import annotations

import itertools
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pipeline.core.cancel import Stopped, WorkToken, running
from pipeline.errors import InputError, PokertablesError
from pipeline.serve.security import STOPPING, Busy, DaemonPool, Limits, give_back_memory

if TYPE_CHECKING:
    from pipeline.serve.models import Body

#: a job's work: (kind, validated body, progress callback) -> the answer (JSON-ready)
Work = Callable[[str, "Body", Callable[[float, str], None]], object]
#: one job at a time: a solve already uses both cores
JOB_WORKERS = 1
#: bytes of randomness in a job id (ids are not guessable by another page's script)
ID_BYTES = 8


@dataclass
class Job:
    """One job's state as ``GET /api/jobs/{id}`` reports it."""

    kind: str
    state: str = "waiting"
    progress: float = 0.0
    text: str = "waiting for a free worker"
    result: object = None  # the answer, JSON-ready: passed through as it is
    error: str | None = None
    started: float = field(default_factory=time.monotonic)
    #: when it ended (done or error): its ``seconds`` stop there
    ended: float | None = None
    #: its deadline and cancel flag (every kind's solver checks it, and reports progress to it)
    token: WorkToken | None = None

    def as_json(self) -> dict[str, Any]:
        """The job's JSON: state (waiting/running/done/error), progress 0..1, text, result, error,
        and seconds since it started (frozen once it ended)."""
        # the state first: :meth:`finish` stops the time before it sets the final state, so a
        # final state always comes with its frozen time (never a clock read a moment earlier)
        state = self.state
        end = self.ended if self.ended is not None else time.monotonic()
        return {"kind": self.kind, "state": state, "progress": self.progress, "text": self.text,
                "result": self.result, "error": self.error, "seconds": round(end - self.started, 3)}

    def finish(self, state: str, text: str) -> None:
        """End the job in ``state`` (done or error): its time stops, then its state says so."""
        self.ended = time.monotonic()
        self.state, self.text = state, text


class Jobs:
    """The jobs of one server."""

    def __init__(self, limits: Limits, work: Work) -> None:
        self.limits = limits
        self.work = work
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._pool = DaemonPool(JOB_WORKERS, "job")
        self._count = itertools.count(1)

    def start(self, kind: str, body: Body) -> str:
        """Queue a job; its id. :class:`Busy` when too many are waiting or running."""
        with self._lock:
            active = sum(j.state in ("waiting", "running") for j in self._jobs.values())
            if active >= self.limits.pending_jobs:
                raise Busy(f"busy: {active} jobs are waiting or running; retry later")
            job_id = f"{next(self._count)}-{secrets.token_hex(ID_BYTES)}"
            self._jobs[job_id] = job = Job(kind)
            while len(self._jobs) > self.limits.max_jobs:
                oldest = next((k for k, j in self._jobs.items() if j.state in ("done", "error")), None)
                if oldest is None:
                    break
                del self._jobs[oldest]
        self._pool.submit(self._run, job, body)
        return job_id

    def _run(self, job: Job, body: Body) -> None:
        def progress(fraction: float, text: str) -> None:
            job.progress, job.text = max(job.progress, min(max(fraction, 0.0), 1.0)), text or job.text

        token = WorkToken(self.limits.job_seconds, progress)
        if job.token is not None and job.token.reason is not None:  # cancelled while waiting
            token.cancel(job.token.reason)
        job.token = token
        job.state, job.text, job.started = "running", "running", time.monotonic()
        try:
            with running(token):
                token.check()
                job.result = self.work(job.kind, body, token.report)
            job.progress = 1.0
            job.finish("done", "done")
        except (PokertablesError, Stopped) as exc:
            job.error = str(exc)
            job.finish("error", "stopped")
        except Exception as exc:  # noqa: BLE001  (reported to the client, never a traceback)
            job.error = f"internal error: {type(exc).__name__}"
            job.finish("error", "stopped")
        finally:
            if job.ended is None:  # not ended above: stop its clock all the same
                job.ended = time.monotonic()
            give_back_memory()

    def status(self, job_id: str) -> dict[str, Any]:
        """The job's JSON, or :class:`InputError` for an unknown id."""
        with self._lock:
            job = self._jobs.get(job_id)
        if job is None:
            raise InputError(f"no job {job_id[:40]!r} (jobs are kept in memory until the server stops)")
        return job.as_json()

    def threads(self) -> list[threading.Thread]:
        """The job worker threads (to wait for when the server stops)."""
        return list(self._pool.threads)

    def close(self) -> None:
        """Stop taking jobs: waiting ones are dropped, the running one is cancelled (it stops at
        its next checkpoint)."""
        with self._lock:
            for job in self._jobs.values():
                if job.state in ("waiting", "running"):
                    if job.token is None:
                        job.token = WorkToken()
                    job.token.cancel(STOPPING)
        self._pool.shutdown(wait=False, cancel_futures=True)
