"""The Equity and Hits views and ``/docs`` in headless Chromium (issue 37's equity half): every
number belongs to the inputs beside it, grids like Equilab and Flopzilla, layout at 1024 px, a
stable Monte Carlo seed, and an API page that renders. Fixtures and helpers come from
``tests/test_browser.py`` (same browser, same real server); each scenario takes a few seconds.
"""

from __future__ import annotations

import json
import urllib.request

# test_browser skips (or, under CI, fails) this file too when there is no browser; selenium's
# names come through it for that reason
from tests import test_browser as tb
from tests.test_browser import WAIT, By, WebDriver, WebDriverWait

# the same browser, server and screenshot folder fixtures as tests/test_browser.py
server, driver, shots, no_script_errors = tb.server, tb.driver, tb.shots, tb.no_script_errors

#: the narrow window the layout must fit (a small laptop)
NARROW = 1024
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
