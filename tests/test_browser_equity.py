"""The Equity and Hits views and ``/docs`` in headless Chromium (issue 37's equity half): every
number belongs to the inputs beside it, grids like Equilab and Flopzilla, layout at 1024 px, a
stable Monte Carlo seed, and an API page that renders. Fixtures and helpers come from
``tests/test_browser.py`` (same browser, same real server); each scenario takes a few seconds.
"""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

# test_browser skips (or, under CI, fails) this file too when there is no browser; selenium's
# names come through it for that reason
from tests import test_browser as tb
from tests.test_browser import (
    DEBOUNCE,
    WAIT,
    ActionChains,
    By,
    Keys,
    Select,
    Shots,
    WebDriver,
    WebDriverWait,
    WebElement,
    api,
    by_id,
    cell,
    cli_json,
    grid_weights,
    hits_view,
    idle,
    open_view,
    range_fill,
    seat_box,
    seat_combos,
    seat_numbers,
    seat_row,
    seat_text,
    set_seat,
    shot,
    three_seats,
    type_into,
    wait,
)

# the same browser and server (the session's) and screenshot folder fixtures as tests/test_browser.py
server, driver, shots, no_script_errors = tb.server, tb.driver, tb.shots, tb.no_script_errors

#: the narrow window the layout must fit (a small laptop), and a phone's
NARROW = 1024
PHONE = 420
#: seconds swagger-ui gets to render (about 2 s idle)
DOCS_WAIT = 30


def test_docs_render_every_operation(driver: WebDriver, server: str) -> None:
    """``/docs`` shows one expandable block per operation of ``/openapi.json`` (the shipped
    swagger-ui 4.15.5 reads the 3.0 copy; the 3.1 document made it say "Unable to render")."""
    d = driver
    with urllib.request.urlopen(f"{server}/openapi.json", timeout=WAIT) as r:
        spec = json.load(r)
    want = sorted((m.upper(), p) for p, item in spec["paths"].items() for m in item)
    d.get(f"{server}/docs")
    got = WebDriverWait(d, DOCS_WAIT, poll_frequency=0.1).until(lambda d: d.execute_script(
        "const b = [...document.querySelectorAll('.opblock-summary')];"
        "return b.length ? b.map(e => [e.querySelector('.opblock-summary-method').textContent,"
        " e.querySelector('.opblock-summary-path').dataset.path]) : null;"))
    assert sorted(map(tuple, got)) == want and len(want) >= 29
    assert not d.find_elements(By.CSS_SELECTOR, ".errors-wrapper, .loading-container .errors")
    assert "Unable to render" not in d.find_element(By.TAG_NAME, "body").text


# ------------------------------------------------------------------ helpers


def heat_cells(d: WebDriver) -> dict[str, str]:
    """The breakdown heat map's coloured cells and the equity each carries."""
    return dict(d.execute_script(
        "return [...document.querySelectorAll('#eq-heat .cell')].filter(c => c.classList.contains('on')"
        " || c.dataset.equity || c.style.background).map(c => [c.dataset.cls, c.dataset.equity]);"))


def shown_numbers(d: WebDriver) -> list[list[str]]:
    """Every seat row's win, tie, lose and equity cells as shown (text and value)."""
    return list(d.execute_script(
        "return [...document.querySelectorAll('#eq-seats tr.seat')].map(r => ['win', 'tie', 'lose', 'equity']"
        ".map(k => r.querySelector('td.' + k).textContent + '|' + r.querySelector('td.' + k).dataset.value));"))


def no_numbers(d: WebDriver) -> bool:
    """No seat shows an equity figure (each cell is '–' with no value)."""
    return all(cell == "–|" for row in shown_numbers(d) for cell in row)


def in_view(d: WebDriver, el: WebElement) -> bool:
    """The element is drawn inside the window (not scrolled away)."""
    return bool(d.execute_script(
        "const r = arguments[0].getBoundingClientRect();"
        "return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0"
        " && r.right <= window.innerWidth;", el))


def erase(el: WebElement) -> None:
    """Empty a text field as a person does (select all, delete): input events fire."""
    el.send_keys(Keys.CONTROL, "a")
    el.send_keys(Keys.DELETE)


def equity_shown(d: WebDriver, what: str = "the seats' equity") -> None:
    """Wait until the last seat shows an equity (the page fills every seat at once)."""
    last = len(d.find_elements(By.CSS_SELECTOR, "#eq-seats tr.seat")) - 1
    shown = f"#eq-seats tr[data-seat='{last}'] td.equity:not([data-value=''])"
    wait(d, lambda d: idle(d) and d.find_elements(By.CSS_SELECTOR, shown), what)


def compute(d: WebDriver) -> None:
    by_id(d, "eq-run").click()
    equity_shown(d)


def set_board(d: WebDriver, text: str) -> None:
    type_into(by_id(d, "eq-board"), text)
    time.sleep(DEBOUNCE)
    wait(d, lambda d: idle(d) and all(seat_row(d, i).get_dom_attribute("data-counted") == seat_text(d, i)
                                      for i in range(len(d.find_elements(By.CSS_SELECTOR, "#eq-seats tr.seat")))),
         "the seats counted on the board")


