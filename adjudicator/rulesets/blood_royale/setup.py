"""The starting state of a Blood Royale campaign (RULES.md B1, C).

The content pack (``rules["world"]``, ``rules["houses"]``) supplies what the
campaign file leaves out:

* houses: the campaign's ``[[house]]`` tables, else every house of the pack;
  each plays the kingdom with its letter, whose capital, colour and law
  (Martell's absolute primogeniture is data) it takes unless it gives its own;
* people: the campaign's ``[[person]]`` tables, else the B1 family of every
  house: a king of 25 (the founder), a queen of 20 from the minor nobility
  and a child of 5 whose sex is one recorded die, all characteristics 0;
* units: the campaign's ``[[unit]]`` tables, else the pack's ``start_units``
  (B1: 5 armies in one unit), all in the capital unless placed elsewhere.

Every province starts controlled by the house of its kingdom; treasuries
start at ``economy.start_treasury``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.dice import Dice
from adjudicator.dynastic.people import dynasty_rules, name_list, slugify
from adjudicator.dynastic.setup import HOUSE_KEYS, build_state
from adjudicator.errors import SetupError
from adjudicator.rulesets.blood_royale.board import board
from adjudicator.rulesets.blood_royale.tables import br_rules
from adjudicator.rulesets.blood_royale.world import (
    br_data,
    check_world,
    kingdom_by_letter,
    provinces_from_world,
)
from adjudicator.state import GameState, Sex

RULESET_ID = "blood-royale"
KING_AGE, QUEEN_AGE, CHILD_AGE = 25, 20, 5
DEFAULT_START_UNITS: tuple[Mapping[str, Any], ...] = ({"type": "army", "armies": 5},)


def _pack_houses(rules: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    houses: list[Mapping[str, Any]] = list(rules.get("houses", {}).get("house", []))
    return houses


def _pack_entry(rules: Mapping[str, Any], entry: Mapping[str, Any]) -> Mapping[str, Any]:
    """The pack's data for a campaign house: same id, else same letter."""
    for data in _pack_houses(rules):
        if data.get("id") == entry.get("id"):
            return data
    for data in _pack_houses(rules):
        if data.get("letter") == entry.get("letter"):
            return data
    return {}


