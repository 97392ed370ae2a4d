"""Accessibility of every published page (site design: "clean, accessible, semantic").

Static checks over the whole fixture site, in English and French: a page
language, one ``h1`` and no skipped heading level, unique ids and live
``aria-labelledby`` targets, a name for every link, image, embedded drawing
and form field, headed tables; and WCAG AA contrast for the theme's colours.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
from site_fixture import build_fixture

from chronicle.campaign.resources import themes_dir
from chronicle.site import build_site


@dataclass
class _Element:
    tag: str
    attrs: dict[str, str]
    text: str = ""


@dataclass
class _Page(HTMLParser):
    lang: str | None = None
    headings: list[int] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)
    labelled_by: list[str] = field(default_factory=list)
    labels_for: list[str] = field(default_factory=list)
    links: list[_Element] = field(default_factory=list)
    images: list[_Element] = field(default_factory=list)
    objects: list[_Element] = field(default_factory=list)
    inputs: list[_Element] = field(default_factory=list)
    header_cells: int = 0
    tables: int = 0
    _open: list[_Element] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(convert_charrefs=True)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        element = _Element(tag, values)
        if tag == "html":
            self.lang = values.get("lang")
        if re.fullmatch(r"h[1-6]", tag):
            self.headings.append(int(tag[1]))
        if "id" in values:
            self.ids.append(values["id"])
        if "aria-labelledby" in values:
            self.labelled_by.extend(values["aria-labelledby"].split())
        if tag == "label" and "for" in values:
            self.labels_for.append(values["for"])
        if tag == "a" and "href" in values:
            self.links.append(element)
        if tag == "img":
            self.images.append(element)
        if tag == "object":
            self.objects.append(element)
        if tag == "input" and values.get("type") not in ("hidden", "submit"):
            self.inputs.append(element)
        if tag == "th":
            self.header_cells += 1
        if tag == "table":
            self.tables += 1
        if tag not in ("img", "input", "br", "meta", "link", "hr"):
            self._open.append(element)

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self._open) - 1, -1, -1):
            if self._open[index].tag == tag:
                del self._open[index:]
                break

    def handle_data(self, data: str) -> None:
        for element in self._open:
            if element.tag in ("a", "object"):
                element.text += data


def _problems(name: str, html: str) -> list[str]:
    page = _Page()
    page.feed(html)
    found = []
    if not page.lang:
        found.append("no page language")
    if page.headings.count(1) != 1:
        found.append(f"{page.headings.count(1)} h1")
    for before, after in zip(page.headings, page.headings[1:], strict=False):
        if after > before + 1:
            found.append(f"heading h{before} then h{after}")
    duplicates = {i for i in page.ids if page.ids.count(i) > 1}
    if duplicates:
        found.append(f"ids used twice: {sorted(duplicates)}")
    found += [f"aria-labelledby {i} names nothing" for i in page.labelled_by
              if i not in page.ids]
    found += [f"link to {a.attrs['href']} has no name" for a in page.links
              if not (a.text.strip() or a.attrs.get("aria-label") or a.attrs.get("title"))]
    found += [f"image {i.attrs.get('src')} has no alt" for i in page.images if "alt" not in i.attrs]
    found += [f"drawing {o.attrs.get('data')} has no name" for o in page.objects
              if not (o.text.strip() or o.attrs.get("aria-label") or o.attrs.get("title"))]
    found += [f"field {i.attrs.get('id')} has no label" for i in page.inputs
              if i.attrs.get("id") not in page.labels_for and not i.attrs.get("aria-label")]
    if page.tables and not page.header_cells:
        found.append("tables without header cells")
    return [f"{name}: {problem}" for problem in found]


@pytest.fixture(scope="module", params=["en", "fr"])
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp(f"a11y-{request.param}")
    campaign = build_fixture(root / "fixture-wars", turns=6, language=request.param)
    build_site([campaign], root / "site")
    return root / "site"


def test_every_page_is_structured_and_named(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 20
    problems = [p for path in pages
                for p in _problems(path.relative_to(site).as_posix(),
                                   path.read_text(encoding="utf-8"))]
    assert problems == []


def _luminance(colour: str) -> float:
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_contrast_helper_matches_wcag() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)


def test_theme_text_colours_meet_wcag_aa() -> None:
    css = (themes_dir() / "default/static/style.css").read_text(encoding="utf-8")
    colours = dict(re.findall(r"--([a-z]+):\s*(#[0-9a-fA-F]{6})", css))
    pairs = {
        "text": ("ink", "paper"), "muted text": ("muted", "paper"),
        "links": ("link", "paper"), "visited links": ("visited", "paper"),
        "headings": ("accent", "paper"), "table heads": ("ink", "band"),
        "muted on bands": ("muted", "band"), "links on bands": ("link", "band"),
    }
    weak = {what: round(contrast(colours[fg], colours[bg]), 2)
            for what, (fg, bg) in pairs.items() if contrast(colours[fg], colours[bg]) < 4.5}
    assert weak == {}
    assert contrast("#ffffff", colours["accent"]) >= 4.5  # the masthead


def test_the_checks_catch_what_they_look_for() -> None:
    bad = ('<html><body><h1>A</h1><h3>skipped</h3><h1>again</h1>'
           '<section aria-labelledby="nowhere"><a href="x.html"></a>'
           '<img src="a.png"><object data="g.svg"></object>'
           '<input id="q" type="search"><table><tr><td>1</td></tr></table>'
           '<p id="d"></p><p id="d"></p></section></body></html>')
    found = " | ".join(_problems("bad.html", bad))
    for problem in ("no page language", "2 h1", "heading h1 then h3", "ids used twice",
                    "aria-labelledby nowhere", "link to x.html has no name",
                    "image a.png has no alt", "drawing g.svg has no name",
                    "field q has no label", "tables without header cells"):
        assert problem in found