# ------------------------------------------------------------------ every number belongs to its inputs


def test_board_cleared_after_a_flop_leaves_no_flop_heat_map(driver: WebDriver, server: str) -> None:
    d = driver
    open_view(d, server, "equity")
    set_seat(d, 0, "QQ+,AKs")
    set_seat(d, 1, "JJ,AQs")  # a small opponent range: the exact answers take milliseconds
    set_board(d, "Ks 9d 4c")
    by_id(d, "eq-bd-run").click()
    wait(d, lambda d: idle(d) and heat_cells(d), "the flop heat map")
    flop = api(server, "equity", {"hero": "QQ+,AKs", "vs": ["JJ,AQs"], "board": "Ks 9d 4c", "breakdown": 0})
    want = {c["hand"]: c["equity"] for c in flop["breakdown"]["classes"]}
    assert {k: float(v) for k, v in heat_cells(d).items()} == want
    compute(d)
    erase(by_id(d, "eq-board"))  # the board cleared
    wait(d, lambda d: not heat_cells(d) and no_numbers(d), "everything computed on the flop gone")
    assert not d.find_elements(By.CSS_SELECTOR, "#eq-bd-table tr") and by_id(d, "eq-bd-info").text == ""
    assert by_id(d, "eq-method-out").text == ""
    # an answer on its way when the board changes is dropped, not drawn beside the new board
    set_board(d, "Ks 9d 4c")
    by_id(d, "eq-bd-run").click()
    erase(by_id(d, "eq-board"))
    time.sleep(DEBOUNCE)
    wait(d, idle, "the answers in flight")
    assert not heat_cells(d) and no_numbers(d)


def test_invalid_range_clears_every_seat_and_shows_the_error_beside_it(driver: WebDriver, server: str) -> None:
    d = driver
    three_seats(d, server, "QQ+,AKs", "JJ-99,AQs")
    set_seat(d, 2, "KQs,T9s")
    compute(d)
    assert not no_numbers(d)
    d.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    seat2 = seat_box(d, 1)
    type_into(seat2, "AA:KK")
    want = api(server, "range/format", {"range": "AA:KK", "board": "", "dead": ""})["error"]
    slot = wait(d, lambda d: seat_row(d, 1).find_elements(By.CSS_SELECTOR, ".fielderr"), "the error beside seat 2",
                errors=True)[0]
    assert slot.text == want and "'AA:KK'" in want
    assert in_view(d, slot) and in_view(d, by_id(d, "error"))
    assert no_numbers(d)  # no seat keeps an equity computed before the bad range
    assert seat_combos(d, 1) == "–" and not grid_weights(d, "eq-grid")  # seat 2's old grid is gone
    assert by_id(d, "eq-method-out").text == ""
    # computing anyway: the equity endpoint's message, beside the same seat, and no numbers
    by_id(d, "eq-run").click()
    refused = api(server, "equity", {"hero": "QQ+,AKs", "vs": ["AA:KK", "KQs,T9s"], "board": "", "dead": ""})["error"]
    wait(d, lambda d: idle(d) and by_id(d, "error-text").text == refused, "the refused equity", errors=True)
    assert seat_row(d, 1).find_element(By.CSS_SELECTOR, ".fielderr").text == refused
    assert no_numbers(d)
    set_seat(d, 1, "JJ-99,AQs", errors=True)
    assert not seat_row(d, 1).find_elements(By.CSS_SELECTOR, ".fielderr")


def test_narrow_window_has_no_horizontal_scroll_in_the_seats(driver: WebDriver, server: str, shots: Shots) -> None:
    d = driver
    d.set_window_size(NARROW, 800)
    try:
        three_seats(d, server, "QQ+,AKs,AQs,KQs,JTs", "JJ-99,AQs+,KQs")
        set_seat(d, 2, "TT+ AKs")
        compute(d)
        widths = d.execute_script(
            "const t = document.querySelector('table.seats'); const p = t.parentElement;"
            "const eq = t.querySelector('tbody tr td.equity').getBoundingClientRect();"
            "return [document.documentElement.scrollWidth, window.innerWidth, p.scrollWidth, p.clientWidth,"
            " eq.right, t.getBoundingClientRect().right];")
        page_w, window_w, inner_w, box_w, eq_right, table_right = widths
        assert window_w <= NARROW and page_w <= window_w, widths
        assert inner_w <= box_w and table_right <= box_w + 40 and eq_right <= window_w, widths
        font = d.execute_script(
            "return parseFloat(getComputedStyle(document.querySelector('#eq-heat .cell span')).fontSize)")
        assert font >= 10  # the heat map's class names stay readable
        shot(d, shots, "equity-1024")
        d.set_window_size(PHONE, 900)  # a phone's width: one column, nothing wider than the window
        wait(d, lambda d: d.execute_script("return window.innerWidth") <= PHONE, "the phone-width window")
        page_w, window_w = d.execute_script("return [document.documentElement.scrollWidth, window.innerWidth];")
        wide = d.execute_script(  # what sticks out, for the failure message
            "return [...document.querySelectorAll('body *')].filter(e => e.offsetParent !== null"
            " && e.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 8)"
            ".map(e => `${e.tagName}#${e.id}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`);")
        assert page_w <= window_w, (page_w, window_w, wide)
        shot(d, shots, "equity-phone")
    finally:
        d.set_window_size(tb.WIDTH, tb.HEIGHT)


