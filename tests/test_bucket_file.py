"""Issue 29, item 2: ``bucket --file`` streams (each batch printed as it is made, a pipe's first
line answered before the input ends), recounts the river in one batch kernel, answers every good
line and reports the bad ones at the end with exit 2 (the contract of ``showdown --file``), and
never holds an over-long line. The speed target (20,000 river lines) is in ``bench/run.py``."""

from __future__ import annotations

import io
import json
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from cli_runner import run_here, run_main
from refpoker import random_hands

from pipeline.cli.bucket import MAX_LINE_BYTES, read_lines
from pipeline.errors import ArtifactError, InputError
from pipeline.query.abstraction import class_count, unindex_batch
from pipeline.query.abstraction.clusters import hand_clusters
from pipeline.query.abstraction.reader import StreetTable, river_counts
from pipeline.query.abstraction.recount import river_recount
from pipeline.query.tables import Tables

ROOT = Path(__file__).resolve().parent.parent
#: Clusters of the fake river table's opponent hands (any suit-blind grouping of the 169 classes).
K = 5


def _readline(stream: Any, timeout: float) -> str:
    """One line of a child's stdout, or "" if none came within ``timeout`` seconds."""
    ready, _, _ = select.select([stream], [], [], timeout)
    return stream.readline() if ready else ""


