"""Blood Royale's public views (RULES.md B1, B6, B7): the board, the battles and the wealth.

Read as the store is loaded, by the site plug-in's ``load`` (``SitePlugin.load``),
into the campaign's parts (``SiteData.parts``, ``TurnView.parts``), which the
ruleset's pages, drawings and search entries read. As everywhere on the site
(``chronicle.views.data``), no view holds a ``GameState`` or a snapshot: each
fact is copied out into a frozen view; a turn's board is decoded when its map is
first drawn (``MapSource``), and only into a ``MapView``.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from adjudicator.rulesets.blood_royale.battle import BattleFought
from adjudicator.rulesets.blood_royale.events import WealthRow
from adjudicator.state import GameState, Province
from chronicle.i18n.grammar import finish
from chronicle.i18n.localnames import NO_NAMES, LocalNames
from chronicle.site.incremental.cache import RenderCache
from chronicle.site.incremental.inputs import slugify
from chronicle.store.file import load_snapshot
from chronicle.views.data import (
    EventView,
    HouseStyle,
    Loaded,
    RulesetViews,
    SiteData,
    TurnView,
    localise,
    styles_of,
)


@dataclass(frozen=True)
class ProvinceView:
    """A province at the end of a turn, as the map shows it (RULES.md B1)."""

    id: str
    name: str
    kind: str
    x: float
    y: float
    neighbours: tuple[str, ...]
    controller: str | None
    capital: bool
    revolt: bool
    famine: bool


@dataclass(frozen=True)
class UnitView:
    """A unit on the board at the end of a turn (disbanded ones are not)."""

    id: str
    house: str
    type: str
    armies: int
    province: str


@dataclass(frozen=True)
class MapView:
    """The board at the end of a turn: what its map shows, and nothing else."""

    provinces: tuple[ProvinceView, ...]
    units: tuple[UnitView, ...]
    houses: Mapping[str, HouseStyle]


class MapSource:
    """A turn's map, decoded from the turn's snapshot when first asked for.

    A large campaign's snapshots take longer to decode than to publish, and
    only the maps need them: a map is decoded by the process that draws it,
    and not at all when its drawing is cached. The snapshot is the whole
    state, secrets included, so it stays inside: what comes out is a
    ``MapView``, or a drawing of one.
    """

    __slots__ = ("_names", "_snapshot", "_view")

    def __init__(self, snapshot: bytes, decoded: GameState | None = None,
                 names: LocalNames = NO_NAMES) -> None:
        self._snapshot = snapshot
        self._names = names
        self._view = None if decoded is None else _map_view(decoded)

    def view(self) -> MapView:
        if self._view is None:
            state = load_snapshot(self._snapshot)
            localise_board(state, self._names)
            self._view = _map_view(state)
        return self._view

    def drawn(self, draw: Callable[[MapView], str], cache: RenderCache | None,
              also: str = "") -> str:
        """``draw(self.view())``, kept in ``cache`` by the hash of the snapshot and ``also``."""
        key = hashlib.sha256(self._snapshot).hexdigest() + also
        svg = cache.get(key) if cache is not None else None
        if svg is None:
            svg = draw(self.view())
            if cache is not None:
                cache.put(key, svg)
        return svg


def _map_view(state: GameState) -> MapView:
    return MapView(
        provinces=tuple(_map_province(p) for p in state.provinces.values()),
        units=tuple(UnitView(id=u.id, house=u.house, type=u.type, armies=u.armies,
                             province=u.province)
                    for u in state.units.values() if u.province and u.disbanded is None),
        houses=styles_of(state))


def localise_board(state: GameState, names: LocalNames) -> None:
    """``localise`` a decoded state, its provinces too (the pack's ``name_fr``...)."""
    localise(state, names)
    if names:
        for province in state.provinces.values():
            province.name = names.province(province.id, province.name)


def _map_province(p: Province) -> ProvinceView:
    return ProvinceView(id=p.id, name=p.name, kind=p.kind, x=p.x, y=p.y,
                        neighbours=tuple(p.neighbours), controller=p.controller,
                        capital=p.capital, revolt=p.revolt, famine=p.famine)


@dataclass
class BattleView:
    """A battle as Blood Royale records it (``BattleFought``, B6), read defensively."""

    id: str
    slug: str
    turn: int
    year: int
    round: int | None
    province: str
    province_id: str
    attacker: str | None
    defender: str | None
    sides: list[dict[str, Any]]
    preliminary: list[dict[str, Any]]
    rounds: list[dict[str, Any]]
    winner: str | None
    fled: list[dict[str, Any]]
    captured: list[str]
    killed: list[str]
    surrendered: list[str]
    destroyed: list[str]
    #: Set when another battle was fought in the same province that turn, so
    #: that their titles differ: the round, if theirs differ, else the number
    #: of the battle among them (``battle_title``).
    title_round: int | None = None
    title_number: int = 0

    @property
    def commanders(self) -> list[str]:
        return sorted({str(c) for side in self.sides for c in side.get("commanders", [])})

    @property
    def houses(self) -> list[str]:
        return [str(s.get("house")) for s in self.sides]


def battle_title(_: Callable[[str], str], battle: BattleView, language: str = "en") -> str:
    """A battle's title, distinct from that of any other battle of its turn (in
    ``language``'s grammar: "Bataille du Nord")."""
    values = {"province": battle.province}
    if battle.title_round is not None:
        title = _("Battle of %(province)s, round %(round)s") % {**values,
                                                                "round": battle.title_round}
    elif battle.title_number:
        title = _("Battle of %(province)s (%(number)s)") % {**values,
                                                            "number": battle.title_number}
    else:
        title = _("Battle of %(province)s") % values
    return finish(language, title)


@dataclass(frozen=True)
class WealthView:
    turn: int
    year: int
    house: str
    treasury: int
    goods: dict[str, int]
    taxes: int
    upkeep: int
    raised: int
    cash_in: int
    best_cash_in: int = 0


# -- the load ----------------------------------------------------------------------
def load_views(data: SiteData, loaded: Loaded) -> None:
    """The plug-in's ``load``: the board now, every battle and wealth row, each turn's
    battles and map, and the articles the provinces' names take in a sentence."""
    final = loaded.final
    if loaded.names:
        for province in final.provinces.values():
            province.name = loaded.names.province(province.id, province.name)
    battles = battles_of(loaded.events, {p.id: p.name for p in final.provinces.values()})
    fought: dict[str, list[str]] = defaultdict(list)
    by_turn: dict[int, list[str]] = defaultdict(list)
    for battle in battles.values():
        by_turn[battle.turn].append(battle.id)
        for pid in battle.commanders:
            if pid in data.people:
                fought[pid].append(battle.id)
    wealth = [wealth_of(e) for e in loaded.events if e.kind == WealthRow.kind]
    wealth.sort(key=lambda w: (w.turn, w.house))
    for turn, snapshot in zip(data.turns, loaded.snapshots, strict=True):
        turn.parts["battles"] = by_turn.get(turn.number, [])
        turn.parts["map"] = (MapSource(snapshot, final if turn is data.turns[-1] else None,
                                       loaded.names) if final.provinces else None)
    data.parts.update(battles=battles, wealth=wealth,
                      provinces={p.id: _map_province(p) for p in final.provinces.values()},
                      fought=dict(fought), articles=dict(sorted(loaded.names.articles.items())))


def in_lives(event: EventView) -> Iterable[str]:
    """The plug-in's ``lives``: a battle is part of its commanders' lives too."""
    if event.kind != BattleFought.kind:
        return ()
    return (str(pid) for side in event.payload.get("sides", [])
            for pid in side.get("commanders", []))


# -- the parts, typed, for the ruleset's own code ----------------------------------
def battles(data: SiteData) -> dict[str, BattleView]:
    """Every battle of the campaign, by id (in the order they were fought)."""
    return cast(dict[str, BattleView], data.parts.get("battles", {}))


def wealth(data: SiteData) -> list[WealthView]:
    """Every house's wealth row of every turn (B7), by turn then house."""
    return cast(list[WealthView], data.parts.get("wealth", []))


def provinces(data: SiteData) -> dict[str, ProvinceView]:
    """The board now (empty in a campaign without one)."""
    return cast(dict[str, ProvinceView], data.parts.get("provinces", {}))


def fought(data: SiteData, person: str) -> list[BattleView]:
    """The battles ``person`` led an army in."""
    known = battles(data)
    return [known[b] for b in cast(dict[str, list[str]], data.parts.get("fought", {})).get(
        person, [])]


def articles(data: SiteData) -> dict[str, str]:
    """Province id -> the article its name takes in a sentence (``LocalNames.articles``)."""
    return cast(dict[str, str], data.parts.get("articles", {}))


def turn_battles(data: SiteData, turn: TurnView) -> list[BattleView]:
    known = battles(data)
    return [known[b] for b in cast(list[str], turn.parts.get("battles", []))]


def turn_map(turn: TurnView) -> MapSource | None:
    """The board at the end of ``turn``, for a campaign with one."""
    return cast(MapSource | None, turn.parts.get("map"))


# -- reading the events --------------------------------------------------------------
def battles_of(events: Iterable[EventView], provinces: dict[str, str]) -> dict[str, BattleView]:
    """The battles ``events`` tell, by id, each titled by its province's name in
    ``provinces`` (id -> name)."""
    found: dict[str, BattleView] = {}
    counts: dict[int, int] = defaultdict(int)
    slugs: set[str] = set()
    for event in events:
        if event.kind != BattleFought.kind:
            continue
        pl = event.payload
        counts[event.turn] += 1
        bid = str(pl.get("id") or f"b-{event.turn}-{counts[event.turn]}")
        slug = slugify(bid, "battle")
        while slug in slugs:
            slug += "-x"
        slugs.add(slug)
        where = str(pl.get("province") or "")
        found[bid] = BattleView(
            id=bid, slug=slug, turn=event.turn, year=event.year,
            round=pl.get("round") if isinstance(pl.get("round"), int) else None,
            province=provinces.get(where, where), province_id=where, attacker=pl.get("attacker"),
            defender=pl.get("defender"),
            sides=_dicts(pl.get("sides")), preliminary=_dicts(pl.get("preliminary")),
            rounds=_dicts(pl.get("rounds")), winner=pl.get("winner"),
            fled=[f if isinstance(f, dict) else {"house": str(f)} for f in pl.get("fled", [])],
            captured=_strings(pl.get("captured")), killed=_strings(pl.get("killed")),
            surrendered=_strings(pl.get("surrendered")),
            destroyed=_strings(pl.get("destroyed")))
    _distinguish(found)
    return found


def _distinguish(battles: dict[str, BattleView]) -> None:
    """Tell apart the titles of battles fought in one province in one turn."""
    places: dict[tuple[int, str], list[BattleView]] = defaultdict(list)
    for battle in battles.values():
        places[(battle.turn, battle.province_id)].append(battle)
    for same in places.values():
        if len(same) < 2:
            continue
        rounds = [b.round for b in same]
        by_round = None not in rounds and len(set(rounds)) == len(rounds)
        for number, battle in enumerate(same, start=1):
            if by_round:
                battle.title_round = battle.round
            else:
                battle.title_number = number


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [v for v in value or [] if isinstance(v, dict)]


def _strings(value: Any) -> list[str]:
    return [str(v) for v in value or []]


def wealth_of(event: EventView) -> WealthView:
    """A house's wealth row of a turn (``WealthRow``), read defensively."""
    pl = event.payload
    goods = pl.get("goods") or {}
    return WealthView(turn=int(pl.get("turn", event.turn)), year=int(pl.get("year", event.year)),
                      house=str(pl.get("house")), treasury=int(pl.get("treasury", 0)),
                      goods={str(k): int(v) for k, v in sorted(goods.items())},
                      taxes=int(pl.get("taxes", 0)), upkeep=int(pl.get("upkeep", 0)),
                      raised=int(pl.get("raised", 0)), cash_in=int(pl.get("cash_in", 0)),
                      best_cash_in=int(pl.get("best_cash_in", 0)))


#: What Blood Royale adds to the views of its campaigns (``Descriptor.views``).
VIEWS = RulesetViews(load=load_views, lives=in_lives)
