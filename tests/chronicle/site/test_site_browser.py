"""A real browser walks the published fixture site (headless Chromium).

From the archive index to a campaign, a house, a character and the
genealogy, every page must load without a console error; the search box must
find a reference number. Screenshots go to ``tests/screenshots/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import BROWSER, SHOTS, no_console_errors, served
from site_fixture import build_fixture

from chronicle.site import build_site

pytestmark = BROWSER


@pytest.fixture(scope="module")
def base_url(wars_copy: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("browser")
    build_site([wars_copy], root / "site")
    with served(root / "site") as url:
        yield url


def _visit(driver: object, url: str, shot: str) -> None:
    driver.get(url)  # type: ignore[attr-defined]
    SHOTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(SHOTS / f"{shot}.png"))  # type: ignore[attr-defined]
    no_console_errors(driver)


def _follow(driver: object, text: str, shot: str) -> None:
    from selenium.webdriver.common.by import By

    link = driver.find_element(By.PARTIAL_LINK_TEXT, text)  # type: ignore[attr-defined]
    _visit(driver, link.get_attribute("href"), shot)


def test_walk_from_the_archive_to_a_character_and_the_genealogy(browser: object,
                                                                base_url: str) -> None:
    from selenium.webdriver.common.by import By

    _visit(browser, base_url + "index.html", "01-archive")
    _follow(browser, "The Fixture Wars", "02-campaign")
    assert browser.find_element(By.TAG_NAME, "h1").text == "The Fixture Wars"  # type: ignore[attr-defined]
    _follow(browser, "Houses", "03-houses")
    _follow(browser, "England", "04-house")
    genealogy = browser.find_element(By.CSS_SELECTOR, "figure.diagram object")  # type: ignore[attr-defined]
    assert genealogy.get_attribute("data").endswith("genealogy/england.svg")
    _follow(browser, "Edward (E1000)", "05-character")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Edward E1000"  # type: ignore[attr-defined]
    _follow(browser, "Eleanor", "06-spouse")
    _follow(browser, "Edward (E1000)", "07-character-again")
    _follow(browser, "See in the family tree", "08-genealogy")
    assert "Eleanor" in browser.page_source  # type: ignore[attr-defined]


def test_search_finds_a_reference_number(browser: object, base_url: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    _visit(browser, base_url + "fixture-wars/search/index.html", "09-search")
    box = WebDriverWait(browser, 10).until(  # type: ignore[arg-type]
        lambda d: d.find_element(By.ID, "q") if d.find_element(By.ID, "q").is_displayed()
        else None)
    box.send_keys("E1000")
    result = WebDriverWait(browser, 10).until(  # type: ignore[arg-type]
        lambda d: d.find_elements(By.CSS_SELECTOR, "#results a"))
    assert result[0].text == "Edward"
    browser.save_screenshot(str(SHOTS / "10-search-result.png"))  # type: ignore[attr-defined]
    no_console_errors(browser)


# Each way a drawing could run script: a script element, an event handler,
# a javascript: link followed at load, and HTML inside foreignObject.
PLANTED_SVG = """<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
 width="200" height="100" onload="top.planted = (top.planted || 0) + 1">
<script>top.planted = (top.planted || 0) + 1;</script>
<foreignObject width="100" height="50"><div xmlns="http://www.w3.org/1999/xhtml">
<img src="x" onerror="top.planted = (top.planted || 0) + 1"/></div></foreignObject>
<a xlink:href="javascript:top.planted=1"><text x="10" y="80">planted</text></a>
</svg>
"""


def _embedded_loaded(driver: object) -> bool:
    return bool(driver.execute_script(  # type: ignore[attr-defined]
        "const o = document.querySelector('object');"
        "return !!(o && o.contentDocument && o.contentDocument.readyState === 'complete'"
        " && o.contentDocument.querySelector('svg'));"))


def test_script_in_the_published_site_a_planted_cached_svg_runs_nothing_in_a_house_page(
        browser: object, tmp_path: Path) -> None:
    """Finding: a planted ``.cache/graphviz/<hash>.svg`` was published verbatim, and its
    script ran in the house pages that embed it.

    The same drawing, embedded by a page outside the site, does run: the
    browser would run it, so its silence in the house page is the build's.
    """
    from selenium.webdriver.support.ui import WebDriverWait

    campaign = build_fixture(tmp_path / "fixture-wars", turns=2)
    build_site([campaign], tmp_path / "first")
    entries = sorted((campaign / ".cache" / "graphviz").glob("*.svg"))
    assert entries
    for entry in entries:
        entry.write_text(PLANTED_SVG, encoding="utf-8")
    build_site([campaign], tmp_path / "site")
    (tmp_path / "planted.svg").write_text(PLANTED_SVG, encoding="utf-8")
    (tmp_path / "control.html").write_text(
        '<!DOCTYPE html><title>control</title>'
        '<object type="image/svg+xml" data="planted.svg"></object>\n', encoding="utf-8")
    with served(tmp_path) as url:
        browser.get(url + "control.html")  # type: ignore[attr-defined]
        WebDriverWait(browser, 10).until(  # type: ignore[arg-type]
            lambda d: d.execute_script("return window.planted"))
        browser.get(url + "site/fixture-wars/houses/england/index.html")  # type: ignore[attr-defined]
        WebDriverWait(browser, 10).until(_embedded_loaded)  # type: ignore[arg-type]
        assert browser.execute_script("return window.planted") is None  # type: ignore[attr-defined]
        assert "planted" not in browser.execute_script(  # type: ignore[attr-defined]
            "return document.querySelector('object').contentDocument.documentElement.outerHTML")


@pytest.fixture(scope="module")
def site_on_disk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("browser-file")
    campaign = build_fixture(root / "fixture-wars", turns=6)
    build_site([campaign], root / "site")
    return root / "site"


def test_item_4_the_relationship_finder_answers_from_a_file_site(browser: object,
                                                               site_on_disk: Path) -> None:
    """Issue 16, item 4: "the relationship finder answering for two people from a
    file:// site": Margaret (S1aa0) is the daughter of Mary (S1a00), the first
    daughter of Alfonso (S1000); the path goes through her parents."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    page = site_on_disk / "fixture-wars/relationship/index.html"
    browser.get_log("browser")  # type: ignore[attr-defined]  # drop earlier pages' messages
    _visit(browser, page.as_uri(), "10-relationship")
    form = WebDriverWait(browser, 10).until(  # type: ignore[arg-type]
        lambda d: d.find_element(By.ID, "kinship")
        if d.find_element(By.ID, "kinship").is_displayed() else None)
    browser.find_element(By.ID, "kin-a").send_keys("S1aa0")  # type: ignore[attr-defined]
    browser.find_element(By.ID, "kin-b").send_keys("s1000")  # type: ignore[attr-defined]
    form.find_element(By.CSS_SELECTOR, "button").click()
    answer = WebDriverWait(browser, 10).until(  # type: ignore[arg-type]
        lambda d: d.find_element(By.ID, "kin-answer").text or None)
    assert "Margaret (S1aa0) is the granddaughter of Alfonso (S1000)." in answer
    assert "Nearest common ancestor: Alfonso (S1000)." in answer
    path = [li.text for li in browser.find_elements(  # type: ignore[attr-defined]
        By.CSS_SELECTOR, "ol.kin-path li")]
    assert path == ["Margaret (S1aa0)", "Mary (S1a00)", "Alfonso (S1000)"]
    no_console_errors(browser)
    browser.save_screenshot(str(SHOTS / "11-relationship-answer.png"))  # type: ignore[attr-defined]
