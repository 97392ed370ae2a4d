"""Issue 19, item 5: "Search over everything: people (case-sensitive reference
numbers), houses, provinces, battles and turns, with ranking. It works from
``file://``, so the index must be loadable without ``fetch``."

The reference site (``tests/golden/reference-site/``, the Blood Royale case,
kept equal to the generator's output by ``test_golden``) is opened from the
disk in headless Chromium, and searched for a province, a battle, a reference
number, a house and a turn.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import CHROMIUM, DRIVER, MISSING, SHOTS, no_console_errors
from repo_paths import GOLDEN

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None or DRIVER is None, reason=MISSING),
]

SEARCH = GOLDEN / "reference-site" / "blood-royale" / "search" / \
    "index.html"


def _results(driver: object, query: str) -> list[tuple[str, str]]:
    """(text, link) of each result for ``query`` typed into the search box."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(SEARCH.as_uri())  # type: ignore[attr-defined]
    box = WebDriverWait(driver, 10).until(  # type: ignore[arg-type]
        lambda d: d.find_element(By.ID, "q") if d.find_element(By.ID, "q").is_displayed()
        else None)
    box.send_keys(query)
    items = driver.find_elements(By.CSS_SELECTOR, "#results li")  # type: ignore[attr-defined]
    no_console_errors(driver)
    return [(li.text, li.find_element(By.TAG_NAME, "a").get_attribute("href")) for li in items]


def _opens(href: str) -> bool:
    return href.startswith("file://") and Path(href.removeprefix("file://").split("#")[0]
                                               ).is_file()


def test_search_from_file_finds_a_province_first(browser: object) -> None:
    found = _results(browser, "Navarre")
    assert found[0][0].startswith("Navarre — province")
    assert all(_opens(href) for _text, href in found)


def test_search_from_file_finds_a_battle(browser: object) -> None:
    found = _results(browser, "battle navarre")
    assert found[0][0].startswith("Battle of Navarre — battle · 1310")
    assert found[0][1].endswith("/battles/b-3-1/index.html") and _opens(found[0][1])


def test_search_from_file_finds_a_reference_number_case_sensitively(
        browser: object) -> None:
    found = _results(browser, "E1000")
    assert found[0][0].startswith("Edward — person · E1000")
    assert _opens(found[0][1])
    browser.save_screenshot(str(SHOTS / "search-reference.png"))  # type: ignore[attr-defined]
    # A reference number is matched as written: e1000 is no one's.
    assert not any("E1000" in text for text, _href in _results(browser, "e1000"))


def test_search_ranks_a_house_above_the_provinces_it_holds(browser: object) -> None:
    found = _results(browser, "Capet")
    assert found[0][0].startswith("House Capet — house")
    assert any(text.endswith("province · House Capet") for text, _href in found[1:])
    assert _results(browser, "Turn 2")[0][0].startswith("Turn 2, 1305 — turn")
