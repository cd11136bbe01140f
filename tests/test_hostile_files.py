"""Issue 20: user files are read one way (regular, small, UTF-8, bounded nesting), a user's own
``standard`` rule set is honoured, and ``vp list`` shows no figure from an unproven file."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import h5py
import pytest
from cli_runner import assert_one_error, one_error_line, run_cli, run_here, run_main

ROOT = Path(__file__).resolve().parent.parent
HAND = "As 2s 3d 4c 5h"


def _hostile(folder: Path) -> dict[str, str]:
    """name -> the words its error must contain: each file a hostile user could point us at."""
    folder.mkdir(parents=True, exist_ok=True)
    os.mkfifo(folder / "fifo.toml")
    (folder / "zero.toml").symlink_to("/dev/zero")
    (folder / "binary.toml").write_bytes(b"\xff\xfe\x00name = 1\n")
    (folder / "deep.toml").write_text("a = " + "[" * 100_000 + "]" * 100_000 + "\n")
    (folder / "huge.toml").write_text("# " + "x" * (2 << 20) + "\n")
    return {"fifo.toml": "not a regular file", "zero.toml": "not a regular file",
            "binary.toml": "not UTF-8", "deep.toml": "nested too deeply", "huge.toml": "bytes"}


def test_hostile_rule_set_files_are_one_error_each(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Files that could hang or overflow a reader (FIFO, /dev/zero, deep nesting) are read by a
    real process; the plain binary and huge ones in this process, through the same reader."""
    for name, needle in _hostile(tmp_path / "rules").items():
        args = ("eval", HAND, "--rules", str(tmp_path / "rules" / name))
        if name in ("binary.toml", "huge.toml"):
            r = run_here(capsys, *args)
        else:
            r = run_cli(*args, timeout=20)
        assert_one_error(r, needle)


HOSTILE = ("fifo.toml", "zero.toml", "binary.toml", "deep.toml", "huge.toml")


