"""Build progress on stderr: a live bar on a terminal, plain timed lines in a log.

A log (stderr not a terminal: ``make tables > log 2>&1``, CI) gets one line per stage start and
finish and, while a stage runs, a line every ``interval`` seconds with the stage, its fraction
done, what it is doing and the elapsed time, from a ticker thread, so a long stage whose code
reports rarely never leaves the log silent.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Any, TextIO

#: seconds between progress lines in a log
LOG_INTERVAL = 5.0


class LogProgress:
    """Plain progress lines for a build whose stderr is not a terminal."""

    def __init__(self, stream: TextIO | None = None, interval: float = LOG_INTERVAL) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.interval = interval
        self._lock = threading.Lock()
        self._stage = ""
        self._text = "checking"
        self._fraction = 0.0
        self._t0 = time.perf_counter()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _line(self, text: str) -> None:
        print(text, file=self.stream, flush=True)

    def _tick(self) -> None:
        while not self._stop.wait(self.interval):
            with self._lock:
                if self._stage:
                    self._line(f"build: {self._stage}: {100 * self._fraction:5.1f}% {self._text} "
                               f"({time.perf_counter() - self._t0:.0f}s)")

    def start(self, stage: Any) -> None:
        """A stage is about to be checked (and built if stale)."""
        with self._lock:
            self._stage, self._text, self._fraction = stage.name, "checking", 0.0
            self._t0 = time.perf_counter()
        if self._thread is None:
            self._thread = threading.Thread(target=self._tick, name="build-progress", daemon=True)
            self._thread.start()

    def update(self, text: str, fraction: float) -> None:
        """What the running stage is doing and how far it is (0..1)."""
        with self._lock:
            if self._text == "checking":
                self._line(f"build: {self._stage}: building")
            self._text, self._fraction = text, fraction

    def finish(self, result: Any) -> None:
        """The stage was built or found up to date."""
        with self._lock:
            self._stage = ""
            self._line(f"build: {result.name}: " + ("up to date" if result.status == "skipped"
                                                      else f"built in {result.seconds:.1f}s"))

    def close(self) -> None:
        """Stop the ticker."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
