"""The server's safety defaults, in one place: which Host headers are local, how big and how slow
a request body may be, how long one answer may compute and how many heavy answers run at once.

* :class:`Limits`: every cap as a named number (the tests shrink the time caps).
* :class:`LocalOnly`: an ASGI middleware that refuses a Host header naming anything but this
  machine (421; a web page on another site reaching ``127.0.0.1`` through DNS rebinding sends its
  own host name) and an Origin header of another site (403: a page elsewhere posting to
  ``127.0.0.1``; the API also takes only ``application/json`` bodies, which a browser will not
  send across sites without a CORS preflight this server never grants), and reads a POST body
  whole before the app sees it, refusing one larger than the cap (413) or slower than the body
  deadline (408), so a slow or huge upload never ties up a worker thread.
* :class:`HeavyLane`: a bounded number of heavy answers (Monte Carlo, exact enumeration, solves) at
  once; the rest wait up to a short time in a bounded queue, then get 503.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import functools
import json
import queue
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from typing import Any, ParamSpec, TypeVar
from urllib.parse import urlsplit

from pipeline.core.cancel import Stopped, WorkToken, running
from pipeline.errors import InputError

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
T = TypeVar("T")
P = ParamSpec("P")

#: host names that always mean this machine
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})

#: HTTP status codes the safety layer answers with
BAD_REQUEST = 400
FORBIDDEN = 403
REQUEST_TIMEOUT = 408
TOO_LARGE = 413
MISDIRECTED = 421
BUSY = 503

#: bytes in a mebibyte
MIB = 1 << 20
#: a body declared or sent over the cap is read and dropped up to this size before the 413, so an
#: ordinary client (which sends its whole body before reading) gets the answer rather than a reset
#: connection; anything larger is answered at once
DRAIN_BYTES = 32 * MIB
#: longest text field (characters): a range naming every class is under 1,000
MAX_TEXT = 4_000
#: longest list field (pay edits, paytables compared, bets); seats are capped by the player limit
MAX_LIST = 100
#: most questions in one batch, and most lines in one showdown request
MAX_BATCH = 1_000
MAX_LINES = 100_000


@dataclass(frozen=True)
class Limits:
    """Every cap the server enforces (defaults are the documented security defaults)."""

    #: largest request body (bytes); a batch of 1,000 questions fits easily
    max_body: int = 1 * MIB
    #: seconds a client may take to send its whole body (slow partial bodies)
    body_seconds: float = 10.0
    #: seconds a connection may take to send a complete request head (from opening, or from its
    #: previous answer); then it is closed (:mod:`pipeline.serve.connections`)
    header_seconds: float = 10.0
    #: seconds an idle keep-alive connection stays open after an answer
    keep_alive_seconds: float = 5.0
    #: open connections at once, and from one address; a newcomer over either cap replaces the
    #: cap's longest-idle connection, or gets 503 when all of them are answering
    max_connections: int = 256
    client_connections: int = 128
    #: seconds Ctrl-C waits for answers in flight (their work is cancelled) before the process ends
    stop_seconds: float = 2.0
    #: most Monte Carlo deals one question may ask
    max_samples: int = 20_000_000
    #: seconds one answer may compute before the client gets 503 (Monte Carlo stops there)
    answer_seconds: float = 30.0
    #: seconds a job (an edited paytable's solve) may run
    job_seconds: float = 300.0
    #: heavy answers computing at once (the machine has 2 cores)
    heavy_slots: int = 2
    #: heavy answers allowed to wait for a slot; more get 503 at once
    heavy_queue: int = 64
    #: seconds a heavy answer waits for a slot before 503
    queue_seconds: float = 15.0
    #: jobs kept in memory (finished ones are dropped oldest first) and running or waiting at once
    max_jobs: int = 64
    pending_jobs: int = 4


def host_name(header: str) -> str:
    """The host part of a Host header (``[::1]:8765`` -> ``::1``, ``a.b:80`` -> ``a.b``)."""
    h = header.strip().lower()
    if h.startswith("["):
        return h[1:h.index("]")] if "]" in h else h
    if h.count(":") == 1:
        return h.split(":", 1)[0]
    return h


def allowed_hosts(bind: str) -> frozenset[str]:
    """The Host names accepted by a server bound to ``bind``: this machine's names, and the bound
    address itself when the user chose another one on purpose."""
    extra = {host_name(bind)} if bind not in ("0.0.0.0", "::", "") else set()
    return LOCAL_HOSTS | extra


async def send_json_error(send: Send, status: int, message: str) -> None:
    """Answer a request outside the app: ``status`` with ``{"error": message}``, connection closed."""
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


class LocalOnly:
    """ASGI middleware: local Host headers only; POST bodies read whole under the size and time caps."""

    def __init__(self, app: ASGIApp, limits: Limits, hosts: frozenset[str]) -> None:
        self.app = app
        self.limits = limits
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check one request, then hand it (with its body replayed) to the app."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host")
        if host is None or host_name(host) not in self.hosts:
            shown = (host or "(none)")[:100]
            await send_json_error(send, MISDIRECTED, f"host {shown!r} is not this machine: the server "
                                                 "answers only requests addressed to localhost")
            return
        origin = headers.get("origin")
        if origin is not None and host_name(urlsplit(origin).netloc) not in self.hosts:
            # a page of another site, or "null" (a sandboxed frame, a file): not this server's page
            await send_json_error(send, FORBIDDEN, f"origin {origin[:100]!r} is not this machine: the "
                                               "server answers only its own page and local clients")
            return
        declared = headers.get("content-length")
        if declared is not None and not (declared.strip().isascii() and declared.strip().isdigit()):
            await send_json_error(send, BAD_REQUEST, f"bad Content-Length {declared[:40]!r}")
            return
        if scope["method"] not in ("POST", "PUT", "PATCH") and not declared:
            await self.app(scope, receive, send)
            return
        too_large = f"request body over the {self.limits.max_body:,}-byte limit"
        if declared is not None and int(declared) > DRAIN_BYTES:
            await send_json_error(send, TOO_LARGE, f"request body of {int(declared):,} bytes: {too_large}")
            return
        chunks: list[bytes] = []
        size = 0
        deadline = time.monotonic() + self.limits.body_seconds
        while True:
            left = deadline - time.monotonic()
            try:
                message = await asyncio.wait_for(receive(), timeout=max(left, 0.0))
            except asyncio.TimeoutError:
                await send_json_error(send, REQUEST_TIMEOUT, f"request body not complete after "
                                                         f"{self.limits.body_seconds:g} s")
                return
            if message["type"] == "http.disconnect":
                return
            part = message.get("body", b"")
            size += len(part)
            more = message.get("more_body", False)
            if size > self.limits.max_body:
                chunks.clear()  # dropped: only counted from here on
                if size > DRAIN_BYTES or not more:
                    await send_json_error(send, TOO_LARGE, too_large)
                    return
                continue
            chunks.append(part)
            if not more:
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class DaemonPool(Executor):
    """A fixed set of daemon worker threads. Unlike a ``ThreadPoolExecutor``, whose threads the
    interpreter joins at exit for as long as their work runs, these never hold up the end of the
    process: work cancelled at Ctrl-C stops at its next checkpoint, and a kernel still between two
    checkpoints does not keep a stopped server alive."""

    def __init__(self, workers: int, name: str) -> None:
        self._queue: queue.SimpleQueue[tuple[Future[Any], Callable[[], Any]] | None] = queue.SimpleQueue()
        self._closed = False
        self.threads = [threading.Thread(target=self._work, name=f"{name}_{i}", daemon=True)
                        for i in range(workers)]
        for t in self.threads:
            t.start()

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """Queue ``fn(*args, **kwargs)``; its future."""
        if self._closed:
            raise RuntimeError("cannot schedule new work after shutdown")
        fut: Future[T] = Future()
        self._queue.put((fut, functools.partial(fn, *args, **kwargs)))
        return fut

    def _work(self) -> None:
        while (item := self._queue.get()) is not None:
            fut, call = item
            if not fut.set_running_or_notify_cancel():
                continue
            try:
                fut.set_result(call())
            except BaseException as exc:  # noqa: BLE001  (handed to whoever waits on the future)
                fut.set_exception(exc)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Take no more work; ``cancel_futures``: drop the queued work; ``wait``: join the threads."""
        self._closed = True
        if cancel_futures:
            while True:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is not None:
                    item[0].cancel()
        for _ in self.threads:
            self._queue.put(None)
        if wait:
            for t in self.threads:
                t.join()