#: the equity view's panels (seats, board, grid, breakdown), each by an element it holds
PANELS = ("eq-seats", "eq-picker", "eq-grid", "eq-heat")
#: the page's gap between two panels (1rem at 14 px)
PANEL_GAP = 14


def panel_boxes(d: WebDriver) -> dict[str, dict[str, float]]:
    """Each equity panel's box on screen (``getBoundingClientRect``) and its place in the page's
    order (``dom``: the order Tab walks)."""
    return dict(d.execute_script(
        "const all = [...document.querySelectorAll('#view-equity .panel')];"
        "return arguments[0].map(id => { const p = document.getElementById(id).closest('.panel');"
        " const r = p.getBoundingClientRect();"
        " return [id, {left: r.left, right: r.right, top: r.top, bottom: r.bottom, dom: all.indexOf(p)}]; });",
        list(PANELS)))


def test_one_column_window_puts_the_seats_above_the_board(driver: WebDriver, server: str) -> None:
    """At 1,024 x 768 (one column) the seats sat below the grid and the board, ~990 px down: a
    person scrolled between typing the ranges and the board and reading the equity. Now the
    seats, then the board, open the view: both seats' ranges, Compute and their equity are in
    the first screen, above the board; Tab goes from the page's header to Hero's range. The grid's
    own Compute (below them) brings the seats back into view. Two columns (1,500 px) keep every
    panel where it was: grid over board left, seats over breakdown right."""
    d = driver
    d.set_window_size(NARROW, 768)
    try:
        open_view(d, server, "equity")
        set_seat(d, 0, "AKs")
        set_seat(d, 1, "QQ")
        d.execute_script("window.scrollTo(0, 0);")
        box = panel_boxes(d)
        seats, board, grid, bd = (box[c] for c in PANELS)
        assert seats["bottom"] <= board["top"] and board["bottom"] <= grid["top"] <= grid["bottom"] <= bd["top"], box
        assert sorted(PANELS, key=lambda c: box[c]["top"]) == sorted(PANELS, key=lambda c: box[c]["dom"]), box
        by_id(d, "eq-run").click()
        equity_shown(d)
        want = api(server, "equity", {"hero": "AKs", "vs": ["QQ"]})["players"]
        assert [seat_numbers(d, i)["equity"] for i in (0, 1)] == [p["equity"] for p in want]
        first_screen = [seat_box(d, 0), seat_box(d, 1), by_id(d, "eq-run"), by_id(d, "eq-board"),
                        *d.find_elements(By.CSS_SELECTOR, "#eq-seats td.equity")]
        assert d.execute_script("return window.scrollY") == 0
        assert all(in_view(d, e) for e in first_screen), [e.rect for e in first_screen]
        # the keyboard: from the header's last link, Tab lands in Hero's range
        d.find_element(By.CSS_SELECTOR, "a.apidocs").send_keys(Keys.TAB)
        assert d.switch_to.active_element == seat_box(d, 0)
        # the grid's Compute, below the seats, brings them (and the new numbers) back into view
        set_seat(d, 1, "JJ")
        d.execute_script("document.getElementById('eq-grid').closest('.panel').scrollIntoView();")
        top = by_id(d, "eq-run-top")
        assert in_view(d, top) and not in_view(d, seat_box(d, 0))
        top.click()
        equity_shown(d)
        want = api(server, "equity", {"hero": "AKs", "vs": ["JJ"]})["players"]
        assert [seat_numbers(d, i)["equity"] for i in (0, 1)] == [p["equity"] for p in want]
        assert in_view(d, d.find_element(By.CSS_SELECTOR, "#eq-seats td.equity"))
        # two columns: each panel where it was (the docs' screenshot's layout), one Compute
        d.set_window_size(tb.WIDTH, tb.HEIGHT)
        wait(d, lambda d: not by_id(d, "eq-run-top").is_displayed(), "two columns' one Compute")
        d.execute_script("window.scrollTo(0, 0);")
        box = panel_boxes(d)
        seats, board, grid, bd = (box[c] for c in PANELS)
        assert grid["left"] == board["left"] < grid["right"] == board["right"] < seats["left"] == bd["left"], box
        assert grid["top"] == seats["top"], box
        assert board["top"] - grid["bottom"] == PANEL_GAP == bd["top"] - seats["bottom"], box
    finally:
        d.set_window_size(tb.WIDTH, tb.HEIGHT)


#: a laptop's window: two columns (wider than the page's 1,200 px break) but too narrow for the
#: breakdown's class list beside its 470 px heat map
LAPTOP = 1280


