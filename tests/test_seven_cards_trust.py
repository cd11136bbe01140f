"""Issue 29, item 1: a checked :class:`SevenCards` batch stays checked. Copies and unpickled
batches are made by the constructor again (checked, immutable); a batch whose ids were swapped
or whose subclass skipped the check is scored by the checking path (an ``InputError``, never a
valid-looking wrong score or a segfault: those cases run in a child process). Also: masked
arrays and :meth:`SevenCards.random`'s arguments (item 5)."""

from __future__ import annotations

import copy
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from refpoker import colex, random_hands

from pipeline.errors import InputError
from pipeline.query.seven_cards import MAX_RANDOM, SevenCards, trusted_rows
from pipeline.query.tables import Tables

ROOT = Path(__file__).resolve().parent.parent
#: As Ks Qs Js Ts 2c 3d: a royal flush, 7462.
ROYAL = [48, 44, 40, 36, 32, 0, 5]


def _child(artifacts: Path, body: str) -> subprocess.CompletedProcess[str]:
    """Run ``body`` with ``t`` (Tables), ``b`` (a checked 3-row batch of ROYAL) in a child
    process: a segfault there is a failed test, not a dead test run."""
    head = f"""
        import numpy as np
        from pipeline.errors import InputError
        from pipeline.query.seven_cards import SevenCards
        from pipeline.query.tables import Tables
        t = Tables({str(artifacts)!r})
        b = SevenCards(np.array([{ROYAL}] * 3))
        assert t.score7(b).tolist() == [7462] * 3
    """
    code = textwrap.dedent(head) + textwrap.dedent(body)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


#: what the child-process tests run, by name: each body as :func:`_child` runs it
BASE_WRITEABLE = """
    try:
        b.ids.base.flags.writeable = True
        b.ids.base[0, 0] = 200
    except (ValueError, AttributeError):
        pass
    try:
        print(t.score7(b).tolist())
    except InputError as exc:
        print("refused:", exc)
"""
SWAPS = [
    "np.full((1, 7), 255, np.uint8)",                          # the segfault
    "_ro(np.full((1, 7), 255, np.uint8))",                     # read-only, read-only base
    "_ro(np.full((2, 7), 255, np.uint8))[:1]",                 # a read-only view of part of it
    "np.frombuffer(bytes([255] * 7), np.uint8).reshape(1, 7)",  # immutable, never checked
    "np.array([[48, 44, 40, 36, 32, 0, 300]])",                # int64: 300 would narrow to 44
]
SWAP_BODY = """
    def _ro(a):
        a.flags.writeable = False
        return a.view()
    object.__setattr__(b, "ids", {swap})
    try:
        print(t.score7(b).tolist())
    except InputError as exc:
        print("refused:", exc)
"""
SUBCLASS = """
    class Lax(SevenCards):
        def __post_init__(self):
            pass
    try:
        print(t.score7(Lax(np.full((1, 7), 255, np.uint8))).tolist())
    except InputError as exc:
        print("refused:", exc)
    class Honest(SevenCards):
        pass
    print(t.score7(Honest(np.array([[48, 44, 40, 36, 32, 0, 5]]))).tolist())
"""
CASES = {"base": BASE_WRITEABLE, **{w: SWAP_BODY.format(swap=w) for w in SWAPS}, "subclass": SUBCLASS}
#: starts a case's output in the shared child's stdout (then the case's name)
MARK = "@@case "
#: ends a case's output: the case ran to its end
DONE = "@@done"


@pytest.fixture(scope="module")
def child_runs(artifacts: Path) -> dict[str, subprocess.CompletedProcess[str]]:
    """Every case of :data:`CASES` run as :func:`_child` runs it, each with a fresh batch and
    its own names, but all in one child process (a process costs about half a CPU second). A
    case that does not finish there (a segfault, an uncaught error) runs again in a child of
    its own, so its test sees exactly what it alone does."""
    body = f"""
        for name, case in {CASES!r}.items():
            b = SevenCards(np.array([{ROYAL}] * 3))
            assert t.score7(b).tolist() == [7462] * 3
            print({MARK!r} + name, flush=True)
            exec(textwrap.dedent(case), {{"np": np, "InputError": InputError,
                                         "SevenCards": SevenCards, "t": t, "b": b}})
            print({DONE!r}, flush=True)
    """
    shared = _child(artifacts, "import textwrap\n" + textwrap.dedent(body))
    out: dict[str, list[str]] = {}
    done: set[str] = set()
    name = None
    for line in shared.stdout.splitlines():
        if line.startswith(MARK):
            name = line[len(MARK):]
            out[name] = []
        elif line == DONE and name is not None:
            done.add(name)
        elif name is not None:
            out[name].append(line)
    return {n: (subprocess.CompletedProcess(shared.args, 0, "".join(ln + "\n" for ln in out[n]), "")
                if n in done else _child(artifacts, case)) for n, case in CASES.items()}


