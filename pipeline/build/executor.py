"""Where a stage's embarrassingly parallel work runs: in this process, or as Dask tasks.

A stage hands the executor *pure* task functions (module-level, picklable, arrays in and
arrays out) and writes the artifacts itself from the results, with the usual staging, atomic
moves and manifest; so workers never see the artifacts folder and a build is byte-identical
on any number of workers.

* :class:`LocalExecutor` (the default) calls the tasks in order, in this process; it never
  imports Dask.
* :class:`DaskExecutor` submits them to a ``distributed`` cluster: ``workers=N`` starts a
  local cluster of N single-threaded worker processes, ``scheduler="tcp://HOST:PORT"`` joins a
  running one. Large inputs shared by many tasks are scattered once (broadcast), not shipped
  with every task. Dask re-runs the tasks of a worker that dies (up to ``allowed_failures``);
  a cluster left with no worker at all for :data:`NO_WORKERS_S` is one :class:`BuildError`, not
  a build waiting forever.
"""

from __future__ import annotations

import functools
import hashlib
import os
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:  # annotations only (typing.Self needs 3.11)
    from typing_extensions import Self

from pipeline.errors import BuildError, InputError, clip

T = TypeVar("T")
EXECUTORS = ("local", "dask")


class Handle(Protocol):
    """A pending task result."""

    def result(self) -> Any:
        """Block until the task finished; return its value (re-raise its error)."""


class _Deferred:
    """A local task, run the first time its result is asked for (never, if it is not)."""

    def __init__(self, fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        self._call: tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]] | None = (fn, args, kwargs)
        self._value: Any = None

    def result(self) -> Any:
        if self._call is not None:
            fn, args, kwargs = self._call
            self._value = fn(*args, **kwargs)
            self._call = None
        return self._value


class Executor:
    """Interface of both executors: ``map``, ``submit``, ``prefetch``/``take`` and ``close``."""

    kind = "base"
    distributed = False

    def __init__(self) -> None:
        self._prefetched: dict[str, Handle] = {}

    def map(self, fn: Callable[..., T], items: Sequence[Any], **shared: Any) -> list[T]:
        """``[fn(item, **shared) for item in items]``, in item order."""
        handles = [self.submit(fn, item, **shared) for item in items]
        return [h.result() for h in handles]

    def submit(self, fn: Callable[..., Any], *args: Any, **shared: Any) -> Handle:
        """Start ``fn(*args, **shared)``; return a handle to its result."""
        raise NotImplementedError

    def prefetch(self, key: str, fn: Callable[..., Any], *args: Any, **shared: Any) -> None:
        """Start a task whose result a later stage may :meth:`take` under ``key`` (once)."""
        if key not in self._prefetched:
            self._prefetched[key] = self.submit(fn, *args, **shared)

    def take(self, key: str, fn: Callable[..., Any], *args: Any, **shared: Any) -> Any:
        """The prefetched result for ``key`` if there is one, else run the task now."""
        handle = self._prefetched.pop(key, None) or self.submit(fn, *args, **shared)
        return handle.result()

    def workers(self) -> int:
        """How many worker processes tasks may run in (1 for the local executor)."""
        return 1

    def close(self) -> None:
        """Drop unused prefetches and release the cluster (if this executor started one)."""
        self._prefetched.clear()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class LocalExecutor(Executor):
    """Runs every task in this process when its result is needed (today's behaviour)."""

    kind = "local"

    def submit(self, fn: Callable[..., Any], *args: Any, **shared: Any) -> Handle:
        return _Deferred(fn, args, shared)


#: most local Dask worker processes ``--workers`` may start (this machine kind has 2 cores)
MAX_WORKERS = 64
#: seconds to wait for a scheduler to have at least one worker
WORKER_WAIT_S = 20
#: seconds to try reaching a ``--scheduler`` address (refused or unroutable: fail fast)
CONNECT_TIMEOUT_S = 5
#: seconds a build waits on a cluster that has lost every worker before giving up (a restarted
#: worker, e.g. by its nanny, rejoins well inside this; a lone ``--no-nanny`` worker never does)
NO_WORKERS_S = 20
#: seconds between checks of the worker count while a task result is awaited
POLL_S = 1.0


#: libraries whose versions shape what a worker computes (numba compiles the kernels, numpy runs
#: the rest, pyarrow and h5py write the files): a worker with another version is other code
SHAPING_LIBRARIES = ("numpy", "numba", "llvmlite", "pyarrow", "h5py")


