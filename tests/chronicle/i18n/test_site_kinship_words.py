"""Issue 19, item 4: "French, finished" for the relationship finder: on a French site
it answers in French, a woman being "la cousine", "la tante", "la nièce", "la
grand-mère", "la fille" (and a man "l’oncle d’Isabelle"), from the words the page
carries as a table (JSON in a ``<script type="application/json">``, no inline
code); an English site answers as it did. Driven in headless Chromium at 390 px
and at desktop width (standard 7), from ``file://``.

The finder must name each relationship as the house pages do (``kin.kinship_words``),
so each of its answers is compared with the words Python gives for the same pair.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from browser_support import CHROMIUM, DRIVER, MISSING, SHOTS

from chronicle.campaign.scaffold import scaffold
from chronicle.i18n.catalogue import translations
from chronicle.play.demo import play_turns
from chronicle.site import build_site
from chronicle.views.kin import kinship_words

VOWELS = "AEIOUYÀÂÉÈÊËÎÏÔÛaeiouyàâéèêëîïôû"


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One demo campaign, eight turns (cousins, aunts and nieces are born by then),
    published in French and, from a copy whose campaign.toml says English, in English."""
    root = tmp_path_factory.mktemp("kinship")
    french = root / "guerre"
    scaffold(french, "blood-royale", seed="chronicle-demo", language="fr")
    play_turns(french, 8, "chronicle-demo")
    english = root / "war"
    shutil.copytree(french, english)
    toml = english / "campaign.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('language = "fr"',
                                                             'language = "en"'),
                    encoding="utf-8")
    build_site([french], root / "site-fr")
    build_site([english], root / "site-en")
    # The store keeps the slug it was made with: both sites name the campaign "guerre".
    return {"fr": root / "site-fr" / "guerre", "en": root / "site-en" / "guerre"}


def _people(site: Path) -> list[list[object]]:
    text = (site / "relationship" / "kin.js").read_text(encoding="utf-8")
    people: list[list[object]] = json.loads(text.removeprefix("window.chronicleKin=")
                                            .rstrip().rstrip(";"))["p"]
    return people


def _ancestry(people: list[list[object]], i: int) -> dict[int, int]:
    depth, level, up = {i: 0}, [i], 1
    while level:
        following = []
        for q in level:
            for parent in (people[q][4], people[q][5]):
                assert isinstance(parent, int)
                if parent >= 0 and parent not in depth:
                    depth[parent] = up
                    following.append(parent)
        level, up = following, up + 1
    return depth


def _kinds(people: list[list[object]]) -> dict[tuple[int, int, str, bool], tuple[int, int]]:
    """One pair of numbered people per kind of kinship: (generations up from each to the
    nearest common ancestor, the first one's sex, half siblings) -> (index, index)."""
    ancestries = [_ancestry(people, i) for i in range(len(people))]
    kinds: dict[tuple[int, int, str, bool], tuple[int, int]] = {}
    for a, first in enumerate(ancestries):
        for b, second in enumerate(ancestries):
            if a == b or not people[a][1] or not people[b][1]:
                continue
            shared = [(first[k] + second[k], k) for k in first if k in second]
            if not shared:
                continue
            best = min(shared)[0]
            nearest = sorted(k for total, k in shared if total == best)
            up_a, up_b = first[nearest[0]], second[nearest[0]]
            half = up_a == up_b == 1 and len(nearest) == 1
            kinds.setdefault((up_a, up_b, str(people[a][3]), half), (a, b))
    return kinds


def _label(person: list[object]) -> str:
    return f"{person[0]} ({person[1]})"


def _expected(language: str, people: list[list[object]], key: tuple[int, int, str, bool],
              a: int, b: int) -> str:
    """The finder's first sentence as the site's words say it: French takes the article
    of the relationship's gender and elides it, and "de", before a vowel."""
    up_a, up_b, sex, half = key
    word = kinship_words(translations(language).gettext, up_a, up_b, sex == "M", half)
    if language == "en":
        return f"{_label(people[a])} is the {word} of {_label(people[b])}."
    article = "l’" if word[0] in VOWELS else ("le " if sex == "M" else "la ")
    of = "d’" if str(people[b][0])[0] in VOWELS else "de "
    return f"{_label(people[a])} est {article}{word} {of}{_label(people[b])}."


