"""Issue 19, item 4: "French, finished": "Articles, elision and plurals are correct
("des vivres", "de l'or", "d'Edward", "1 armée")."
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest
from repo_paths import GOLDEN

# The sentences below tell Blood Royale's events: its engine registers their kinds, as it
# does in any campaign of it (the narrator loads a ruleset's sentences with its events).
import adjudicator.rulesets.blood_royale  # noqa: F401
from chronicle.campaign.scaffold import scaffold
from chronicle.i18n.catalogue import translations
from chronicle.i18n.grammar import contract_french, elide_french, finish_french
from chronicle.narration import Glossary, Narrator
from chronicle.play.demo import play_turns
from chronicle.site import build_site
from chronicle.site.incremental.inputs import theme_chain
from chronicle.site.themes import environment
from chronicle.views.data import EventView

GOODS = ("cloth", "food", "gold", "metal", "wine")
VOWELS = "AEIOUYÀÂÉÈÊËÎÏÔÛaeiouyàâéèêëîïôû"


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


# -- a whole French demo ----------------------------------------------------------

#: English a French page must not show (issue 19, item 4: "A test reads every French
#: page kind and finds none of a list of English phrases"). Proper names are the
#: players' own (English kings keep "Edward"), so only words of the interface and of
#: the chronicle's sentences are listed, each as no French text holds it.
ENGLISH = ("Turn ", " was born", " died", "married", "marriage", "army", "armies",
           "Battle of", "Battle", "wealth", "Wealth", "Genealogy", "Search", "House ",
           "House of", "children", "Children", "Round", "Siblings", "crowns", "People",
           "Dice", "Maps", "Previous", "Next", "Born", "Died", "Father", "Mother",
           "Treasury", "Taxes", "upkeep", "Legend", "Uncontrolled", "survival", "attempt", " and ",
           " of the ", " in the ", "Kingdom", "Move ", " moves", "card", "Sea", "Ocean",
           "Channel", "Normandy", "Burgundy", "England", "The ", "King's", "Landing")
#: Every kind of page a Blood Royale campaign publishes (folder under the campaign).
BLOOD_ROYALE_KINDS = ("index.html", "turns", "people", "houses", "battles", "dice", "wealth",
                      "maps", "genealogy", "relationship", "search", "charts")
FAMILLES_KINDS = ("index.html", "turns", "houses", "tree")


class _Text(HTMLParser):
    """What a reader reads of a page: its text, and the titles and labels tools say."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._hidden += 1
        self.parts += [v for k, v in attrs if k in ("title", "aria-label", "alt",
                                                    "placeholder") and v]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def _french_demo(root: Path, ruleset: str, turns: int, world: str | None = None) -> Path:
    """The demo campaign as ``chronicle demo`` plays it, with ``language = "fr"``."""
    root.mkdir(exist_ok=True)
    folder = root / ruleset
    scaffold(folder, ruleset, world=world, title="Démo", seed="chronicle-demo")
    toml = folder / "campaign.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('language = "en"',
                                                             'language = "fr"'),
                    encoding="utf-8")
    play_turns(folder, turns, "chronicle-demo")
    site = root / f"{ruleset}-site"
    build_site([folder], site)
    return site / folder.name


@pytest.fixture(scope="module")
def french_sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("fr-demo")
    return {"blood-royale": _french_demo(root, "blood-royale", 6),
            "westeros": _french_demo(root / "w", "blood-royale", 6, "westeros"),
            "familles": _french_demo(root, "familles", 60)}


@pytest.mark.parametrize("ruleset, kinds", [("blood-royale", BLOOD_ROYALE_KINDS),
                                            ("westeros", BLOOD_ROYALE_KINDS),
                                            ("familles", FAMILLES_KINDS)])
