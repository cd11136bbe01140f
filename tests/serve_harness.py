"""A real uvicorn server on 127.0.0.1 (a free port) in a thread of the test process, and the small
HTTP client the serve tests use (the standard library's, so what goes on the wire is exactly what
the test wrote)."""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: seconds to wait for the server to answer its first request
START_SECONDS = 120.0
#: seconds one test request may take
REQUEST_SECONDS = 60.0


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Reply:
    """One HTTP answer: status, parsed JSON body (None when not JSON) and raw bytes."""

    status: int
    body: Any
    raw: bytes


@dataclass
class Client:
    """Requests to one server."""

    port: int
    host: str = "127.0.0.1"

    def request(self, method: str, path: str, body: Any = None, raw: bytes | None = None,
                headers: dict[str, str] | None = None) -> Reply:
        """Send one request (``body`` as JSON, or ``raw`` bytes as they are)."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=REQUEST_SECONDS)
        try:
            data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
            hdrs = {"Content-Type": "application/json", **(headers or {})}
            conn.request(method, path, body=data, headers=hdrs)
            r = conn.getresponse()
            payload = r.read()
        finally:
            conn.close()
        try:
            parsed = json.loads(payload) if payload else None
        except ValueError:
            parsed = None
        return Reply(r.status, parsed, payload)

    def post(self, path: str, body: Any) -> Reply:
        """POST a JSON body."""
        return self.request("POST", path, body)

    def get(self, path: str) -> Reply:
        """GET a path."""
        return self.request("GET", path)


@contextmanager
def running_server(artifacts: Path, limits: Any = None, warm_up: bool = True) -> Iterator[Client]:
    """``create_app`` served by uvicorn on a free loopback port for the ``with`` block."""
    from pipeline.serve.app import create_app
    from pipeline.serve.connections import make_server
    from pipeline.serve.security import Limits

    app = create_app(artifacts, limits, warm_up=warm_up)
    port = free_port()
    server = make_server(app, "127.0.0.1", port, limits or Limits())
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    client = Client(port)
    end = time.monotonic() + START_SECONDS
    while True:
        try:
            if client.get("/api/health").status == 200:
                break
        except OSError:
            pass
        if time.monotonic() > end or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield client
    finally:
        server.should_exit = True
        thread.join(timeout=30)
