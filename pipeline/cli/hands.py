"""The hands group: ``pokertables eval CARDS`` (score, category and name of a 5-, 6- or 7-card
hand) and ``showdown [FILE]`` (judge lines of ten cards: Black's five, then White's five)."""

from __future__ import annotations

import contextlib
import json
import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, Optional

import typer

from pipeline.cli.common import app, artifacts_dir
from pipeline.errors import InputError


@app.command("eval")
def eval_hand(
    cards: list[str] = typer.Argument(..., help="5, 6 or 7 cards, e.g. 'As Ks Qs Js Ts' or AsKsQsJsTs"),
    as_json: bool = typer.Option(False, "--json", help="print a JSON object"),
    rules: str = typer.Option("standard", "--rules", help="rule set by name (e.g. short-deck) or TOML file"),
) -> None:
    """Look a hand up in the score tables."""
    from pipeline.answers import Context
    from pipeline.answers.hands import eval_hand as answer
    from pipeline.core.constants import N_SCORES

    info = answer(Context(artifacts_dir()), " ".join(cards), rules)
    if as_json:
        typer.echo(json.dumps(info))
        return
    if "rules" in info:
        typer.echo(f"{info['cards']}: {info['name']} ({info['category_name']}), "
                   f"score {info['score']} of {info['classes']} under {info['rules']} rules")
    else:
        typer.echo(f"{info['cards']}: {info['name']} ({info['category_name']}), "
                   f"score {info['score']} of {N_SCORES} (Cactus Kev rank {info['cactus_kev']})")


@app.command("showdown")
def showdown(
    file: Optional[Path] = typer.Argument(None, help="input file (default, or '-': stdin)"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object with counts and "
                                 "verdicts instead of text lines"),
    rules: str = typer.Option("standard", "--rules",
                              help="rule set by name (e.g. hk-stud, ace-high-only) or TOML file; "
                                   "default: hold'em ranking"),
) -> None:
    """Print 'Black wins.', 'White wins.' or 'Tie.' for each line of ten cards.

    Hands rank as in hold'em: A-2-3-4-5 is a straight, the lowest one. For the classic judge
    problem's ranking (ZOJ 1111 / UVa 10315: the ace is always high, A-2-3-4-5 is ace high)
    use --rules ace-high-only.

    A bad line gets an ``error:`` line naming its line number on stderr (with --json, an entry
    of the object's "errors"); the other lines are still judged, and the exit code is 2 if any
    line was bad.
    """
    from pipeline.answers import Context
    from pipeline.answers.hands import LineError, showdown_chunks
    from pipeline.showdown import judge

    # the user's input first: a missing or unreadable file is named before any table is opened
    source = _open_input(file)
    ctx = Context(artifacts_dir())
    errors: list[LineError] = []
    with source as fh:
        if as_json:
            out = showdown_chunks(ctx, _chunks(fh), rules)
            errors = out["errors"]
            typer.echo(json.dumps(out))
        else:
            tables = ctx.tables(rules)
            table5 = tables.table(5)
            lines = 0
            for chunk in _chunks(fh):
                res = judge(chunk, table5, tables.rules)
                errors += [{"line": lines + ln, "message": msg} for ln, msg in res.errors]
                sys.stdout.buffer.write(res.output)
                lines += int(res.status.shape[0])
            sys.stdout.flush()
    if not as_json:  # with --json the object's "errors" says it (one failure language, issue 29)
        for e in errors:
            print(f"error: line {e['line']}: {e['message']}", file=sys.stderr)
    if errors:
        raise typer.Exit(2)


#: input is judged in pieces of about this many bytes (whole lines), so memory stays flat
CHUNK_BYTES = 8 << 20
#: the UTF-8 byte-order mark some editors write at the start of a text file
UTF8_BOM = b"\xef\xbb\xbf"
#: a line of ten cards is ~30 bytes; anything this long is not one (and /dev/zero is refused at once)
MAX_LINE_BYTES = 4096


def _open_input(file: Optional[Path]) -> BinaryIO:
    """stdin for ``None`` or ``-``; otherwise a regular file (folders and devices are refused)."""
    if file is None or str(file) == "-":
        return contextlib.nullcontext(sys.stdin.buffer)  # type: ignore[return-value]
    try:
        st = os.stat(file)
    except FileNotFoundError:
        raise InputError(f"showdown input {file} does not exist") from None
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"showdown input {file} is not a regular file")
    return open(file, "rb")


def _chunks(fh: BinaryIO) -> Iterator[bytes]:
    """Whole lines of ``fh`` in pieces of about :data:`CHUNK_BYTES`."""
    carry = b""
    line = 1
    first = True
    while True:
        block = fh.read(CHUNK_BYTES)
        if first:
            # a UTF-8 byte-order mark (a file saved by some editors) is not part of a card
            block, first = block.removeprefix(UTF8_BOM), False
        if not block:
            if carry:
                yield carry
            return
        data = carry + block
        cut = data.rfind(b"\n") + 1
        carry = data[cut:]
        if cut:
            line += data.count(b"\n", 0, cut)
            yield data[:cut]
        if len(carry) > MAX_LINE_BYTES:
            raise InputError(f"line {line}: longer than {MAX_LINE_BYTES} bytes, not a line of ten cards")