def test_no_french_page_says_a_word_of_english(french_sites: dict[str, Path], ruleset: str,
                                               kinds: tuple[str, ...]) -> None:
    """Issue 19, item 4: "A test reads every French page kind and finds none of a list
    of English phrases"; "the French site uses those names" (the packs' ``name_fr``)."""
    site = french_sites[ruleset]
    pages = sorted(site.rglob("*.html")) + sorted(site.rglob("*.svg"))
    seen = {p.relative_to(site).parts[0] for p in pages}
    assert set(kinds) <= seen, f"page kinds not built: {set(kinds) - seen}"
    found = []
    for page in pages:
        reader = _Text()
        reader.feed(page.read_text(encoding="utf-8"))
        text = " ".join(reader.parts)
        found += [f"{page.relative_to(site)}: {phrase!r} in "
                  f"{text[max(0, text.index(phrase) - 40):text.index(phrase) + 40]!r}"
                  for phrase in ENGLISH if phrase in text]
    assert found == [], "\n".join(found[:20])


def test_the_french_site_names_houses_and_provinces_from_the_pack(
        french_sites: dict[str, Path]) -> None:
    """Issue 19, item 4: "Content packs may name houses, provinces and goods in French
    (``name_fr``, …), and the French site uses those names"."""
    site = french_sites["blood-royale"]
    houses = (site / "houses/index.html").read_text(encoding="utf-8")
    assert "La Maison Plantagenêt" in houses and "La Maison d’Anjou" in houses
    board = (site / "maps/turn-001.svg").read_text(encoding="utf-8")
    assert "Normandie" in board and "Bourgogne" in board and "Mer du Nord" in board
    every_map = " ".join(m.read_text(encoding="utf-8") for m in site.glob("maps/*.svg"))
    assert re.search(r"\b\d+ armées", every_map)
    assert not re.search(r"\b[01] armées", every_map)
    wealth = (site / "wealth/index.html").read_text(encoding="utf-8")
    assert ">vivres<" in wealth and ">métal<" in wealth


# -- the grammar helper -------------------------------------------------------------

@pytest.mark.parametrize("filled, said", [
    ("Bataille de Le Nord", "Bataille du Nord"),
    ('Bataille de <a href="x">Les Terres de l’Ouest</a>',
     'Bataille des <a href="x">Terres de l’Ouest</a>'),
    ("des vivres en Le Bief", "des vivres dans le Bief"),
    ("de La Treille", "de la Treille"),
    ("à Les Degrés de Pierre", "aux Degrés de Pierre"),
    ("De Le Nord vint l’hiver", "Du Nord vint l’hiver"),
    ("de L’Île-aux-Ours", "de l’Île-aux-Ours"),
    ("l’armée de Edward", "l’armée d’Edward"),
    ("La Maison Capet et La Maison de Castille : La Maison Capet l’emporta. La Maison",
     "La Maison Capet et la Maison de Castille : la Maison Capet l’emporta. La Maison"),
    ('ordre : <a href="x">La Maison d’Anjou</a>, <a href="y">L’Ordre</a>',
     'ordre : <a href="x">la Maison d’Anjou</a>, <a href="y">l’Ordre</a>'),
    # Nothing else is touched: a name that only begins like an article, or "de" before
    # a consonant or an aspirated h.
    ("de Lemaire, de Leinster, en Normandie", "de Lemaire, de Leinster, en Normandie"),
    ("Maison de Habsbourg", "Maison de Habsbourg"),
    # Nor a pronoun after its verb's hyphen.
    ("Corrigez-le et renvoyez-le entier", "Corrigez-le et renvoyez-le entier"),
])
def test_french_articles_contract_and_elide(filled: str, said: str) -> None:
    """Issue 19, item 4: "Articles, elision and plurals are correct ("des vivres",
    "de l'or", "d'Edward", "1 armée")": a name that brings its own article (the
    Westeros pack's "Le Nord") is joined to the word before it."""
    assert finish_french(filled) == said
    assert elide_french(contract_french(filled)) == said


