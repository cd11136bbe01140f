"""Connection-level limits of ``pokertables serve``, below the ASGI application: what no client
can exhaust by opening sockets and sending little or nothing.

uvicorn alone keeps a connection that sent a partial request (or nothing) open for ever, and its
``limit_concurrency`` answers every later request with a plain-text 503 once that many sockets
are open: 256 idle sockets locked everyone out. :func:`server_config` serves the app with
:func:`guarded_protocol` instead:

* **Header timeout**: a connection must send a complete request head within
  ``Limits.header_seconds`` of opening (or of its previous answer); otherwise it is closed (with
  a JSON 408 if it had sent part of one). Trickling bytes does not extend the time.
* **Connection caps**: at most ``Limits.max_connections`` open connections, at most
  ``Limits.client_connections`` from one address. A connection over a cap closes the cap's
  longest-idle connection (one with no request in flight, idle for at least half a second); only
  when every connection in the cap is answering a request (or was just opened) is the newcomer
  refused, with a JSON 503. So idle sockets can never lock out a real request: each new request
  takes an idle socket's place.
* **Every refusal is JSON** (``{"error": ...}``): uvicorn's plain-text 400 for a malformed
  request head is replaced too.

:class:`StoppingServer` stops promptly: at Ctrl-C the work in flight is cancelled first (each
answer's work token, :mod:`pipeline.core.cancel`), so its clients get their 503 at once, and
:func:`leave` ends the process even if a kernel is still between two checkpoints.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from pipeline.serve.security import BAD_REQUEST, BUSY, REQUEST_TIMEOUT, Limits

if TYPE_CHECKING:
    from fastapi import FastAPI

#: seconds a refused connection stays open (its input dropped) after its answer was sent, so
#: the client reads the answer instead of a reset caused by the request it was still sending
LINGER_SECONDS = 1.0
#: seconds a connection must have been idle to be replaced by a newcomer: one just opened is
#: given the time to send its request (the newcomer is refused instead)
REPLACE_AFTER = 0.5
#: reason phrases of the statuses this layer answers with itself
REASONS = {BAD_REQUEST: "Bad Request", REQUEST_TIMEOUT: "Request Timeout", BUSY: "Service Unavailable"}


def raw_json_error(status: int, message: str) -> bytes:
    """A whole HTTP/1.1 response (the project's ``{"error": ...}`` shape, connection closed),
    written straight to a socket outside any request."""
    body = json.dumps({"error": message}).encode()
    head = (f"HTTP/1.1 {status} {REASONS.get(status, 'Error')}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n").encode()
    return head + body


class GuardedProtocol(H11Protocol):
    """uvicorn's h11 protocol with a header timeout, connection caps and JSON refusals (the
    module docstring); :func:`guarded_protocol` binds it to a server's :class:`Limits`."""

    limits: ClassVar[Limits] = Limits()
    #: the timer closing a connection that has not sent a complete request head in time
    _header_timer: asyncio.TimerHandle | None = None
    #: when the connection last became idle (the longest-idle one is replaced first)
    idle_since = 0.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Count the connection, arm its header timer, and apply the caps."""
        super().connection_made(transport)
        self._refused = False
        self._partial = False
        self.idle_since = self.loop.time()
        self._arm_header_timer()
        self._apply_caps()

    def connection_lost(self, exc: Exception | None) -> None:
        """Forget the connection's timer, then uvicorn's own bookkeeping."""
        self._cancel_header_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        """Parse as uvicorn does; a complete request head stops the header timer."""
        if self._refused:
            return  # the rest of a refused request: dropped
        super().data_received(data)
        if self.answering():
            self._cancel_header_timer()
        elif data:
            self._partial = True  # part of a request head: the timer keeps its first deadline

    def on_response_complete(self) -> None:
        """The connection is idle again: a new header deadline starts now."""
        super().on_response_complete()
        if not self.transport.is_closing() and not self.answering():
            self.idle_since = self.loop.time()
            self._partial = False
            self._arm_header_timer()

    def send_400_response(self, msg: str) -> None:
        """A malformed request head: the JSON error shape instead of uvicorn's plain text."""
        self._refuse(BAD_REQUEST, f"malformed HTTP request: {msg.rstrip('.').lower()}")

    # ------------------------------------------------------------------ state
    def answering(self) -> bool:
        """Whether a request is in flight on this connection (its head has arrived and its
        answer is not complete)."""
        return self.cycle is not None and not self.cycle.response_complete

    def client_host(self) -> str:
        """The peer's address (the unit of the per-client cap)."""
        return self.client[0] if self.client else ""

    # ------------------------------------------------------------------ timers and refusals
    def _arm_header_timer(self) -> None:
        self._cancel_header_timer()
        self._header_timer = self.loop.call_later(self.limits.header_seconds, self._header_timeout)

    def _cancel_header_timer(self) -> None:
        timer = self._header_timer
        if timer is not None:
            timer.cancel()
            self._header_timer = None

    def _header_timeout(self) -> None:
        self._header_timer = None
        if self.answering() or self.transport.is_closing():
            return
        if self._partial:
            self._refuse(REQUEST_TIMEOUT, f"request head not complete after "
                                          f"{self.limits.header_seconds:g} s")
        else:
            self.close_idle()

    def _refuse(self, status: int, message: str) -> None:
        if self.transport.is_closing() or self._refused:
            return
        self._refused = True
        self._cancel_header_timer()
        self.transport.write(raw_json_error(status, message))
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self.loop.call_later(LINGER_SECONDS, self.close_idle)

    def counted(self) -> bool:
        """Whether this connection takes a place under the caps: open and not refused (a
        refused one only lingers so that its client reads the answer; counting it would let a
        flood of refused sockets keep every newcomer out)."""
        return not self.transport.is_closing() and not self._refused

    def close_idle(self) -> None:
        """Close the connection (it has no request in flight)."""
        self._cancel_header_timer()
        if not self.transport.is_closing():
            self.transport.close()

    def _apply_caps(self) -> None:
        """Over a cap: close the cap's longest-idle other connection, or refuse this one."""
        lim = self.limits
        for cap, what in ((lim.client_connections, "from this address"), (lim.max_connections, "in all")):
            pool = [c for c in self.connections if isinstance(c, GuardedProtocol) and c.counted()
                    and (what == "in all" or c.client_host() == self.client_host())]
            if len(pool) <= cap:
                continue
            now = self.loop.time()
            idle = [c for c in pool if c is not self and not c.answering()
                    and now - c.idle_since >= REPLACE_AFTER]
            if idle:
                min(idle, key=lambda c: c.idle_since).close_idle()
                continue
            self._refuse(BUSY, f"busy: {len(pool) - 1} connections {what} are all answering "
                               "requests or just opened; retry later")
            return


