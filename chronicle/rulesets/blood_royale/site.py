"""Blood Royale's site (RULES.md Part B): the dynastic pages, and its own.

Its plug-in is the dynastic one (``chronicle.rulesets.dynastic.site``)
extended with what the war and the economy add::

    <campaign>/battles/index.html
    <campaign>/battles/<battle>/index.html     e.g. battles/b-3-1/
    <campaign>/wealth/index.html               wealth standings (B7)
    <campaign>/maps/index.html, maps/turn-003.svg
    <campaign>/charts/treasury.svg, charts/cash-ins.svg

and, on the dynastic pages, the blocks its templates fill (its theme layer,
``templates/``): a turn's battles and map, a person's battles, the link to the
wealth standings from the home page's, the search page's words. Its views are
read as the store is loaded (``views.load_views``); the masthead links to its
pages, a turn is told by section and round of play (``LAYOUT``), and the search
index lists provinces and battles.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from adjudicator.rulesets.blood_royale.events import KingdomOrderDrawn
from chronicle.narration import Glossary, Narrator
from chronicle.narration.narrator import N_
from chronicle.rulesets.blood_royale.drawings import (
    MAPS_CACHE,
    add_maps,
    add_wealth_charts,
    maps,
)
from chronicle.rulesets.blood_royale.views import (
    BattleView,
    articles,
    battle_title,
    battles,
    fought,
    provinces,
    turn_battles,
    turn_map,
    wealth,
)
from chronicle.rulesets.dynastic.site import PLUGIN as DYNASTIC
from chronicle.rulesets.dynastic.site import person_values
from chronicle.site.genealogy import PendingGenealogies
from chronicle.site.pages import (
    NavLink,
    SearchPart,
    SiteContext,
    TurnLayout,
    Write,
    elsewhere,
    kept,
    mentioned,
    page_print,
    render,
    standings,
)
from chronicle.views.data import EventView, HouseView, PersonView, SiteData, TurnView


# -- its pages ---------------------------------------------------------------------
def build_battles(ctx: SiteContext, write: Write) -> None:
    fought_ = sorted(battles(ctx.data).values(), key=lambda b: (b.turn, b.id))
    render(ctx, write, "battles.html", "battles/index.html", battles=fought_)
    names = {p.id: p.name for p in provinces(ctx.data).values()}
    for battle in fought_:
        rel = f"battles/{battle.slug}/index.html"
        if not (elsewhere(ctx, rel) or kept(ctx, rel, page_print(
                ctx, "battle.html", battle, names, mentioned(ctx, battle)))):
            render(ctx, write, "battle.html", rel, battle=battle, provinces=names)


def build_wealth(ctx: SiteContext, write: Write) -> None:
    data = ctx.data
    rows = wealth(data)
    by_turn: dict[int, list[Any]] = {}
    for row in rows:
        by_turn.setdefault(row.turn, []).append(row)
    latest = by_turn[max(by_turn)] if by_turn else []
    goods = sorted({g for row in rows for g in row.goods})
    final = sorted(data.houses.values(), key=lambda h: (-h.treasury, h.name))
    render(ctx, write, "wealth.html", "wealth/index.html", by_turn=sorted(by_turn.items()),
           latest=sorted(latest, key=lambda r: (-r.treasury, r.house)), goods=goods,
           good_names={g: ctx.narrator.good(g) for g in goods}, final=final,
           cash_ins=[r for r in rows if r.cash_in])


def build_maps(ctx: SiteContext, write: Write) -> None:
    """``maps/index.html``: every turn's map, for a campaign with a board."""
    if not provinces(ctx.data):
        return
    drawn = maps(ctx)
    render(ctx, write, "maps.html", "maps/index.html",
           maps=[(turn, drawn[turn.number]) for turn in ctx.data.turns
                 if turn.number in drawn])


def _prepare(ctx: SiteContext, genealogies: PendingGenealogies | None) -> SiteContext:
    ctx = DYNASTIC.prepare(ctx, genealogies)
    add_wealth_charts(ctx)
    add_maps(ctx)
    return ctx


# -- what it adds to the dynastic pages -------------------------------------------------
def home_values(ctx: SiteContext, _subject: object) -> dict[str, Any]:
    """The standings by the last turn's wealth rows, else the treasuries now (B8)."""
    data = ctx.data
    rows = wealth(data)
    last = max((row.turn for row in rows), default=None)
    ranked = standings(data, {row.house: row.treasury for row in rows if row.turn == last})
    return {"standings": ranked if rows or any(t for _h, t in ranked) else []}


