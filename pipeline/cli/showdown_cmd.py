"""``pokertables showdown [FILE]``: judge lines of ten cards (Black's five, then White's five)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer

from pipeline.cli import app, artifacts_dir


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

    A bad line gets a message naming its line number on stderr; the other lines are still
    judged, and the exit code is 2 if any line was bad.
    """
    from pipeline.query.tables import Tables
    from pipeline.showdown import VERDICTS, judge

    if file is None or str(file) == "-":
        data = sys.stdin.buffer.read()
    else:
        data = file.read_bytes()
    tables = Tables(artifacts_dir(), rules=rules)
    res = judge(data, tables.table(5), tables.rules)
    if as_json:
        ok = res.status == 0
        codes = res.verdict[ok]
        typer.echo(json.dumps({
            "lines": int(res.status.shape[0]),
            "judged": int(ok.sum()),
            "counts": {v: int((codes == i).sum()) for i, v in enumerate(VERDICTS)},
            "verdicts": [VERDICTS[c] for c in codes.tolist()],
            "errors": [{"line": ln, "message": msg} for ln, msg in res.errors],
        }))
    else:
        sys.stdout.buffer.write(res.output)
        sys.stdout.flush()
    for ln, msg in res.errors:
        print(f"line {ln}: {msg}", file=sys.stderr)
    if res.errors:
        raise typer.Exit(2)