@pytest.mark.parametrize("armies, said", [(0, "0 armée"), (1, "1 armée"), (2, "2 armées")])
def test_army_counts_agree_on_the_map(armies: int, said: str) -> None:
    """Issue 19, item 4: "1 armée" (and "2 armées"): the map's unit titles count
    armies with the catalogue's plural forms (French: none and one are singular)."""
    from chronicle.rulesets.blood_royale.mapsvg import MapLabels

    n_ = translations("fr").ngettext
    words = MapLabels(army_forms=(n_("%(num)s army", "%(num)s armies", 1),
                                  n_("%(num)s army", "%(num)s armies", 2)),
                      none_singular=True)
    assert words.armies_in_words(armies) == said
    assert MapLabels().armies_in_words(armies) == ("1 army" if armies == 1
                                                   else f"{armies} armies")


def test_dice_phases_and_purposes_are_french() -> None:
    """Issue 19, item 4: the dice page names its rolls in French too."""
    from chronicle.site.pages import dice_words

    trans = translations("fr")
    p_ = trans.pgettext
    assert dice_words(p_, "survival (natural)") == "survie (causes naturelles)"
    assert dice_words(p_, "battle-2") == "bataille 2"
    assert dice_words(p_, "2d6") == "2d6"
    assert dice_words(p_, "preliminary roll") == "jet préliminaire"


def _public_rolls(root: Path) -> set[tuple[str, str]]:
    """Each (phase, purpose) of the public dice of whole played campaigns: the demo's
    Blood Royale to its end (its first commanders' preliminary rolls come at turn 9,
    its epidemic at 16) and a dynasty campaign, with the golden cases' rolls."""
    import json
    import sqlite3

    from chronicle.rulesets import descriptor

    seen: set[tuple[str, str]] = set()
    for ruleset in ("blood-royale", "dynasty"):
        folder = root / ruleset
        scaffold(folder, ruleset, title="Démo", seed="chronicle-demo")
        play_turns(folder, descriptor(ruleset).demo_turns, "chronicle-demo")
        with sqlite3.connect(folder / "chronicle.sqlite") as db:
            seen.update(db.execute("SELECT DISTINCT phase, purpose FROM rolls WHERE NOT secret"))
        db.close()
    for rolls in sorted((GOLDEN).glob("*/rolls.jsonl")):
        for line in rolls.read_text(encoding="utf-8").splitlines():
            roll = json.loads(line)
            if not roll["secret"]:
                seen.add((roll["phase"], roll["purpose"]))
    return seen


@pytest.mark.slow
def test_every_public_roll_of_a_played_campaign_is_named_in_french(tmp_path: Path) -> None:
    """The dice page says each roll's phase and purpose in French: the catalogue has
    each one's words (in the ``dice`` context; a numbered phase, "battle-2", its
    word). Asked of the catalogue, not of what ``dice_words`` returns, as some are
    the same in both languages ("constitution"); a purpose an engine starts to
    throw without its French fails here."""
    from babel.messages.pofile import read_po

    from chronicle.i18n.catalogue import catalog_path
    from chronicle.site.pages import _NUMBERED

    with catalog_path("fr").open("rb") as fh:
        catalog = read_po(fh)
    rolls = _public_rolls(tmp_path)
    words = {purpose for _phase, purpose in rolls}
    for phase, _purpose in rolls:
        numbered = _NUMBERED.fullmatch(phase)
        words.add(numbered.group(1) if numbered else phase)
    assert {"preliminary roll", "battle", "movement", "unrest"} <= words
    untranslated = sorted(w for w in words
                          if not (m := catalog.get(w, context="dice")) or not m.string)
    assert untranslated == []


def _dice_subjects(site: Path) -> list[tuple[str, str]]:
    """Each (purpose, subject) cell of a site's dice pages, as HTML."""
    return [(m.group(1), m.group(2)) for page in sorted(site.glob("dice/*/index.html"))
            for m in re.finditer(r"<tr><td>\d+</td><td>[^<]*</td><td>([^<]*)</td><td>(.*?)</td>",
                                 page.read_text(encoding="utf-8"))]


