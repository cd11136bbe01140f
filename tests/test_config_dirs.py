"""Configs that travel: rule sets and paytables are found by name from any working folder, user
config folders add to and override the built-ins, and advice in errors names commands that work.

Every command here runs in a fresh temporary folder (``cwd=tmp_path``), never the repository.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_runner import run_cli, run_main

from pipeline.core.cards import parse_cards
from pipeline.errors import InputError
from pipeline.query.tables import Tables
from pipeline.registry import ENV_VAR, entries, paytable_path, paytable_slugs, rule_set_names, rules_path

ROOT = Path(__file__).resolve().parent.parent
JOB96 = ROOT / "pipeline" / "data" / "paytables" / "jacks-or-better-9-6.toml"
JOB96_RETURN = "1653526326983/1661102543100"


def _run(cwd: Path, *args: str, stdin: str | None = None, env: dict[str, str] | None = None
         ) -> subprocess.CompletedProcess[str]:
    """The command in ``cwd``, with the user's POKERTABLES_CONFIG_DIR left out."""
    return run_cli(*args, cwd=cwd, stdin=stdin, env=env, drop_env=(ENV_VAR,))


@pytest.fixture
def here(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
         ) -> Callable[..., tuple[int, str, str]]:
    """The command in this process, from ``tmp_path`` and with POKERTABLES_CONFIG_DIR left out:
    (exit code, stdout, stderr). A process from another folder is
    :func:`test_eval_short_deck_from_another_folder`'s (and the Tables one's)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(ENV_VAR, raising=False)

    def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
        return run_main(capsys, *args, stdin=stdin)

    return run


def test_builtins_ship_in_the_package() -> None:
    assert {"standard", "short-deck", "hk-stud", "ace-to-five", "deuce-to-seven"} <= set(rule_set_names())
    assert "jacks-or-better-9-6" in paytable_slugs()
    assert rules_path("short-deck").parent == ROOT / "pipeline" / "data" / "rules"
    assert paytable_path("jacks-or-better-9-6") == JOB96
    with pytest.raises(InputError, match="unknown paytable 'no-such'; known: .*jacks-or-better-9-6"):
        paytable_path("no-such")
    with pytest.raises(InputError, match="unknown rule set 'no-such'; known: .*short-deck"):
        rules_path("no-such")


def test_eval_short_deck_from_another_folder(artifacts: Path, tmp_path: Path) -> None:
    r = _run(tmp_path, "-a", str(artifacts.resolve()), "eval", "As 6d 7h 8c 9s", "--rules", "short-deck",
             "--json")
    assert r.returncode == 0, r.stderr
    info = json.loads(r.stdout)
    # A-6-7-8-9 is the lowest straight of the 36-card deck
    assert info["rules"] == "short-deck" and info["category_name"] == "straight"


def test_tables_with_rules_from_another_folder(artifacts: Path, tmp_path: Path) -> None:
    code = ("import json, sys; from pipeline import Tables; t = Tables(sys.argv[1], rules='short-deck'); "
            "print(json.dumps([t.category_name(t.score5('Ah Kh Qh 9h 7h')), "
            "t.score5('Ah Kh Qh 9h 7h') > t.score5('As Ad Ac Ks Kd')]))")
    r = subprocess.run([sys.executable, "-c", code, str(artifacts.resolve())], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    # short deck: a flush beats a full house
    assert json.loads(r.stdout) == ["flush", True]


def test_vp_analyze_by_slug_from_another_folder(artifacts: Path, here: Callable[..., tuple[int, str, str]]) -> None:
    code, out, err = here("-a", str(artifacts.resolve()), "vp", "analyze", "jacks-or-better-9-6", "--json")
    assert code == 0, err
    assert json.loads(out)["return_exact"] == JOB96_RETURN
    code, out, err = here("-a", str(artifacts.resolve()), "vp", "hold", "Jh Qh Kh Ah 2c", "-p",
                          "jacks-or-better-9-6", "--json")
    assert code == 0, err
    assert json.loads(out)["best"] == "Jh Qh Kh Ah"


def test_equity_from_another_folder(artifacts: Path, here: Callable[..., tuple[int, str, str]],
                                    tables: Tables) -> None:
    code, out, err = here("-a", str(artifacts.resolve()), "equity", "AsKs", "--board", "2c 7d 9h",
                          "--vs", "QdQc", "--json")
    assert code == 0, err
    got = json.loads(out)
    # brute force: every turn and river of the 45 unseen cards
    hero, opp, board = parse_cards("As Ks"), parse_cards("Qd Qc"), parse_cards("2c 7d 9h")
    rest = [c for c in range(52) if c not in hero + opp + board]
    win = tie = n = 0
    for i, a in enumerate(rest):
        for b in rest[i + 1:]:
            h = tables.score7(hero + board + [a, b])
            o = tables.score7(opp + board + [a, b])
            win += h > o
            tie += h == o
            n += 1
    assert n == 990
    assert got["win"] == pytest.approx(win / n, abs=1e-12) and got["tie"] == pytest.approx(tie / n, abs=1e-12)


def test_showdown_hk_stud_from_another_folder(artifacts: Path, here: Callable[..., tuple[int, str, str]]) -> None:
    lines = ("Ad 8c 9h Tc Js 9s Ts Jd Qh Kc\n"    # A-8-9-T-J: second-highest straight in HK stud
             "As Kd Qd Jd 9d Ah Ks Qs Js 9s\n")   # same ranks: the top card's suit decides, spades best
    code, out, err = here("-a", str(artifacts.resolve()), "showdown", "--rules", "hk-stud", stdin=lines)
    assert code == 0, err
    assert out.splitlines() == ["Black wins.", "Black wins."]
    code, out, err = here("-a", str(artifacts.resolve()), "showdown", stdin=lines)
    assert out.splitlines() == ["White wins.", "Tie."]  # hold'em ranking: A-8-9-T-J is ace high


def _user_folder(root: Path) -> Path:
    folder = root / "mine"
    (folder / "paytables").mkdir(parents=True)
    # same slug as the built-in, with the full house paying 8: a different game
    (folder / "paytables" / "jacks-or-better-9-6.toml").write_text(
        JOB96.read_text().replace("pays = 9", "pays = 8"))
    return folder


def test_user_folder_overrides_builtin_slug(artifacts: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # in this process, from the tmp folder (three interpreters cost seconds each); run_main
    # drops a call's --config-dir folders after it, as a process's end would
    folder = _user_folder(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv(ENV_VAR, raising=False)
    a = str(artifacts.resolve())
    code, out, err = run_main(capsys, "-a", a, "vp", "analyze",
                              str(folder / "paytables" / "jacks-or-better-9-6.toml"), "--json")
    assert code == 0, err
    want = json.loads(out)["return_exact"]
    assert want != JOB96_RETURN
    code, out, err = run_main(capsys, "-a", a, "--config-dir", str(folder), "vp", "analyze",
                              "jacks-or-better-9-6", "--json")
    assert code == 0, err
    assert json.loads(out)["return_exact"] == want
    monkeypatch.setenv(ENV_VAR, str(folder))
    code, out, err = run_main(capsys, "-a", a, "vp", "analyze", "jacks-or-better-9-6", "--json")
    assert code == 0, err
    assert json.loads(out)["return_exact"] == want
    monkeypatch.delenv(ENV_VAR)
    code, out, err = run_main(capsys, "-a", a, "vp", "analyze", "jacks-or-better-9-6", "--json")
    assert code == 0, err
    assert json.loads(out)["return_exact"] == JOB96_RETURN   # the built-in again


def test_user_rule_set_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "my-game.toml").write_text('name = "my-game"\nranks = "789TJQKA"\n')
    monkeypatch.setenv(ENV_VAR, str(tmp_path))
    assert "my-game" in rule_set_names()
    assert rules_path("my-game") == tmp_path / "rules" / "my-game.toml"
    assert entries("rules")["short-deck"].parent == ROOT / "pipeline" / "data" / "rules"


def test_six_card_rule_set_advice_is_true(artifacts: Path, here: Callable[..., tuple[int, str, str]]) -> None:
    code, _, err = here("-a", str(artifacts.resolve()), "eval", "As Ks Qs Js Ts 9s", "--rules", "short-deck")
    assert code == 2
    assert "no 6-card table" in err and "build rules" not in err
    # the command the old message suggested really does nothing for it
    code, out, err = here("-a", str(artifacts.resolve()), "build", "rules", "--dry-run", "--json")
    assert code == 0, err
    outputs = [o for s in json.loads(out)["stages"] for o in s["outputs"]]
    assert not any(o.endswith("six.h5") for o in outputs)


def test_missing_seven_card_table_names_a_working_command(artifacts: Path, tmp_path: Path,
                                                          here: Callable[..., tuple[int, str, str]]) -> None:
    code, _, msg = here("-a", str(artifacts.resolve()), "eval", "As Ks Qs Js Ts 9s 8s", "--rules", "hk-stud")
    assert code == 2
    assert "seven = false" in msg and "--config-dir <folder> build rules:hk-stud" in msg
    # follow the advice in a scratch artifacts folder, planning only: the stage exists and writes seven.h5
    folder = tmp_path / "cfg"
    (folder / "rules").mkdir(parents=True)
    (folder / "rules" / "hk-stud.toml").write_text(
        rules_path("hk-stud").read_text().replace("seven = false", "seven = true"))
    plan = _run(tmp_path, "-a", str(tmp_path / "art"), "--config-dir", str(folder), "build", "rules:hk-stud",
                "--dry-run", "--json")
    assert plan.returncode == 0, plan.stderr
    stages = json.loads(plan.stdout)["stages"]
    assert [s["name"] for s in stages] == ["rules:hk-stud"]
    assert "rules/hk-stud/seven.h5" in stages[0]["outputs"]