def _ask(driver: object, page: Path, first: str, second: str) -> list[str]:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(page.as_uri())  # type: ignore[attr-defined]
    form = WebDriverWait(driver, 10).until(  # type: ignore[arg-type]
        lambda d: d.find_element(By.ID, "kinship")
        if d.find_element(By.ID, "kinship").is_displayed() else None)
    driver.find_element(By.ID, "kin-a").send_keys(first)  # type: ignore[attr-defined]
    driver.find_element(By.ID, "kin-b").send_keys(second)  # type: ignore[attr-defined]
    form.find_element(By.CSS_SELECTOR, "button").click()
    WebDriverWait(driver, 10).until(  # type: ignore[arg-type]
        lambda d: d.find_element(By.ID, "kin-answer").text or None)
    return [p.text for p in driver.find_elements(  # type: ignore[attr-defined]
        By.CSS_SELECTOR, "#kin-answer p")]


def _size(driver: object, width: int, height: int) -> None:
    driver.execute_cdp_cmd(  # type: ignore[attr-defined]
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})


pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None or DRIVER is None, reason=MISSING),
]


def test_the_page_carries_its_words_as_data(sites: dict[str, Path]) -> None:
    """The words are data in the page, escaped as JSON, not code: no inline script."""
    page = (sites["fr"] / "relationship" / "index.html").read_text(encoding="utf-8")
    table = re.search(r'<script type="application/json" id="kin-words">(.*?)</script>', page,
                      re.S)
    assert table is not None
    words = json.loads(table.group(1))
    assert words["cousin"] == {"M": "cousin au %(nth)s degré", "F": "cousine au %(nth)s degré"}
    assert words["uncle"]["F"][0] == "tante" and words["nephew"]["F"][0] == "nièce"
    assert words["is"]["F"] == "%(who)s est la %(kinship)s de %(whom)s."
    assert words["elide"] is True
    scripts = re.findall(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", page)
    assert scripts == []
    english = (sites["en"] / "relationship" / "index.html").read_text(encoding="utf-8")
    assert '"is": {"F": "%(who)s is the %(kinship)s of %(whom)s."' in english


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_finder_answers_in_the_sites_language(browser: object,
                                                  sites: dict[str, Path], language: str,
                                                  size: tuple[int, int]) -> None:
    site = sites[language]
    page = site / "relationship" / "index.html"
    people = _people(site)
    kinds = _kinds(people)
    # A woman and a man each as a parent, a child, a sibling, an uncle or aunt, a
    # nephew or niece, a cousin: the demo's families hold them all by turn 8.
    for sex in ("M", "F"):
        for shape in ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1), (2, 2)):
            assert any(k[:3] == (*shape, sex) for k in kinds), (shape, sex)
    _size(browser, *size)
    answers = []
    for key, (a, b) in sorted(kinds.items()):
        said = _ask(browser, page, str(people[a][1]), str(people[b][1]))
        assert said[0] == _expected(language, people, key, a, b), key
        answers.append(said[0])
        assert said[1].startswith("Ancêtre" if language == "fr" else "Nearest common")
        width = browser.execute_script(  # type: ignore[attr-defined]
            "return [document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1] == size[0]
    every = "\n".join(answers)
    if language == "fr":
        for words in ("est la cousine au premier degré ", "est la tante ", "est la nièce ",
                      "est la grand-mère ", "est la fille ", "est l’oncle ",
                      "est le cousin au premier degré "):
            assert words in every, words
        assert " is the " not in every and " of " not in every
    else:
        assert " est " not in every and "first cousin" in every
    SHOTS.mkdir(exist_ok=True)
    browser.save_screenshot(  # type: ignore[attr-defined]
        str(SHOTS / f"kinship-{language}-{size[0]}.png"))
    # What no one is called is said in the page's language too.
    none = _ask(browser, page, "nobody at all", str(people[0][1]))
    assert none == (["Personne de ce nom ou de ce numéro : choisissez un nom dans la liste."]
                    if language == "fr" else
                    ["No one of that name or number: pick a name from the list."])

