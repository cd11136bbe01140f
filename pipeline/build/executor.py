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
  with every task. Dask re-runs the tasks of a worker that dies (up to ``allowed_failures``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:  # annotations only (typing.Self needs 3.11)
    from typing_extensions import Self

from pipeline.errors import BuildError, InputError

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
        if scheduler:
            try:
                self.client = Client(scheduler, timeout="20s")
            except (OSError, TimeoutError) as exc:
                raise BuildError(f"cannot reach the Dask scheduler {scheduler}: {exc}") from None
        else:
            n = workers or 2
            # one numba thread per worker: N workers on N cores, not N x cores threads
            threads = max(1, (os.cpu_count() or 1) // n)
            self._cluster = LocalCluster(n_workers=n, processes=True, threads_per_worker=1,
                                         dashboard_address=None,
                                         env={"NUMBA_NUM_THREADS": str(threads)})
            self.client = Client(self._cluster)
        self._scattered: dict[int, Any] = {}

    def _share(self, value: Any) -> Any:
        """Scatter a large array once to every worker; tasks then get a reference to it."""
        import numpy as np

        if not isinstance(value, np.ndarray) or value.nbytes < (1 << 20):
            return value
        key = id(value)
        if key not in self._scattered:
            self._scattered[key] = (value, self.client.scatter(value, broadcast=True, hash=True))
        return self._scattered[key][1]

    def submit(self, fn: Callable[..., Any], *args: Any, **shared: Any) -> Handle:
        kwargs = {k: self._share(v) for k, v in shared.items()}
        # pure=False: every submission is its own task (results are still deterministic)
        return self.client.submit(fn, *args, retries=self.retries, pure=False, **kwargs)

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
    if workers is not None and workers < 1:
        raise InputError(f"--workers must be at least 1, got {workers}")
    return DaskExecutor(scheduler=scheduler, workers=workers)