class Busy(Exception):
    """The heavy lane is full: the client gets 503 with this message."""


class TimeCap(Stopped):
    """An answer ran past its time cap: the client gets 503 with this message (as for any
    :class:`~pipeline.core.cancel.Stopped` work)."""


#: what work still running when the server stops is told
STOPPING = "the server is stopping"


class HeavyLane:
    """At most ``slots`` heavy answers computing at once, each in a worker thread; up to ``queue``
    more wait (in the event loop, holding no thread) ``wait`` seconds each, the rest get
    :class:`Busy`. Each answer runs under a :class:`~pipeline.core.cancel.WorkToken` whose
    deadline is its cap: the solvers' checkpoints stop it there, and once its client has been
    answered (503 at the cap, or gone) the token is cancelled, so no work keeps a slot after its
    answer. Its slot stays taken until the work really ends, so a flood of slow questions cannot
    pile up threads or memory."""

    def __init__(self, slots: int, queue: int, wait: float) -> None:
        self.slots = slots
        self.queue = queue
        self.wait = wait
        self.waiting = 0
        self._sem: asyncio.Semaphore | None = None
        self._pool = DaemonPool(slots, "heavy")
        #: the tokens of the work running now (cancelled when the server stops)
        self.live: set[WorkToken] = set()
        self.closed = False

    async def run(self, fn: Callable[[], T], cap: float) -> T:
        """``fn()`` in a heavy slot, or :class:`Busy` / :class:`TimeCap`."""
        if self._sem is None:  # made in the server's event loop
            self._sem = asyncio.Semaphore(self.slots)
        sem = self._sem
        if self.waiting >= self.queue:
            raise Busy(f"busy: {self.waiting} heavy requests are already waiting; retry later")
        self.waiting += 1
        try:
            await asyncio.wait_for(sem.acquire(), timeout=self.wait)
        except asyncio.TimeoutError:
            raise Busy(f"busy: no heavy-request slot free within {self.wait:g} s; retry later") from None
        finally:
            self.waiting -= 1
        loop = asyncio.get_running_loop()
        token = WorkToken(cap)
        if self.closed:
            token.cancel(STOPPING)
        self.live.add(token)

        def work() -> T:
            try:
                with running(token):
                    token.check()  # cancelled while it waited for the thread
                    return fn()
            finally:
                self.live.discard(token)
                give_back_memory()
                loop.call_soon_threadsafe(sem.release)

        fut = loop.run_in_executor(self._pool, work)
        try:
            return await asyncio.wait_for(asyncio.shield(fut), timeout=cap)
        except asyncio.TimeoutError:
            token.cancel(f"time cap: no answer after {cap:g} s")
            fut.add_done_callback(_forget)  # its Stopped is expected: not "never retrieved"
            raise TimeCap(f"time cap: no answer after {cap:g} s; ask a smaller question") from None
        finally:
            if not fut.done():  # the client is answered (or gone): the work stops at its next check
                token.cancel(STOPPING if self.closed else "the client was answered")
                fut.add_done_callback(_forget)

    def threads(self) -> list[threading.Thread]:
        """The lane's worker threads (to wait for when the server stops)."""
        return list(self._pool.threads)

    def close(self) -> None:
        """Cancel the running work (it stops at its next checkpoint) and drop the waiting."""
        self.closed = True
        for token in list(self.live):
            token.cancel(STOPPING)
        self._pool.shutdown(wait=False, cancel_futures=True)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None on a C library without it."""
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


def give_back_memory() -> None:
    """Return freed heap memory to the system after heavy work: glibc raises its mmap threshold
    after a large array is freed, so the next answers' arrays (tens of MB for a wide Omaha
    range) come from heaps it keeps; a long-lived server would stay at its peak for ever."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


def _forget(fut: asyncio.Future[Any]) -> None:
    """Retrieve the outcome of work whose client was already answered."""
    if not fut.cancelled():
        fut.exception()


def check_samples(samples: int | None, limits: Limits) -> None:
    """Refuse a Monte Carlo sample count over the server's cap (the CLI has none)."""
    if samples is not None and samples > limits.max_samples:
        raise InputError(f"samples {samples:,} is over the server's limit of {limits.max_samples:,}")