@pytest.mark.parametrize("world", ["blood-royale", "westeros"])
def test_the_french_dice_pages_name_provinces_and_houses(french_sites: dict[str, Path],
                                                         world: str) -> None:
    """A roll for a province (unrest) names it in French, a roll for a house links the
    house by its name: the engine records their ids ("east-anglia", "england")."""
    from chronicle.rulesets import descriptor

    kind = descriptor("blood-royale")
    spec = kind.campaign_spec(None if world == "blood-royale" else world)
    names = kind.local_names(spec, "fr")
    houses = {h["id"] for h in spec["house"]}
    cells = _dice_subjects(french_sites[world])
    unrest = {subject for purpose, subject in cells if purpose == "troubles"}
    assert unrest and unrest <= set(names.provinces.values())
    for purpose in ("dé d’événement", "manche de bataille"):
        for _purpose, subject in (c for c in cells if c[0] == purpose):
            assert re.fullmatch(r'<a href="\.\./\.\./houses/[^"]+">La Maison [^<]+</a>',
                                subject), subject
    bare = ({re.sub(r"<[^>]+>", "", subject) for _purpose, subject in cells}
            & (set(names.provinces) | houses))
    assert bare == set()


def test_the_french_battle_pages_count_their_units(french_sites: dict[str, Path]) -> None:
    """One unit is "unité S-2" (and "Détruite : unité S-2."), two "unités F-2, F-3"."""
    said = [m.groups() for page in sorted(french_sites["blood-royale"].glob("battles/*/*.html"))
            for m in re.finditer(r"(\w+) : (unités?) ([A-Z]-\d+(?:, [A-Z]-\d+)*)|"
                                 r"\((unités?) ([A-Z]-\d+(?:, [A-Z]-\d+)*)\)",
                                 page.read_text(encoding="utf-8"))]
    assert any(g[0] == "Détruite" for g in said) and any(g[3] for g in said)
    for outcome, word, units, in_sides, side_units in said:
        count = (units or side_units).count(",") + 1
        assert (word or in_sides) == ("unité" if count == 1 else "unités")
        assert outcome in (None, "Détruite" if count == 1 else "Détruites",
                           "Rendue" if count == 1 else "Rendues")


# -- content packs' French names ------------------------------------------------------

PACK = '''\
[[province]]
id = "york"
name = "York"

[[province]]
id = "normandy"
name = "Normandy"
{line}
kind = "land"
'''


@pytest.mark.parametrize("line, why", [
    ("name_fr = 3", "name_fr must be text, not 3"),
    ('name_de = "Normandie"', "name_de: no such language"),
    ('name_en = "Normandy"', "name_en: no such language"),
    ('name_fr = "<b>Normandie</b>"', "control or markup character"),
    ('name_fr = " Normandie"', "without spaces around it"),
    ('name_fr = ""', "must be a name"),
    (f'name_fr = "{"N" * 61}"', "longer than 60 characters"),
])
def test_a_bad_french_name_in_a_pack_is_refused_by_file_and_line(line: str, why: str) -> None:
    """Issue 19, item 4: content packs may name provinces in French (``name_fr``); a bad
    one is refused as ``file:line: what and why`` (standard 3), never a traceback."""
    import tomllib

    from chronicle.errors import ContentError
    from chronicle.i18n.localnames import check_names

    text = PACK.format(line=line)
    with pytest.raises(ContentError) as refused:
        check_names(tomllib.loads(text), text, "my-pack/world.toml")
    assert str(refused.value).startswith("my-pack/world.toml:8: [[province]] 'normandy': ")
    assert why in str(refused.value)


def test_a_french_name_needs_an_english_one() -> None:
    import tomllib

    from chronicle.errors import ContentError
    from chronicle.i18n.localnames import check_names

    text = '[[house]]\nid = "x"\nname_fr = "Maison X"\n'
    with pytest.raises(ContentError, match=r"^houses.toml:3: .*no English 'name'"):
        check_names(tomllib.loads(text), text, "houses.toml")