def turn_values(ctx: SiteContext, turn: TurnView) -> dict[str, Any]:
    """A turn's battles and its map (``blood_royale_turn.html``)."""
    return {"battles": turn_battles(ctx.data, turn), "map_svg": maps(ctx).get(turn.number)}


def person_battles(ctx: SiteContext, person: PersonView) -> dict[str, Any]:
    """A person's commands and captivity (Part A), and the battles they led an army in."""
    return {**person_values(ctx, person), "battles": fought(ctx.data, person.id)}


def glossary(data: SiteData, gettext: Callable[[str], str], language: str) -> Glossary:
    """The provinces' names and articles, and each battle's page and title."""
    titled = {b.id: (b.slug, battle_title(gettext, b, language))
              for b in battles(data).values()}
    return Glossary(provinces={p.id: p.name for p in provinces(data).values()},
                    battles=titled, articles=articles(data))


def _battle_titles(narrator: Narrator) -> Callable[[BattleView], str]:
    return lambda battle: battle_title(narrator._, battle, narrator.language)


def search_rows(ctx: SiteContext) -> list[tuple[int, str, str, str, str]]:
    """The provinces (who holds each; its latest map) and the battles (the year, the sides)."""
    data = ctx.data
    houses: Mapping[str, HouseView] = data.houses
    rows: list[tuple[int, str, str, str, str]] = []
    latest = next((t for t in reversed(data.turns) if turn_map(t) is not None), None)
    for province in sorted(provinces(data).values(), key=lambda p: p.name):
        held = houses.get(province.controller or "")
        rows.append((0, province.name, "", held.name if held is not None else "",
                     f"maps/turn-{latest.number:03d}.svg" if latest is not None
                     else "houses/index.html"))
    for battle in sorted(battles(data).values(), key=lambda b: (b.turn, b.id)):
        sides = " · ".join(houses[h].name if h in houses else h for h in battle.houses)
        rows.append((1, battle_title(ctx._, battle, data.campaign.language), "",
                     f"{battle.year} {sides}", f"battles/{battle.slug}/index.html"))
    return rows


# -- a turn: at court, the realm, the war by round of play, trade -------------------------
#: The phases told in "The realm" and in "Trade"; a movement or battle phase is the war's.
SECTION_OF_PHASE = {"interphase": "realms", "cash-in": "trade", "wealth": "trade"}
WAR_PHASES = ("movement", "battle")


def section_of(phase: str) -> str:
    """The part of a turn's chronicle an event belongs to, from its phase."""
    if phase.startswith(WAR_PHASES):
        return "war"
    return SECTION_OF_PHASE.get(phase, "courts")


def round_of(phase: str) -> int | None:
    """The round of a movement or battle phase (``movement-2`` -> 2)."""
    word, _dash, number = phase.rpartition("-")
    return int(number) if word in WAR_PHASES and number.isdigit() else None


def states_order(event: EventView) -> bool:
    """The order the kingdoms move in, drawn for the round (B2.3)."""
    return event.kind == KingdomOrderDrawn.kind


LAYOUT = TurnLayout(
    titles={"courts": N_("At court"), "realms": N_("The realm"), "war": N_("War"),
            "trade": N_("Trade")},
    section_of=section_of, round_of=round_of, states_order=states_order)


PLUGIN = DYNASTIC.extended(
    builders=(*DYNASTIC.builders[:4], build_battles, build_wealth, build_maps,
              *DYNASTIC.builders[4:]),
    prepare=_prepare,
    glossary=glossary,
    nav=(NavLink("battles/index.html", N_("Battles")),
         NavLink("maps/index.html", N_("Maps"), shown=lambda data: bool(provinces(data))),
         NavLink("wealth/index.html", N_("Wealth"))),
    pages={"home.html": "blood_royale_home.html", "turn.html": "blood_royale_turn.html",
           "person.html": "blood_royale_person.html",
           "search.html": "blood_royale_search.html"},
    values={**DYNASTIC.values, "home.html": home_values, "turn.html": turn_values,
            "person.html": person_battles},
    helpers={**DYNASTIC.helpers, "battle_title": _battle_titles},
    turn_layout=LAYOUT,
    search=SearchPart(kinds=(N_("province"), N_("battle")), rows=search_rows),
    extra_pages=lambda data: len(battles(data)),
    caches=(*DYNASTIC.caches, MAPS_CACHE),
)
