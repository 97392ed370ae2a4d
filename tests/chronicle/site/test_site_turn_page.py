"""Issue 19, item 1: "The turn chronicle tells a story."

The published reference site (``tests/golden/reference-site/``, which
``test_golden`` keeps equal to what the generator makes of the Blood Royale
case) is read as a player reads it: grouped by house then by kind, the
economy as a table, battles linked, the order of play of each round stated.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from markupsafe import Markup
from repo_paths import GOLDEN

from adjudicator.events import EVENT_KINDS
from chronicle.i18n.catalogue import translations
from chronicle.narration import Glossary, Narrator
from chronicle.narration.narrator import LEDGER, LEDGER_COLUMNS
from chronicle.rulesets.blood_royale.views import battle_title, battles_of
from chronicle.views.data import EventView

SITE = GOLDEN / "reference-site" / "blood-royale"
TURN_1 = SITE / "turns" / "turn-001" / "index.html"
TURN_3 = SITE / "turns" / "turn-003" / "index.html"


class _Page(HTMLParser):
    """Ids, headings, table cells and list items of a page, as text."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.h2: list[tuple[str, str]] = []
        self.items: list[str] = []
        self.cells: list[str] = []
        self.links: list[str] = []
        self._open: list[tuple[str, str, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.append(str(values["id"]))
        if tag == "a" and values.get("href"):
            self.links.append(str(values["href"]))
        if tag in ("h2", "li", "td", "th", "p"):
            self._open.append((tag, str(values.get("id") or ""), []))

    def handle_data(self, data: str) -> None:
        for _tag, _id, text in self._open:
            text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1][0] == tag:
            _tag, ident, parts = self._open.pop()
            text = " ".join("".join(parts).split())
            if tag == "h2":
                self.h2.append((ident, text))
            elif tag in ("li", "p"):
                self.items.append(text)
            else:
                self.cells.append(text)


def _read(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def test_the_page_is_grouped_by_house_with_a_bookmarkable_anchor_each() -> None:
    """Item 1: "Group the page by house, then by kind" and "Each house section has an
    anchor a player can bookmark." """
    page = _read(TURN_3)
    houses = [(ident, text) for ident, text in page.h2 if ident.startswith("house-")]
    assert [text for _i, text in houses] == sorted(text for _i, text in houses)
    assert {ident for ident, _t in houses} >= {"house-england", "house-france", "house-spain"}
    # Each id is unique, so the anchor leads to one place; the contents link each house.
    assert len(page.ids) == len(set(page.ids))
    for ident, _text in houses:
        assert f"#{ident}" in page.links
    # Within a house, its kinds are sections of their own.
    assert "house-france-courts" in page.ids and "house-france-war" in page.ids


def test_the_economy_is_a_table_not_bullets() -> None:
    """Item 1: "the economy (new goods, taxes, upkeep, raising) as tables, not about 90
    bullets"."""
    page = _read(TURN_1)
    assert "economy" in page.ids
    assert {"Taxes", "Upkeep", "Armies raised", "New goods"} <= set(page.cells)
    told = " ".join(page.items)
    for bullet in ("levied", "crowns of upkeep", "appeared in", " raised "):
        assert bullet not in told, bullet
    # Every house's taxes are in the table, in its row.
    html = TURN_1.read_text(encoding="utf-8")
    rows = re.findall(r"<tr><th scope=\"row\">(.*?)</tr>", html)
    assert len(rows) == 5 and all("houses/" in row for row in rows)


def test_battle_sentences_link_their_battle_pages() -> None:
    """Item 1: "Battle sentences link their battle pages." """
    html = TURN_3.read_text(encoding="utf-8")
    sentence = re.search(r'<li id="e3-\d+">(<a href="../../battles/([^/]+)/index.html">'
                         r"Battle of [^<]+</a> between .*?)</li>", html)
    assert sentence is not None
    assert (SITE / "battles" / sentence.group(2) / "index.html").is_file()


def test_each_round_states_the_kingdoms_order_of_play() -> None:
    """Item 1: "The kingdoms' move order of each round is stated." """
    page = _read(TURN_3)
    orders = [t for t in page.items if "the kingdoms moved in this order" in t]
    assert [t.split(":")[0] for t in orders] == ["Round 1", "Round 2"]
    assert all(t.count("House") == 5 for t in orders)


def _battle(seq: int, province: str, round_: int | None, bid: str | None) -> EventView:
    payload = {"province": province, "sides": [{"house": "a"}, {"house": "b"}]}
    if round_ is not None:
        payload["round"] = round_
    if bid is not None:
        payload["id"] = bid
    return EventView(turn=4, year=1315, seq=seq, phase="battle", kind="battle",
                     payload=payload, subjects=(), houses=("a", "b"))


def test_two_battles_in_one_province_and_turn_get_distinct_titles_and_slugs() -> None:
    """Item 1: "Two battles in one province and turn get distinct titles." """
    _ = translations("en").gettext
    for rounds in ((1, 2), (None, None), (1, 1)):
        events = [_battle(1, "burgundy", rounds[0], None), _battle(2, "burgundy", rounds[1], None),
                  _battle(3, "flanders", 1, None)]
        battles = list(battles_of(events, {"burgundy": "Burgundy", "flanders": "Flanders"}).values())
        titles = [battle_title(_, b) for b in battles]
        assert len(set(titles)) == 3, titles
        assert len({b.slug for b in battles}) == 3
        assert titles[2] == "Battle of Flanders"
        if rounds == (1, 2):
            assert titles[:2] == ["Battle of Burgundy, round 1", "Battle of Burgundy, round 2"]
        else:
            assert titles[:2] == ["Battle of Burgundy (1)", "Battle of Burgundy (2)"]
    # Two recorded ids that slug alike still get two pages.
    events = [_battle(1, "burgundy", 1, "B 4 1"), _battle(2, "burgundy", 2, "b-4-1")]
    assert len({b.slug for b in battles_of(events, {}).values()}) == 2


def _narrator(language: str) -> Narrator:
    trans = translations(language)
    return Narrator({}, {}, trans.gettext, trans.ngettext, Glossary())


def test_plurals_are_right_for_one_army_and_one_unit() -> None:
    """Item 1: "Plurals are right ("1 army")." """
    n = _narrator("en")

    def told(kind: str, payload: dict[str, object]) -> str:
        event = EventView(turn=1, year=1300, seq=1, phase="interphase", kind=kind,
                          payload=payload, subjects=(), houses=("x",))
        return re.sub(r"<[^>]+>", "", str(n.sentence(event, "")))

    assert "1 army " in told("raise", {"house": "x", "armies": 1, "province": "p", "cost": 5,
                                        "unit": "X-1"})
    assert told("upkeep", {"house": "x", "amount": 3, "disbanded": {"X-1": 1}}).endswith(
        "disband 1 army.")
    assert told("units-disbanded", {"house": "x", "units": ["X-1"]}).startswith(
        "The unit of x was disbanded")
    assert "1 armies" not in told("armies-returned", {"house": "x", "armies": 1})
    french = _narrator("fr")
    event = EventView(turn=1, year=1300, seq=1, phase="interphase", kind="raise",
                      payload={"house": "x", "armies": 1, "province": "p", "cost": 5,
                               "unit": "X-1"}, subjects=(), houses=("x",))
    assert "1 armée " in str(french.sentence(event, ""))


def test_every_ledger_entry_fills_declared_columns_in_english_and_french() -> None:
    """Item 1's tables: each event the ledger shows lands in a declared column."""
    samples = {"taxes": {"house": "x", "amount": 4}, "upkeep": {"house": "x", "amount": 2,
                                                                 "disbanded": {"X-1": 2}},
               "raise": {"house": "x", "armies": 2, "cost": 10}, "armies-returned":
               {"house": "x", "armies": 3}, "resource": {"house": "x", "good": "gold",
                                                          "province": "p"},
               "counter-given": {"house": "x", "good": "gold", "province": "p", "to": "y"},
               "crowns-paid": {"house": "x", "amount": 5, "to": "y"}}
    assert {cls.kind for cls in LEDGER} == set(samples)
    for language in ("en", "fr"):
        n = _narrator(language)
        for kind, payload in samples.items():
            event = EventView(turn=1, year=1300, seq=1, phase="interphase", kind=kind,
                              payload=payload, subjects=(), houses=("x",))
            entries = n.ledger(event)
            assert entries, kind
            for entry in entries:
                assert entry.column in LEDGER_COLUMNS and entry.house == "x"
                adds_up = LEDGER_COLUMNS[entry.column][1]
                assert (entry.note is None) == adds_up
                assert entry.note is None or isinstance(entry.note, Markup)
    assert EVENT_KINDS["taxes"] in LEDGER


def _dice_cells() -> list[list[str]]:
    """The cells of every row of the reference site's dice pages, as HTML."""
    return [re.findall(r"<td[^>]*>(.*?)</td>", row)
            for page in sorted((SITE / "dice").glob("turn-*/index.html"))
            for row in re.findall(r"<tr><td>\d+</td>.*?</tr>", page.read_text(encoding="utf-8"))]


def test_dice_pages_say_numbered_phases_in_words() -> None:
    """The phases of a movement round and of its battles read "movement 1", "battle 1"
    (as the French "mouvement 1"), not the engine's "movement-1"."""
    phases = {cells[1] for cells in _dice_cells()}
    assert {"movement 1", "movement 2", "battle 1", "births"} <= phases
    assert [p for p in phases if re.search(r"-\d", p)] == []


def test_dice_pages_name_the_provinces_and_houses_rolled_for() -> None:
    """An unrest roll names its province ("East Anglia"), an event die links its
    house by name; the engine records only their ids ("east-anglia", "england")."""
    from chronicle.campaign.resources import ruleset_table

    provinces = {p["id"]: p["name"] for p in ruleset_table("blood-royale", "world.toml")["province"]}
    houses = {h["id"] for h in ruleset_table("blood-royale", "houses.toml")["house"]}
    rows = _dice_cells()
    unrest = {cells[3] for cells in rows if cells[2] == "unrest"}
    assert unrest and unrest <= set(provinces.values())
    for cells in rows:
        if cells[2] in ("event die", "battle round", "plague province"):
            assert re.fullmatch(r'<a href="\.\./\.\./houses/[^"]+">House [^<]+</a>', cells[3])
    shown = {re.sub(r"<[^>]+>", "", cells[3]) for cells in rows}
    assert shown & (set(provinces) | houses) == set()


def test_subjects_of_rolls_are_told_apart_by_their_ids() -> None:
    """A person by name and number, a house by name, a province by its name in the
    site's language, and a unit, which has no other name, by its id."""
    trans = translations("en")

    class Person:
        name, slug, label_ref = "Edward", "e1000-edward", "E1000"

    class House:
        name, slug = "House Plantagenet", "england"

    n = Narrator({"england-edward": Person()}, {"england": House()}, trans.gettext,
                 trans.ngettext, Glossary(provinces={"east-anglia": "East Anglia"}))
    assert n.subject_html("england-edward", "../../") == (
        '<a href="../../people/e1000-edward/index.html">Edward (E1000)</a>')
    assert n.subject_html("england", "../") == (
        '<a href="../houses/england/index.html">House Plantagenet</a>')
    assert n.subject_html("east-anglia", "../../") == "East Anglia"
    assert n.subject_html("E-3", "../../") == "E-3"


def test_battle_page_says_unit_for_one_unit() -> None:
    """A side of one unit brought "(unit S-2)", and one unit lost is "Destroyed: unit
    S-2.": the count of units, not of armies, picks the word."""
    page = _read(SITE / "battles" / "b-3-1" / "index.html")
    told = " ".join(page.items)
    assert "brought 12 armies (unit S-2)" in told and "Destroyed: unit S-2." in told
    assert not re.search(r"\bunits [A-Z]-\d+(?!, )\b", told)
