"""The abstraction group: ``pokertables bucket HOLE --board BOARD``, a situation's class in the
card-abstraction tables, its exact figures and its bucket."""

from __future__ import annotations

import contextlib
import json
import os
import stat
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, BinaryIO, Optional

import typer

from pipeline.cli.common import app, artifacts_dir

if TYPE_CHECKING:
    from pipeline.answers.bucket import BucketAnswer, BucketLookup, Situation

#: Bars of the text histogram, lowest to highest.
BARS = " ▁▂▃▄▅▆▇█"
#: Most lines ``--file`` answers (each is one lookup; a bigger job belongs in the Python API,
#: :class:`pipeline.answers.bucket.BucketLookup`). Streamed, so memory stays flat; this many
#: river lines took 56 s of CPU (165 s wall with the 2-core machine at load 7.5).
MAX_LINES = 1_000_000
#: A line of ``HOLE|BOARD`` is about 20 bytes; a longer one is reported as a bad line and its
#: bytes are skipped as they arrive, never held (a 15 MB line is not read into memory).
MAX_LINE_BYTES = 256
#: Bytes read at a time: whatever has arrived, up to this (a pipe's first line answers at once).
READ_BYTES = 1 << 16
#: Lines answered in the first batch, doubling up to :data:`MAX_BATCH`: the first answer comes
#: out at once, later batches spread the per-batch cost.
FIRST_BATCH = 16
MAX_BATCH = 4096
#: Bad lines quoted in the closing ``--json`` error's one-line summary.
QUOTED_ERRORS = 1
#: Bad lines listed one by one at the end; more are counted, not held (a file of a million bad
#: lines keeps memory flat).
LISTED_ERRORS = 1000
BOM = "\ufeff"