def runtime_versions() -> dict[str, str]:
    """The Python version and each of :data:`SHAPING_LIBRARIES`' versions in this process."""
    import platform
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": f"{platform.python_implementation()} {platform.python_version()}"}
    for lib in SHAPING_LIBRARIES:
        try:
            out[lib] = version(lib)
        except PackageNotFoundError:
            out[lib] = "absent"
    return out


def tree_digest(root: Path, versions: dict[str, str]) -> str:
    """sha256 of every file under ``root`` (path and bytes; ``__pycache__`` left out:
    :func:`pipeline.core.kernel_cache.digest_sources`) and of ``versions``."""
    from pipeline.core.kernel_cache import digest_sources

    h = hashlib.sha256(digest_sources(root, skip=(), suffix="").encode())
    for name, ver in sorted(versions.items()):
        h.update(f"{name} {ver}\0".encode())
    return h.hexdigest()


@functools.lru_cache(maxsize=1)
def code_digest() -> str:
    """What decides this process's results (:func:`tree_digest` of the ``pipeline`` package: its
    source and its data, the built-in paytables and rule sets and the shipped digests; with the
    Python and numeric libraries' versions). A worker running other code, other data or another
    numba would write other bytes, so the client and its workers must agree."""
    return tree_digest(Path(__file__).resolve().parents[1], runtime_versions())


class CodeMismatch(Exception):
    """Raised on a worker whose code digest is not the client's (maps to a BuildError)."""


def _checked_task(expected: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run a task only on a worker whose code is the client's (checked per task, so a worker
    that joins mid-build is held to it too; the digest is computed once per process)."""
    got = code_digest()
    if got != expected:
        raise CodeMismatch(f"a Dask worker runs other pokertables code (code digest {got[:12]}, "
                           f"this client {expected[:12]}); update the workers' installation")
    return fn(*args, **kwargs)


def _cluster_failure(exc: BaseException) -> BuildError:
    return BuildError(f"the Dask cluster failed ({type(exc).__name__}: {str(exc)[:200] or 'no detail'}); "
                      "nothing was written; check the scheduler and workers, or build with "
                      "--executor local")


class _DaskHandle:
    """A Dask future whose cluster failures (lost workers, a killed scheduler, code mismatch)
    become one :class:`BuildError`; a task's own error is raised as it is."""

    def __init__(self, future: Any) -> None:
        self._future = future

    def result(self) -> Any:
        from distributed.client import FutureCancelledError
        from distributed.comm import CommClosedError
        from distributed.scheduler import KilledWorker

        try:
            self._wait()
            return self._future.result()
        except CodeMismatch as exc:
            raise BuildError(str(exc)) from None
        except (KilledWorker, FutureCancelledError, CommClosedError, TimeoutError, OSError) as exc:
            raise _cluster_failure(exc) from None

    def _wait(self) -> None:
        """Return once the task is done (finished, failed or cancelled). A scheduler whose every
        worker is gone keeps the task waiting for a worker forever, so the worker count is
        checked every :data:`POLL_S` seconds: none for :data:`NO_WORKERS_S` is a BuildError."""
        from distributed import wait
        from distributed.client import FuturesCancelledError

        client = self._future.client
        empty_since: float | None = None
        while True:
            try:
                wait(self._future, timeout=POLL_S)
                return
            except FuturesCancelledError:
                return  # result() raises FutureCancelledError, a cluster failure
            except TimeoutError:
                pass
            if self._future.done() or client.status != "running":
                return  # result() reports it (a lost scheduler cancels the future)
            if client.nthreads():
                empty_since = None
                continue
            now = time.monotonic()
            if empty_since is None:
                empty_since = now
            elif now - empty_since >= NO_WORKERS_S:
                self._future.cancel()
                raise BuildError(f"the Dask cluster has had no workers for {NO_WORKERS_S} s while a "
                                 "task waited (every worker died or left); the unfinished stage "
                                 "or sweep wrote nothing; restart the workers and run again, or "
                                 "use --executor local")

    def cancel(self) -> None:
        self._future.cancel()