def test_copies_and_unpickled_batches_are_checked_and_frozen(tables: Tables) -> None:
    """copy, deepcopy and pickle (what multiprocessing, joblib and Dask do to an argument) give
    a batch the scorer trusts only because it is immutable: its ids cannot be written."""
    hands = random_hands(np.random.default_rng(2901), 1_000, 7)
    batch = SevenCards(hands)
    want = tables.table(7)[colex(hands)]
    for other in (copy.copy(batch), copy.deepcopy(batch), pickle.loads(pickle.dumps(batch)),
                  pickle.loads(pickle.dumps(batch, protocol=2))):
        assert type(other) is SevenCards and trusted_rows(other) is not None
        assert not other.ids.flags.writeable
        with pytest.raises(ValueError):
            other.ids[0, 1] = 230
        with pytest.raises(ValueError):
            other.ids.flags.writeable = True
        assert np.array_equal(tables.score7(other), want)


def test_a_pickle_with_bad_rows_is_refused() -> None:
    """A pickle is data from outside: one that carries a bad row (edited, or written by an
    older version as a bare ``__dict__``) is checked when it is loaded or scored."""
    good = pickle.dumps(SevenCards(np.array([ROYAL])))
    royal = bytes(ROYAL)
    assert royal in good
    with pytest.raises(InputError, match="row 0 is not 7 distinct card ids"):
        pickle.loads(good.replace(royal, bytes([48, 48, 40, 36, 32, 0, 5])))


def test_the_base_of_a_batch_cannot_be_made_writeable(
        child_runs: dict[str, subprocess.CompletedProcess[str]]) -> None:
    r = child_runs["base"]
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip() in ("[7462, 7462, 7462]", "refused: row 0 is not 7 distinct card ids 0..51: "
                                "[200, 44, 40, 36, 32, 0, 5]"), r.stdout


@pytest.mark.parametrize("swap", SWAPS)
def test_ids_swapped_after_the_check_are_checked(
        child_runs: dict[str, subprocess.CompletedProcess[str]], swap: str) -> None:
    r = child_runs[swap]
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.startswith("refused: row 0 is not 7 distinct card ids"), r.stdout


def test_a_subclass_that_skips_the_check_is_checked(
        child_runs: dict[str, subprocess.CompletedProcess[str]]) -> None:
    r = child_runs["subclass"]
    assert r.returncode == 0, r.stderr[-2000:]
    lines = r.stdout.splitlines()
    assert lines[0].startswith("refused: row 0 is not 7 distinct card ids"), r.stdout
    assert lines[1] == "[7462]"


def test_masked_ids_are_refused_not_scored(tables: Tables) -> None:
    """A masked array's hidden entries are not cards: refused (naming where), by score7 and by
    SevenCards; with nothing masked it scores like the plain array."""
    rows = np.array([ROYAL, [0, 1, 2, 3, 5, 9, 13]])
    masked = np.ma.array(rows, mask=[[False] * 7, [True] + [False] * 6])
    with pytest.raises(InputError, match=r"masked"):
        tables.score7(masked)
    with pytest.raises(InputError, match=r"masked"):
        tables.score5(masked[:, :5])
    with pytest.raises(InputError, match=r"masked"):
        SevenCards(masked)
    clear = np.ma.array(rows, mask=False)
    assert np.asarray(tables.score7(clear)).tolist() == np.asarray(tables.score7(rows)).tolist()


@pytest.mark.parametrize("n", [True, 2.5, "3", -1, None])
def test_random_takes_a_whole_count(n: object) -> None:
    with pytest.raises(InputError, match="whole number"):
        SevenCards.random(n)  # type: ignore[arg-type]


def test_random_is_bounded() -> None:
    with pytest.raises(InputError, match=f"at most {MAX_RANDOM:,}"):
        SevenCards.random(10**12)
    with pytest.raises(InputError, match="seed"):
        SevenCards.random(3, seed=-1)
    assert len(SevenCards.random(np.int64(3), seed=np.uint8(4))) == 3


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_checked_rows_unpickle_through_the_check(protocol: int) -> None:
    """Every protocol rebuilds the immutable rows with their constructor (protocols 0 and 1
    would call ``bytes.__new__`` and skip it)."""
    from pipeline.query.seven_cards import CheckedRows

    rows = CheckedRows(bytes(ROYAL))
    again = pickle.loads(pickle.dumps(rows, protocol=protocol))
    assert type(again) is CheckedRows and again == rows
    rebuild, args = rows.__reduce_ex__(protocol)[:2]
    assert rebuild is CheckedRows
    with pytest.raises(InputError, match="row 0 is not 7 distinct card ids"):
        rebuild(bytes([48, 48, 40, 36, 32, 0, 5]))