@pytest.mark.parametrize("kind", HOSTILE)
def test_hostile_paytable_overriding_a_builtin_slug(kind: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """A hostile file named like a built-in paytable in a config folder (a FIFO, /dev/zero,
    binary, deeply nested, huge): one error naming the problem, no hang, in list and analyze,
    and in a dry run for the files the reader refuses unread (a dry run plans from the files'
    bytes; it does not parse them, so binary and deep text are refused when the stage runs).
    The files that could hang or overflow a reader run in a real process; the plain binary
    and huge ones in this process, through the same reader."""
    needle = _hostile(tmp_path / "hostile")[kind]
    pay = tmp_path / "cfg" / "paytables"
    pay.mkdir(parents=True)
    os.replace(tmp_path / "hostile" / kind, pay / "jacks-or-better-9-6.toml")  # the link itself
    arts = tmp_path / "arts"
    arts.mkdir()
    commands = [("vp", "list"), ("vp", "analyze", "jacks-or-better-9-6")]
    if kind in ("fifo.toml", "zero.toml", "huge.toml"):
        commands.append(("build", "--dry-run"))
    for args in commands:
        if kind in ("binary.toml", "huge.toml"):
            # run_main drops the hostile folder after the command, as a process's end would
            code, _, err = run_main(capsys, "-a", str(arts), "--config-dir", str(tmp_path / "cfg"), *args)
            assert code == 2 and needle in one_error_line(err), (args, err)
        else:
            r = run_cli("-a", str(arts), "--config-dir", str(tmp_path / "cfg"), *args, timeout=30)
            assert_one_error(r, needle)
            err = r.stderr
        assert "jacks-or-better-9-6.toml" in err, (args, err)
    assert sorted(p.name for p in arts.iterdir()) == []


def test_hostile_sweep_files_are_one_error_each(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Item 13: `vp sweep PATH` reads the file through the safe reader: a FIFO, /dev/zero,
    binary, deeply nested or huge sweep file is one error naming the problem (not "unknown
    sweep"), and so is a hostile paytable a sweep names; nothing is written. Files that could
    hang or overflow a reader (FIFOs, devices, deep nesting) are read by a real process; the
    plain regular ones in this process, through the same reader."""
    arts = tmp_path / "arts"
    folder = tmp_path / "sweeps"
    cases = {str(folder / name): needle for name, needle in _hostile(folder).items()}
    cases["/dev/zero"] = "sweep file /dev/zero is not a regular file"
    cases[str(folder / "missing.toml")] = "does not exist"
    (folder / "base-fifo.toml").write_text('base = "fifo.toml"\n[pays]\n"flush" = { values = [5, 6] }\n')
    cases[str(folder / "base-fifo.toml")] = "fifo.toml is not a regular file"
    (folder / "list-zero.toml").write_text('paytables = ["binary.toml", "zero.toml"]\n')
    cases[str(folder / "list-zero.toml")] = "not UTF-8"
    in_process = {str(folder / name) for name in ("binary.toml", "huge.toml", "missing.toml")}
    for path, needle in cases.items():
        if path in in_process:
            code, out, err = run_main(capsys, "-a", str(arts), "vp", "sweep", path)
            assert code == 2 and not out and needle in one_error_line(err), (path, err)
        else:
            r = run_cli("-a", str(arts), "vp", "sweep", path, cwd=tmp_path, timeout=30)
            assert_one_error(r, needle)
            err = r.stderr
        assert "unknown sweep" not in err, (path, err)
    # a bare name that is no configured sweep but a FIFO in the working folder: read, refused
    os.mkfifo(tmp_path / "pipe")
    r = run_cli("-a", str(arts), "vp", "sweep", "pipe", cwd=tmp_path, timeout=30)
    assert_one_error(r, "sweep file pipe is not a regular file")
    assert not arts.exists()


def test_fifo_manifest_never_hangs(tmp_path: Path) -> None:
    arts = tmp_path / "arts"
    arts.mkdir()
    os.mkfifo(arts / "manifest.json")
    r = run_cli("-a", str(arts), "eval", "AsKsQsJsTs", timeout=20)
    assert_one_error(r, "not a regular file")
    r = run_cli("-a", str(arts), "vp", "list", "--json", timeout=20)
    assert r.returncode == 0 and not any(g["built"] for g in json.loads(r.stdout))


def test_user_standard_rule_set_is_used_not_ignored(artifacts: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """A config folder's rules/standard.toml that differs from the built-in ranking: `eval` and
    `showdown` use it (here: its tables are not built, which they say) instead of silently
    answering with the built-in ranking. Without the folder, the built-in answer stands. (The
    commands run in this process but the first: which tables they pick is under test.)"""
    cfg = tmp_path / "cfg"
    (cfg / "rules").mkdir(parents=True)
    (cfg / "rules" / "standard.toml").write_text('name = "standard"\nace_low_straight = "none"\n')
    r = run_cli("-a", str(artifacts), "--config-dir", str(cfg), "eval", HAND, "--rules", "standard")
    assert_one_error(r, "rules/standard/five.h5")
    game = tmp_path / "game.txt"
    game.write_text("As 2s 3d 4c 5h Kd Kc 7s 8s 9d\n")
    code, _, err = run_main(capsys, "-a", str(artifacts), "--config-dir", str(cfg), "showdown", str(game),
                            "--rules", "standard")  # the folder does not outlive the command
    assert code == 2 and "rules/standard/five.h5" in one_error_line(err), err
    code, out, _ = run_main(capsys, "-a", str(artifacts), "eval", HAND, "--rules", "standard")
    assert code == 0 and "straight" in out
    # the build plans tables of its own for the redefined set
    r = run_here(capsys, "-a", str(tmp_path / "arts"), "--config-dir", str(cfg), "build", "--dry-run")
    assert r.returncode == 0 and "rules:standard" in r.stdout, r.stdout[-2000:]


def test_vp_list_shows_no_figure_from_a_tampered_paytable(artifacts: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """catalog.json gone and the .h5's return rewritten in place (same size, mtime restored):
    `vp list` must not show the forged return (item 2); it lists the game as not built. The
    honest listing runs in this process, the one after the forgery in a fresh process (which
    holds nothing this process learnt about the file)."""
    arts = tmp_path / "arts"
    (arts / "paytables").mkdir(parents=True)
    shutil.copy2(artifacts / "manifest.json", arts / "manifest.json")
    h5 = arts / "paytables" / "jacks-or-better-9-6.h5"
    shutil.copy2(artifacts / "paytables" / "jacks-or-better-9-6.h5", h5)
    honest = run_here(capsys, "-a", str(arts), "vp", "list", "--json")
    assert honest.returncode == 0, honest.stderr
    row = next(g for g in json.loads(honest.stdout) if g["slug"] == "jacks-or-better-9-6")
    assert row["built"] and abs(row["return"] - 0.9954) < 1e-4, row
    st = os.stat(h5)
    with h5py.File(h5, "r+") as f:
        real = str(f.attrs["return_exact"])
        forged = str(int(real[0]) % 9 + 1) + real[1:]  # another leading digit, same length
        f.attrs.modify("return_exact", forged)
    os.utime(h5, ns=(st.st_atime_ns, st.st_mtime_ns))
    r = run_cli("-a", str(arts), "vp", "list", "--json")
    row = next(g for g in json.loads(r.stdout) if g["slug"] == "jacks-or-better-9-6")
    assert not row["built"] and row["return"] is None, row


SWEEP_AXES = [
    ('"full house" = {from = 5, to = 1e9}', "more than 1,000,000 per coin"),
    ('"full house" = {from = 5, to = 9, step = 1e-300}', "decimal places"),
    ('"full house" = {values = [nan]}', "finite"),
    ('"full house" = {values = [inf]}', "finite"),
    ('"full house" = {values = [1e300]}', "more than 1,000,000"),
    ('"full house" = {from = 1, to = 100, step = 0.001}', "at most 5,000 variants"),
    ('"full house" = {from = 1, to = 100}\n"flush" = {from = 1, to = 100}', "10,000 variants"),
]


@pytest.mark.parametrize("axes,needle", SWEEP_AXES, ids=[a[:30] for a, _ in SWEEP_AXES])
def test_sweep_numbers_are_finite_bounded_and_counted_first(tmp_path: Path, axes: str, needle: str,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Item 14: nan/inf/huge pays and runaway variant counts are refused before any work, with the
    bound named; nothing is written. The first case runs as a real process (exit code, stderr
    without traceback); the others in this process (the same check of the parsed numbers)."""
    sweep = tmp_path / "s.toml"
    sweep.write_text(f'base = "jacks-or-better-9-6"\n[pays]\n{axes}\n')
    arts = tmp_path / "arts"
    if (axes, needle) == SWEEP_AXES[0]:
        assert_one_error(run_cli("-a", str(arts), "vp", "sweep", str(sweep), timeout=30), needle)
    else:
        code, out, err = run_main(capsys, "-a", str(arts), "vp", "sweep", str(sweep))
        assert code == 2 and not out and needle in one_error_line(err), err
    assert not arts.exists()


@pytest.mark.parametrize("edit,needle", [("drop", 'no "datasets"'), ("empty", "no dataset 'score'")])
def test_manifest_entry_without_datasets_is_an_error_not_a_keyerror(artifacts: Path, tmp_path: Path,
                                                                   edit: str, needle: str,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Item 20: a manifest whose five.h5 entry lacks its datasets: one error line, exit 2."""
    arts = tmp_path / "arts"
    arts.mkdir()
    shutil.copy2(artifacts / "five.h5", arts / "five.h5")
    manifest = json.loads((artifacts / "manifest.json").read_text())
    if edit == "drop":
        del manifest["files"]["five.h5"]["datasets"]
    else:
        manifest["files"]["five.h5"]["datasets"] = {}
    (arts / "manifest.json").write_text(json.dumps(manifest))
    assert_one_error(run_here(capsys, "-a", str(arts), "eval", "AsKsQsJsTs"), needle)