def test_the_shipped_packs_name_every_house_and_province_in_french() -> None:
    """Issue 19, item 4: the Blood Royale and Westeros packs carry French names, and a
    house the arbiter renamed in campaign.toml keeps the arbiter's name."""
    from chronicle.rulesets import descriptor

    kind = descriptor("blood-royale")
    spec = kind.campaign_spec(None)
    names = kind.local_names(spec, "fr")
    assert names.houses["england"] == "La Maison Plantagenêt"
    assert names.provinces["normandy"] == "Normandie"
    assert names.provinces["burgundy"] == "Bourgogne"
    world = kind.rules(spec)["world"]["province"]
    assert set(names.provinces) == {p["id"] for p in world}
    westeros = kind.campaign_spec("westeros")
    north = kind.local_names(westeros, "fr")
    assert north.provinces["kings-landing"] == "Port-Réal" and len(north.houses) == 7
    spec["house"][0]["name"] = "The Arbiter's Own"
    assert spec["house"][0]["id"] not in kind.local_names(spec, "fr").houses
    assert not kind.local_names(spec, "en")


# -- the command line -------------------------------------------------------------------

def test_the_command_line_speaks_the_campaigns_language(tmp_path: Path) -> None:
    """Issue 19, item 4: "Reports, templates and command-line messages go through the
    catalogue": adjudicate, status and template in French, with the pack's names."""
    from cli_support import run

    folder = tmp_path / "guerre"
    scaffold(folder, "blood-royale", seed="en-français")
    toml = folder / "campaign.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('language = "en"',
                                                             'language = "fr"'),
                    encoding="utf-8")
    done = run("adjudicate", folder, "--yes")
    assert done.exit_code == 0, done.output
    assert "Tour 1 (1300) arbitré." in done.output
    assert "Rapports : " in done.output
    assert "Maison" in done.output and "House " not in done.output
    assert "adjudicated" not in done.output
    status = run("status", folder)
    assert status.output.startswith("Prochain : tour 2 (1305) ; date limite : aucune")
    assert "england: ordres manquants; NMR 1" in status.output
    template = run("template", folder)
    assert "Modèles d’ordres du tour 2 écrits dans" in template.output
    built = run("build", folder, "-o", tmp_path / "site")
    assert built.exit_code == 0 and "Site écrit dans " in built.output
    again = run("build", folder, "-o", tmp_path / "site")
    assert "est à jour" in again.output and "up to date" not in again.output
    mailed = run("mail", "send", folder, "--dry-run")
    assert mailed.exit_code == 0, mailed.output
    assert "essai à blanc : 0 à mettre en file" in mailed.output
    assert "aucune adresse dans contacts.toml" in mailed.output
    bundle = run("archive", folder, "-o", tmp_path / "guerre.zip")
    assert "Archive écrite dans " in bundle.output and "ni graine" in bundle.output


# -- provinces' articles (issue 19, item 4: "Articles ... are correct") ------------------

def test_a_bad_article_in_a_pack_is_refused_by_file_and_line() -> None:
    """A pack's ``article_fr`` is one of French's articles and goes with a ``name_fr``;
    anything else is ``file:line: what and why`` (standard 3)."""
    import tomllib

    from chronicle.errors import ContentError
    from chronicle.i18n.localnames import check_names

    for lines, line, why in [('name_fr = "Normandie"\narticle_fr = "lo"', 9,
                              "article_fr must be one of \"le\", \"la\", \"l’\", \"les\", \"\""),
                             ('article_fr = "la"', 8, "no name_fr for it to go with"),
                             ('name_fr = "Normandie"\narticle_de = "die"', 9,
                              "article_de: no such language")]:
        text = PACK.format(line=lines)
        with pytest.raises(ContentError) as refused:
            check_names(tomllib.loads(text), text, "my-pack/world.toml")
        assert str(refused.value).startswith(
            f"my-pack/world.toml:{line}: [[province]] 'normandy': "), refused.value
        assert why in str(refused.value)


