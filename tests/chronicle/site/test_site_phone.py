"""Issue 19, item 3: "Phones. No page overflows a 390 px viewport: tables scroll
inside their own frame or reflow. This covers battles, wealth, dice, houses,
people and turns; test it in Chromium."

Every kind of page of the reference site (``tests/golden/reference-site/``,
the Blood Royale case, kept equal to the generator's output by
``test_golden``) is opened from ``file://`` in headless Chromium at 390x844
and at 1280x800, and the document's ``scrollWidth`` must not exceed the
viewport's width.
"""

from __future__ import annotations

import pytest
from browser_support import CHROMIUM, DRIVER, MISSING, SHOTS
from repo_paths import GOLDEN

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None or DRIVER is None, reason=MISSING),
]

SITE = GOLDEN / "reference-site"
CAMPAIGN = SITE / "blood-royale"

KINDS = {
    "archive": SITE / "index.html",
    "home": CAMPAIGN / "index.html",
    "turn": CAMPAIGN / "turns" / "turn-003" / "index.html",
    "dice": CAMPAIGN / "dice" / "turn-003" / "index.html",
    "houses": CAMPAIGN / "houses" / "index.html",
    "house": CAMPAIGN / "houses" / "england" / "index.html",
    "people": CAMPAIGN / "people" / "index.html",
    "person": next((CAMPAIGN / "people").glob("e1000-*/index.html")),
    "battles": CAMPAIGN / "battles" / "index.html",
    "battle": CAMPAIGN / "battles" / "b-3-1" / "index.html",
    "wealth": CAMPAIGN / "wealth" / "index.html",
    "search": CAMPAIGN / "search" / "index.html",
}


def _widths(driver: object, url: str, width: int, height: int) -> tuple[int, int]:
    driver.execute_cdp_cmd(  # type: ignore[attr-defined]
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    driver.get(url)  # type: ignore[attr-defined]
    scroll, view = driver.execute_script(  # type: ignore[attr-defined]
        "return [document.documentElement.scrollWidth, window.innerWidth]")
    return int(scroll), int(view)


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_no_page_kind_overflows_the_viewport(browser: object,
                                             size: tuple[int, int]) -> None:
    width, height = size
    overflowing = {}
    for kind, path in KINDS.items():
        assert path.is_file(), path
        scroll, view = _widths(browser, path.as_uri(), width, height)
        assert view == width
        if scroll > view:
            overflowing[kind] = scroll
        if width < 600 and kind in ("turn", "wealth", "battle"):
            SHOTS.mkdir(exist_ok=True)
            browser.save_screenshot(str(SHOTS / f"phone-{kind}.png"))  # type: ignore[attr-defined]
    assert overflowing == {}


def test_a_wide_table_scrolls_in_its_own_frame_on_a_phone(browser: object) -> None:
    """The wealth table is wider than a phone: it scrolls, the page does not."""
    _widths(browser, KINDS["wealth"].as_uri(), 390, 844)
    widest = browser.execute_script(  # type: ignore[attr-defined]
        "return Math.max(...[...document.querySelectorAll('main table')].map("
        "t => t.scrollWidth - t.clientWidth))")
    assert widest > 0


@pytest.mark.parametrize("kind", ["wealth", "houses"])
def test_a_chart_keeps_its_size_and_scrolls_on_a_phone(browser: object,
                                                       kind: str) -> None:
    """Issue 16: "No diagram text renders below 10 CSS px at the page's default
    zoom". The wealth and population charts (800 px wide, 10 px labels) were
    shrunk to a phone's width, their labels to about 4.6 px: they must keep
    their size, in a frame that scrolls sideways, the page not."""
    scroll, view = _widths(browser, KINDS[kind].as_uri(), 390, 844)
    assert scroll <= view
    charts = browser.execute_script(  # type: ignore[attr-defined]
        "return [...document.querySelectorAll('figure.chart img')].map(i => "
        "[i.getBoundingClientRect().width, i.naturalWidth || 800, "
        "i.parentElement.scrollWidth > i.parentElement.clientWidth])")
    assert charts
    for shown, natural, scrolls in charts:
        assert shown >= natural and scrolls


def test_a_person_s_charts_open_on_the_person_on_a_phone(browser: object) -> None:
    """A wide row of children put the person of the page out of sight, the
    descendants' chart opened on blank paper at 390 px: each chart that scrolls
    opens with the person (the box drawn as "self") in sight."""
    scrolled = 0
    for page in sorted((CAMPAIGN / "people").glob("*/index.html")):
        _widths(browser, page.as_uri(), 390, 844)
        frames = browser.execute_script(  # type: ignore[attr-defined]
            "return [...document.querySelectorAll('figure.person-chart .chart-frame')]"
            ".filter(f => f.scrollWidth > f.clientWidth).map(f => {"
            "const s = f.querySelector('g.self').getBoundingClientRect(),"
            " b = f.getBoundingClientRect();"
            "return [s.left + s.width / 2 - b.left, b.width]; })")
        for middle, width in frames:
            scrolled += 1
            assert 0 <= middle <= width, page
    assert scrolled > 0
