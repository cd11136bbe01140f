"""A newcomer plays 20 hands and builds a three-seat range spot without opening the docs (issue 37).

The scenario uses only what a person sees: tabs, buttons and labels by their text, the hints'
words, the cards' faces, the table rows' headings; no element ids or classes. It plays 20 hands
of the default game (Deal; the Tutor names the best hold and its cards, which it holds; every
fourth hand it keeps its own choice, the first two cards, and draws anyway), reads the session
tally, then types three hold'em ranges and a flop, computes, and reads the seats' equity. The
page's tally equals the API's grades of those deals; the equity equals the CLI's. A probe shows
each helper fails when the text it reads is gone (a removed label breaks the scenario).
"""

from __future__ import annotations

import re
import time
from fractions import Fraction
from pathlib import Path

import pytest

from tests import test_browser as tb
from tests.test_browser import JACKS, By, WebDriver, WebElement, api, cli_json, idle, wait

# the browser tests' fixtures (the session's server and browser, on the worker conftest gives these files)
server = tb.server
driver = tb.driver
no_script_errors = tb.no_script_errors

HANDS = 20
#: every OWN-th hand the newcomer keeps its own choice (the first two cards)
OWN = 4
SUITS = "♠♥♦♣"
SPOT = {"Hero": "QQ+, AKs", "Seat 2": "JJ-99 AQs+", "Seat 3": "TT-77 KQs"}
FLOP = "Ks 9d 4c"


class Unseen(AssertionError):
    """What the newcomer looks for is not on the screen."""


def shown(d: WebDriver, xpath: str, what: str) -> WebElement:
    found = [e for e in d.find_elements(By.XPATH, xpath) if e.is_displayed()]
    if not found:
        raise Unseen(f"the newcomer sees no {what}")
    return found[0]


def button(d: WebDriver, text: str) -> WebElement:
    """The button that reads ``text``."""
    return shown(d, f"//button[normalize-space()={text!r}]", f"button {text!r}")


def labelled(d: WebDriver, text: str) -> WebElement:
    """The field (a box to type in, a checkbox or a list) of the label that reads ``text``
    (not a radio button: "Board" also names the card picker's mode)."""
    return shown(d, f"//label[starts-with(normalize-space(), {text!r})]"
                    "//*[self::input[not(@type='radio')] or self::select]", f"field labelled {text!r}")


def words(d: WebDriver, text: str) -> WebElement:
    """The innermost element on screen whose text holds ``text``."""
    return shown(d, f"//*[contains(normalize-space(), {text!r}) and not(*[contains(normalize-space(), {text!r})])]",
                 f"text {text!r}")


def row_field(d: WebDriver, heading: str) -> WebElement:
    """The text box (one line or several) in the table row headed ``heading``."""
    return shown(d, f"//tr[th[normalize-space()={heading!r}]]//*[self::input or self::textarea]", f"row {heading!r}")


def row_value(d: WebDriver, heading: str, column: str = "") -> str:
    """The cell of the row headed ``heading`` (under the column headed ``column``)."""
    if not column:
        return shown(d, f"//tr[th[normalize-space()={heading!r}]]/td[1]", f"row {heading!r}").text
    table = shown(d, f"//table[thead/tr/th[normalize-space()={column!r}]]", f"column {column!r}")
    heads = [th.text.strip() for th in table.find_elements(By.XPATH, "./thead/tr/th")]
    row = table.find_element(By.XPATH, f".//tr[th[normalize-space()={heading!r}]]")
    return str(row.find_elements(By.XPATH, "./th|./td")[heads.index(column)].text)


def cards(d: WebDriver) -> list[WebElement]:
    """The card faces on screen (a rank and a suit symbol), left to right."""
    faces = d.execute_script(  # one round trip: every element drawn on screen whose text is a face
        "return [...document.querySelectorAll('body *')].filter((e) => e.children.length === 1"
        " && e.firstElementChild.tagName === 'SMALL' && arguments[0].includes(e.firstElementChild.textContent)"
        " && e.getClientRects().length && getComputedStyle(e).visibility === 'visible');", SUITS)
    if len(faces) != 5:
        raise Unseen(f"the newcomer sees {len(faces)} cards")
    return faces


def tutor_positions(text: str) -> list[int]:
    """The card positions (1-5) the Tutor's message names: "... (cards 1 and 4)", "(card 3)";
    [] for "draw five"."""
    if "draw five" in text:
        return []
    m = re.search(r"\((cards?) ([\d, and]+)\)", text)
    if m is None:
        raise Unseen(f"the Tutor does not say which cards: {text!r}")
    return [int(x) for x in re.findall(r"\d", m.group(2))]


def settled(d: WebDriver) -> bool:
    return idle(d) and not d.find_elements(By.XPATH, "//*[normalize-space()='working…' and not(@hidden)]")


def drawn(d: WebDriver) -> str:
    """Wait for the verdict after a draw: "Correct." or "Mistake."."""
    v = wait(d, lambda d: settled(d) and next((e for e in d.find_elements(
        By.XPATH, "//strong[normalize-space()='Correct.' or normalize-space()='Mistake.']") if e.is_displayed()), None),
        "a verdict")
    return str(v.text)