def test_every_blood_royale_province_says_its_article() -> None:
    """The pack gives each land province without an article of its own the one its
    French name takes (a town's: none); the seas' names carry theirs ("La Manche")."""
    from chronicle.rulesets import descriptor

    kind = descriptor("blood-royale")
    names = kind.local_names(kind.campaign_spec(None), "fr")
    assert names.articles["normandy"] == "la" and names.articles["anjou"] == "l’"
    assert names.articles["kent"] == "le" and names.articles["york"] == ""
    without = {pid for pid, name in names.provinces.items()
               if not re.match(r"(La|Le|Les) |L’", name)}
    assert without == set(names.articles)
    westeros = kind.local_names(kind.campaign_spec("westeros"), "fr")
    assert westeros.articles["winterfell"] == "" and "the-neck" not in westeros.articles
    assert {pid for pid, name in westeros.provinces.items()
            if not re.match(r"(La|Le|Les) |L’", name)} == set(westeros.articles)


@pytest.mark.parametrize("filled, said", [
    ("La famine frappa La Normandie.", "La famine frappa la Normandie."),
    ("La peste frappa L’Anjou.", "La peste frappa l’Anjou."),
    ("La famine frappa York.", "La famine frappa York."),
    ("des vivres en La Normandie, en L’Anjou, en Le Kent, en York",
     "des vivres en Normandie, en Anjou, dans le Kent, à York"),
    ("le contrôle de La Normandie, de L’Anjou, de Le Kent, de York",
     "le contrôle de la Normandie, de l’Anjou, du Kent, d’York"),
    ("La Normandie se souleva. L’Anjou aussi.", "La Normandie se souleva. L’Anjou aussi."),
    # A name with its own article is not a region's: "en" keeps its rule ("dans la").
    ("en La Falaise", "dans la Falaise"),
])
def test_provinces_take_their_articles_in_french_sentences(filled: str, said: str) -> None:
    from chronicle.i18n.grammar import finishing

    finish = finishing("fr", {"Normandie": "la", "Anjou": "l’", "Kent": "le", "York": ""})
    assert finish is not None and finish(filled) == said


def _read(path: Path) -> str:
    return re.sub(r"<[^>]+>", "", path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("world", ["blood-royale", "westeros"])
def test_the_french_demo_names_provinces_with_their_articles(
        french_sites: dict[str, Path], world: str) -> None:
    """Issue 19, item 4: "frappa l'Anjou", "en Anjou", "dans le Nord": on the French
    demo's pages and in its reports, a province is never named bare where French
    wants its article, and "en" is said as each province needs it."""
    from chronicle.rulesets import descriptor

    site = french_sites[world]
    reports = site.parent.parent / "blood-royale" / "reports"
    kind = descriptor("blood-royale")
    names = kind.local_names(kind.campaign_spec(None if world == "blood-royale" else world),
                             "fr")
    by_article = {a: [names.provinces[p] for p, art in names.articles.items() if art == a]
                  for a in ("la", "l’", "le", "")}
    texts = {str(p.relative_to(site.parent.parent)): _read(p)
             for p in [*sorted(site.rglob("*.html")), *sorted(reports.rglob("*.md"))]}
    every = "\n".join(texts.values())

    def alt(found: list[str]) -> str:
        return "|".join(map(re.escape, sorted(found, key=len, reverse=True)))

    with_article = by_article["la"] + by_article["l’"] + by_article["le"]
    if with_article:
        bare = re.compile(rf"\b(frappa|contrôle de|se souleva|large de|vers) "
                          rf"({alt(with_article)})\b")
        assert bare.findall(every) == []
    # The order template's comments at the end of a report name the board as the
    # order language does (English), so they are not a French sentence.
    told = "\n".join(line for line in every.splitlines()
                     if not re.match(r"# ([A-Z]+-\d+:|  )", line))
    for article in ("le", ""):
        if by_article[article]:
            en = re.compile(rf"\ben ({alt(by_article[article])})\b")
            assert en.findall(told) == [], article
    if world == "westeros":
        assert re.search(r"\bà (Winterfell|Port-Réal|Castral Roc|Hautjardin|Pyk)\b", told)
        return
    # And what the turns do say, exactly:
    for sentence in ("La peste frappa la Souabe.", "Nouvelle ressource en Normandie pour la "
                     "Maison Capet", "Nouvelle ressource dans le León pour la Maison de "
                     "Castille", "Nouvelle ressource à York pour la Maison Plantagenêt"):
        assert sentence in every, sentence


@pytest.mark.parametrize("language, male, said", [("fr", False, "cousine au deuxième degré"),
                                                  ("fr", True, "cousin au deuxième degré"),
                                                  ("en", False, "second cousin")])
def test_a_woman_is_a_cousine_on_the_house_pages_too(language: str, male: bool,
                                                     said: str) -> None:
    """The house pages' succession tables name kin with the same words
    (``kinship_words``): a woman's, where the language has them."""
    from chronicle.views.kin import kinship_words

    assert kinship_words(translations(language).gettext, 3, 3, male) == said


def test_the_dynasty_ruleset_s_french_site_names_its_example_houses_in_french(
        tmp_path: Path) -> None:
    """Issue 19, item 4, for the dynasty ruleset: its new campaign's example houses
    are named in English in campaign.toml, as Blood Royale's are; the French site
    called them "House of Castile" ("Roi de House of Castile"). A house the
    arbiter renamed keeps its name."""
    site = _french_demo(tmp_path, "dynasty", 2)
    pages = " ".join(p.read_text(encoding="utf-8") for p in sorted(site.rglob("*.html")))
    assert "La Maison de Castille" in pages and "La Maison Capet" in pages
    assert "House of Castile" not in pages and "House Capet" not in pages

    folder = tmp_path / "renamed"
    scaffold(folder, "dynasty", title="Démo", seed="renamed")
    toml = folder / "campaign.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('language = "en"',
                                                             'language = "fr"').replace(
        '"House Capet"', '"Les Capétiens"'), encoding="utf-8")
    play_turns(folder, 1, "renamed")
    build_site([folder], tmp_path / "renamed-site")
    houses = (tmp_path / "renamed-site" / folder.name / "houses/index.html").read_text(
        encoding="utf-8")
    assert "Les Capétiens" in houses and "La Maison Capet" not in houses
    assert "La Maison de Castille" in houses


