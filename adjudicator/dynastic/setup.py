"""Building the starting state from a campaign's declarations (DESIGN.md)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from adjudicator.dice import Dice
from adjudicator.dynastic.names import name_key
from adjudicator.dynastic.people import add_person, dynasty_rules, slugify
from adjudicator.dynastic.refs import alphabet_spent, founder_ref, number_child, ruler_of
from adjudicator.dynastic.succession import crown
from adjudicator.dynastic.survival import draw_threshold
from adjudicator.errors import SetupError
from adjudicator.rulesets.base import TurnContext
from adjudicator.state import GameState, House, Law, Marriage, Person, Sex, Unit

#: What a campaign declares (DESIGN.md "Campaign folder"): table -> field -> type.
#: ``list`` is a list of text (a house's name lists).
HOUSE_FIELDS: dict[str, type] = {
    "id": str, "letter": str, "name": str, "law": str, "player": str, "color": str,
    "capital": str, "treasury": int, "male_names": list, "female_names": list}
PERSON_FIELDS: dict[str, type] = {
    "id": str, "name": str, "sex": str, "born": int, "dynasty": str, "father": str,
    "mother": str, "spouse": str, "founder": bool, "constitution": int, "command": int,
    "ruse": int}
UNIT_FIELDS: dict[str, type] = {
    "id": str, "house": str, "type": str, "armies": int, "province": str}
SPEC_FIELDS = {"house": HOUSE_FIELDS, "person": PERSON_FIELDS, "unit": UNIT_FIELDS}
HOUSE_KEYS, PERSON_KEYS, UNIT_KEYS = set(HOUSE_FIELDS), set(PERSON_FIELDS), set(UNIT_FIELDS)


def _where(kind: str, index: int, entry: Mapping[str, Any]) -> str:
    ident = entry.get("id")
    return f"[[{kind}]] number {index + 1}" + (f" (id {ident!r})" if ident else "")


def _refused(kind: str, index: int, entry: Mapping[str, Any], why: str) -> SetupError:
    """The error for entry ``index`` of ``[[kind]]``: named in words, and by its place
    (``SetupError.at``), for a campaign file to show its line."""
    return SetupError(f"{_where(kind, index, entry)}: {why}", at=(kind, index))


def _require(kind: str, index: int, entry: Mapping[str, Any], key: str, typ: type) -> Any:
    if key not in entry:
        raise _refused(kind, index, entry, f"the key {key!r} is missing")
    value = entry[key]
    if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
        raise _refused(kind, index, entry, f"{key!r} must be a "
                       f"{typ.__name__}, not {value!r}")
    return value


def _unknown(kind: str, index: int, entry: Mapping[str, Any], allowed: set[str]) -> None:
    extra = sorted(set(entry) - allowed)
    if extra:
        raise _refused(kind, index, entry, f"unknown keys {', '.join(extra)} "
                       f"(allowed: {', '.join(sorted(allowed))})")


def _houses(state: GameState, entries: Sequence[Mapping[str, Any]]) -> None:
    letters: set[str] = set()
    for i, entry in enumerate(entries):
        if not isinstance(entry, Mapping):
            raise SetupError(f"[[house]] number {i + 1} is not a table")
        _unknown("house", i, entry, HOUSE_KEYS)
        hid = _require("house", i, entry, "id", str)
        letter = _require("house", i, entry, "letter", str)
        if len(letter) != 1 or not letter.isascii() or not letter.isupper():
            raise _refused('house', i, entry, f"the letter must be one capital "
                           f"letter A-Z, not {letter!r}")
        if hid in state.houses or hid != slugify(hid) or hid == "arbiter":
            raise _refused('house', i, entry, "the id must be unique, lowercase "
                           "letters, digits and hyphens, and not 'arbiter'")
        if letter in letters:
            raise _refused('house', i, entry, f"the letter {letter} is taken")
        letters.add(letter)
        try:
            law = Law(entry.get("law", Law.MALE_PREFERENCE))
        except ValueError:
            raise _refused('house', i, entry, f"law must be 'male-preference' or "
                           f"'absolute', not {entry.get('law')!r}") from None
        color = entry.get("color", "#555555")
        if not isinstance(color, str) or not re.fullmatch(r"#[0-9a-fA-F]{6}", color):
            raise _refused('house', i, entry, f"color must be #rrggbb (six hex "
                           f"digits), not {color!r}")
        treasury = entry.get("treasury", 0)
        if isinstance(treasury, int) and treasury < 0:
            raise _refused('house', i, entry, f"treasury must be at least 0, "
                           f"not {treasury}")
        state.houses[hid] = House(
            id=hid, letter=letter, name=str(entry.get("name", hid.title())), law=law,
            player=str(entry.get("player", "")), color=color,
            capital=entry.get("capital"), treasury=int(entry.get("treasury", 0)))


def _persons(state: GameState, entries: Sequence[Mapping[str, Any]]) -> None:
    ids: set[str] = set()
    names: dict[str, str] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, Mapping):
            raise SetupError(f"[[person]] number {i + 1} is not a table")
        _unknown("person", i, entry, PERSON_KEYS)
        pid = _require("person", i, entry, "id", str)
        name = _require("person", i, entry, "name", str)
        sex = _require("person", i, entry, "sex", str).upper()
        born = _require("person", i, entry, "born", int)
        if born > state.start_year:
            raise _refused('person', i, entry, f"born {born}, after the campaign "
                           f"starts ({state.start_year}): it declares who lives then")
        if sex not in ("M", "F"):
            raise _refused('person', i, entry, "sex must be 'M' or 'F'")
        if pid in ids:
            raise _refused('person', i, entry, "ids and names must be unique")
        key = name_key(name)
        if key in names:
            raise _refused('person', i, entry, f"ids and names must be unique, "
                           f"and {name!r} reads as {names[key]!r}")
        names[key] = name
        ids.add(pid)
        for key in ("constitution", "command", "ruse"):
            value = entry.get(key, 0)
            if not isinstance(value, int) or not -3 <= value <= 3:
                raise _refused('person', i, entry, f"{key} must be a whole number "
                               "from -3 to 3")
    order = sorted(range(len(entries)), key=lambda i: (entries[i]["born"], i))
    for i in order:
        entry = entries[i]
        dynasty = entry.get("dynasty")
        if dynasty is not None and dynasty not in state.houses:
            raise _refused('person', i, entry, f"no house {dynasty!r}")
        for parent in ("father", "mother"):
            ref = entry.get(parent)
            if ref is not None and ref not in state.persons:
                raise _refused('person', i, entry, f"{parent} {ref!r} is not "
                               "declared before this person (parents are older)")
        person = Person(id=entry["id"], name=entry["name"], sex=Sex(entry["sex"].upper()),
                        born=entry["born"], dynasty=dynasty, father=entry.get("father"),
                        mother=entry.get("mother"), court=dynasty,
                        constitution=entry.get("constitution", 0),
                        command=entry.get("command", 0) if entry["sex"].upper() == "M" else 0,
                        ruse=entry.get("ruse", 0) if entry["sex"].upper() == "F" else 0,
                        founder=bool(entry.get("founder", False)))
        for parent_id, sex in ((person.father, Sex.MALE), (person.mother, Sex.FEMALE)):
            if parent_id and state.persons[parent_id].sex != sex:
                raise _refused('person', i, entry, f"the "
                               f"{'father' if sex == Sex.MALE else 'mother'} has the wrong sex")
        add_person(state, person)
        if person.founder:
            if dynasty is None:
                raise _refused('person', i, entry, "a founder needs a dynasty")
            if any(p.refs.get(dynasty) == founder_ref(state.houses[dynasty].letter)
                   for p in state.persons.values()):
                raise _refused('person', i, entry, f"{dynasty} has two founders")
            person.refs[dynasty] = founder_ref(state.houses[dynasty].letter)
        else:
            spent = number_child(state, person)
            if spent:
                law = state.houses[spent[0]].law
                raise _refused('person', i, entry, f"{person.name} can take no "
                               f"reference number in {spent[0]}: "
                               f"{alphabet_spent(law, person.sex)}")


def _marriages(state: GameState, entries: Sequence[Mapping[str, Any]]) -> None:
    for i, entry in enumerate(entries):
        spouse_id = entry.get("spouse")
        if spouse_id is None:
            continue
        person = state.persons[entry["id"]]
        spouse = state.persons.get(spouse_id)
        if spouse is None:
            raise _refused('person', i, entry, f"spouse {spouse_id!r} is not declared")
        if spouse.sex == person.sex:
            raise _refused('person', i, entry, "spouses must be of opposite sexes")
        if person.spouse not in (None, spouse.id) or spouse.spouse not in (None, person.id):
            raise _refused('person', i, entry, "one spouse at a time (A7)")
        if person.spouse == spouse.id:
            continue
        husband, wife = (person, spouse) if person.sex == Sex.MALE else (spouse, person)
        husband.spouse, wife.spouse = wife.id, husband.id
        state.marriages.append(Marriage(id=f"m{len(state.marriages) + 1}", husband=husband.id,
                                        wife=wife.id, turn=0, year=state.start_year))


def _courts(state: GameState) -> None:
    """Wives live at their husband's court; a minor noble at the dynastic spouse's."""
    for marriage in state.marriages:
        husband, wife = state.persons[marriage.husband], state.persons[marriage.wife]
        if husband.dynasty is None:
            husband.court = wife.court
        else:
            wife.court = husband.court


def _units(state: GameState, entries: Sequence[Mapping[str, Any]],
           unit_types: Mapping[str, Any]) -> None:
    for i, entry in enumerate(entries):
        _unknown("unit", i, entry, UNIT_KEYS)
        uid = _require("unit", i, entry, "id", str).upper()
        house = _require("unit", i, entry, "house", str)
        kind = entry.get("type", "army")
        if house not in state.houses:
            raise _refused('unit', i, entry, f"no house {house!r}")
        if kind not in unit_types:
            raise _refused('unit', i, entry, f"type must be one of "
                           f"{', '.join(sorted(unit_types))}, not {kind!r}")
        if uid in state.units:
            raise _refused('unit', i, entry, f"the id {uid} is taken")
        state.units[uid] = Unit(id=uid, house=house, type=kind,
                                armies=int(entry.get("armies", 1)),
                                province=entry.get("province"))


def build_state(spec: Mapping[str, Any], rules: Mapping[str, Any], ruleset: str,
                dice: Dice) -> GameState:
    """The state before turn 1: houses, people with derived numbers, units, rulers."""
    start = spec.get("start_year", 1300)
    if not isinstance(start, int) or isinstance(start, bool):
        raise SetupError("start_year must be a whole number")
    state = GameState(ruleset=ruleset, start_year=start,
                      years_per_turn=dynasty_rules(rules).years_per_turn,
                      end_year=spec.get("end_year"), target=spec.get("target"))
    _houses(state, spec.get("house", []))
    if not state.houses:
        raise SetupError("the campaign declares no [[house]]")
    persons = spec.get("person", [])
    _persons(state, persons)
    _marriages(state, persons)
    _courts(state)
    _units(state, spec.get("unit", []), rules.get("unit_types", {"army": {}}))
    for house in state.houses.values():
        heir = ruler_of(state, house.id)
        if heir is None:
            raise SetupError(f"house {house.id!r} has nobody holding a reference number: "
                             "declare a founder (founder = true)")
        crown(state, house, heir, start)
    ctx = TurnContext(state=state, dice=dice, rules=rules, sheets={})
    dice.set_phase("setup")
    draw_threshold(ctx)
    state.seal_the_dead()
    return state
