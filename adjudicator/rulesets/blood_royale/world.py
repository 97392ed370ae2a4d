"""The board: kingdoms, provinces and who may go where (RULES.md B1, B3, B4).

The map is content-pack data (``world.toml``): ``[[kingdom]]`` tables (id,
letter, name, capital, color, law) and ``[[province]]`` tables (id, name,
kingdom, kind ``land``/``sea``, capital, resource, x, y, neighbours). A house
plays the kingdom with its letter. ``check_world`` refuses a map the rules
cannot use, naming the fault.

Blood Royale keeps its own between-turn data in ``BloodRoyaleData``, its
typed part of the state (``br_data``): the home kingdom of each house,
standing passage permissions and alliances, this turn's foreign interventions, counter and
unit numbering, and the standing battle orders.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from adjudicator.errors import RulesDataError
from adjudicator.rulesets.blood_royale.board import Province, board
from adjudicator.rulesets.blood_royale.standing import Standing
from adjudicator.state import GameState, RulesetData, Unit

LAND = "land"
SEA = "sea"


# -- the data kept between turns ------------------------------------------------


@dataclass
class BloodRoyaleData(RulesetData):
    """What Blood Royale keeps from turn to turn, beyond the map and the units."""

    key: ClassVar[str] = "blood_royale"

    #: house → its home kingdom (B1)
    homes: dict[str, str] = field(default_factory=dict)
    #: granting house → the houses it lets pass (B4), sorted
    passage: dict[str, list[str]] = field(default_factory=dict)
    #: house → the houses it declares its allies (B6), sorted
    allies: dict[str, list[str]] = field(default_factory=dict)
    #: unit → the house commanding it this turn (B4 foreign intervention)
    interventions: dict[str, str] = field(default_factory=dict)
    #: the number of the next resource counter (``wine-7``)
    next_counter: int = 1
    #: house → the highest unit number it has used (numbers are never reused)
    unit_numbers: dict[str, int] = field(default_factory=dict)
    #: house → its standing battle orders (B6)
    standing: dict[str, Standing] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"homes": dict(self.homes),
                "passage": {k: list(v) for k, v in self.passage.items()},
                "allies": {k: list(v) for k, v in self.allies.items()},
                "interventions": dict(self.interventions),
                "next_counter": self.next_counter,
                "unit_numbers": dict(self.unit_numbers),
                "standing": {k: v.to_dict() for k, v in self.standing.items()}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> BloodRoyaleData:
        return cls(
            homes={str(k): str(v) for k, v in data.get("homes", {}).items()},
            passage={str(k): [str(h) for h in v] for k, v in data.get("passage", {}).items()},
            allies={str(k): [str(h) for h in v] for k, v in data.get("allies", {}).items()},
            interventions={str(k): str(v) for k, v in data.get("interventions", {}).items()},
            next_counter=int(data.get("next_counter", 1)),
            unit_numbers={str(k): int(v) for k, v in data.get("unit_numbers", {}).items()},
            standing={str(k): Standing.from_dict(v)
                      for k, v in data.get("standing", {}).items()})


def br_data(state: GameState) -> BloodRoyaleData:
    """Blood Royale's part of ``state``, created empty on first use."""
    data = state.data_of(BloodRoyaleData)
    if data is None:
        data = BloodRoyaleData()
        state.put_data(data)
    return data


def home_kingdom(state: GameState, house: str) -> str | None:
    return br_data(state).homes.get(house)


def home_house(state: GameState, province: Province) -> str | None:
    """The house whose home kingdom holds ``province`` (None at sea or in no kingdom)."""
    if province.kingdom is None:
        return None
    for house, kingdom in sorted(br_data(state).homes.items()):
        if kingdom == province.kingdom:
            return house
    return None


def is_home(state: GameState, house: str, province: Province) -> bool:
    return province.kingdom is not None and province.kingdom == home_kingdom(state, house)


def home_provinces(state: GameState, house: str) -> list[Province]:
    """The land provinces of the house's home kingdom, in map order."""
    kingdom = home_kingdom(state, house)
    return [p for p in board(state).provinces.values() if p.kind == LAND and p.kingdom == kingdom]


def controlled(state: GameState, house: str) -> list[Province]:
    """The land provinces the house controls (B3), in map order."""
    return [p for p in board(state).provinces.values() if p.kind == LAND and p.controller == house]


def productive(province: Province) -> bool:
    """A province in revolt or under famine pays no tax and produces nothing (B5)."""
    return not province.revolt and not province.famine


# -- passage and foreign intervention (B4) ---------------------------------------


def passage_allowed(state: GameState, granter: str, grantee: str) -> bool:
    """Whether ``granter`` lets ``grantee`` pass through its provinces: by its standing
    order, or as its ally (B6 "Allies give each other passage")."""
    return grantee in br_data(state).passage.get(granter, []) or allied(state, granter, grantee)


def allied(state: GameState, one: str, other: str) -> bool:
    """B6: two houses are allies while both declare ``ally`` towards each other."""
    declared = br_data(state).allies
    return other in declared.get(one, []) and one in declared.get(other, [])


def _set_member(table: dict[str, list[str]], key: str, member: str, present: bool) -> bool:
    """Add or remove ``member`` in ``table[key]`` (kept sorted); whether it changed."""
    members = set(table.get(key, []))
    before = member in members
    if present:
        members.add(member)
    else:
        members.discard(member)
    if members:
        table[key] = sorted(members)
    else:
        table.pop(key, None)
    return before != present


def set_passage(state: GameState, granter: str, grantee: str, allowed: bool) -> bool:
    """Record a permission; returns whether anything changed."""
    return _set_member(br_data(state).passage, granter, grantee, allowed)