# -- person pages: a woman's words, claims and marriages in French -------------------


@pytest.mark.parametrize("language, ref, said", [
    ("fr", "E11b0", "la deuxième fille du premier fils d’Edward, E1000"),
    ("fr", "E1a00", "la première fille d’Edward, E1000"),
    ("fr", "E1120", "le deuxième fils du premier fils d’Edward, E1000"),
    ("en", "E11b0", "the second daughter of the first son of Edward, E1000")])
def test_a_number_in_words_contracts_and_elides(language: str, ref: str, said: str) -> None:
    """« de le premier fils de Edward » was what the French claims said: the steps
    are filled one into another, each "of" before the next's article."""
    from chronicle.i18n.grammar import FINISHING
    from chronicle.views.kin import explain_ref

    _ = translations(language).gettext
    assert explain_ref(_, ref, False, "Edward", FINISHING.get(language)) == said


def test_a_number_from_the_founder_contracts_too() -> None:
    from chronicle.views.kin import explain_ref

    assert explain_ref(translations("fr").gettext, "E1a00", False, None, finish_french) == \
        "la première fille du fondateur, E1000"


@pytest.mark.parametrize("language, sex, said", [
    ("fr", "F", "Née en 1295, morte en 1310."), ("fr", "M", "Né en 1295, mort en 1310."),
    ("en", "F", "Born 1295, died 1310."), ("en", "M", "Born 1295, died 1310.")])
def test_a_sentence_about_a_woman_takes_her_words(language: str, sex: str, said: str) -> None:
    env = environment(theme_chain(None, "default"), language)
    assert str(env.globals["said_of"](sex, "Born %(born)s, died %(died)s.", born=1295,
                                      died=1310)) == said


def _person_pages(site: Path) -> dict[str, str]:
    return {p.parent.name: p.read_text(encoding="utf-8")
            for p in sorted((site / "people").glob("*/index.html"))}


