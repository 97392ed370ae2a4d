"""Issue 19, item 6: "*Les familles nobles* traits drawn as inline SVG symbols, with no
emoji font needed."

A French game of the card game is played and published. Its pages define the
traits' drawings once, as an inline ``<symbol>`` sprite, and each trait shows
its own with ``<use>``, named in the page's language; the family trees carry
the strokes themselves. No page holds an emoji; in headless Chromium every
mark is drawn (its box has a size) at desktop and at 390 px.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from browser_support import CHROMIUM, DRIVER, MISSING, SHOTS

from chronicle.campaign.resources import ruleset_table
from chronicle.campaign.scaffold import scaffold
from chronicle.play.demo import play_turns
from chronicle.rulesets.familles.traitmarks import DRAWINGS, RING
from chronicle.site import build_site

#: The pack's traits, as the game deals them: id -> (symbol, French name).
TRAITS = {t["id"]: (t["symbol"], t["name"]["fr"])
          for t in ruleset_table("familles", "familles.toml")["traits"]}


def _emoji(text: str) -> set[str]:
    """Characters that need an emoji font: the pictographs' planes (U+1F000 on), the
    emoji presentation selector, and every symbol the pack gives its traits."""
    symbols = {s for s, _ in TRAITS.values()}
    return {c for c in text if ord(c) >= 0x1F000 or c == "\N{VARIATION SELECTOR-16}"
            or c in symbols}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("marks")
    folder = root / "partie"
    scaffold(folder, "familles", title="Partie", seed="marks")
    toml = folder / "campaign.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('language = "en"',
                                                             'language = "fr"'),
                    encoding="utf-8")
    play_turns(folder, 60, "marks")
    build_site([folder], root / "site")
    return root / "site" / "partie"


def test_every_pack_symbol_has_a_drawing() -> None:
    """The pack's five traits each have strokes of their own, not the fallback ring."""
    assert {s for s, _ in TRAITS.values()} <= set(DRAWINGS)
    assert len({DRAWINGS[s] for s, _ in TRAITS.values()} | {RING}) == len(TRAITS) + 1


def test_no_page_holds_an_emoji_and_every_trait_is_a_named_mark(site: Path) -> None:
    files = sorted(site.rglob("*.html")) + sorted(site.rglob("*.svg")) + \
        sorted(site.rglob("*.js"))
    assert len(files) > 60
    found = {str(f.relative_to(site)): _emoji(f.read_text(encoding="utf-8")) for f in files}
    assert {name: chars for name, chars in found.items() if chars} == {}
    chips = 0
    for page in sorted(site.rglob("*.html")):
        html = page.read_text(encoding="utf-8")
        uses = re.findall(r'<svg class="symbol" viewBox="0 0 24 24" role="img" '
                          r'aria-label="([^"]+)"><title>([^<]+)</title>'
                          r'<use href="#trait-([a-z-]+)"/></svg>', html)
        for label, title, trait in uses:
            # Named in the page's language, and drawn from this page's own sprite.
            assert label == title == TRAITS[trait][1], (page, label)
            assert f'<symbol id="trait-{trait}" viewBox="0 0 24 24">' in html
        chips += len(uses)
        assert html.count('class="trait"') == len(uses), page
    assert chips > 50


def test_the_trees_draw_each_trait_with_its_name(site: Path) -> None:
    tree = (site / "tree" / "current.svg").read_text(encoding="utf-8")
    marks = re.findall(r'<g class="trait-mark" transform="translate\([-\d.]+,[-\d.]+\) '
                       r'scale\(0.6667\)"><title>([^<]+)</title><path d="([^"]+)"', tree)
    assert len(marks) >= 3 * 5
    by_name = {name: DRAWINGS[symbol] for symbol, name in TRAITS.values()}
    assert all(by_name[name] == path for name, path in marks)
    assert "@trait:" not in tree


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None or DRIVER is None, reason=MISSING)
@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_the_marks_render_in_chromium(browser: object, site: Path,
                                      size: tuple[int, int]) -> None:
    width, height = size
    browser.execute_cdp_cmd(  # type: ignore[attr-defined]
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    browser.get((site / "index.html").as_uri())  # type: ignore[attr-defined]
    SHOTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(SHOTS / f"familles-marks-{width}.png"))  # type: ignore[attr-defined]
    # Each chip's box, and what its <use> drew from the sprite (0 if it found nothing).
    boxes = browser.execute_script(  # type: ignore[attr-defined]
        "return [...document.querySelectorAll('svg.symbol')].map(s => {"
        " const r = s.getBoundingClientRect(), b = s.querySelector('use').getBBox();"
        " return [r.width, r.height, b.width, b.height]; })")
    assert len(boxes) >= len(TRAITS)
    assert all(w >= 12 and h >= 12 and bw > 8 and bh > 4 for w, h, bw, bh in boxes), boxes
    scroll = browser.execute_script(  # type: ignore[attr-defined]
        "return document.documentElement.scrollWidth")
    assert scroll <= width
    browser.get((site / "tree" / "current.svg").as_uri())  # type: ignore[attr-defined]
    drawn = browser.execute_script(  # type: ignore[attr-defined]
        "return [...document.querySelectorAll('g.trait-mark')].map(g => g.getBBox().width)")
    assert len(drawn) >= 15 and all(w > 5 for w in drawn), drawn
