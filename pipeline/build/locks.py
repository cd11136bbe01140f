"""The artifacts folder's two locks, and who holds them.

* :func:`build_lock` (``.build.lock``): one build at a time in a folder, held for the whole build
  (two builds would compute the same stages twice and clean each other's staging). A second build
  is refused at once, or with ``--wait`` waits, and either way says who holds the lock.
* :func:`commit_lock` (``.commit.lock``): a commit (a stage's outputs renamed into place with the
  manifest, a sweep's files) and the clean-up of what a killed build left. It is held for
  seconds, never while a stage computes, so a ``vp sweep`` finishing during a half-hour build
  commits at once instead of waiting for the whole build. Whoever must wait for it says so at
  once, naming the holder.

Each lock file holds, while held, its holder as JSON (pid, command, since); the holder empties
it on release, so a finished build leaves no pid behind, and a pid whose process is gone (a
killed build's) is never reported as a holder.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from pipeline.errors import BuildError

LOCK = ".build.lock"
COMMIT_LOCK = ".commit.lock"
#: longest command text kept in a lock file
COMMAND_CHARS = 300
#: a holder's record read back: at most this many bytes
RECORD_BYTES = 4096

#: told once, at once, when a lock must be waited for (the CLI prints it on stderr)
OnWait = Callable[[str], None]


@dataclass(frozen=True)
class Holder:
    """Who holds a lock: process id, its command line, and since when (epoch seconds)."""

    pid: int
    command: str
    since: float

    def describe(self, now: float | None = None) -> str:
        """``pid 4242 (pokertables build abstraction) since 12:01:07, 3 min 5 s ago``."""
        ago = max(0, int((now if now is not None else time.time()) - self.since))
        span = f"{ago // 60} min {ago % 60} s" if ago >= 60 else f"{ago} s"
        when = time.strftime("%H:%M:%S", time.localtime(self.since))
        return f"pid {self.pid} ({self.command}) since {when}, {span} ago"


def this_command() -> str:
    """This process's command line as the lock file records it."""
    argv = [Path(sys.argv[0]).name if sys.argv and sys.argv[0] else "python", *sys.argv[1:]]
    if argv[0] in ("__main__.py", "-m", "-c"):
        argv[0] = "pokertables"
    return " ".join(argv)[:COMMAND_CHARS]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's live process
    return True


def read_holder(path: Path) -> Holder | None:
    """The live holder recorded in a lock file, or None (empty, unreadable, or a process that
    is gone: a killed holder's record is stale)."""
    try:
        with open(path, "rb") as fh:
            data = json.loads(fh.read(RECORD_BYTES) or b"null")
        holder = Holder(int(data["pid"]), str(data["command"]), float(data["since"]))
    except (OSError, ValueError, TypeError, KeyError, RecursionError):
        return None
    return holder if _alive(holder.pid) else None


def _record(fh: IO[str], holder: Holder | None) -> None:
    fh.seek(0)
    fh.truncate()
    if holder is not None:
        fh.write(json.dumps({"pid": holder.pid, "command": holder.command, "since": holder.since}))
    fh.flush()


@contextlib.contextmanager
def _folder_lock(folder: Path, name: str, what: str, wait: bool, on_wait: OnWait | None,
                 refusal: str) -> Iterator[None]:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fh = open(folder / name, "a+")
    except OSError as exc:
        # a read-only or foreign folder is the user's to fix, not an internal error
        raise BuildError(f"cannot write in the artifacts folder {folder} ({exc.strerror}); "
                         "choose a writable folder with -a") from None
    try:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = read_holder(folder / name)
            who = holder.describe() if holder is not None else "another process"
            if not wait:
                raise BuildError(f"{refusal} in {folder}: {what} is held by {who} "
                                 f"(lock {folder / name}); wait for it or run again with --wait") from None
            if on_wait is not None:
                on_wait(f"waiting for {what} of {folder}: held by {who}")
            fcntl.flock(fh, fcntl.LOCK_EX)
        _record(fh, Holder(os.getpid(), this_command(), time.time()))
        try:
            yield
        finally:
            _record(fh, None)  # released: no pid left behind to mislead
    finally:
        fh.close()


def build_lock(folder: Path, wait: bool = False, on_wait: OnWait | None = None
               ) -> contextlib.AbstractContextManager[None]:
    """Hold the folder's build lock for a whole build: without ``wait`` a second build fails at
    once naming the running one; with it, ``on_wait`` is told who holds the lock, then it waits."""
    return _folder_lock(Path(folder), LOCK, "the build lock", wait, on_wait, "another build is running")


def commit_lock(folder: Path, on_wait: OnWait | None = None) -> contextlib.AbstractContextManager[None]:
    """Hold the folder's commit lock for one commit (seconds); ``on_wait`` is told at once who
    holds it when it must be waited for."""
    return _folder_lock(Path(folder), COMMIT_LOCK, "the commit lock", True, on_wait,
                        "another commit is running")