def test_breakdown_list_shows_every_column_beside_or_below_the_map(driver: WebDriver, server: str) -> None:
    """At 1,280 px the class list squeezed into 196 px beside the heat map: its Equity column cut,
    exact out of view, swatches on their own line. Now it goes below the map when it does not fit
    beside it; at the docs' 1,500 px it stays beside. Every width: no sideways scroll in the list,
    every row one line tall, the exact column the API's."""
    d = driver
    hero = "QQ+,AKs,AQs,KQs,JTs"
    try:
        for width, beside in ((LAPTOP, False), (NARROW, True), (tb.WIDTH, True)):
            d.set_window_size(width, 800)
            open_view(d, server, "equity")
            set_seat(d, 0, hero)
            set_board(d, "Ks 9d 4c")
            by_id(d, "eq-bd-run").click()
            wait(d, lambda d: idle(d) and d.find_elements(By.CSS_SELECTOR, "#eq-bd-table tbody tr"), "the class list")
            box = d.execute_script(
                "const l = document.querySelector('.bdlist'), m = document.getElementById('eq-heat');"
                "const r = l.getBoundingClientRect(), h = m.getBoundingClientRect();"
                "const rows = [...l.querySelectorAll('tbody tr')].map(t => t.getBoundingClientRect().height);"
                "const ends = [...l.querySelectorAll('tbody tr td:last-child')];"
                "return {scroll: l.scrollWidth, client: l.clientWidth, right: r.right, left: r.left, top: r.top,"
                " mapRight: h.right, mapBottom: h.bottom, rows,"
                " last: ends.map(c => c.getBoundingClientRect().right), exact: ends.map(c => c.textContent)};")
            assert box["scroll"] <= box["client"], (width, box)
            assert max(box["last"]) <= box["right"] + 1, (width, box)
            assert max(box["rows"]) - min(box["rows"]) <= 1, (width, box)  # a swatch wrapped above its class
            assert box["left"] >= box["mapRight"] if beside else box["top"] >= box["mapBottom"], (width, box)
            want = api(server, "equity", {"hero": hero, "vs": ["random"], "board": "Ks 9d 4c", "breakdown": 0})
            assert sorted(box["exact"]) == sorted(c["equity_exact"] for c in want["breakdown"]["classes"]), width
    finally:
        d.set_window_size(tb.WIDTH, tb.HEIGHT)


def breakdown_table(d: WebDriver) -> tuple[list[str], list[list[str]]]:
    """The breakdown's class list as shown: its column heads and each row's cells."""
    heads, rows = d.execute_script(
        "const t = document.getElementById('eq-bd-table');"
        "return [[...t.querySelectorAll('thead th')].map(h => h.textContent),"
        " [...t.querySelectorAll('tbody tr')].map(r => [...r.cells].map(c => c.textContent))];")
    return list(heads), [list(r) for r in rows]


def test_breakdown_shows_an_exact_column_only_with_fractions(driver: WebDriver, server: str) -> None:
    """A weighted range's breakdown has no exact fractions (the server gives them for unit
    weights only), yet the class list showed an "exact" column of empty cells. Now the column
    is there when the API gives fractions, with the API's fractions, and absent when not."""
    d = driver
    open_view(d, server, "equity")
    set_seat(d, 1, "QQ")
    set_board(d, "Ks 9d 4c")
    for hero, exact in (("KK,AKs:0.5", False), ("KK,AKs", True)):
        set_seat(d, 0, hero)
        by_id(d, "eq-bd-run").click()
        wait(d, lambda d: idle(d) and by_id(d, "eq-bd-info").text, f"the breakdown of {hero}")
        want = api(server, "equity", {"hero": hero, "vs": ["QQ"], "board": "Ks 9d 4c", "breakdown": 0})
        classes = sorted(want["breakdown"]["classes"], key=lambda c: -c["equity"])
        assert all(("equity_exact" in c) == exact for c in classes), (hero, classes)
        heads, rows = breakdown_table(d)
        assert heads == ["Class", "Combos", "Share", "Equity", *(["exact"] if exact else [])], hero
        assert [r[0] for r in rows] == [c["hand"] for c in classes]
        assert [r[3] for r in rows] == [f"{100 * c['equity']:.2f}%" for c in classes]
        assert [r[4:] for r in rows] == [[c["equity_exact"]] if exact else [] for c in classes]


#: a 200-character range (weights, so not one a grid click writes) and the board it is asked on
LONG_RANGE = ("AA,KK,QQ,JJ:0.75,TT:0.5,99:0.5,88:0.25,77:0.25,AKs,AQs,AJs:0.75,ATs:0.5,A5s:0.5,A4s:0.25,"
              "KQs,KJs:0.75,KTs:0.5,QJs:0.75,QTs:0.5,JTs:0.75,T9s:0.5,98s:0.25,87s:0.25,AKo,AQo:0.75,"
              "AJo:0.25,KQo:0.5,KJo:0.25")
LONG_BOARD = "Ks 9d 4c"


def box_shows_whole(d: WebDriver, box: WebElement) -> dict[str, Any]:
    """A seat's range box as drawn: its text's height and width against the box's, and the box's
    right edge against its seat cell's and the seats panel's."""
    return dict(d.execute_script(
        "const e = arguments[0], r = e.getBoundingClientRect();"
        "const cellRight = e.closest('td').getBoundingClientRect().right;"
        "const panel = e.closest('.panel').getBoundingClientRect();"
        "return {scrollH: e.scrollHeight, clientH: e.clientHeight, scrollW: e.scrollWidth, clientW: e.clientWidth,"
        " right: r.right, cellRight, panelRight: panel.right, height: r.height,"
        " text: e.value.replaceAll('\\u200b', '')};", box))


