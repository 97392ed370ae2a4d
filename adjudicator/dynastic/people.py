"""Creating, naming and burying people (RULES.md A1, A2)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from adjudicator.dynastic.events import Death
from adjudicator.dynastic.names import name_key
from adjudicator.dynastic.rules import DynastyRules
from adjudicator.messages import msg
from adjudicator.rulesets.base import TurnContext, typed_tables
from adjudicator.state import COPIED_CACHES, GameState, Person, Sex

MINOR_NOBILITY = "minor-nobility"
_GENERIC_MALE = ("John", "William", "Henry", "Thomas", "Richard", "Robert", "Hugh", "Walter")
_GENERIC_FEMALE = ("Mary", "Anne", "Margaret", "Isabel", "Joan", "Alice", "Agnes", "Maud")


def dynasty_rules(rules: Mapping[str, Any]) -> DynastyRules:
    """The typed Part A tables of a rules mapping (parsed once per mapping)."""
    return typed_tables(rules, "dynasty", lambda r: DynastyRules.from_mapping(r["dynasty"]),
                        DynastyRules)


def slugify(text: str) -> str:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    return slug or "person"


def new_person_id(state: GameState, name: str) -> str:
    base = slugify(name)
    pid, n = base, 2
    while pid in state.persons:
        pid, n = f"{base}-{n}", n + 1
    return pid


def name_list(rules: Mapping[str, Any], dynasty: str | None, sex: Sex) -> Sequence[str]:
    """The names for ``dynasty``'s children of ``sex`` (A1), else the common ones.

    Never the minor nobility's: those are kept apart so that a noble spouse
    and a royal child never compete for a name, and a prince is not named
    like a knight's son.
    """
    names = rules.get("names", {})
    entry = names.get(dynasty or MINOR_NOBILITY) or {}
    key = "male" if sex == Sex.MALE else "female"
    listed = entry.get(key)
    if listed:
        return [str(n) for n in listed]
    return _GENERIC_MALE if sex == Sex.MALE else _GENERIC_FEMALE


# The names taken, as strings: a copied state keeps its own copy (``copy``).
COPIED_CACHES["used_names"] = dict


def used_names(state: GameState) -> dict[str, str]:
    """Every name in the chronicle, by its ``name_key``."""
    used = state.caches.get("used_names")
    if not isinstance(used, dict):
        used = {}
        for name in state.every_name():
            used.setdefault(name_key(name), name)
        state.caches["used_names"] = used
    return used


def name_taken(state: GameState, name: str, also: Iterable[str | None] = ()) -> str | None:
    """Why ``name`` cannot be given: it is, or looks like, a name in the chronicle or
    one of ``also`` (names being given at the same time)."""
    key = name_key(name)
    taken = used_names(state).get(key) or next(
        (other for other in also if other is not None and name_key(other) == key), None)
    if taken is None:
        return None
    if taken.casefold() == name.casefold():
        return msg("the name %(name)s is already taken (names are unique)", name=repr(name))
    return msg("the name %(name)s looks like %(taken)s, which is taken (names are unique)",
               name=repr(name), taken=repr(taken))


def roman(number: int) -> str:
    """``number`` in Roman numerals (2 → "II"), for regnal-style ordinals."""
    out = []
    for value, letters in _ROMAN:
        while number >= value:
            out.append(letters)
            number -= value
    return "".join(out)


_ROMAN = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))


def _candidate(listed: Sequence[str], index: int) -> str:
    """The ``index``-th name of the endless list: the names, then "II"s, "III"s..."""
    round_, position = divmod(index, len(listed))
    name = listed[position]
    return name if round_ == 0 else f"{name} {roman(round_ + 1)}"


def next_name(state: GameState, rules: Mapping[str, Any], dynasty: str | None, sex: Sex) -> str:
    """The first unused name of the dynasty's list, then with ordinals (A1).

    Names are only ever added to the campaign, so the first free place in
    the endless list never moves back: a cursor per list, kept in the state,
    spares scanning a century of names for every birth.
    """
    used = used_names(state)
    listed = name_list(rules, dynasty, sex)
    key = f"{dynasty or MINOR_NOBILITY}:{sex}"
    index = state.name_cursors.get(key, 0)
    while name_key(_candidate(listed, index)) in used:
        index += 1
    state.name_cursors[key] = index
    return _candidate(listed, index)


def add_person(state: GameState, person: Person) -> Person:
    person.seq = state.allocate_seq()
    state.persons[person.id] = person
    used_names(state).setdefault(name_key(person.name), person.name)
    return person


def roll_traits(ctx: TurnContext, sex: Sex, subject: str) -> tuple[int, int]:
    """A2: Constitution, then Command (men) or Ruse (women), each its own 2d6."""
    rules = dynasty_rules(ctx.rules)
    con = rules.characteristic(ctx.dice.two_d6("constitution", subject).total)
    trait = "command" if sex == Sex.MALE else "ruse"
    return con, rules.characteristic(ctx.dice.two_d6(trait, subject).total)


def give_traits(person: Person, traits: tuple[int, int]) -> None:
    person.constitution = traits[0]
    if person.sex == Sex.MALE:
        person.command = traits[1]
    else:
        person.ruse = traits[1]


def roll_characteristics(ctx: TurnContext, person: Person) -> None:
    give_traits(person, roll_traits(ctx, person.sex, person.id))


def is_reigning(state: GameState, pid: str) -> bool:
    return any(h.ruler == pid and not h.eliminated for h in state.houses.values())


def kill(ctx: TurnContext, person_id: str, cause: str, detail: str = "", *,
         roll: int | None = None, needed: int | None = None) -> None:
    """A death, with everything that follows from it at once.

    The spouse is widowed; the wife of a king who dies reigning becomes a
    widowed queen (A3: she can neither inherit nor remarry). The dead leave
    their unit. Thrones are filled later by ``settle_successions``.
    """
    state = ctx.state
    person = state.persons[person_id]
    if person.died is not None:
        return
    year = ctx.year
    person.died = year
    person.death_cause = cause
    reigning = is_reigning(state, person_id)
    if person.spouse:
        spouse = state.persons[person.spouse]
        marriage = state.current_marriage(person_id)
        if marriage is not None:
            marriage.ended = year
            marriage.end_cause = "death"
        spouse.spouse = None
        if reigning and person.sex == Sex.MALE:
            spouse.widowed_queen = True
    if person.unit and person.unit in state.units:
        unit = state.units[person.unit]
        if person_id in unit.commanders:
            unit.commanders.remove(person_id)
    person.unit = None
    ctx.emit(Death(phase=ctx.dice.phase, person=person_id, cause=cause, detail=detail,
                   age=ctx.age(person.born), house=person.dynasty, roll=roll, needed=needed))