def _chart(hist: list[int]) -> str:
    top = max(hist) or 1
    return "".join(BARS[max(1, (len(BARS) - 1) * x // top)] if x else "·" for x in hist)


def _text(obj: BucketAnswer) -> str:
    """The text answer of one situation (lines ending in newlines)."""
    lines = [f"{obj['street']} class {obj['index']:,} of {obj['classes']:,}: {obj['canonical']}"]
    wins, ties = obj["wins"], obj["ties"]
    if wins is not None and ties is not None:  # the river's (both or neither)
        lose = obj["opponents"] - wins - ties
        lines.append(f"  vs one random hand: win {wins}  tie {ties}  lose {lose}  "
                     f"(of {obj['opponents']})")
    if obj.get("ochs"):
        figures = "  ".join(f"{c['equity']:.3f}" if c["equity"] is not None else "-" for c in obj["ochs"])
        lines.append(f"  vs opponent clusters 0..{len(obj['ochs']) - 1}: {figures}")
    lines.append(f"  EHS {obj['ehs']:.6f}  EHS² {obj['ehs2']:.6f}")
    if obj["histogram"] is not None:
        lines.append(f"  river equity 0 |{_chart(obj['histogram'])}| 1  ({len(obj['histogram'])} bins)")
    lines.append(f"  bucket {obj['bucket'] if obj['bucket'] is not None else '(no buckets built)'}")
    return "".join(f"{ln}\n" for ln in lines)


def _open_situations(file: str) -> BinaryIO:
    """stdin for ``-``; otherwise a regular file (a folder or a device is refused by name)."""
    from pipeline.errors import InputError

    if file == "-":
        return contextlib.nullcontext(sys.stdin.buffer)  # type: ignore[return-value]
    try:
        st = os.stat(file)
    except FileNotFoundError:
        raise InputError(f"situations file {file} does not exist") from None
    if stat.S_ISDIR(st.st_mode):
        raise InputError(f"situations file {file} is a folder, not a file of HOLE|BOARD lines")
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"situations file {file} is not a regular file")
    return open(file, "rb")


def read_lines(fh: BinaryIO, max_line: int = MAX_LINE_BYTES) -> Iterator[list[tuple[int, bytes | None]]]:
    """``(line number, line)`` of ``fh`` in lists, one list per read of whatever has arrived (so
    a pipe's lines are answered as they come); a line longer than ``max_line`` bytes comes as
    ``None`` and its bytes are dropped as they are read, never held."""
    read = getattr(fh, "read1", fh.read)
    carry = b""
    number = 0
    skipping = False  # inside a line already known to be too long
    while True:
        block = read(READ_BYTES)
        if not block:
            break
        parts = (carry + block).split(b"\n")
        carry = parts.pop()
        got: list[tuple[int, bytes | None]] = []
        for part in parts:
            number += 1
            got.append((number, None if skipping or len(part) > max_line else part))
            skipping = False
        if len(carry) > max_line:
            skipping, carry = True, b""
        yield got
    if carry or skipping:
        yield [(number + 1, None if skipping else carry)]


class _Answerer:
    """Answers ``--file`` lines in growing batches and prints each batch as soon as it is made;
    bad lines are kept for the end."""

    def __init__(self, name: str, as_json: bool) -> None:
        self.name = name
        self.as_json = as_json
        self.lookup: BucketLookup | None = None
        self.pending: list[tuple[int, Situation]] = []
        self.errors: list[tuple[int, str]] = []
        self.bad = 0  # bad lines, listed or not
        self.batch = FIRST_BATCH

    def bad_line(self, number: int, message: str, listed: bool = False) -> None:
        """Note a bad line: listed at the end while fewer than :data:`LISTED_ERRORS` are (or
        when ``listed``)."""
        self.bad += 1
        if listed or len(self.errors) < LISTED_ERRORS:
            self.errors.append((number, message))

    def take(self, number: int, raw: bytes | None) -> None:
        """One input line: parsed now (a bad one is noted), answered with its batch."""
        from pipeline.answers.bucket import situation_line
        from pipeline.errors import InputError

        where = f"{self.name}:{number}: "
        if raw is None:
            self.bad_line(number, f"{where}longer than {MAX_LINE_BYTES} bytes, not a HOLE|BOARD line")
            return
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            self.bad_line(number, f"{where}not UTF-8 text ({exc.reason} at byte {exc.start})")
            return
        if number == 1:
            text = text.removeprefix(BOM)  # a BOM some editors write: not part of a card
        if not text.strip():
            return
        try:
            self.pending.append((number, situation_line(text, where)))
        except InputError as exc:
            self.bad_line(number, str(exc))

    def flush(self) -> None:
        """Answer and print every pending line, in batches of the growing size."""
        from pipeline.answers.bucket import BucketLookup

        while self.pending:
            part, self.pending = self.pending[:self.batch], self.pending[self.batch:]
            self.batch = min(MAX_BATCH, 2 * self.batch)
            if self.lookup is None:
                self.lookup = BucketLookup(artifacts_dir())
            objs = self.lookup.answers([s for _, s in part])
            if self.as_json:
                out = "".join(json.dumps({"line": n, **obj}) + "\n" for (n, _), obj in zip(part, objs))
            else:
                out = "".join(_text(obj) for obj in objs)
            sys.stdout.write(out)
            sys.stdout.flush()

    def close(self) -> None:
        """Report the bad lines (``--json``: one closing ``{"error": ...}`` object on stdout;
        otherwise one ``error:`` line each on stderr) and exit 2 if there were any."""
        if not self.bad:
            return
        unlisted = self.bad - len(self.errors)
        if self.as_json:
            more = self.bad - QUOTED_ERRORS
            summary = self.errors[0][1] + (f" (and {more} more bad line{'s' if more > 1 else ''})"
                                           if more > 0 else "")
            sys.stdout.write(json.dumps({"error": summary, "bad_lines": self.bad, "errors": [
                {"line": n, "error": msg} for n, msg in self.errors]}) + "\n")
            sys.stdout.flush()
        else:
            sys.stdout.flush()
            for _, msg in self.errors:
                print(f"error: {msg}", file=sys.stderr)
            if unlisted:
                print(f"error: {self.name}: {unlisted:,} more bad lines (the first "
                      f"{LISTED_ERRORS:,} are listed above)", file=sys.stderr)
        raise typer.Exit(2)


@app.command("bucket")
def bucket_cmd(
    hole: Optional[str] = typer.Argument(None, help="two hole cards, e.g. AhKd"),
    board: str = typer.Option("", "--board", "-b", help="0, 3, 4 or 5 board cards"),
    file: Optional[str] = typer.Option(None, "--file", help="one HOLE|BOARD per line ('-': stdin); "
                                       "answers are printed as they are made, bad lines reported "
                                       "at the end (exit 2)"),
    as_json: bool = typer.Option(False, "--json", help="print JSON (one object per line with --file)"),
) -> None:
    """The suit-isomorphism class of a hand on a board (hole and board one group each), its
    exact strength against one random hand (EHS, EHS², the river-equity histogram; on the
    river wins, ties and the equity against each opponent cluster) and its bucket, from the
    abstraction tables (`pokertables build abstraction`)."""
    from pipeline.errors import InputError

    if (hole is None) == (file is None):
        raise InputError("give either HOLE (with --board) or --file")
    if file is None:
        assert hole is not None
        from pipeline.answers.bucket import BucketLookup, situation

        asked = situation(hole, board)  # the user's input first, then the tables
        obj = BucketLookup(artifacts_dir()).answers([asked])[0]
        sys.stdout.write(json.dumps(obj) + "\n" if as_json else _text(obj))
        return
    if board:
        raise InputError("--board goes with HOLE; in --file each line is HOLE|BOARD")
    answerer = _Answerer("stdin" if file == "-" else file, as_json)
    with _open_situations(file) as fh:
        for got in read_lines(fh):
            for number, raw in got:
                if number > MAX_LINES:
                    answerer.flush()
                    answerer.bad_line(number, f"{answerer.name}: more than {MAX_LINES:,} lines; the "
                                      "rest is not read (split the file, or use the Python API: "
                                      "pipeline.answers.bucket.BucketLookup)", listed=True)
                    answerer.close()
                answerer.take(number, raw)
                if len(answerer.pending) >= answerer.batch:
                    answerer.flush()  # parse no further ahead than the batch being answered
            answerer.flush()
    answerer.close()