def test_long_range_shows_whole_and_enter_computes(driver: WebDriver, server: str) -> None:
    """A seat's range box was a one-line input: at 1,280 px a long range was cut off (an ellipsis,
    the whole range in a tooltip). It is now a box that wraps and grows: a pasted 200-character
    range (with a line break in it, which becomes a space) shows whole at 1,280 and at 1,024 px,
    inside its cell; Enter computes (never a new line), the API's equity for the same range."""
    d = driver
    assert len(LONG_RANGE) == 200
    d.set_window_size(LAPTOP, 800)
    try:
        open_view(d, server, "equity")
        set_seat(d, 1, "JJ")
        set_board(d, LONG_BOARD)
        box = seat_box(d, 0)
        one_line = box.rect["height"]
        erase(box)
        # a real paste (the clipboard, Ctrl+V), split over two lines as a text file would hold it
        d.execute_cdp_cmd("Browser.grantPermissions", {"origin": server, "permissions": ["clipboardReadWrite",
                                                                                          "clipboardSanitizedWrite"]})
        cut = LONG_RANGE.index("A5s")
        d.execute_async_script("navigator.clipboard.writeText(arguments[0]).then(arguments[1]);",
                               f"{LONG_RANGE[:cut]}\n{LONG_RANGE[cut:]}")
        box.send_keys(Keys.CONTROL, "v")
        pasted = f"{LONG_RANGE[:cut]} {LONG_RANGE[cut:]}"
        wait(d, lambda d: idle(d) and seat_row(d, 0).get_dom_attribute("data-counted") == pasted,
             "the pasted range counted")
        want = api(server, "range", {"range": pasted, "board": LONG_BOARD})
        assert seat_combos(d, 0) == str(want["live_weighted"])
        by_id(d, "eq-grid-total").click()  # focus leaves the box: it stays whole
        for width in (LAPTOP, NARROW):
            d.set_window_size(width, 800)
            wait(d, lambda d: d.execute_script("return window.innerWidth") <= width, f"the {width} px window")
            # the box is fitted to its new width in the next frame
            shown = wait(d, lambda d: (lambda b: b if b["scrollH"] == b["clientH"] else None)(
                box_shows_whole(d, seat_box(d, 0))), f"the whole range at {width} px")
            assert shown["text"] == pasted, shown
            assert shown["scrollW"] <= shown["clientW"], shown
            assert shown["right"] <= shown["cellRight"] <= shown["panelRight"], shown
            assert shown["height"] >= 3 * one_line - 1, shown  # wrapped on several lines, not cut
        # Enter computes the equity of the range as typed; the box gains no line
        seat_box(d, 0).send_keys(Keys.END, Keys.ENTER)
        equity_shown(d, "the equity after Enter")
        assert seat_text(d, 0) == pasted
        players = api(server, "equity", {"hero": pasted, "vs": ["JJ"], "board": LONG_BOARD})["players"]
        assert [seat_numbers(d, i) for i in (0, 1)] == [{k: p[k] for k in ("win", "tie", "lose", "equity")}
                                                       for p in players]
        typed = api(server, "equity", {"hero": LONG_RANGE, "vs": ["JJ"], "board": LONG_BOARD})  # one line, as typed
        assert players[0]["equity"] == typed["equity"]
    finally:
        d.set_window_size(tb.WIDTH, tb.HEIGHT)


# ------------------------------------------------------------------ grids like Equilab and Flopzilla