def test_a_pipe_is_answered_line_by_line(preflop_abstraction: Path) -> None:
    """The first answer is printed while the input is still open (the old command read to the
    end first): each line written is answered before the next is sent."""
    p = subprocess.Popen([sys.executable, "-m", "pipeline", "-a", str(preflop_abstraction), "bucket", "--file", "-",
                          "--json"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert p.stdin is not None and p.stdout is not None
        for n, hole in enumerate(["AhKd", "7c2d", "AsAc"], 1):
            p.stdin.write(hole + "\n")
            p.stdin.flush()
            line = _readline(p.stdout, 120)
            assert line, f"no answer to line {n} while the input is open"
            got = json.loads(line)
            assert got["line"] == n and got["street"] == "preflop"
        p.stdin.close()
        assert p.wait(120) == 0, p.stderr.read() if p.stderr else ""
    finally:
        p.kill()
        p.wait()


def test_bad_lines_are_reported_after_every_good_line_is_answered(preflop_abstraction: Path, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    good = ["AhKd", "7c2d", "AsAc", "Td9d"]
    f = tmp_path / "spots.txt"
    f.write_bytes("\ufeffAhKd\n".encode() + b"AhXx\n" + b"7c2d\n" + b"AhKd|Qh7d\n" + b"\xff\xfe\n"
                  + b"AsAc\n" + b"A" * 20_000 + b"\n" + b"\n" + b"Td9d\n" + b"AhAh\n")
    bad = {2: "Xx", 4: "board", 5: "not UTF-8", 7: f"longer than {MAX_LINE_BYTES} bytes", 10: "Ah"}
    r = run_here(capsys, "-a", str(preflop_abstraction), "bucket", "--file", str(f), "--json")
    assert r.returncode == 2, r.stderr
    *answers, closing = [json.loads(line) for line in r.stdout.splitlines()]
    assert [a["line"] for a in answers] == [1, 3, 6, 9]
    # the one-hand answers to compare with (in this process: no process behaviour is at stake there)
    single = [json.loads(run_main(capsys, "-a", str(preflop_abstraction), "bucket", h, "--json")[1]) for h in good]
    assert [{k: v for k, v in a.items() if k != "line"} for a in answers] == single
    assert [e["line"] for e in closing["errors"]] == list(bad)
    for e in closing["errors"]:
        assert e["error"].startswith(f"{f}:{e['line']}: ") and bad[e["line"]] in e["error"], e
    assert closing["error"].startswith(f"{f}:2: ") and "(and 4 more bad lines)" in closing["error"]
    assert r.stderr == ""
    text = run_here(capsys, "-a", str(preflop_abstraction), "bucket", "--file", str(f))
    assert text.returncode == 2 and text.stdout.count("preflop class ") == 4
    errors = text.stderr.splitlines()
    assert [e.split(":")[2] for e in errors] == [str(n) for n in bad]
    assert all(e.startswith(f"error: {f}:") for e in errors)


def test_the_input_is_named_clearly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = run_here(capsys, "-a", str(tmp_path), "bucket", "--file", str(tmp_path))
    assert r.returncode == 2 and r.stderr.strip() == (f"error: situations file {tmp_path} is a folder, "
                                                      "not a file of HOLE|BOARD lines"), r.stderr
    r = run_here(capsys, "-a", str(tmp_path), "bucket", "--file", str(tmp_path / "nope.txt"))
    assert r.returncode == 2 and "situations file" in r.stderr and "does not exist" in r.stderr


def test_an_over_long_line_is_never_held() -> None:
    """A 15 MB line comes out as one bad line (None) while the reader holds at most a block."""
    class Reader(io.BytesIO):
        most = 0

        def read1(self, n: int | None = -1) -> bytes:
            block = super().read1(n)
            Reader.most = max(Reader.most, len(block))
            return block

    data = b"AhKd\n" + b"x" * 15_000_000 + b"\n7c2d\n" + b"y" * 5000
    got = [item for part in read_lines(Reader(data)) for item in part]
    assert got == [(1, b"AhKd"), (2, None), (3, b"7c2d"), (4, None)]
    assert Reader.most <= 1 << 16


class _Computed:
    """A river column computed on demand from the 7-card table (the brute force of
    :func:`river_counts`): a fake river table whose stored figures are right by construction."""

    def __init__(self, table7: np.ndarray, groups: np.ndarray, ochs: bool, shift: int = 0) -> None:
        self.table7, self.groups, self.ochs, self.shift = table7, groups, ochs, shift
        self.shape = (class_count("river"), K) if ochs else (class_count("river"),)

    def __getitem__(self, idx: np.ndarray) -> np.ndarray:
        rows = []
        for c in unindex_batch("river", np.asarray(idx)).tolist():
            w, t, _ = river_counts(self.table7, c[:2], c[2:], self.groups, K)
            rows.append(2 * w + t if self.ochs else [int((2 * w + t).sum())])
        out = np.array(rows, np.int64) + self.shift
        return out if self.ochs else out[:, 0]


def _fake_river(tables: Tables, shift: int = 0) -> tuple[StreetTable, np.ndarray]:
    class_cluster = np.arange(class_count("preflop")) % K
    groups = hand_clusters(class_cluster)
    table7 = tables.table(7)
    arrays: dict[str, Any] = {"value": _Computed(table7, groups, False, shift),
                              "ochs": _Computed(table7, groups, True)}
    tab = StreetTable("river", Path("fake-river.h5"), class_count("river"), 50, 1, 1980, 990, arrays,
                      class_cluster)
    return tab, groups


def test_river_answers_equal_the_brute_force(artifacts: Path, tables: Tables) -> None:
    """Random river situations through the batch path (against a fake river table computed by
    brute force): wins, ties and each cluster's figures equal :func:`river_counts` of the
    situation as asked (not its canonical form); a table that disagrees is refused."""
    from pipeline.answers.bucket import BucketLookup, situation_line
    from pipeline.core.cards import format_cards

    rows = random_hands(np.random.default_rng(2902), 40, 7)
    lookup = BucketLookup(artifacts, tables)
    tab, groups = _fake_river(tables)
    lookup._streets["river"] = (tab, groups)
    got = lookup.answers([situation_line(f"{format_cards(r[:2])}|{format_cards(r[2:])}") for r in rows])
    for r, obj in zip(rows.tolist(), got):
        w, t, n = river_counts(tables.table(7), r[:2], r[2:], groups, K)
        assert (obj["wins"], obj["ties"]) == (int(w.sum()), int(t.sum()))
        assert [(c["wins"], c["ties"], c["opponents"]) for c in obj["ochs"]] == list(zip(w.tolist(), t.tolist(),
                                                                                         n.tolist()))
    lookup._streets["river"] = _fake_river(tables, shift=1)
    with pytest.raises(ArtifactError, match="disagrees with the 7-card scores"):
        lookup.answers([situation_line("AhKd|Qh7d2c5s9h")])


def test_the_recount_kernel_equals_the_brute_force(tables: Tables) -> None:
    """The batch kernel, and its fallback on the dense 7-card table (no eval_tables.h5), equal
    :func:`river_counts` one situation at a time; bad rows are refused, not read."""
    rows = random_hands(np.random.default_rng(2903), 60, 7)
    groups = hand_clusters(np.arange(class_count("preflop")) % K)

    class Dense:
        def fast_evaluator(self) -> None:
            return None

        def score7(self, hands: np.ndarray) -> Any:
            return tables.score7(hands)

    fast = river_recount(tables, rows, groups, K)
    dense = river_recount(Dense(), rows, groups, K)  # type: ignore[arg-type]
    for j, r in enumerate(rows.tolist()):
        want = river_counts(tables.table(7), r[:2], r[2:], groups, K)
        for a, b, c in zip(fast, dense, want):
            assert a[j].tolist() == b[j].tolist() == c.tolist()
    w, t, n = river_recount(tables, rows)
    assert w[:, 0].tolist() == fast[0].sum(axis=1).tolist() and (n == 990).all()
    for bad in ([[0, 0, 1, 2, 3, 4, 5]], [[52, 1, 2, 3, 4, 5, 6]], [[255, 1, 2, 3, 4, 5, 6]]):
        with pytest.raises(InputError):
            river_recount(tables, np.array(bad, np.uint8 if max(bad[0]) > 52 else np.int64))


def test_lines_past_the_limit_are_refused_after_the_rest_is_answered(
        preflop_abstraction: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    import pipeline.cli.bucket as bucket

    monkeypatch.setattr(bucket, "MAX_LINES", 3)
    f = tmp_path / "many.txt"
    f.write_text("AhKd\n7c2d\nAsAc\nTd9d\nKsKc\n")
    code, out, err = run_main(capsys, "-a", str(preflop_abstraction), "bucket", "--file", str(f))
    assert code == 2 and out.count("preflop class ") == 3
    assert err.splitlines() == [f"error: {f}: more than 3 lines; the rest is not read (split the file, "
                                "or use the Python API: pipeline.answers.bucket.BucketLookup)"], err


def test_a_million_bad_lines_are_counted_not_held(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import pipeline.cli.bucket as bucket

    monkeypatch.setattr(bucket, "LISTED_ERRORS", 3)
    f = tmp_path / "bad.txt"
    f.write_text("AhXx\n" * 10)
    code, out, err = run_main(capsys, "-a", str(tmp_path), "bucket", "--file", str(f))
    assert code == 2 and out == ""
    assert err.splitlines()[3:] == [f"error: {f}: 7 more bad lines (the first 3 are listed above)"], err
    code, out, err = run_main(capsys, "-a", str(tmp_path), "bucket", "--file", str(f), "--json")
    closing = json.loads(out)
    assert code == 2 and err == "" and closing["bad_lines"] == 10 and len(closing["errors"]) == 3
    assert closing["error"].endswith("(and 9 more bad lines)")


def test_the_answer_function_is_the_commands_json(preflop_abstraction: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``pipeline.answers.bucket.bucket`` (what the HTTP server calls) returns exactly what
    ``bucket --json`` prints, and raises InputError naming a bad card before opening anything."""
    from pipeline.answers import Context
    from pipeline.answers.bucket import bucket

    ctx = Context(preflop_abstraction)
    code, out, _ = run_main(capsys, "-a", str(preflop_abstraction), "bucket", "AhKd", "--json")
    cli = json.loads(out)
    assert code == 0
    assert bucket(ctx, "AhKd") == cli
    assert bucket(ctx, "Kd Ah", "") == cli
    with pytest.raises(InputError, match="Xx"):
        bucket(Context(preflop_abstraction / "nowhere"), "AhXx")
