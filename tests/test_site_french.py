"""Issue 19, item 4: "French, finished": "Articles, elision and plurals are correct
("des vivres", "de l'or", "d'Edward", "1 armée")."
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from chronicle.narration import Glossary, Narrator
from chronicle.narration.narrator import elide_french
from chronicle.publish.data import EventView
from chronicle.publish.i18n import translations
from chronicle.publish.inputs import theme_chain
from chronicle.publish.themes import environment

GOODS = ("cloth", "food", "gold", "metal", "wine")


@dataclass(frozen=True)
class _House:
    name: str
    slug: str


@dataclass(frozen=True)
class _Person:
    name: str
    slug: str
    label_ref: str | None


def _french() -> Narrator:
    trans = translations("fr")
    return Narrator({"ed": _Person("Edward", "e1000-ed", "E1000")},
                    {"x": _House("Maison Capet", "x"), "o": _House("Orléans", "o")},
                    trans.gettext, trans.ngettext, Glossary(),
                    pgettext=lambda c, t: str(trans.pgettext(c, t)), language="fr")


def _told(n: Narrator, kind: str, **payload: object) -> str:
    event = EventView(turn=1, year=1300, seq=1, phase="interphase", kind=kind,
                      payload=payload, subjects=(), houses=("x",))
    return re.sub(r"<[^>]+>", "", str(n.sentence(event, "")))


def test_every_good_has_its_french_article() -> None:
    trans = translations("fr")
    forms = {g: trans.pgettext("partitive", g) for g in GOODS}
    assert forms == {"cloth": "du drap", "food": "des vivres", "gold": "de l’or",
                     "metal": "du métal", "wine": "du vin"}


def test_goods_take_their_articles_in_french_sentences() -> None:
    n = _french()
    assert _told(n, "resource", house="x", good="food", province="york").endswith(
        ": des vivres.")
    assert "donna de l’or en" in _told(n, "counter-given", house="x", good="gold",
                                       province="york", to="o")
    seized = _told(n, "counter-seized", house="x", good="cloth", province="york",
                   previous="o")
    assert "s’empara du drap d’Orléans" in seized
    for text in (_told(n, "resource", house="x", good=g, province="p") for g in GOODS):
        assert not re.search(r"\b(du|de) (vivres|or)\b", text), text


def test_elision_before_a_vowel_and_inside_a_link() -> None:
    n = _french()
    assert _told(n, "units-disbanded", house="o", units=["A"]) == \
        "L’unité d’Orléans fut dissoute : A."
    assert elide_french('les unités de <a href="x">Edward</a>') == \
        'les unités d’<a href="x">Edward</a>'
    assert elide_french("le fils de Edward et de Blanche") == "le fils d’Edward et de Blanche"
    # Not inside a word, nor before a consonant.
    assert elide_french("monde entier, de Paris") == "monde entier, de Paris"


def test_one_army_is_singular_in_french() -> None:
    assert "leva 1 armée en" in _told(_french(), "raise", house="x", armies=1, cost=5,
                                      province="p", unit="U")


@pytest.mark.parametrize("language, expected", [("fr", "d’Edward"), ("en", "of Edward")])
def test_templates_elide_the_names_they_fill_in(language: str, expected: str) -> None:
    env = environment(theme_chain(None, "default"), language)
    text = str(env.globals["_"]("Genealogy of %(house)s", house="Edward"))
    assert text.endswith(expected)
