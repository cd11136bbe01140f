"""The page of ``pokertables serve`` in a real browser: Debian's headless chromium driven by
Selenium through the system chromedriver (never a downloaded browser), against the real server on
a free loopback port. Each scenario clicks as a player would and checks that the numbers the page
shows are the API's (and, for some, the CLI's ``--json``) for the same question.

Without a browser the file skips with one loud warning; under ``CI=true`` it fails instead.
Screenshots of each view go to a temporary folder, or to ``$POKERTABLES_SCREENSHOTS`` when set
(``POKERTABLES_SCREENSHOTS=docs/img`` refreshes the committed ones).
"""

from __future__ import annotations

import base64
import io
import json
import os
import shutil
import tempfile
import time
import urllib.error
import urllib.request
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from pipeline.equity.ranges.parse import parse_range
from tests.cli_runner import run_main

#: Debian's names for the browser and its driver
BROWSERS = ("chromium", "chromium-browser")
DRIVER = "/usr/bin/chromedriver"
#: the flags a headless run in a container needs, and no network beyond loopback
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")
WIDTH, HEIGHT = 1500, 1000
WINDOW = f"--window-size={WIDTH},{HEIGHT}"
#: tallest full-page screenshot
MAX_SHOT = 2400
#: colours of a committed screenshot (the page uses a few dozen; 192 keeps the heatmap's ramp)
DOC_COLOURS = 192
SHOTS_ENV = "POKERTABLES_SCREENSHOTS"
#: seconds a page waits for an answer (solves and Monte Carlo on a loaded 2-core machine)
WAIT = 120
JACKS = "jacks-or-better-9-6"
DEFAULT_CASINO = "three-card-poker"


def _browser() -> tuple[str, str] | None:
    exe = next((p for p in map(shutil.which, BROWSERS) if p), None)
    driver = DRIVER if os.path.exists(DRIVER) else shutil.which("chromedriver")
    return (exe, driver) if exe and driver else None


FOUND = _browser()
try:
    import selenium  # noqa: F401
except ImportError:  # pragma: no cover  (the test extra installs it)
    FOUND = None
