"""Artifacts proven while they are served. The server maps its tables once; a file changed
afterwards (edited in place, through a hard link from another folder, or replaced) would be read
as it is now. :class:`ArtifactWatch` keeps the stat signature (size, mtime, ctime, inode) each
opened file had when it was last proven; :class:`ProvenArtifacts` checks them before every API
answer (a few ``stat`` calls) and, for a file whose signature changed, proves it again (sha256
against the manifest, :func:`pipeline.query.artifacts.open_checked`, in a worker thread) before
the answer: a file that still matches is reopened, one that does not is refused with the CLI's
message (503) until it matches again."""

from __future__ import annotations

import os
import threading

from starlette.concurrency import run_in_threadpool

from pipeline.answers import Context
from pipeline.errors import ArtifactError
from pipeline.query.artifacts import open_checked, stat_signature
from pipeline.serve.security import BUSY, ASGIApp, Receive, Scope, Send, send_json_error

#: paths whose answers read no artifact
UNWATCHED = frozenset({"/api/health"})

Signature = list[int] | None


class ArtifactWatch:
    """The signatures of a server's opened artifacts when they were last proven."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._known: dict[str, Signature] = {}
        #: files refused, with the signature they were refused at and the message
        self._bad: dict[str, tuple[Signature, str]] = {}
        self._lock = threading.Lock()

    def _signature(self, rel: str) -> Signature:
        try:
            return stat_signature(os.stat(self.ctx.artifacts / rel))
        except OSError:
            return None

    def stale(self) -> list[str]:
        """Opened files whose signature is not the one they were last proven at (stat only)."""
        return [rel for rel in sorted(self.ctx.opened_files())
                if self._known.get(rel, []) != self._signature(rel)]

    def prove(self, rels: list[str]) -> None:
        """Prove ``rels`` again (hashing those whose signature the build or an earlier proof did
        not record): :class:`ArtifactError` with the CLI's message for one that changed. A file
        proven with a new signature has its tables reopened."""
        with self._lock:
            reopen = False
            for rel in rels:
                sig = self._signature(rel)
                bad = self._bad.get(rel)
                if bad is not None and bad[0] == sig:
                    raise ArtifactError(bad[1])  # still the refused file: no second hash
                try:
                    open_checked(self.ctx.artifacts, rel)
                except ArtifactError as exc:
                    self._bad[rel] = (sig, str(exc))
                    self._known.pop(rel, None)
                    raise
                self._bad.pop(rel, None)
                reopen |= rel in self._known  # proven before with another signature
                self._known[rel] = sig
            if reopen:
                self.ctx.forget_opened()


class ProvenArtifacts:
    """ASGI middleware: every API request waits until the opened artifacts are proven (see the
    module docstring), or gets 503 with the CLI's refusal."""

    def __init__(self, app: ASGIApp, watch: ArtifactWatch) -> None:
        self.app = app
        self.watch = watch

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the opened files, then hand the request on."""
        if scope["type"] == "http" and scope["path"].startswith("/api/") and scope["path"] not in UNWATCHED:
            stale = self.watch.stale()
            if stale:
                try:
                    await run_in_threadpool(self.watch.prove, stale)
                except ArtifactError as exc:
                    await send_json_error(send, BUSY, str(exc))
                    return
        await self.app(scope, receive, send)


__all__ = ["ArtifactWatch", "ProvenArtifacts"]