def test_pasted_range_with_spaces(driver: WebDriver, server: str, artifacts: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``TT+ AKs`` pasted into a seat: the grid, the counts and the equity are those of
    ``TT+,AKs`` (the API's and the CLI's)."""
    d = driver
    open_view(d, server, "equity")
    set_seat(d, 0, "TT+ AKs")
    a = api(server, "range", {"range": "TT+,AKs"})
    assert a["live_weighted"] == 34
    wait(d, lambda d: grid_weights(d, "eq-grid") == range_fill(a), "TT+ AKs on the grid")
    assert seat_combos(d, 0) == "34"
    set_seat(d, 1, "QQ")
    compute(d)
    cli = cli_json(capsys, artifacts, "equity", "TT+,AKs", "--vs", "QQ")
    assert seat_numbers(d, 0) == {k: cli["players"][0][k] for k in ("win", "tie", "lose", "equity")}


def test_saved_range_survives_a_reload(driver: WebDriver, server: str) -> None:
    d = driver
    open_view(d, server, "equity")
    d.execute_script("localStorage.clear()")
    text = "QQ+,AKs,AhQh,T9s:0.5"
    set_seat(d, 0, text)
    type_into(by_id(d, "eq-save-name"), "my 3bet")
    by_id(d, "eq-save").click()
    open_view(d, server, "equity")  # a reload: a fresh page over the same browser profile
    assert seat_text(d, 0) != text
    Select(by_id(d, "eq-saved")).select_by_value("my 3bet")
    wait(d, lambda d: seat_text(d, 0) == text and idle(d) and seat_row(d, 0).get_dom_attribute("data-counted") == text,
         "the saved range in the seat")
    assert seat_combos(d, 0) == str(api(server, "range", {"range": text})["live_weighted"])
    shown = box_shows_whole(d, seat_box(d, 0))
    assert shown["text"] == text and shown["scrollH"] == shown["clientH"], shown  # read whole
    by_id(d, "eq-export").click()
    assert by_id(d, "eq-io").get_attribute("value") == f"my 3bet = {text}"
    # import: one "name = range" a line, a bad range refused with the server's message
    io = by_id(d, "eq-io")
    type_into(io, "wide = 22+ A2s+ KTo+\nbad = AA:KK")
    by_id(d, "eq-import").click()
    wait(d, lambda d: by_id(d, "error").is_displayed(), "the refused line", errors=True)
    assert "'AA:KK'" in by_id(d, "error-text").text
    options = {o.get_attribute("value") for o in Select(by_id(d, "eq-saved")).options}
    assert {"my 3bet", "wide"} <= options and "bad" not in options
    d.execute_script("localStorage.clear()")


def test_clicking_a_hits_cell_selects_its_combos(driver: WebDriver, server: str) -> None:
    d = driver
    view = hits_view(d, server, "QQ+,AKs,T9s,98s", "Ks 9d 4c")
    # the table is the API's: made, draws and combined rows with their combos, % and cumulative %
    shown = d.execute_script("return [...document.querySelectorAll('#hits-table tr.cat')].map(r =>"
                             " [r.dataset.kind, r.dataset.category, +r.dataset.combos, +r.dataset.percent,"
                             " r.querySelector('td.cum').textContent]);")
    assert shown == [[r["kind"], r["category"], r["combos"], r["percent"],
                      f"{r['cumulative']:.1f}%" if r["kind"] == "made" else ""]
                     for r in view["made"] + view["draws"] + view["combined"]]
    cell(d, "hits-grid", "KK").click()
    kk = view["by_class"]["KK"]
    assert kk["combo_list"] == ["Kh Kd", "Kh Kc", "Kd Kc"]  # Ks is on the board
    wait(d, lambda d: by_id(d, "hits-combos").get_dom_attribute("data-count") == "3", "KK's combos selected")
    assert by_id(d, "hits-combos").text.split() == " ".join(kk["combo_list"]).split()
    marked = [f"{r.get_dom_attribute('data-kind')}:{r.get_dom_attribute('data-category')}"
              for r in d.find_elements(By.CSS_SELECTOR, "#hits-table tr.holds")]
    assert sorted(marked) == sorted(kk["rows"]) and "made:set" in marked
    assert [c.get_dom_attribute("data-cls") for c in d.find_elements(By.CSS_SELECTOR, "#hits-grid .cell.hl")] == ["KK"]
    assert by_id(d, "hits-keep").is_enabled()
    # Ctrl-click adds a class; the kept range is exactly the selected combos
    ActionChains(d).key_down(Keys.CONTROL).click(cell(d, "hits-grid", "T9s")).key_up(Keys.CONTROL).perform()
    t9 = view["by_class"]["T9s"]["combo_list"]
    wait(d, lambda d: by_id(d, "hits-combos").get_dom_attribute("data-count") == str(3 + len(t9)), "T9s added")
    by_id(d, "hits-keep").click()
    want = api(server, "range/format", {"range": ",".join(c.replace(" ", "") for c in kk["combo_list"] + t9)})["text"]
    wait(d, lambda d: by_id(d, "hits-range").get_attribute("value") == want, "the kept combos as the range")


def test_equity_per_hits_category_and_the_curve_axes(driver: WebDriver, server: str) -> None:
    d = driver
    board = "Ks 9d 4c"
    # equity per category against the vs range (random, the page's default)
    view = hits_view(d, server, "QQ+,AKs,T9s", board, vs="random")
    shown = d.execute_script("return [...document.querySelectorAll('#hits-table tr.cat')].map(r =>"
                             " [r.dataset.category, r.querySelector('td.eqcol').dataset.equity]);")
    assert shown == [[r["category"], "" if r.get("equity") is None else str(r["equity"])]
                     for r in view["made"] + view["draws"] + view["combined"]]
    assert dict(shown)["set"] == str(api(server, "equity", {"hero": "KK", "vs": ["random"], "board": board})["equity"])
    by_id(d, "hits-curve-run").click()
    wait(d, lambda d: idle(d) and by_id(d, "hits-curve-info").get_dom_attribute("data-equity"), "the curve")
    ticks = d.execute_script("return ['.yaxis', '.xaxis.ticks'].map(s => [...document.querySelectorAll("
                             "`#view-hits .curvebox ${s} span`)].map(e => e.textContent));")
    assert ticks == [["100%", "75%", "50%", "25%", "0%"], ["0%", "25%", "50%", "75%", "100%"]]
    assert len(d.find_elements(By.CSS_SELECTOR, "#hits-curve line.gridline")) == 10


# ------------------------------------------------------------------ a stable Monte Carlo seed


def test_same_monte_carlo_inputs_give_the_same_numbers(driver: WebDriver, server: str) -> None:
    d = driver
    open_view(d, server, "equity")
    set_seat(d, 0, "AsKs")
    set_seat(d, 1, "QQ,JJ")
    Select(by_id(d, "eq-method")).select_by_value("mc")
    type_into(by_id(d, "eq-samples"), "50000")
    compute(d)
    first = shown_numbers(d)
    seed = by_id(d, "eq-seed").get_attribute("value")
    assert f"seed {seed}" in by_id(d, "eq-method-out").text and "same numbers" in by_id(d, "eq-method-out").text
    set_seat(d, 1, "QQ")  # another question clears the numbers ...
    assert no_numbers(d)
    set_seat(d, 1, "QQ,JJ")  # ... and asking the first again gives the first answer again
    compute(d)
    assert shown_numbers(d) == first
    body = {"hero": "AsKs", "vs": ["QQ,JJ"], "board": "", "dead": "", "samples": 50000, "seed": int(str(seed))}
    same = api(server, "equity", body)
    assert seat_numbers(d, 0) == {k: same["players"][0][k] for k in ("win", "tie", "lose", "equity")}
    by_id(d, "eq-rerun").click()  # a new seed: other draws, shown with their seed
    wait(d, lambda d: idle(d) and by_id(d, "eq-seed").get_attribute("value") != seed and not no_numbers(d), "a re-run")
    new_seed = int(str(by_id(d, "eq-seed").get_attribute("value")))
    assert f"seed {new_seed}" in by_id(d, "eq-method-out").text
    again = api(server, "equity", {**body, "seed": new_seed})
    assert seat_numbers(d, 0) == {k: again["players"][0][k] for k in ("win", "tie", "lose", "equity")}
    assert shown_numbers(d) != first


def test_blocked_combos_and_the_suit_selector(driver: WebDriver, server: str) -> None:
    """Board and dead cards block combos: a cell shows its live and blocked combos apart; the
    suit selector lists a class's combos and toggles one; weighted counts survive Compute."""
    d = driver
    open_view(d, server, "equity")
    set_seat(d, 0, "KK,AKs:0.5")
    set_board(d, "Kh 7c 2d")
    a = api(server, "range/format", {"range": "KK,AKs:0.5", "board": "Kh 7c 2d", "dead": "", "cell": "KK"})
    kk = cell(d, "eq-grid", "KK")
    assert (kk.get_dom_attribute("data-live"), kk.get_dom_attribute("data-blocked")) == ("3", "3")
    assert "blocked" in str(kk.get_attribute("class")) and "3 blocked" in str(kk.get_attribute("title"))
    assert d.execute_script("return getComputedStyle(arguments[0]).getPropertyValue('--lw').trim()", kk) == "0.5"
    assert seat_combos(d, 0) == str(a["live_weighted"]) == "4.5"  # KK 3 live, AKs 3 live at 1/2
    hands = seat_row(d, 0).find_element(By.CSS_SELECTOR, "td.share")
    assert float(str(hands.get_dom_attribute("data-value"))) == a["live_percent"]
    compute(d)
    assert seat_combos(d, 0) == "4.5"  # the count is the range's, before and after Compute
    by_id(d, "eq-suits").click()
    cell(d, "eq-grid", "KK").click()
    wait(d, lambda d: by_id(d, "eq-suits-panel").is_displayed() and idle(d), "KK's combos")
    combos = d.find_elements(By.CSS_SELECTOR, "#eq-suits-panel button.combo")
    assert [c.get_dom_attribute("data-hand") for c in combos] == [c["hand"] for c in a["cell"]["combos"]]
    assert [("dead" in str(c.get_attribute("class"))) for c in combos] == [not c["live"] for c in a["cell"]["combos"]]
    d.find_element(By.CSS_SELECTOR, "#eq-suits-panel button.combo[data-hand='Ks Kd']").click()
    want = api(server, "range/format", {"range": "KK,AKs:0.5", "board": "Kh 7c 2d", "dead": "",
                                        "paint": [{"hand": "KsKd", "weight": 0}]})
    wait(d, lambda d: seat_text(d, 0) == want["text"] and idle(d), "Ks Kd taken out")
    assert no_numbers(d) and seat_combos(d, 0) == str(want["live_weighted"]) == "3.5"
    by_id(d, "eq-suits").click()


def test_an_older_answer_or_error_is_dropped(driver: WebDriver, server: str) -> None:
    """The page's request sequence (``newest`` in js/api.js): of two requests of one kind, only
    the newer settles; the older one's answer or error is dropped, whichever arrives last."""
    d = driver
    open_view(d, server, "equity")
    got = d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        import('/js/api.js').then(async (m) => {
          const later = (ms, ok, v) => new Promise((res, rej) =>
            setTimeout(() => (ok ? res(v) : rej(new m.ApiError(v))), ms));
          const settle = (p) => p.then((v) => `answer ${v}`,
            (e) => (e instanceof m.Stale ? 'stale' : `error ${e.message}`));
          const ask = m.newest();
          const old1 = settle(ask(later(300, false, 'old error')));   // an older error arriving last
          const new1 = settle(ask(later(10, true, 'new')));
          const ask2 = m.newest();
          const old2 = settle(ask2(later(300, true, 'old')));         // an older answer arriving last
          const new2 = settle(ask2(later(10, false, 'new error')));
          const ask3 = m.newest();
          const dropped = settle(ask3(later(10, true, 'x')));
          ask3.drop();                                                // the inputs changed meanwhile
          done(await Promise.all([old1, new1, old2, new2, dropped]));
        });""")
    assert got == ["stale", "answer new", "stale", "error new error", "stale"]


def test_breakdown_counts_combos_with_their_weights(driver: WebDriver, server: str) -> None:
    """The class list showed each class's combos unweighted beside its weighted share
    (``AQs:0.5``: 4 combos beside the share of 2). Its Combos column is now the API's weighted
    count, the one the share is weighted by and the range view counts (2 for ``AQs:0.5``)."""
    d = driver
    open_view(d, server, "equity")
    hero = "KK,AQs:0.5,AJs:0.1"
    set_seat(d, 1, "QQ")
    set_board(d, LONG_BOARD)
    set_seat(d, 0, hero)
    by_id(d, "eq-bd-run").click()
    wait(d, lambda d: idle(d) and by_id(d, "eq-bd-info").text, "the breakdown")
    want = api(server, "equity", {"hero": hero, "vs": ["QQ"], "board": LONG_BOARD, "breakdown": 0})
    classes = sorted(want["breakdown"]["classes"], key=lambda c: -c["equity"])
    _, rows = breakdown_table(d)
    assert [(r[0], r[1]) for r in rows] == [(c["hand"], str(c["weighted"])) for c in classes]
    shown = dict((r[0], r[1]) for r in rows)
    assert (shown["KK"], shown["AQs"], shown["AJs"]) == ("3", "2", "0.4")
    assert shown["AQs"] == str(api(server, "range", {"range": "AQs:0.5", "board": LONG_BOARD})["live_weighted"])


#: where a range box's text starts each line it wraps to: a mirror of the box (same font, width,
#: padding and wrapping rules) holding the same text, read one character at a time
WRAPPED_LINE_STARTS = """
const box = arguments[0], cs = getComputedStyle(box), m = document.createElement('div');
for (const k of ['fontFamily', 'fontSize', 'fontWeight', 'letterSpacing', 'lineHeight', 'paddingLeft',
                 'paddingRight', 'borderLeftWidth', 'borderRightWidth', 'boxSizing', 'whiteSpace',
                 'overflowWrap', 'wordBreak', 'lineBreak', 'tabSize']) m.style[k] = cs[k];
m.style.borderStyle = 'solid'; m.style.position = 'absolute'; m.style.visibility = 'hidden';
m.style.width = cs.width; m.style.overflowX = 'hidden';
const t = document.createTextNode(box.value); m.append(t); document.body.append(m);
const r = document.createRange(), starts = [];
let top = null;
for (let i = 0; i < box.value.length; i += 1) {
  r.setStart(t, i); r.setEnd(t, i + 1);
  const y = r.getClientRects()[0]?.top;
  if (y == null) continue;
  if (top !== null && y > top + 1) starts.push(i);
  top = y;
}
m.remove();
return {text: box.value, starts, scrollW: box.scrollWidth, clientW: box.clientWidth};
"""


def test_range_box_wraps_between_hands_not_inside_one(driver: WebDriver, server: str) -> None:
    """At 1,280 px with six seats and Monte Carlo the range column is about 100 px wide: a range
    typed without spaces wrapped inside a hand ("KTo+,Q" / "To+"). A box wraps only after a
    comma or a space now, so every line starts with a whole token."""
    d = driver
    d.set_window_size(LAPTOP, 800)
    try:
        open_view(d, server, "equity")
        for _ in range(4):
            by_id(d, "eq-add").click()
        Select(by_id(d, "eq-method")).select_by_value("mc")
        text = "22+,A2s+,K9s+,Q9s+,J9s+,T9s,KTo+,QTo+,JTo"
        set_seat(d, 1, text)
        type_into(by_id(d, "eq-samples"), "20000")
        compute(d)  # the figures beside the ranges squeeze the range column
        got = d.execute_script(WRAPPED_LINE_STARTS, seat_box(d, 1))
        assert got["clientW"] < 120 and len(got["starts"]) >= 3, got  # narrow: it wraps
        for i in got["starts"]:  # each line starts a token: after a comma or a space
            assert got["text"][i - 1] in ", " + tb.BREAK, (got["text"][:i], got["text"][i:], got)
        assert got["scrollW"] <= got["clientW"], got  # no token here is wider than the box
        assert seat_text(d, 1) == text and seat_row(d, 1).get_dom_attribute("data-counted") == text
        # copying the box gives the range as typed, without the box's breaks
        box = seat_box(d, 1)
        d.execute_cdp_cmd("Browser.grantPermissions", {"origin": server, "permissions": ["clipboardReadWrite",
                                                                                          "clipboardSanitizedWrite"]})
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys(Keys.CONTROL, "c")
        assert d.execute_async_script("navigator.clipboard.readText().then(arguments[0]);") == text
        # Backspace just after a comma deletes the comma (not only the box's break after it)
        box.send_keys(Keys.END, Keys.LEFT, Keys.LEFT, Keys.LEFT, Keys.BACKSPACE)
        assert seat_text(d, 1) == text[:-4] + text[-3:]
    finally:
        d.set_window_size(tb.WIDTH, tb.HEIGHT)