if FOUND is None:
    MISSING = ("BROWSER TESTS NOT RUN: no chromium + chromedriver (apt-get install chromium "
               "chromium-driver) or no selenium (pip install selenium)")
    if os.environ.get("CI") == "true":
        pytest.fail(MISSING, pytrace=False)
    warnings.warn(MISSING, stacklevel=1)
    pytest.skip(MISSING, allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

# ------------------------------------------------------------------ fixtures


@contextmanager
def start_chromium() -> Iterator[WebDriver]:
    """Headless Debian chromium with a fresh profile, for the ``with`` block."""
    assert FOUND is not None
    exe, path = FOUND
    opts = webdriver.ChromeOptions()
    opts.binary_location = exe
    for flag in (*FLAGS, WINDOW):
        opts.add_argument(flag)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # the console, for no_script_errors
    profile = tempfile.mkdtemp(prefix="pokertables-chromium-")
    opts.add_argument(f"--user-data-dir={profile}")
    d = webdriver.Chrome(service=Service(path), options=opts)
    d.set_script_timeout(WAIT)
    try:
        yield d
    finally:
        d.quit()
        shutil.rmtree(profile, ignore_errors=True)


# The server and the browser start once per session (conftest's ``page_server`` and ``chromium``,
# a few seconds each) and serve this file and the other browser files, which conftest schedules
# on the same xdist worker; every scenario starts from a fresh page (:func:`open_view`).
@pytest.fixture
def server(page_server: str) -> str:
    """The real server (``create_app`` on uvicorn) on a free loopback port: its address."""
    return page_server


@pytest.fixture
def driver(chromium: WebDriver) -> WebDriver:
    """Headless Debian chromium (one profile for the session)."""
    return chromium


@pytest.fixture(autouse=True)
def no_script_errors(driver: WebDriver) -> Iterator[None]:
    """Every scenario ends with no uncaught JavaScript error in the console (a refused request
    is the page's business, shown in its error box; the console logs it as a network line)."""
    driver.get_log("browser")  # what earlier scenarios left
    yield
    errors = [e["message"] for e in driver.get_log("browser")
              if e.get("level") == "SEVERE" and e.get("source") != "network"]
    assert not errors, errors


@dataclass
class Shots:
    """Where screenshots go: every view's to a temporary folder, and the ones the docs show
    (``serve-*.png``) also to ``$POKERTABLES_SCREENSHOTS`` when set, in 192 colours (a third of
    the size, no visible change)."""

    folder: Path
    docs: Path | None


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Shots:
    """Where screenshots go (:class:`Shots`)."""
    given = os.environ.get(SHOTS_ENV)
    if given:
        Path(given).mkdir(parents=True, exist_ok=True)
    return Shots(tmp_path_factory.mktemp("screenshots"), Path(given) if given else None)


# ------------------------------------------------------------------ helpers


def api(base: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """The server's answer to one question (the API's JSON, or its error as a dict)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"{base}/api/{path}", data=data,
                                 headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=WAIT) as r:
            return json.load(r)
    except urllib.error.HTTPError as exc:
        return json.load(exc)


def cli_json(capsys: pytest.CaptureFixture[str], artifacts: Path, *args: str) -> Any:
    """The CLI's ``--json`` answer, run in this process."""
    code, out, err = run_main(capsys, "-a", str(artifacts), *args, "--json")
    assert code == 0, err
    return json.loads(out)


class PageError(AssertionError):
    """The page showed an error while a test waited for an answer."""


#: the error box's text while it shows (it is shown by clearing its ``hidden`` attribute: then
#: it has a layout box), else null. One small script per poll of :func:`wait`, not a lookup plus
#: Selenium's ``is_displayed`` atom (tens of kB of script sent and run each time, about ten
#: times a second for every second a page computes)
ERROR_SHOWN = ("const e = document.getElementById('error');"
               "return e && e.getClientRects().length > 0"
               " ? document.getElementById('error-text').innerText : null;")


def wait(d: WebDriver, ok: Callable[[WebDriver], Any], what: str, timeout: float = WAIT,
         errors: bool = False) -> Any:
    """Wait until ``ok(d)`` is truthy; fail naming ``what`` and the page's error box if not, or
    at once when the error box shows (unless ``errors``: the test expects one)."""
    def check(d: WebDriver) -> Any:
        if not errors:
            shown = d.execute_script(ERROR_SHOWN)
            if shown is not None:
                raise PageError(f"waiting for {what}, the page showed: {shown}")
        return ok(d)
    try:
        return WebDriverWait(d, timeout, poll_frequency=0.1,
                             ignored_exceptions=(StaleElementReferenceException,)).until(check)
    except PageError:
        raise
    except Exception:
        err = d.find_element(By.ID, "error-text").text
        raise AssertionError(f"page never showed {what}; error box: {err!r}") from None


def idle(d: WebDriver) -> bool:
    return bool(d.execute_script("return document.body.dataset.busy === '0'"))


#: a file of the server's that is not a page: loaded between two scenarios so the next page
#: is a new document (going to the same address with another #view would keep its state).
#: Not about:blank: leaving the server's site and coming back, Chromium starts two renderer
#: processes per page, about 0.25 CPU s more each time (AMD EPYC; ~30 pages a run)
BETWEEN_PAGES = "/style.css"


def fresh_page(d: WebDriver, base: str, page: str = "/") -> None:
    """Load the server's ``page`` as a new document, in the renderer the page had."""
    d.get(base + BETWEEN_PAGES)
    d.get(base + page)


def open_view(d: WebDriver, base: str, view: str) -> None:
    fresh_page(d, base, f"/#{view}")
    wait(d, lambda d: d.execute_script("return document.body.dataset.view") == view and idle(d),
         f"the {view} view")
    time.sleep(0.5)  # a debounced first request may still be due
    wait(d, idle, "the first answers")


def by_id(d: WebDriver, name: str) -> WebElement:
    return d.find_element(By.ID, name)


def cell(d: WebDriver, grid: str, cls: str) -> WebElement:
    return d.find_element(By.CSS_SELECTOR, f"#{grid} .cell[data-cls='{cls}']")


def type_into(el: WebElement, text: str) -> None:
    el.clear()
    el.send_keys(text)


def set_slider(d: WebDriver, name: str, value: float) -> None:
    d.execute_script("const e = document.getElementById(arguments[0]); e.value = arguments[1];"
                     "e.dispatchEvent(new Event('input', {bubbles: true}));", name, value)


def seat_row(d: WebDriver, i: int) -> WebElement:
    return d.find_element(By.CSS_SELECTOR, f"#eq-seats tr[data-seat='{i}']")


#: a seat's range box: a textarea that wraps and grows with its range
SEAT_BOX = ".range-text"


def seat_box(d: WebDriver, i: int) -> WebElement:
    return seat_row(d, i).find_element(By.CSS_SELECTOR, SEAT_BOX)


#: what a seat's box shows after a comma so that it can wrap there (js/equity.js); not the range's
BREAK = "\u200b"


def seat_text(d: WebDriver, i: int) -> str:
    """The range in seat ``i``'s box, as typed (without the box's break opportunities)."""
    return str(seat_box(d, i).get_attribute("value")).replace(BREAK, "")


def seat_combos(d: WebDriver, i: int) -> str:
    return str(seat_row(d, i).find_element(By.CSS_SELECTOR, "td.combos").text)


def seat_numbers(d: WebDriver, i: int) -> dict[str, float]:
    row = seat_row(d, i)
    return {k: float(str(row.find_element(By.CSS_SELECTOR, f"td.{k}").get_dom_attribute("data-value")))
            for k in ("win", "tie", "lose", "equity")}


def grid_weights(d: WebDriver, grid: str) -> dict[str, float]:
    """The painted classes of a grid and their fill (weight x share of the class's combos)."""
    got = d.execute_script(
        "return [...document.querySelectorAll(`#${arguments[0]} .cell.on`)]"
        ".map(c => [c.dataset.cls, +c.dataset.weight]);", grid)
    return {k: v for k, v in got}


def range_fill(answer: dict[str, Any]) -> dict[str, float]:
    """The fill the grid must show for a ``range --json`` answer."""
    out = {}
    for c in answer["classes"]:
        total = 6 if len(c["class"]) == 2 else 4 if c["class"].endswith("s") else 12
        out[c["class"]] = c["weight"] * (c["combos"] / total if c["mixed"] else 1)
    return out


def shot(d: WebDriver, shots: Shots, name: str, docs: str = "") -> None:
    """A screenshot of the whole page, below the window's bottom too (capped at MAX_SHOT px);
    ``docs``: also the docs' ``<docs>.png``."""
    width, height = d.execute_script("return [window.innerWidth, document.documentElement.scrollHeight];")
    png = d.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": 0, "y": 0, "width": width, "height": min(height, MAX_SHOT), "scale": 1}})["data"]
    data = base64.b64decode(png)
    (shots.folder / f"{name}.png").write_bytes(data)
    if docs and shots.docs is not None:
        from PIL import Image

        image = Image.open(io.BytesIO(data)).convert("RGB")
        image.quantize(colors=DOC_COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
                       ).save(shots.docs / f"{docs}.png", optimize=True)


def set_seat(d: WebDriver, i: int, text: str, errors: bool = False) -> None:
    """Type a seat's range and wait until the server has counted it."""
    type_into(seat_box(d, i), text)
    wait(d, lambda d: idle(d) and seat_row(d, i).get_dom_attribute("data-counted") == text, f"seat {i} counted",
         errors=errors)


def three_seats(d: WebDriver, server: str, first: str, second: str) -> None:
    """The equity view with seats 0 and 1 typed and a third seat (random until typed) added."""
    open_view(d, server, "equity")
    set_seat(d, 0, first)
    set_seat(d, 1, second)
    by_id(d, "eq-add").click()
    wait(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#eq-seats tr.seat")) == 3, "a third seat")


def seats_show(d: WebDriver, players: list[dict[str, Any]]) -> None:
    """Every seat row shows an ``equity --json`` answer's win, tie, lose and equity exactly."""
    for i, player in enumerate(players):
        assert seat_numbers(d, i) == {k: player[k] for k in ("win", "tie", "lose", "equity")}


def hits_view(d: WebDriver, server: str, rng: str, board: str, vs: str = "") -> dict[str, Any]:
    """The Hits view asked about ``rng`` on ``board`` (with ``vs``: equity per category against
    it too) and shown: the API's ``hits/view`` answer to the same question, whose live combos
    the page's total shows (and, with ``vs``, whose equity cells it filled)."""
    open_view(d, server, "hits")
    type_into(by_id(d, "hits-range"), rng)
    type_into(by_id(d, "hits-board"), board)
    by_id(d, "hits-eq" if vs else "hits-run").click()
    view = api(server, "hits/view", {"range": rng, "board": board, "dead": "", **({"vs": vs} if vs else {})})
    with_equity = "#hits-table td.eqcol[data-equity]:not([data-equity=''])"
    wait(d, lambda d: idle(d) and by_id(d, "hits-total").get_dom_attribute("data-live") == str(view["live_combos"])
         and (not vs or d.find_elements(By.CSS_SELECTOR, with_equity)), "the hit table")
    return dict(view)


#: a little more than the page's debounce before it asks the server
DEBOUNCE = 0.5


# ------------------------------------------------------------------ Equity view


def test_grid_click_and_drag_block(driver: WebDriver, server: str, shots: Shots) -> None:
    d = driver
    open_view(d, server, "equity")
    by_id(d, "eq-clear").click()
    wait(d, lambda d: seat_text(d, 0) == "" and not grid_weights(d, "eq-grid"), "a cleared grid")
    cell(d, "eq-grid", "AKs").click()
    wait(d, lambda d: seat_text(d, 0) == "AKs" and seat_combos(d, 0) == "4", "AKs painted")
    # drag a block from QQ (row 2, col 2) to JTs (row 3, col 4): QQ QJs QTs / QJo JJ JTs
    ActionChains(d).click_and_hold(cell(d, "eq-grid", "QQ")).move_to_element(
        cell(d, "eq-grid", "QTs")).move_to_element(cell(d, "eq-grid", "JTs")).release().perform()
    block = {"QQ", "QJs", "QTs", "QJo", "JJ", "JTs", "AKs"}
    wait(d, lambda d: set(grid_weights(d, "eq-grid")) == block and idle(d), "the dragged block")
    wait(d, lambda d: seat_combos(d, 0) != "4", "the block counted")
    text = seat_text(d, 0)
    a = api(server, "range", {"range": text})
    assert {c["class"] for c in a["classes"]} == block  # the text the grid wrote is the block
    assert seat_combos(d, 0) == str(a["live_weighted"]) == "40"
    assert grid_weights(d, "eq-grid") == range_fill(a)
    # a half-weight brush on a new hand: the text carries the weight, the API counts it
    set_slider(d, "eq-brush", 50)
    cell(d, "eq-grid", "AA").click()
    wait(d, lambda d: "AA:0.5" in seat_text(d, 0) and idle(d), "AA at half weight")
    wait(d, lambda d: seat_combos(d, 0) == str(api(server, "range", {"range": seat_text(d, 0)})["live_weighted"]),
         "weighted combos")
    assert seat_combos(d, 0) == "43"
    # dragging from a painted hand erases the block
    set_slider(d, "eq-brush", 100)
    ActionChains(d).click_and_hold(cell(d, "eq-grid", "QQ")).move_to_element(
        cell(d, "eq-grid", "JTs")).release().perform()
    wait(d, lambda d: set(grid_weights(d, "eq-grid")) == {"AKs", "AA"}, "the block erased")
    shot(d, shots, "equity-grid")


def test_range_text_draws_the_grid(driver: WebDriver, server: str, shots: Shots) -> None:
    d = driver
    open_view(d, server, "equity")
    text = "TT+:0.25,AKs:0.5,AhQh,76s"
    set_seat(d, 0, text)
    a = api(server, "range", {"range": text})
    wait(d, lambda d: grid_weights(d, "eq-grid") == range_fill(a), "the typed range on the grid")
    assert seat_combos(d, 0) == str(a["live_weighted"])
    assert grid_weights(d, "eq-grid")["AQs"] == 0.25  # one combo of four
    shot(d, shots, "equity-weights")
    # painting another hand keeps the single combo as typed
    cell(d, "eq-grid", "22").click()
    wait(d, lambda d: seat_text(d, 0).endswith("AhQh") and "22" in seat_text(d, 0) and idle(d), "22 added")
    b = api(server, "range", {"range": seat_text(d, 0)})
    before = {c["class"]: c["weight"] for c in a["classes"]}
    assert {c["class"]: c["weight"] for c in b["classes"]} == {**before, "22": 1.0}
    wait(d, lambda d: seat_combos(d, 0) == str(b["live_weighted"]), "the new count")


def test_percent_slider(driver: WebDriver, server: str, shots: Shots) -> None:
    d = driver
    open_view(d, server, "equity")
    set_slider(d, "eq-pct", 15)
    wait(d, lambda d: seat_text(d, 0) == "15%" and idle(d), "the 15% range")
    a = api(server, "range", {"range": "15%"})
    wait(d, lambda d: grid_weights(d, "eq-grid") == range_fill(a), "the top 15% on the grid")
    assert set(grid_weights(d, "eq-grid")) == set(a["percent"][0]["classes"])
    assert seat_combos(d, 0) == str(a["live_weighted"])
    set_slider(d, "eq-pct", 5)
    wait(d, lambda d: seat_text(d, 0) == "5%" and idle(d), "the 5% range")
    b = api(server, "range", {"range": "5%"})
    wait(d, lambda d: set(grid_weights(d, "eq-grid")) == set(b["percent"][0]["classes"]), "the top 5%")
    assert set(b["percent"][0]["classes"]) < set(a["percent"][0]["classes"])
    shot(d, shots, "equity-slider")


def test_board_and_dead_picker(driver: WebDriver, server: str) -> None:
    d = driver
    open_view(d, server, "equity")
    set_seat(d, 0, "KK,AKs")
    for card in ("Ks", "9d", "4c", "Ks"):  # the second Ks takes it back off
        d.find_element(By.CSS_SELECTOR, f"#eq-picker .pick[data-card='{card}']").click()
    d.find_element(By.CSS_SELECTOR, f"#eq-picker .pick[data-card='{'Kh'}']").click()
    d.find_element(By.CSS_SELECTOR, "input[name='eq-pick'][value='dead']").click()
    d.find_element(By.CSS_SELECTOR, "#eq-picker .pick[data-card='Ad']").click()
    d.find_element(By.CSS_SELECTOR, "#eq-picker .pick[data-card='9d']").click()  # on the board: refused
    wait(d, lambda d: by_id(d, "eq-board").get_attribute("value") == "9d 4c Kh"
         and by_id(d, "eq-dead").get_attribute("value") == "Ad", "the picked cards")
    a = api(server, "range", {"range": "KK,AKs", "board": "9d 4c Kh", "dead": "Ad"})
    wait(d, lambda d: idle(d) and seat_combos(d, 0) == str(a["live_weighted"]), "live combos")
    assert a["live_weighted"] == 3 + 2  # KK without Kh: 3; AKs without Ad or Kh: AsKs, AcKc
    marked = d.find_elements(By.CSS_SELECTOR, "#eq-picker .pick.in-board")
    assert sorted(str(m.get_dom_attribute("data-card")) for m in marked) == ["4c", "9d", "Kh"]


def test_three_seat_equity(driver: WebDriver, server: str, shots: Shots, artifacts: Path,
                           capsys: pytest.CaptureFixture[str]) -> None:
    d = driver
    three_seats(d, server, "AKs", "QQ")
    set_seat(d, 2, "JTs")
    type_into(by_id(d, "eq-board"), "Qs Js 4h")
    time.sleep(DEBOUNCE)
    wait(d, idle, "the board counted")
    by_id(d, "eq-run").click()
    wait(d, lambda d: idle(d) and seat_row(d, 2).find_element(By.CSS_SELECTOR, "td.equity")
         .get_dom_attribute("data-value"), "three seats' equity")
    cli = cli_json(capsys, artifacts, "equity", "AKs", "--vs", "QQ", "--vs", "JTs", "--board", "Qs Js 4h")
    http = api(server, "equity", {"hero": "AKs", "vs": ["QQ", "JTs"], "board": "Qs Js 4h"})
    assert http["method"] == cli["method"] == "exact"
    seats_show(d, cli["players"])
    assert http["players"] == cli["players"]
    assert abs(sum(seat_numbers(d, i)["equity"] for i in range(3)) - 1) < 1e-12
    method = by_id(d, "eq-method-out").text
    assert method.startswith("method: exact") and f"{cli['deals']:,} deals" in method
    shot(d, shots, "equity")


def test_monte_carlo_same_seed_same_numbers(driver: WebDriver, server: str, artifacts: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    d = driver
    three_seats(d, server, "AsKs", "random")
    Select(by_id(d, "eq-method")).select_by_value("mc")
    type_into(by_id(d, "eq-samples"), "200000")
    type_into(by_id(d, "eq-seed"), "7")
    by_id(d, "eq-run").click()
    wait(d, lambda d: idle(d) and "monte-carlo" in by_id(d, "eq-method-out").text, "a Monte Carlo answer")
    cli = cli_json(capsys, artifacts, "equity", "AsKs", "--vs", "random", "--vs", "random",
                   "--samples", "200000", "--seed", "7")
    seats_show(d, cli["players"])
    eq = seat_row(d, 0).find_element(By.CSS_SELECTOR, "td.equity").text
    assert f"±{100 * cli['players'][0]['stderr']:.3f}" in eq
    assert "seed 7" in by_id(d, "eq-method-out").text


def test_breakdown_heatmap(driver: WebDriver, server: str, shots: Shots) -> None:
    d = driver
    open_view(d, server, "equity")
    hero = "99+,AJ+,KQ,KJs,QJs,JTs,T9s,98s,A5s-A2s"
    set_seat(d, 0, hero)
    type_into(by_id(d, "eq-board"), "Ks 9d 4c")
    time.sleep(DEBOUNCE)
    wait(d, idle, "the board counted")
    by_id(d, "eq-bd-run").click()
    wait(d, lambda d: idle(d) and d.find_elements(By.CSS_SELECTOR, "#eq-heat .cell.on"), "the heatmap")
    a = api(server, "equity", {"hero": hero, "vs": ["random"], "board": "Ks 9d 4c", "breakdown": 0})
    want = {c["hand"]: c["equity"] for c in a["breakdown"]["classes"]}
    got = d.execute_script("return [...document.querySelectorAll('#eq-heat .cell.on')]"
                           ".map(c => [c.dataset.cls, +c.dataset.equity]);")
    assert dict(got) == want
    assert set(want) == {c["class"] for c in api(server, "range", {"range": hero})["classes"]}
    qq = cell(d, "eq-heat", "QQ")
    assert qq.find_element(By.TAG_NAME, "b").text == f"{100 * want['QQ']:.1f}"
    by_id(d, "eq-run").click()  # the seats' totals: the breakdown's, up to float rounding
    wait(d, lambda d: idle(d) and seat_row(d, 0).find_element(By.CSS_SELECTOR, "td.equity")
         .get_dom_attribute("data-value"), "the seats' equity")
    total = api(server, "equity", {"hero": hero, "vs": ["random"], "board": "Ks 9d 4c", "dead": ""})
    assert seat_numbers(d, 0)["equity"] == total["equity"] == pytest.approx(a["equity"], abs=1e-12)
    shot(d, shots, "equity-breakdown", docs="serve-equity")
    # any seat's breakdown: the second seat's range on the same board
    set_seat(d, 1, "QQ+,KQs")
    Select(by_id(d, "eq-bd-seat")).select_by_value("1")
    by_id(d, "eq-bd-run").click()
    wait(d, lambda d: idle(d) and "Seat 2" in by_id(d, "eq-bd-info").text, "the second seat's breakdown")
    b = api(server, "equity", {"hero": hero, "vs": ["QQ+,KQs"], "board": "Ks 9d 4c", "dead": "", "breakdown": 1})
    got = d.execute_script("return [...document.querySelectorAll('#eq-heat .cell.on')]"
                           ".map(c => [c.dataset.cls, +c.dataset.equity]);")
    assert dict(got) == {c["hand"]: c["equity"] for c in b["breakdown"]["classes"]}
    assert set(dict(got)) == {"AA", "KK", "QQ", "KQs"}


def test_error_display(driver: WebDriver, server: str, shots: Shots) -> None:
    d = driver
    open_view(d, server, "equity")
    assert not by_id(d, "error").is_displayed()
    type_into(seat_box(d, 0), "AsXs")
    wait(d, lambda d: by_id(d, "error").is_displayed(), "the error box", errors=True)
    want = api(server, "range", {"range": "AsXs", "board": "", "dead": ""})["error"]
    assert by_id(d, "error-text").text == want and "'Xs'" in want
    assert "invalid" in str(seat_box(d, 0).get_attribute("class"))
    shot(d, shots, "error")
    # the equity button shows the equity endpoint's own message for the same seat
    by_id(d, "eq-run").click()
    want2 = api(server, "equity", {"hero": "AsXs", "vs": ["random"], "board": "", "dead": ""})["error"]
    wait(d, lambda d: by_id(d, "error-text").text == want2, "the equity error", errors=True)
    # a good answer clears it
    set_seat(d, 0, "AsKs", errors=True)
    assert not by_id(d, "error").is_displayed()


# ------------------------------------------------------------------ Hits view


def test_hits_keep_next_street(driver: WebDriver, server: str, shots: Shots, artifacts: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    d = driver
    view = hits_view(d, server, "QQ+,AKs,T9s,98s", "Ks 9d 4c")
    cli = cli_json(capsys, artifacts, "hits", "QQ+,AKs,T9s,98s", "--board", "Ks 9d 4c")
    assert view["live_combos"] == cli["live_combos"]
    rows = d.execute_script("return [...document.querySelectorAll('#hits-table tr.cat:not([data-kind=combined])')]"
                            ".map(r => [r.dataset.kind, r.dataset.category, +r.dataset.combos, +r.dataset.percent]);")
    assert rows == [[r["kind"], r["category"], r["combos"], r["percent"]] for r in cli["made"] + cli["draws"]]
    # click "set", ctrl-click "middle pair": their combos light up on the grid
    d.find_element(By.CSS_SELECTOR, "#hits-table tr.cat[data-category='set']").click()
    middle = d.find_element(By.CSS_SELECTOR, "#hits-table tr.cat[data-category='middle pair']")
    ActionChains(d).key_down(Keys.CONTROL).click(middle).key_up(Keys.CONTROL).perform()
    by_cat = {r["category"]: r for r in cli["made"]}
    kept = [c.replace(" ", "") for c in by_cat["set"]["combo_list"] + by_cat["middle pair"]["combo_list"]]
    wait(d, lambda d: by_id(d, "hits-combos").get_dom_attribute("data-count") == str(len(kept)), "the selection")
    lit = {str(c.get_dom_attribute("data-cls")) for c in d.find_elements(By.CSS_SELECTOR, "#hits-grid .cell.hl")}
    assert lit == {"KK", "T9s", "98s"}  # set of kings; T9s and 98s pair the nine
    by_id(d, "hits-curve-run").click()  # the distribution curve in the same picture
    wait(d, lambda d: idle(d) and by_id(d, "hits-curve-info").get_dom_attribute("data-equity"), "the curve")
    shot(d, shots, "hits", docs="serve-hits")
    by_id(d, "hits-keep").click()
    # the server writes the kept combos as one range (by class, highest cards first)
    written = api(server, "range/format", {"range": ",".join(kept)})["text"]
    wait(d, lambda d: by_id(d, "hits-range").get_attribute("value") == written, "the kept range")
    kept_range = parse_range(str(by_id(d, "hits-range").get_attribute("value")))
    assert sorted(kept_range.hands.tolist()) == sorted(parse_range(",".join(kept)).hands.tolist())
    d.find_element(By.CSS_SELECTOR, "#hits-picker .pick[data-card='Th']").click()  # the turn
    turn = cli_json(capsys, artifacts, "hits", ",".join(kept), "--board", "Ks 9d 4c Th")
    wait(d, lambda d: idle(d) and by_id(d, "hits-total").get_dom_attribute("data-live") == str(turn["live_combos"])
         and "Th" in by_id(d, "hits-total").text, "the turn's hit table")
    assert turn["live_combos"] == len(kept) - 1  # T9s loses its Th combo to the board
    two_pair = d.find_element(By.CSS_SELECTOR, "#hits-table tr.cat[data-category='two pair']")
    made = {r["category"]: r for r in turn["made"]}
    assert two_pair.get_dom_attribute("data-combos") == str(made["two pair"]["combos"])


def test_equity_distribution_curve(driver: WebDriver, server: str, shots: Shots) -> None:
    d = driver
    hits_view(d, server, "QQ+,AKs,T9s", "Ks 9d 4c")
    by_id(d, "hits-curve-run").click()
    wait(d, lambda d: idle(d) and by_id(d, "hits-curve-info").get_dom_attribute("data-equity"), "the curve")
    a = api(server, "equity", {"hero": "QQ+,AKs,T9s", "vs": ["random"], "board": "Ks 9d 4c", "dead": "",
                               "breakdown": 0})
    assert float(str(by_id(d, "hits-curve-info").get_dom_attribute("data-equity"))) == a["equity"]
    points = str(d.find_element(By.CSS_SELECTOR, "#hits-curve polyline").get_attribute("points")).split()
    assert len(points) == 2 * len(a["breakdown"]["combos"])
    ys = [float(p.split(",")[1]) for p in points]
    assert ys == sorted(ys)  # best combos first: the curve falls from left to right
    shot(d, shots, "hits-curve")


# ------------------------------------------------------------------ Video poker view


def vp_ready(d: WebDriver, server: str) -> None:
    open_view(d, server, "vp")
    wait(d, lambda d: idle(d) and by_id(d, "vp-name").text, "the game")


def play(d: WebDriver, hold: list[int]) -> dict[str, str]:
    """Deal, hold the cards at ``hold`` (positions 0-4), draw: the deal and verdict."""
    by_id(d, "vp-deal").click()
    wait(d, lambda d: idle(d) and not by_id(d, "vp-draw").get_property("disabled"), "a deal")
    cards = [str(c.get_dom_attribute("data-card")) for c in d.find_elements(By.CSS_SELECTOR, "#vp-cards .vpcard")]
    for i in hold:
        d.find_element(By.CSS_SELECTOR, f"#vp-cards .vpcard[data-pos='{i}']").click()
    by_id(d, "vp-draw").click()
    v = wait(d, lambda d: idle(d) and by_id(d, "vp-verdict").is_displayed() and by_id(d, "vp-verdict"), "a verdict")
    return {"deal": " ".join(cards), "hold": " ".join(cards[i] for i in hold) or "none",
            "cost": str(v.get_dom_attribute("data-cost-exact")), "best": str(v.get_dom_attribute("data-best-hold"))}


def test_vp_search_deal_hold_grade(driver: WebDriver, server: str, shots: Shots, artifacts: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    d = driver
    vp_ready(d, server)
    type_into(by_id(d, "vp-search"), "9/6 jacks")
    want = [g["slug"] for g in api(server, "vp/games?q=9/6%20jacks")]
    wait(d, lambda d: d.execute_script("return [...document.querySelectorAll('#vp-game option')].map(o => o.value)")
         == want, "the search")
    assert "jacks-or-better-9-6" in want
    type_into(by_id(d, "vp-seed"), "2026")
    played = play(d, [0, 1])
    dealt = cli_json(capsys, artifacts, "vp", "deal", "--seed", "2026", "--count", "10")["deals"]
    assert played["deal"] == dealt[0]
    grade = cli_json(capsys, artifacts, "vp", "grade", played["deal"], played["hold"])
    assert played["cost"] == grade["cost_exact"] and played["best"] == grade["best_hold"]
    holds = api(server, "vp/hold", {"deal": played["deal"], "paytable": "jacks-or-better-9-6"})["holds"]
    rows = d.find_elements(By.CSS_SELECTOR, "#vp-holds tbody tr")
    assert [r.get_dom_attribute("data-ev-exact") for r in rows] == [h["ev_exact"] for h in holds]
    assert len(rows) == 32
    best = d.find_element(By.CSS_SELECTOR, "#vp-holds tr.best")
    assert best.get_dom_attribute("data-hold") == grade["best_hold"]
    shot(d, shots, "videopoker", docs="serve-videopoker")


def test_session_tally(driver: WebDriver, server: str, shots: Shots) -> None:
    d = driver
    vp_ready(d, server)
    by_id(d, "vp-t-reset").click()
    type_into(by_id(d, "vp-seed"), "77")
    deals = api(server, "vp/deal", {"paytable": "jacks-or-better-9-6", "seed": 77, "count": 3})["deals"]
    best0 = api(server, "vp/hold", {"deal": deals[0], "paytable": "jacks-or-better-9-6"})["best"]
    cards0 = deals[0].split()
    plays = [[cards0.index(c) for c in best0.split()], [], [0, 1, 2, 3, 4]]
    grades = []
    for i, hold in enumerate(plays):
        p = play(d, hold)
        assert p["deal"] == deals[i]
        grades.append(api(server, "vp/grade", {"deal": p["deal"], "hold": p["hold"], "paytable": JACKS}))
    assert grades[0]["optimal"]
    mistakes = sum(not g["optimal"] for g in grades)
    cost = sum(Fraction(g["cost_exact"]) for g in grades)
    achieved = sum(Fraction(g["ev_exact"]) for g in grades) / 3
    optimal = sum(Fraction(g["best_ev_exact"]) for g in grades) / 3
    assert by_id(d, "vp-t-hands").get_dom_attribute("data-value") == "3"
    assert by_id(d, "vp-t-mistakes").get_dom_attribute("data-value") == str(mistakes)
    # in credits of the bets: five coins a hand
    assert Fraction(str(by_id(d, "vp-t-cost").get_dom_attribute("data-value"))) == 5 * cost
    assert Fraction(str(by_id(d, "vp-t-ret").get_dom_attribute("data-value"))) == achieved
    assert Fraction(str(by_id(d, "vp-t-opt").get_dom_attribute("data-value"))) == optimal
    assert optimal - achieved == cost / 3
    shot(d, shots, "videopoker-session")


def test_vp_keyboard(driver: WebDriver, server: str) -> None:
    """WinPoker's keys: D deals, 1-5 hold, Enter draws; the grade is the API's for that hold."""
    d = driver
    vp_ready(d, server)
    type_into(by_id(d, "vp-seed"), "31")
    d.execute_script("document.activeElement.blur()")  # keys go to the page, not the seed field

    def keys(*k: str) -> None:
        ActionChains(d).send_keys(*k).perform()

    keys("d")
    wait(d, lambda d: idle(d) and len(d.find_elements(By.CSS_SELECTOR, "#vp-cards .vpcard")) == 5, "a deal by key")
    deal = api(server, "vp/deal", {"paytable": JACKS, "seed": 31, "count": 1})["deals"][0]
    cards = deal.split()
    keys("2", "5", "5", "4")  # 5 twice: held, then released
    held = [str(c.get_dom_attribute("data-card")) for c in d.find_elements(By.CSS_SELECTOR, "#vp-cards .vpcard.held")]
    assert held == [cards[1], cards[3]]
    keys(Keys.ENTER)
    v = wait(d, lambda d: idle(d) and by_id(d, "vp-verdict").is_displayed() and by_id(d, "vp-verdict"), "a verdict")
    g = api(server, "vp/grade", {"deal": deal, "hold": f"{cards[1]} {cards[3]}", "paytable": JACKS})
    assert v.get_dom_attribute("data-cost-exact") == g["cost_exact"]
    assert by_id(d, "vp-t-hands").get_dom_attribute("data-value") == "1"


def test_printable_strategy_chart(driver: WebDriver, server: str, shots: Shots) -> None:
    d = driver
    vp_ready(d, server)
    by_id(d, "vp-chart-run").click()
    wait(d, lambda d: idle(d) and by_id(d, "vp-chart").get_dom_attribute("data-lines"), "the chart")
    a = api(server, "vp/chart", {"paytable": "jacks-or-better-9-6", "pay": []})
    lines = [li.text for li in d.find_elements(By.CSS_SELECTOR, "#vp-chart .chartlines li")]
    assert lines == [ln["hold"] for ln in a["lines"]]
    assert by_id(d, "vp-chart").get_dom_attribute("data-chart-return-exact") == a["chart_return_exact"]
    # the print styling leaves the card alone on the page
    d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert by_id(d, "vp-chart").is_displayed()
        for hidden in ("vp-cards", "vp-pays", "vp-chart-run", "tab-equity"):
            assert not by_id(d, hidden).is_displayed(), hidden
        shot(d, shots, "videopoker-chart-print", docs="serve-chart-print")
    finally:
        d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    pdf = base64.b64decode(d.print_page())
    assert pdf.startswith(b"%PDF")


def test_paytable_edit_solves_as_edited(driver: WebDriver, server: str, shots: Shots) -> None:
    d = driver
    vp_ready(d, server)
    fh = d.find_element(By.CSS_SELECTOR, "#vp-pays input.pay[data-hand='full house']")
    assert fh.get_attribute("value") == "9"
    type_into(fh, "8")
    assert "edited" in str(fh.get_attribute("class"))
    by_id(d, "vp-solve").click()
    wait(d, lambda d: by_id(d, "vp-progress").get_dom_attribute("data-state"), "the progress bar")
    shot(d, shots, "videopoker-solving")
    # the name reads "... (edited: ...) — solving…" until the solve is done: wait for its state
    wait(d, lambda d: idle(d) and by_id(d, "vp-name").get_dom_attribute("data-state") == "ready",
         "the edited game solved", timeout=600)
    want = api(server, "vp/analyze", {"paytable": "jacks-or-better-9-6", "pay": ["full house=8"]})
    assert by_id(d, "vp-name").text == want["name"]
    assert want["name"] == "Jacks or Better 9/6 (edited: full house=8)"
    assert by_id(d, "vp-return").get_dom_attribute("data-return-exact") == want["return_exact"]
    # the trainer now grades on the edited game
    played = play(d, [])
    g = api(server, "vp/grade", {"deal": played["deal"], "hold": "none", "paytable": "jacks-or-better-9-6",
                                 "pay": ["full house=8"]})
    assert played["cost"] == g["cost_exact"]
    shot(d, shots, "videopoker-edited")


def test_break_even_and_compare(driver: WebDriver, server: str, shots: Shots) -> None:
    d = driver
    vp_ready(d, server)
    by_id(d, "vp-be-run").click()
    wait(d, lambda d: idle(d) and by_id(d, "vp-be").get_dom_attribute("data-break-even-exact"), "the break-even")
    be = api(server, "vp/breakeven", {"paytable": "jacks-or-better-9-6", "line": "royal flush", "pay": []})
    assert by_id(d, "vp-be").get_dom_attribute("data-break-even-exact") == be["break_even_exact"]
    for slug in ("jacks-or-better-9-6", "jacks-or-better-8-5"):
        ActionChains(d).key_down(Keys.CONTROL).click(
            d.find_element(By.CSS_SELECTOR, f"#vp-cmp-games option[value='{slug}']")).key_up(Keys.CONTROL).perform()
    by_id(d, "vp-cmp-run").click()
    wait(d, lambda d: idle(d) and d.find_elements(By.CSS_SELECTOR, "#vp-cmp td"), "the comparison")
    chosen = [o.get_attribute("value") for o in Select(by_id(d, "vp-cmp-games")).all_selected_options]
    assert sorted(chosen) == ["jacks-or-better-8-5", JACKS]
    cmp = api(server, "vp/compare", {"paytables": chosen})
    got = d.execute_script("return [...document.querySelectorAll('#vp-cmp tr:nth-child(2) td')]"
                           ".map(c => [c.dataset.slug, c.dataset.returnExact, c.textContent]);")
    assert got == [[g["slug"], g["return_exact"], f"{100 * g['return']:.4f}%"] for g in cmp["games"]]
    shot(d, shots, "videopoker-compare")


# ------------------------------------------------------------------ Casino games view


def casino_shows(d: WebDriver, name: str) -> None:
    """Wait until the casino view shows the analysis and strategies of the game called ``name``."""
    wait(d, lambda d: idle(d) and by_id(d, "cs-strategy").get_dom_attribute("data-game") == name,
         f"the casino game {name}")


def house_edge_shown(d: WebDriver) -> str:
    return str(d.find_element(By.CSS_SELECTOR, "#cs-summary td[data-key='house-edge']").text)


def test_casino_game_by_name_and_pay_edit(driver: WebDriver, server: str, shots: Shots) -> None:
    """A game picked by a common name; a pay edited in place changes the house edge to the
    server's exact answer for the edited game."""
    d = driver
    open_view(d, server, "casino")
    casino_shows(d, "Three Card Poker")
    type_into(by_id(d, "cs-search"), "pair plus")
    by_id(d, "cs-search").send_keys(Keys.ENTER)
    casino_shows(d, "Three Card Poker Pair Plus")
    base = api(server, "casino/analyze", {"game": "pair plus"})
    assert house_edge_shown(d) == f"{100 * base['house_edge']:.4f}% = {base['house_edge_exact']}"
    shown = [int(c.get_dom_attribute("data-combinations")) for c in
             d.find_elements(By.CSS_SELECTOR, "#cs-returns td[data-combinations]")]
    assert shown == [r["combinations"] for r in base["return_table"]]
    flush = d.find_element(By.CSS_SELECTOR, "#cs-pays input.pay[data-key='pays:flush']")
    type_into(flush, "5")
    edited = api(server, "casino/analyze", {"game": "pair plus", "pay": ["pays:flush=5"]})
    assert edited["house_edge"] < base["house_edge"]
    casino_shows(d, edited["name"])
    assert house_edge_shown(d) == f"{100 * edited['house_edge']:.4f}% = {edited['house_edge_exact']}"
    shot(d, shots, "casino-pay-edit")


def test_casino_report_prints_alone(driver: WebDriver, server: str, shots: Shots) -> None:
    d = driver
    open_view(d, server, "casino")
    casino_shows(d, "Three Card Poker")
    costs = {s["name"]: s["cost_exact"] for s in api(server, "casino/strategy", {"game": DEFAULT_CASINO})["strategies"]}
    got = {h.get_dom_attribute("data-strategy"): h.get_dom_attribute("data-cost")
           for h in d.find_elements(By.CSS_SELECTOR, "#cs-strategy h3")}
    assert got == costs and costs["threshold"] == "0/1"
    assert "Q-6-4" in by_id(d, "cs-strategy").text
    d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert by_id(d, "cs-report").is_displayed() and by_id(d, "cs-returns").is_displayed()
        for hidden in ("cs-deal", "cs-pays", "cs-print", "tab-equity"):
            assert not by_id(d, hidden).is_displayed(), hidden
        shot(d, shots, "casino-report-print")
    finally:
        d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    assert base64.b64decode(d.print_page()).startswith(b"%PDF")


def test_casino_trainer_grades_with_the_exact_cost(driver: WebDriver, server: str, shots: Shots) -> None:
    d = driver
    open_view(d, server, "casino")
    casino_shows(d, "Three Card Poker")
    type_into(by_id(d, "cs-seed"), "7")
    by_id(d, "cs-deal").click()
    wait(d, lambda d: idle(d) and d.find_elements(By.CSS_SELECTOR, "#cs-options button"), "a deal")
    dealt = api(server, "casino/deal", {"game": DEFAULT_CASINO, "seed": 7})
    faces = [c.get_dom_attribute("data-card") for c in d.find_elements(By.CSS_SELECTOR, "#cs-cards .card")]
    assert faces == dealt["hand"].split()
    d.find_element(By.CSS_SELECTOR, "#cs-options button[data-option='play']").click()
    wait(d, lambda d: idle(d) and by_id(d, "cs-verdict").is_displayed(), "the verdict")
    g = api(server, "casino/grade", {"game": DEFAULT_CASINO, "hand": dealt["hand"], "decision": "play"})
    assert by_id(d, "cs-verdict").get_dom_attribute("data-cost") == g["cost_exact"]
    assert by_id(d, "cs-t-hands").text == "1"
    assert by_id(d, "cs-t-mistakes").text == ("0" if g["optimal"] else "1")
    shot(d, shots, "casino-trainer")
