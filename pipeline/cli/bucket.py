"""The abstraction group: ``pokertables bucket HOLE --board BOARD``, a situation's class in the
card-abstraction tables, its exact figures and its bucket."""

from __future__ import annotations

import json
import sys
from typing import Any, Optional

import typer

from pipeline.cli.common import app, artifacts_dir

#: Bars of the text histogram, lowest to highest.
BARS = " ▁▂▃▄▅▆▇█"
#: Most lines ``--file`` takes (each is one lookup; a bigger job belongs in the Python API).
MAX_LINES = 1_000_000
#: Bytes ``--file`` reads at most (MAX_LINES lines of a river situation and then some).
MAX_FILE_BYTES = 64 * MAX_LINES


def _situation(hole: str, board: str, where: str = "") -> tuple[list[int], list[int], str]:
    from pipeline.core.cards import parse_cards
    from pipeline.errors import InputError
    from pipeline.query.abstraction.shapes import STREETS

    try:
        h = parse_cards(hole, count=2)
    except InputError as exc:
        raise InputError(f"{where}hole: {exc}") from None
    try:
        b = parse_cards(board, count=tuple(STREETS.values())) if board.strip() else []
    except InputError as exc:
        raise InputError(f"{where}board: {exc}") from None
    try:
        parse_cards(h + b)  # a card twice names it
    except InputError as exc:
        raise InputError(f"{where}{exc}") from None
    street = next(s for s, k in STREETS.items() if k == len(b))
    return h, b, street


def answer(artifacts: Any, rows: list[tuple[list[int], list[int], str]]) -> list[dict[str, Any]]:
    """The JSON object of each situation, looked up street by street in batches."""
    import numpy as np

    from pipeline.core.cards import format_cards
    from pipeline.errors import ArtifactError
    from pipeline.query.abstraction import unindex
    from pipeline.query.abstraction.clusters import hand_clusters
    from pipeline.query.abstraction.reader import river_counts
    from pipeline.query.tables import Tables

    tables = Tables(artifacts, check=False)   # each street's files are proven as they open
    out: list[dict[str, Any]] = [{} for _ in rows]
    for street in ("preflop", "flop", "turn", "river"):
        which = [i for i, r in enumerate(rows) if r[2] == street]
        if not which:
            continue
        tab = tables.abstraction(street)
        cards = np.array([rows[i][0] + rows[i][1] for i in which], np.int64)
        idx = tab.index(cards)
        got = tab.lookup(idx)
        table7 = Tables(artifacts).table(7) if street == "river" else None
        groups = hand_clusters(tab.class_cluster) if tab.class_cluster is not None else None
        for j, i in enumerate(which):
            hole, board = unindex(street, int(idx[j]))
            obj: dict[str, Any] = {
                "street": street, "index": int(idx[j]), "classes": tab.classes,
                "canonical": f"{format_cards(hole)} | {format_cards(board)}".rstrip(" |"),
                "wins": None, "ties": None, "opponents": tab.opponents_per_river,
                "ehs": float(got["ehs"][j]), "ehs2": float(got["ehs2"][j]),
                "histogram": [int(x) for x in got["hist"][j]] if "hist" in got else None,
                "bucket": int(got["bucket"][j]) if "bucket" in got else None,
            }
            if table7 is not None:
                # recount against every opponent hand: the table holds 2*wins + ties only
                w, t, _ = river_counts(table7, rows[i][0], rows[i][1])
                stored = [int(got["value"][j])]
                counted = [int(2 * w[0] + t[0])]
                obj["wins"], obj["ties"] = int(w[0]), int(t[0])
                if groups is not None:
                    wg, tg, ng = river_counts(table7, rows[i][0], rows[i][1], groups,
                                              got["ochs"].shape[1])
                    stored += [int(v) for v in got["ochs"][j]]
                    counted += [int(v) for v in 2 * wg + tg]
                    obj["ochs"] = [{"cluster": g, "wins": int(wg[g]), "ties": int(tg[g]),
                                    "opponents": int(ng[g]),
                                    "equity": (2 * int(wg[g]) + int(tg[g])) / (2 * int(ng[g])) if ng[g] else None}
                                   for g in range(len(ng))]
                if stored != counted:
                    raise ArtifactError(f"{tab.path} row {int(idx[j])} disagrees with the 7-card "
                                        f"scores; rebuild with `pokertables build abstraction --force`")
            out[i] = obj
    return out


def _chart(hist: list[int]) -> str:
    top = max(hist) or 1
    return "".join(BARS[max(1, (len(BARS) - 1) * x // top)] if x else "·" for x in hist)


def _print(obj: dict[str, Any]) -> None:
    typer.echo(f"{obj['street']} class {obj['index']:,} of {obj['classes']:,}: {obj['canonical']}")
    if obj["wins"] is not None:
        lose = obj["opponents"] - obj["wins"] - obj["ties"]
        typer.echo(f"  vs one random hand: win {obj['wins']}  tie {obj['ties']}  lose {lose}  "
                   f"(of {obj['opponents']})")
    if obj.get("ochs"):
        figures = "  ".join(f"{c['equity']:.3f}" if c["equity"] is not None else "-" for c in obj["ochs"])
        typer.echo(f"  vs opponent clusters 0..{len(obj['ochs']) - 1}: {figures}")
    typer.echo(f"  EHS {obj['ehs']:.6f}  EHS² {obj['ehs2']:.6f}")
    if obj["histogram"] is not None:
        typer.echo(f"  river equity 0 |{_chart(obj['histogram'])}| 1  ({len(obj['histogram'])} bins)")
    typer.echo(f"  bucket {obj['bucket'] if obj['bucket'] is not None else '(no buckets built)'}")


@app.command("bucket")
def bucket_cmd(
    hole: Optional[str] = typer.Argument(None, help="two hole cards, e.g. AhKd"),
    board: str = typer.Option("", "--board", "-b", help="0, 3, 4 or 5 board cards"),
    file: Optional[str] = typer.Option(None, "--file", help="one HOLE|BOARD per line ('-': stdin)"),
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
        objs = answer(artifacts_dir(), [_situation(hole, board)])
        if as_json:
            typer.echo(json.dumps(objs[0]))
        else:
            _print(objs[0])
        return
    if board:
        raise InputError("--board goes with HOLE; in --file each line is HOLE|BOARD")
    if file == "-":
        text = sys.stdin.read(MAX_FILE_BYTES + 1)
        if len(text) > MAX_FILE_BYTES:
            raise InputError(f"standard input is over {MAX_FILE_BYTES:,} bytes")
    else:
        from pipeline.core.files import read_text_file

        text, _ = read_text_file(file, "situations file", limit=MAX_FILE_BYTES)
    lines = [(n, ln) for n, ln in enumerate(text.splitlines(), 1) if ln.strip()]
    if len(lines) > MAX_LINES:
        raise InputError(f"{file}: {len(lines):,} lines, at most {MAX_LINES:,}")
    rows = []
    for n, ln in lines:
        h, sep, b = ln.partition("|")
        if not sep and len(ln.split()) > 1 and "|" not in ln:
            raise InputError(f"{file}:{n}: expected HOLE|BOARD, got {ln.strip()[:60]!r}")
        rows.append(_situation(h, b, f"{file}:{n}: "))
    for obj in answer(artifacts_dir(), rows):
        if as_json:
            typer.echo(json.dumps(obj))
        else:
            _print(obj)