def _house_entries(spec: Mapping[str, Any], rules: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Campaign houses (or the pack's), completed from their kingdom."""
    world = rules["world"]
    declared = spec.get("house") or _pack_houses(rules)
    entries: list[dict[str, Any]] = []
    for raw in declared:
        data = _pack_entry(rules, raw)
        entry = {k: v for k, v in raw.items() if k in HOUSE_KEYS}
        entry.setdefault("letter", data.get("letter", ""))
        letter = str(entry.get("letter", ""))
        kingdom = kingdom_by_letter(world, letter)
        if kingdom is None:
            raise SetupError(f"house {entry.get('id')!r}: no kingdom of the map has the "
                             f"letter {letter!r}")
        entry.setdefault("name", data.get("name", kingdom.get("name")))
        entry.setdefault("law", data.get("law", kingdom.get("law", "male-preference")))
        entry.setdefault("color", data.get("color", kingdom.get("color", "#555555")))
        entry.setdefault("capital", kingdom["capital"])
        entry.setdefault("treasury", br_rules(rules).economy.start_treasury)
        entries.append(entry)
    return entries


def _unique(name: str, taken: set[str]) -> str:
    """A starting name not yet used (names are unique in a campaign, A1)."""
    candidate, n = name, 2
    while candidate.lower() in taken:
        candidate, n = f"{name} {n}", n + 1
    taken.add(candidate.lower())
    return candidate


def _child_name(rules: Mapping[str, Any], house: Mapping[str, Any], data: Mapping[str, Any],
                sex: Sex, taken: set[str]) -> str:
    key = "male_names" if sex == Sex.MALE else "female_names"
    listed = [str(n) for n in data.get(key, [])] or list(name_list(rules, house["id"], sex))
    for name in listed:
        if name.lower() not in taken:
            taken.add(name.lower())
            return name
    return _unique(listed[0], taken)


def starting_families(houses: Sequence[Mapping[str, Any]], rules: Mapping[str, Any],
                      start_year: int, dice: Dice) -> list[dict[str, Any]]:
    """B1's three people per house, as ``[[person]]`` tables for ``build_state``."""
    boy_faces = dynasty_rules(rules).boy_faces
    taken: set[str] = set()
    persons: list[dict[str, Any]] = []
    for house in houses:
        hid = str(house["id"])
        data = _pack_entry(rules, house)
        king = _unique(str(data.get("king") or name_list(rules, hid, Sex.MALE)[0]), taken)
        queen = _unique(str(data.get("queen") or name_list(rules, None, Sex.FEMALE)[0]), taken)
        boy = dice.roll(1, 6, "sex of the starting child", hid).total <= boy_faces
        sex = Sex.MALE if boy else Sex.FEMALE
        child = _child_name(rules, house, data, sex, taken)
        king_id, queen_id = f"{hid}-{slugify(king)}", f"{hid}-{slugify(queen)}"
        persons += [
            {"id": king_id, "name": king, "sex": "M", "born": start_year - KING_AGE,
             "dynasty": hid, "founder": True, "spouse": queen_id},
            {"id": queen_id, "name": queen, "sex": "F", "born": start_year - QUEEN_AGE},
            {"id": f"{hid}-{slugify(child)}", "name": child, "sex": sex.value,
             "born": start_year - CHILD_AGE, "dynasty": hid, "father": king_id,
             "mother": queen_id},
        ]
    return persons


def starting_units(houses: Sequence[Mapping[str, Any]],
                   rules: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The pack's ``start_units`` of every house (B1 default: 5 armies), in the capital."""
    units: list[dict[str, Any]] = []
    for house in houses:
        data = _pack_entry(rules, house)
        for n, start in enumerate(data.get("start_units", DEFAULT_START_UNITS), start=1):
            units.append({"id": f"{house['letter']}-{n}", "house": house["id"],
                          "type": start.get("type", "army"),
                          "armies": int(start.get("armies", 1)),
                          "province": house["capital"]})
    return units


def build_blood_royale_state(spec: Mapping[str, Any], rules: Mapping[str, Any],
                             dice: Dice) -> GameState:
    """The state before turn 1 (B1): houses, families, units, the map under home control."""
    world = rules.get("world")
    if not isinstance(world, Mapping):
        raise SetupError("the Blood Royale rules hold no world map")
    check_world(world)
    start_year = spec.get("start_year", 1300)
    if not isinstance(start_year, int) or isinstance(start_year, bool):
        raise SetupError("start_year must be a whole number")
    houses = _house_entries(spec, rules)
    full = dict(spec)
    full["house"] = houses
    dice.set_phase("setup")
    if not spec.get("person"):
        full["person"] = starting_families(houses, rules, start_year, dice)
    if not spec.get("unit"):
        full["unit"] = starting_units(houses, rules)
    if "end_year" not in spec and "target" not in spec:
        full["end_year"] = br_rules(rules).economy.end_year
    state = build_state(full, rules, RULESET_ID, dice)
    for province in provinces_from_world(world):
        board(state).provinces[province.id] = province
    homes = br_data(state).homes
    for house in state.houses.values():
        kingdom = kingdom_by_letter(world, house.letter)
        assert kingdom is not None
        homes[house.id] = str(kingdom["id"])
        if house.capital not in board(state).provinces:
            raise SetupError(f"house {house.id!r}: its capital {house.capital!r} is not on the map")
    for province in board(state).provinces.values():
        if province.kind == "land" and province.kingdom is not None:
            province.controller = next(
                (h for h, k in sorted(homes.items()) if k == province.kingdom), None)
    for unit in state.units.values():
        if unit.province is None:
            unit.province = state.houses[unit.house].capital
        if unit.province not in board(state).provinces:
            raise SetupError(f"unit {unit.id}: no province {unit.province!r} on the map")
    return state
