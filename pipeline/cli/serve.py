"""``pokertables serve``: the JSON API and the page on one local port (:mod:`pipeline.serve`).

The artifacts are opened and the query kernels warmed before the port opens; a port in use or
missing artifacts is one ``error:`` line and exit 2; Ctrl-C stops the server cleanly (exit 0).
"""

from __future__ import annotations

import sys

import typer

from pipeline.cli.common import app, artifacts_dir, whole

#: the defaults: this machine only, a port no other common tool uses
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
#: the highest TCP port
MAX_PORT = 65535
#: seconds a browser opened with --open waits for the server to be ready (it is, once the port is bound)
OPEN_DELAY = 0.5


def _check_port(host: str, port: int) -> None:
    """InputError now (before minutes of warming) when ``host:port`` cannot be bound."""
    import errno
    import socket  # here, not at the top: every other command's start would pay for it

    from pipeline.errors import InputError

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise InputError(f"--host {host!r}: not an address of this machine ({exc.strerror})") from None
    family, kind, proto, _, addr = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(addr)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise InputError(f"port {port} on {host} is in use; stop what uses it or pick "
                                 "another with --port") from None
            raise InputError(f"cannot listen on {host}:{port}: {exc.strerror}") from None


@app.command("serve")
def serve_cmd(
    host: str = typer.Option(DEFAULT_HOST, "--host", help="address to listen on (default: this "
                             "machine only; another address exposes the server to the network)"),
    port: int = typer.Option(DEFAULT_PORT, "--port", parser=whole, help="TCP port"),
    open_page: bool = typer.Option(False, "--open", help="open the page in a browser once listening"),
) -> None:
    """Serve the JSON API (every command's --json answer) and the page on http://HOST:PORT/.

    One process: the tables are opened and the kernels warmed once, so each answer costs only
    its own work. The API is described at /docs; docs/serve.md has curl examples.
    """
    from pipeline.errors import InputError
    from pipeline.serve.app import check_artifacts, create_app
    from pipeline.serve.connections import leave, make_server
    from pipeline.serve.security import Limits

    if not 1 <= port <= MAX_PORT:
        raise InputError(f"--port {port}: give 1 to {MAX_PORT}")
    _check_port(host, port)
    check_artifacts(artifacts_dir())
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(f"warning: listening on {host}: other machines can reach this server "
              "(requests must still name this host)", file=sys.stderr)
    print("serve: opening the artifacts and warming the kernels ...", file=sys.stderr, flush=True)
    application = create_app(artifacts_dir(), Limits(), bind=host)
    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    print(f"serve: listening on {url} (API description at {url}docs; Ctrl-C stops)",
          file=sys.stderr, flush=True)
    if open_page:
        import threading
        import webbrowser

        threading.Timer(OPEN_DELAY, webbrowser.open, args=(url,)).start()
    limits = Limits()
    server = make_server(application, host, port, limits)
    try:
        server.run()
    except KeyboardInterrupt:
        # uvicorn shuts down gracefully on Ctrl-C, then raises the signal again for the caller
        pass
    except SystemExit as exc:  # uvicorn exits 1 when it cannot bind after all (a race)
        raise InputError(f"cannot listen on {host}:{port}") from exc
    print("serve: stopped", file=sys.stderr, flush=True)
    leave(application, limits.stop_seconds)  # cancelled work still in a kernel does not hold the exit
