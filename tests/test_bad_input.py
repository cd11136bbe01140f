"""Issue 5: every kind of bad input gets one clear line, exit code 2, no traceback, and leaves
the artifacts folder exactly as it was."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from built_copy import artifact_files
from cli_runner import one_error_line, run_cli, run_here, run_main

ROOT = Path(__file__).resolve().parent.parent
DEAD30 = " ".join(f"{r}{s}" for r in "23456789" for s in "cdhs")[:-12]  # 28 low cards


CASES = [
    (["eval", "As Ks Qs Js Tx"], "bad card 'Tx'"),
    (["eval", "As Ks Qs Js As"], "duplicate card As"),
    (["eval", "As Ks Qs Js"], "expected 5 or 6 or 7 cards"),
    (["eval", ""], "expected 5 or 6 or 7 cards, got 0"),
    (["eval", "As 6d 7h 8c 2s", "--rules", "short-deck"], "card 2s is not in the short-deck deck"),
    (["eval", "As Ks Qs Js Ts", "--rules", "no-such-rules"], "unknown rule set 'no-such-rules'"),
    (["equity", "AsKs", "-n", "10"], "9"),
    (["equity", "AsKs", "--board", "2c"], "board"),
    (["equity", "AsKs", "--board", "2c 3d"], "board"),
    (["equity", "AsKs", "--board", "As 2c 3d"], "As"),
    (["equity", "AsKs", "-n", "9", "--dead", DEAD30], "deck"),
    (["equity", "AsKs", "--samples", "0"], "samples"),
    (["vp", "analyze", "configs/paytables/no-such-game.toml"], "no-such-game.toml"),
    (["vp", "analyze", "no-such-game"], "unknown paytable 'no-such-game'"),
    (["build", "no-such-stage"], "unknown stage 'no-such-stage'"),
]


#: the cases run as real processes (one per command); the others run in this process, where
#: the exit code and the error line are the CLI's own too
IN_A_PROCESS = frozenset({0, 7, 12, 14})


@pytest.mark.parametrize("case", range(len(CASES)), ids=[" ".join(a)[:40] for a, _ in CASES])
def test_bad_input_exit_2_and_artifacts_untouched(artifacts: Path, capsys: pytest.CaptureFixture[str],
                                                  case: int) -> None:
    args, needle = CASES[case]
    before = artifact_files(artifacts)
    if case in IN_A_PROCESS:
        r = run_cli("-a", str(artifacts), *args)
        code, err = r.returncode, r.stderr
    else:
        code, _, err = run_main(capsys, "-a", str(artifacts), *args)
    assert code == 2, (args, err)
    assert needle in one_error_line(err), err
    assert artifact_files(artifacts) == before


def test_every_command_has_a_real_process_case() -> None:
    assert {CASES[i][0][0] for i in IN_A_PROCESS} == {a[0] for a, _ in CASES}


def test_bad_paytable_files_exit_2(artifacts: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The first file in a real process, the others in this one."""
    cases = {
        "unknown_hand.toml": ('name = "x"\nwild = "none"\n[[line]]\nhand = "flush royale"\npays = 5\n',
                              "flush royale"),
        "negative.toml": ('name = "x"\nwild = "none"\n[[line]]\nhand = "flush"\npays = -5\n', "-5"),
        "text_pay.toml": ('name = "x"\nwild = "none"\n[[line]]\nhand = "flush"\npays = "lots"\n', "lots"),
        "no_lines.toml": ('name = "x"\nwild = "none"\n', "line"),
        "unknown_key.toml": ('name = "x"\nwild = "none"\n[[line]]\nhand = "flush"\npays = 5\ncolour = 1\n',
                             "colour"),
        "duplicate.toml": ('name = "x"\nwild = "none"\n[[line]]\nhand = "flush"\npays = 5\n'
                           '[[line]]\nhand = "flush"\npays = 5\n', "flush"),
        "malformed.toml": ('name = "x\n', "malformed.toml"),
    }
    before = artifact_files(artifacts)
    for i, (fname, (text, needle)) in enumerate(cases.items()):
        p = tmp_path / fname
        p.write_text(text)
        if i == 0:
            r = run_cli("-a", str(artifacts), "vp", "analyze", str(p))
            code, err = r.returncode, r.stderr
        else:
            code, _, err = run_main(capsys, "-a", str(artifacts), "vp", "analyze", str(p))
        assert code == 2, (fname, err)
        line = one_error_line(err)
        assert fname in line and needle in line, (fname, line)
    assert artifact_files(artifacts) == before


def test_malformed_build_config_exit_2(artifacts: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """In this process (a real process's exit 2 from build: CASES' unknown stage)."""
    cfg = tmp_path / "build.toml"
    cfg.write_text("artifacts = [\n")
    before = artifact_files(artifacts)
    r = run_here(capsys, "build", "--config", str(cfg), cwd=ROOT)
    assert r.returncode == 2 and "malformed TOML" in r.stderr and "Traceback" not in r.stderr
    assert artifact_files(artifacts) == before


def test_corrupt_manifest_is_named_and_debug_shows_traceback(tmp_path: Path) -> None:
    (tmp_path / "manifest.json").write_text("{not json")
    r = subprocess.run([sys.executable, "-m", "pipeline", "-a", str(tmp_path), "eval", "As Ks Qs Js Ts"],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "manifest.json is not valid JSON" in r.stderr and "rebuild" in r.stderr
    r = subprocess.run([sys.executable, "-m", "pipeline", "--debug", "-a", str(tmp_path), "eval",
                        "As Ks Qs Js Ts"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode != 0 and "Traceback" in r.stderr


def test_corrupt_manifest_is_repaired_by_a_build(tmp_path: Path) -> None:
    from pipeline.build.verify import verify

    (tmp_path / "manifest.json").write_text("{not json")
    assert not verify(tmp_path).ok
    r = subprocess.run([sys.executable, "-m", "pipeline", "-a", str(tmp_path), "build", "five"],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert verify(tmp_path, stages=["five"]).ok
