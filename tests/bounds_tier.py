"""The bounds-checked tier's child run (tests/test_wild.py), startable ahead of its test.

The browser files keep their worker's core about half idle (each page round trip waits on the
browser, the server and the test in turn: a fifth to a quarter of both cores idle for the three
minutes they run, clean clone, 2 cores), while the tier is a minute of compiling on one core. So
the browser files' server fixture starts the tier in the background, at a lower priority so it
takes only the time the pages leave idle, and the tier's test, scheduled last in the browser
files' group (tests/conftest.py ``SHARED_WITH``), collects its result. Run alone, the test
starts the child itself.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: set in the bounds-checked child run so it does not start another one
CHILD = "POKERTABLES_BOUNDSCHECK_CHILD"
#: LLVM optimisation level of the bounds-checked compiles (numba's default is 3). Not 0: the
#: child's tests then run unoptimised code and the tier costs more, not less (AMD EPYC, cold
#: cache, load 4-7: 98.7 CPU s at -O0 against 57.3-58.8 at -O1)
BOUNDSCHECK_OPT = 1
#: the child's niceness: it fills the cores others leave idle rather than slowing them
NICENESS = 10
#: the longest the tier may take (seconds)
TIMEOUT = 600.0
#: the test that collects the child's result
TEST_NAME = "test_kernel_tests_pass_with_bounds_checks"
#: kernel tests on small inputs that the bounds-checked tier re-runs, none needing the built
#: tables (so the tier never starts a build). Every kernel compiles from cold there, a few CPU
#: seconds each, so the list reaches every kernel family of these files with few tests: one
#: that runs no kernel, or only kernels an earlier one ran on the same kind of input, is left
#: out (the Python-only checks here, test_fasteval's scorer, the two-joker classifier alone)
BOUNDSCHECKED = (
    "tests/test_wild.py::test_every_card_id_is_wild_as_the_rules_say",
    # the wild-card pay classifier and the hold patterns
    "tests/test_wild.py::test_second_joker_plays_like_the_first_in_pay_and_hold_patterns",
    # the ruin recursion, and again far out with half-bet money
    "tests/test_vp_charts.py::test_ruin_recursion_equals_the_plain_per_bankroll_loop",
    "tests/test_vp_charts.py::test_long_run_ruin_with_fractional_pays_is_bracketed_not_certain",
    # the evaluator tables (its fixture builds them), the generic row scorer and the 7-card
    # scorers, serial and parallel
    "tests/test_sevens.py::test_kernels_equal_the_generic_kernel_without_artifacts",
    # the checked 7-card kernel's unchecked vector reads, on bad rows (a byte of 255) in any chunk
    "tests/test_sevens.py::test_checked_kernel_names_the_first_bad_row_in_any_chunk",
    # the two-joker deck: canonical classes, subset counts and a whole solve
    "tests/test_vp_catalog.py::test_double_joker_8_5_reproduces_published_cycles",
    # Ultimate Texas Hold'em: river counts, the flop pass and the practical rules' kernels
    "tests/test_casino_uth.py::test_practical_rules_match_their_brute_force",
    # the exact range kernel: the last seat counted (weighted) and visited, rows per hand
    # under suit symmetry
    "tests/test_range_counting.py::test_range_kernel_equals_the_brute_force[weighted]",
    "tests/test_range_counting.py::test_range_kernel_equals_the_brute_force[visited]",
    "tests/test_range_counting.py::test_rows_per_hand_add_up_and_equal_each_hands_own_spot[symmetric]",
    # one line's pay over a range (scan, fill, lookup) against the sweep kernel
    "tests/test_vp_stored.py::test_line_range_counts_are_the_solvers_with_the_low_variance_rule",
)


@dataclass(frozen=True)
class TierRun:
    """A started child run: its process and the files its output goes to."""

    process: subprocess.Popen[bytes]
    stdout: Path
    stderr: Path

    def finish(self) -> tuple[int, str, str]:
        """Wait for the child (at most :data:`TIMEOUT` s): its exit code, stdout and stderr."""
        try:
            code = self.process.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise
        return code, self.stdout.read_text(), self.stderr.read_text()


_runs: dict[str, TierRun] = {}


def start(folder: Path, tests: tuple[str, ...] = BOUNDSCHECKED) -> TierRun:
    """Start the bounds-checked child over ``tests`` once per process (its numba cache and
    output in ``folder``); the run already started, if any."""
    if "tier" in _runs:
        return _runs["tier"]
    folder.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "NUMBA_BOUNDSCHECK": "1", "NUMBA_CACHE_DIR": str(folder / "numba"),
           "NUMBA_OPT": str(BOUNDSCHECK_OPT), CHILD: "1"}
    out, err = folder / "stdout.txt", folder / "stderr.txt"
    with open(out, "wb") as o, open(err, "wb") as e:
        process = subprocess.Popen(
            [sys.executable, "-m", "pytest", "-q", "-rA", "-n", "0", "-p", "no:cacheprovider",
             "--no-artifacts", *tests], cwd=ROOT, env=env, stdout=o, stderr=e,
            preexec_fn=lambda: os.nice(NICENESS))
    run = _runs["tier"] = TierRun(process, out, err)
    return run


def stop() -> None:
    """End a started child that no test collected (its test was not run in this process)."""
    run = _runs.pop("tier", None)
    if run is not None and run.process.poll() is None:
        run.process.kill()
        run.process.wait()


def take(folder: Path) -> TierRun:
    """The started run (else one started now in ``folder``), handed over to the test that
    checks it: :func:`stop` leaves it alone from then on."""
    run = start(folder)
    del _runs["tier"]
    return run