def guarded_protocol(limits: Limits) -> type[GuardedProtocol]:
    """:class:`GuardedProtocol` bound to one server's limits."""
    return type("Guarded", (GuardedProtocol,), {"limits": limits})


def server_config(app: FastAPI, host: str, port: int, limits: Limits) -> uvicorn.Config:
    """The uvicorn configuration of ``pokertables serve`` (and of the tests' server): the guarded
    protocol, keep-alive and graceful-shutdown times from ``limits``, no access log."""
    return uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                          lifespan="on", http=guarded_protocol(limits),
                          timeout_keep_alive=max(1, round(limits.keep_alive_seconds)),
                          timeout_graceful_shutdown=max(1, round(limits.stop_seconds)))


class StoppingServer(uvicorn.Server):
    """uvicorn's server that runs ``on_stop`` (cancel the work in flight) as soon as it is asked
    to stop, before it waits for the connections to finish."""

    def __init__(self, config: uvicorn.Config, on_stop: Callable[[], None]) -> None:
        super().__init__(config)
        self.on_stop = on_stop

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """Cancel the work in flight, then uvicorn's graceful shutdown."""
        self.on_stop()
        await super().shutdown(sockets)


def make_server(app: FastAPI, host: str, port: int, limits: Limits) -> StoppingServer:
    """The server of ``pokertables serve`` over an app of :func:`pipeline.serve.app.create_app`
    (its heavy lane and jobs are cancelled when it stops)."""
    def on_stop() -> None:
        app.state.lane.close()
        app.state.jobs.close()
    return StoppingServer(server_config(app, host, port, limits), on_stop)


def leave(app: FastAPI, grace: float) -> None:
    """After the server stopped: wait up to ``grace`` s for the heavy and job threads of ``app``
    (their work was cancelled and stops at its next checkpoint). They are daemon threads: one
    still in a kernel after that does not keep the process from ending."""
    end = time.monotonic() + grace
    for t in [*app.state.lane.threads(), *app.state.jobs.threads()]:
        t.join(max(0.0, end - time.monotonic()))


__all__ = ["GuardedProtocol", "StoppingServer", "guarded_protocol", "leave", "make_server",
           "raw_json_error", "server_config"]