def declare_alliance(state: GameState, house: str, ally: str, declared: bool) -> bool:
    """Record ``ally <house>`` or ``end alliance <house>``; whether anything changed."""
    return _set_member(br_data(state).allies, house, ally, declared)


def unit_side(state: GameState, unit: Unit) -> str:
    """The house giving the unit its orders this turn: its own, or the king it serves."""
    return br_data(state).interventions.get(unit.id) or unit.house


def is_hostile_to(state: GameState, side: str, controller: str | None) -> bool:
    """Whether a province of ``controller`` is enemy ground for units of ``side`` (B4)."""
    return controller is not None and controller != side and not passage_allowed(
        state, controller, side)


def castle_holder(state: GameState, province: Province) -> str | None:
    """The house whose capital ``province`` is, while no other house controls it (B6)."""
    for house in sorted(state.houses.values(), key=lambda h: h.id):
        if (house.capital == province.id and not house.eliminated
                and province.controller in (None, house.id)):
            return house.id
    return None


def sides_in(state: GameState, province: str) -> dict[str, list[Unit]]:
    """Units in a province grouped by the house commanding them, ids sorted."""
    found: dict[str, list[Unit]] = {}
    for unit in sorted(state.units.values(), key=lambda u: u.id):
        if unit.province == province:
            found.setdefault(unit_side(state, unit), []).append(unit)
    return found


# -- geography ---------------------------------------------------------------------


def is_coastal(state: GameState, province: Province) -> bool:
    provinces = board(state).provinces
    return province.kind == LAND and any(provinces[n].kind == SEA for n in province.neighbours)


def find_province(state: GameState, token: str) -> Province | None:
    """A province by id or by name, case-insensitively; names may use hyphens for spaces."""
    provinces = board(state).provinces
    if token in provinces:
        return provinces[token]
    wanted = _norm(token)
    for province in provinces.values():
        if _norm(province.id) == wanted or _norm(province.name) == wanted:
            return province
    return None


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("-", " ").replace("_", " ").split())


def shortest_path(state: GameState, start: str, goal: str,
                  can_enter: Callable[[Province], bool]) -> list[str] | None:
    """The provinces after ``start`` up to ``goal`` on a shortest route, or None.

    Breadth-first over neighbours in map order, so ties always break the same
    way. ``can_enter`` says which provinces the route may enter (the goal too).
    """
    if start == goal:
        return []
    provinces = board(state).provinces
    parent: dict[str, str] = {start: start}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for nxt in provinces[here].neighbours:
            if nxt in parent or not can_enter(provinces[nxt]):
                continue
            parent[nxt] = here
            if nxt == goal:
                path = [goal]
                while parent[path[-1]] != start:
                    path.append(parent[path[-1]])
                return path[::-1]
            queue.append(nxt)
    return None


# -- checking the map -----------------------------------------------------------------


def check_world(world: Mapping[str, Any]) -> None:
    """Refuse a map the rules cannot play: unknown or one-way neighbours, bad kinds,
    a kingdom without exactly one capital of its own, unknown resources."""
    kingdoms = world.get("kingdom", [])
    provinces = world.get("province", [])
    if not kingdoms or not provinces:
        raise RulesDataError("world: the map needs [[kingdom]] and [[province]] tables")
    by_id: dict[str, Mapping[str, Any]] = {}
    for entry in provinces:
        pid = entry.get("id")
        if not isinstance(pid, str) or pid in by_id:
            raise RulesDataError(f"world: province id {pid!r} is missing or repeated")
        by_id[pid] = entry
    kingdom_ids = {k.get("id") for k in kingdoms}
    for pid, entry in by_id.items():
        if entry.get("kind", LAND) not in (LAND, SEA):
            raise RulesDataError(f"world: {pid} has kind {entry.get('kind')!r}")
        kingdom = entry.get("kingdom")
        if kingdom is not None and kingdom not in kingdom_ids:
            raise RulesDataError(f"world: {pid} names an unknown kingdom {kingdom!r}")
        for other in entry.get("neighbours", []):
            if other not in by_id:
                raise RulesDataError(f"world: {pid} borders an unknown province {other!r}")
            if other == pid or pid not in by_id[other].get("neighbours", []):
                raise RulesDataError(f"world: {pid} borders {other}, but not the other way")
    for kingdom in kingdoms:
        capitals = [p for p, e in by_id.items()
                    if e.get("kingdom") == kingdom.get("id") and e.get("capital")]
        if capitals != [kingdom.get("capital")]:
            raise RulesDataError(f"world: kingdom {kingdom.get('id')!r} must have exactly one "
                                 f"capital, its 'capital' {kingdom.get('capital')!r}; "
                                 f"found {capitals}")


def provinces_from_world(world: Mapping[str, Any]) -> list[Province]:
    """The map's provinces as state records, uncontrolled, in file order."""
    found: list[Province] = []
    for entry in world["province"]:
        kind = str(entry.get("kind", LAND))
        found.append(Province(
            id=str(entry["id"]), name=str(entry.get("name", entry["id"])), kind=kind,
            kingdom=entry.get("kingdom"), capital=bool(entry.get("capital", False)),
            resource=entry.get("resource"), neighbours=[str(n) for n in entry["neighbours"]],
            x=float(entry.get("x", 0.0)), y=float(entry.get("y", 0.0))))
    return found


def kingdom_by_letter(world: Mapping[str, Any], letter: str) -> Mapping[str, Any] | None:
    for kingdom in world.get("kingdom", []):
        if str(kingdom.get("letter", "")).upper() == letter.upper():
            found: Mapping[str, Any] = kingdom
            return found
    return None