def _section(page: str, pattern: str) -> str:
    found = re.search(pattern, page, re.DOTALL)
    return html.unescape(re.sub(r"<[^>]+>", "", found.group(0))) if found else ""


def test_a_french_person_page_says_nee_and_morte_of_a_woman(
        french_sites: dict[str, Path]) -> None:
    """« Né en 1295, mort en 1310 » was on every woman's page (Sexe : femme)."""
    seen = {"F": 0, "M": 0}
    for slug, page in _person_pages(french_sites["blood-royale"]).items():
        sex = "F" if "<dt>Sexe</dt><dd>femme</dd>" in page else "M"
        lede = _section(page, r'<p class="lede">.*?</p>')
        born = re.search(r"\b(Née?) en \d+(?:, (morte?) en \d+)?\.", lede)
        assert born is not None, (slug, lede)
        words = ("Née", "morte") if sex == "F" else ("Né", "mort")
        assert born.group(1) == words[0] and born.group(2) in (None, words[1]), (slug, lede)
        seen[sex] += 1
    assert seen["F"] > 3 and seen["M"] > 3


def test_a_womans_cause_of_death_is_feminine_in_french() -> None:
    """A woman's page said « Décès : 1310 (exécuté) »."""
    n = _french()
    assert (n.cause("executed", "", True), n.cause("executed", "")) == ("exécutée", "exécuté")
    assert n.cause("natural", "", True) == "de mort naturelle"


def test_french_claims_and_marriages_contract_elide_and_space_their_marks(
        french_sites: dict[str, Path]) -> None:
    """« la deuxième fille de le premier fils de Edward », « (mariés en 1300; fin en
    1300 par la mort de Edward (E1000), Margaret) » and « dans la Maison
    Plantagenêt: » were on the French person pages."""
    pages = _person_pages(french_sites["blood-royale"])
    bad = re.compile(rf"\b[Dd]e (le|les|[{VOWELS}])|\S[;:]")
    for slug, page in pages.items():
        claims = _section(page, r'<ul class="claims">.*?</ul>')
        families = _section(page, r'<ul class="families">.*?</ul>')
        for text in (claims, families):
            assert not bad.search(text), (slug, text)
        if claims:
            assert re.match(r"\w+ dans la Maison [^:]*\w : ", claims), claims
    assert "E11a0 dans la Maison Plantagenêt : la première fille du premier fils d’Edward, " \
        "E1000." in _section(pages["e11a0-maud"], r'<ul class="claims">.*?</ul>')
    assert "(mariés en 1300 ; fin en 1300 par la mort d’Edward (E1000) et de Margaret) : " \
        in _section(pages["e1000-england-edward"], r'<ul class="families">.*?</ul>')


@pytest.mark.parametrize("site, heading", [("fr", "Quatre générations d"),
                                           ("en", "Four generations of")])
def test_the_ancestor_chart_is_shown_only_when_a_parent_is_known(
        french_sites: dict[str, Path], tmp_path: Path, site: str, heading: str) -> None:
    """« Quatre générations d'ascendants » was on every page, a founder's too."""
    pages = _person_pages(french_sites["blood-royale"]) if site == "fr" else \
        _person_pages(_english_copy(french_sites["blood-royale"], tmp_path))
    father, mother = ("Père", "Mère") if site == "fr" else ("Father", "Mother")
    orphans = 0
    for slug, page in pages.items():
        known = not (f"<dt>{father}</dt><dd>—</dd>" in page
                     and f"<dt>{mother}</dt><dd>—</dd>" in page)
        assert (heading in page) == known == ('id="ancestors"' in page), slug
        orphans += not known
    assert orphans > 3


def _english_copy(site: Path, tmp_path: Path) -> Path:
    """The French demo's campaign, built again in English."""
    import shutil

    folder = tmp_path / "blood-royale"
    shutil.copytree(site.parent.parent / "blood-royale", folder)
    toml = folder / "campaign.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('language = "fr"',
                                                             'language = "en"'),
                    encoding="utf-8")
    build_site([folder], tmp_path / "site")
    return tmp_path / "site" / folder.name