def play_hand(d: WebDriver, own: bool) -> str:
    """One hand as the newcomer plays it: Deal, then the Tutor's hold (or its own), Draw."""
    button(d, "Deal").click()
    wait(d, lambda d: settled(d) and len(cards(d)) == 5 and button(d, "Draw").is_enabled(), "a deal")
    if own:
        for k in range(2):
            cards(d)[k].click()  # a click redraws the cards: find them again
    button(d, "Draw").click()
    time.sleep(0.2)
    wait(d, settled, "the tutor or the draw")
    tutor = [e for e in d.find_elements(By.XPATH, "//*[starts-with(normalize-space(), 'Tutor:')]") if e.is_displayed()]
    if tutor:
        if own:
            assert "Draw again to play yours" in tutor[0].text
        else:
            for p in tutor_positions(tutor[0].text):
                cards(d)[p - 1].click()
        button(d, "Draw").click()
    return drawn(d)


def test_newcomer_plays_twenty_hands(driver: WebDriver, server: str) -> None:
    d = driver
    tb.fresh_page(d, server)
    wait(d, settled, "the page")
    button(d, "Video poker").click()
    wait(d, lambda d: settled(d) and button(d, "Deal"), "the trainer")
    words(d, "click the cards to keep")  # the hint the newcomer follows
    words(d, "Tick Tutor")
    labelled(d, "Tutor").click()
    verdicts = []
    for i in range(HANDS):
        verdicts.append(play_hand(d, own=i % OWN == OWN - 1))
        if i == 0:
            assert re.search(r"· 1 hand ·", words(d, "1 hand").text)
    assert all(v == "Correct." for i, v in enumerate(verdicts) if i % OWN != OWN - 1)
    # the tally the newcomer reads, against the API's grades of the same deals (seed 1)
    deals = api(server, "vp/deal", {"paytable": JACKS, "seed": 1, "count": HANDS})["deals"]
    grades = [api(server, "vp/grade", {"deal": deal, "paytable": JACKS, "hold": "1,2" if i % OWN == OWN - 1
                                       else api(server, "vp/hold", {"deal": deal, "paytable": JACKS})["best"]})
              for i, deal in enumerate(deals)]
    mistakes = sum(not g["optimal"] for g in grades)
    assert [v == "Mistake." for v in verdicts] == [not g["optimal"] for g in grades]
    assert row_value(d, "Hands") == str(HANDS)
    assert row_value(d, "Mistakes") == str(mistakes)
    cost = 5 * sum(Fraction(g["cost_exact"]) for g in grades)
    assert row_value(d, "Cost of mistakes").startswith(f"{float(cost):.2f} credit")
    assert f"{HANDS} hands" in words(d, f"{HANDS} hands").text


def test_newcomer_builds_a_three_seat_spot(driver: WebDriver, server: str, artifacts: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    d = driver
    tb.fresh_page(d, server)
    wait(d, settled, "the page")
    button(d, "Equity").click()
    words(d, "Type a range in each seat")  # the hint: ranges as typed, then Compute equity
    for seat, text in SPOT.items():
        if not [e for e in d.find_elements(By.XPATH, f"//tr[th[normalize-space()={seat!r}]]") if e.is_displayed()]:
            button(d, "+ Seat").click()
        box = row_field(d, seat)
        box.clear()
        box.send_keys(text)
    board = labelled(d, "Board")
    board.clear()
    board.send_keys(FLOP)
    time.sleep(0.6)  # the page counts typed ranges after a short pause
    wait(d, settled, "the ranges counted")
    button(d, "Compute equity").click()
    wait(d, lambda d: settled(d) and all(row_value(d, s, "Equity").endswith("%") for s in SPOT), "three equities")
    cli = cli_json(capsys, artifacts, "equity", SPOT["Hero"], "--vs", SPOT["Seat 2"], "--vs", SPOT["Seat 3"],
                   "-b", FLOP)
    for seat, player in zip(SPOT, cli["players"]):
        assert row_value(d, seat, "Equity") == f"{100 * player['equity']:.3f}%"
    assert sum(p["equity"] for p in cli["players"]) == pytest.approx(1)


@pytest.mark.parametrize("gone, find", [
    ("Video poker", lambda d: button(d, "Video poker")),
    ("Compute equity", lambda d: button(d, "Compute equity")),
    ("+ Seat", lambda d: button(d, "+ Seat")),
    ("Board", lambda d: labelled(d, "Board")),
    ("Type a range in each seat", lambda d: words(d, "Type a range in each seat")),
])
def test_the_scenario_needs_what_the_page_says(driver: WebDriver, server: str, gone: str, find: object) -> None:
    """Each label or hint the scenario reads, removed from the page, stops the newcomer."""
    d = driver
    tb.fresh_page(d, server)
    wait(d, settled, "the page")
    assert callable(find)
    find(d)
    d.execute_script(
        "const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);"
        "for (let n; (n = w.nextNode());) n.nodeValue = n.nodeValue.replace(arguments[0], '');", gone)
    with pytest.raises(Unseen):
        find(d)


def test_tutor_without_card_positions_stops_the_newcomer() -> None:
    assert tutor_positions("Tutor: the best hold is J♠ J♦ (cards 1 and 4); yours costs 0.50 credits.") == [1, 4]
    assert tutor_positions("Tutor: the best hold is Q♥ (card 3); yours costs 1.00 credit.") == [3]
    with pytest.raises(Unseen):
        tutor_positions("Tutor: the best hold is Js Jd; yours costs 0.50 credits.")