class DaskExecutor(Executor):
    """Runs tasks on a ``distributed`` cluster (a local one with ``workers``, or ``scheduler``)."""

    kind = "dask"
    distributed = True

    def __init__(self, scheduler: str | None = None, workers: int | None = None,
                 retries: int = 2) -> None:
        super().__init__()
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise BuildError("--executor dask needs the 'dask' and 'distributed' packages "
                             "(pip install 'dask[distributed]')") from None
        self.retries = retries
        self._cluster: Any = None
        if scheduler is not None:
            try:
                self.client = Client(scheduler, timeout=f"{CONNECT_TIMEOUT_S}s")
            except (OSError, TimeoutError) as exc:
                raise BuildError(f"cannot reach the Dask scheduler {clip(scheduler)}: {exc}") from None
            except (ValueError, TypeError) as exc:  # not an address at all
                raise InputError(f"--scheduler {clip(scheduler)} is not a scheduler address "
                                 f"such as tcp://HOST:8786 ({exc})") from None
            try:
                self.client.wait_for_workers(1, timeout=WORKER_WAIT_S)
            except (TimeoutError, OSError) as exc:
                self.client.close()
                raise BuildError(f"the Dask scheduler {clip(scheduler)} has no workers after "
                                 f"{WORKER_WAIT_S} s; start some (dask worker {clip(scheduler)})") from exc
        else:
            n = workers or 2
            # one numba thread per worker: N workers on N cores, not N x cores threads
            threads = max(1, (os.cpu_count() or 1) // n)
            self._cluster = LocalCluster(n_workers=n, processes=True, threads_per_worker=1,
                                         dashboard_address=None,
                                         env={"NUMBA_NUM_THREADS": str(threads)})
            self.client = Client(self._cluster)
        self._scattered: dict[int, Any] = {}
        self._digest = code_digest()
        self._check_workers()

    def _check_workers(self) -> None:
        """BuildError naming the first worker whose code digest is not this client's."""
        try:
            digests = self.client.run(code_digest)
        except (OSError, TimeoutError) as exc:
            raise _cluster_failure(exc) from None
        for addr, got in sorted(digests.items()):
            if got != self._digest:
                raise BuildError(f"Dask worker {addr} runs other pokertables code (code digest "
                                 f"{str(got)[:12]}, this client {self._digest[:12]}); update its "
                                 "installation: its results would differ from a local build")

    def _share(self, value: Any) -> Any:
        """Scatter a large array once to every worker; tasks then get a reference to it."""
        import numpy as np

        if not isinstance(value, np.ndarray) or value.nbytes < (1 << 20):
            return value
        key = id(value)
        if key not in self._scattered:
            # an explicit timeout: the client's own default is the short connect timeout
            self._scattered[key] = (value, self.client.scatter(value, broadcast=True, hash=True,
                                                               timeout=WORKER_WAIT_S))
        return self._scattered[key][1]

    def submit(self, fn: Callable[..., Any], *args: Any, **shared: Any) -> Handle:
        kwargs = {k: self._share(v) for k, v in shared.items()}
        # pure=False: every submission is its own task (results are still deterministic)
        # named after the task, not the digest check that wraps it (dashboards, task streams)
        key = f"{getattr(fn, '__name__', 'task')}-{uuid.uuid4().hex}"
        return _DaskHandle(self.client.submit(_checked_task, self._digest, fn, *args, key=key,
                                              retries=self.retries, pure=False, **kwargs))

    def workers(self) -> int:
        return len(self.client.scheduler_info().get("workers", {}))

    def close(self) -> None:
        for h in self._prefetched.values():
            h.cancel()  # type: ignore[attr-defined]
        super().close()
        self._scattered.clear()
        self.client.close()
        if self._cluster is not None:
            self._cluster.close()


def make_executor(kind: str = "local", scheduler: str | None = None,
                  workers: int | None = None) -> Executor:
    """The executor named on the command line (``InputError`` for a bad combination)."""
    if kind not in EXECUTORS:
        raise InputError(f"unknown executor {kind!r} (executors: {', '.join(EXECUTORS)})")
    if kind == "local":
        if scheduler or workers:
            raise InputError("--scheduler and --workers need --executor dask")
        return LocalExecutor()
    if scheduler and workers:
        raise InputError("give either --scheduler (join a running cluster) or --workers "
                         "(start a local one), not both")
    if scheduler is not None and not scheduler.strip():
        raise InputError("--scheduler is empty; give an address such as tcp://HOST:8786 "
                         "(or --workers N for a local cluster)")
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise InputError(f"--workers must be 1 .. {MAX_WORKERS}, got {clip(str(workers))}")
    return DaskExecutor(scheduler=scheduler, workers=workers)
