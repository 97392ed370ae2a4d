"""The dynasty half of every built-in player (RULES.md Part A).

Built-in players write real order files. Cross-house marriages need both
houses to send the same line, so every built-in player runs the same
deterministic matchmaker over the public state: two built-in houses always
agree on who marries whom, without talking to each other.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from adjudicator.dynastic.births import couple_house, eligible_couples
from adjudicator.dynastic.command import faction_units, has_room, must_command
from adjudicator.dynastic.people import dynasty_rules
from adjudicator.state import GameState, Person, Sex
from chronicle.rulesets.dynastic.descriptor import DynasticDescriptor

#: The built-in players' personalities, as the descriptor lists them.
PERSONALITIES = DynasticDescriptor.personalities


def name_of(person: Person) -> str:
    """How a player names a person in orders: the smallest number, else the quoted name."""
    if person.refs:
        return min(person.refs.values())
    return f'"{person.name}"'


def _free(person: Person, age: int, min_age: int) -> bool:
    return (person.died is None and person.spouse is None and not person.widowed_queen
            and not person.king_consort and min_age <= age <= 45 and person.dynasty is not None)


def matchmaker(state: GameState, rules: Mapping[str, Any]) -> list[tuple[Person, Person]]:
    """Public, deterministic pairs across dynasties for the next turn."""
    year = state.year_ending(state.turn + 1)
    min_age = max(16, dynasty_rules(rules).marriage_min_age)
    active = {h.id for h in state.active_houses()}
    singles = [p for p in state.living() if _free(p, year - p.born, min_age)
               and p.dynasty in active]

    def shuffle_key(p: Person) -> str:
        return hashlib.sha256(f"{state.turn}:{p.id}".encode()).hexdigest()

    men = sorted((p for p in singles if p.sex == Sex.MALE), key=shuffle_key)
    women = sorted((p for p in singles if p.sex == Sex.FEMALE), key=shuffle_key)
    pairs: list[tuple[Person, Person]] = []
    taken: set[str] = set()
    for man in men:
        for woman in women:
            if woman.id in taken or woman.dynasty == man.dynasty:
                continue
            if abs((year - man.born) - (year - woman.born)) > 15:
                continue
            pairs.append((man, woman))
            taken.add(woman.id)
            break
    return pairs


def _attempts(personality: str, mother_age: int) -> int:
    if personality == "ambitious":
        return 3 if mother_age < 30 else 2 if mother_age < 40 else 1
    if personality == "mercantile":
        return 2 if mother_age < 35 else 1
    return 2 if mother_age < 28 else 1


def dynasty_orders(state: GameState, house: str, rules: Mapping[str, Any],
                   personality: str, rng_seed: str = "") -> list[str]:
    """Order lines for births, marriages, command and prisoners."""
    dyn = dynasty_rules(rules)
    year = state.year_of(state.turn + 1)
    year_end = state.year_ending(state.turn + 1)
    lines: list[str] = []
    for marriage in eligible_couples(state, year, dyn.max_mother_age):
        if couple_house(state, marriage) != house:
            continue
        wife = state.persons[marriage.wife]
        husband = state.persons[marriage.husband]
        lines.append(f"birth {name_of(husband if husband.refs else wife)} attempts "
                     f"{_attempts(personality, wife.age(year))}")
    paired: set[str] = set()
    for man, woman in matchmaker(state, rules):
        if house in (man.dynasty, woman.dynasty):
            lines.append(f"marry {name_of(man)} to {name_of(woman)}")
        paired |= {man.id, woman.id}
    late = {"cautious": 22, "ambitious": 18, "mercantile": 25}.get(personality, 22)
    ruler = state.houses[house].ruler
    for person in sorted(state.living(), key=lambda p: p.seq):
        age = year_end - person.born
        if person.dynasty != house or person.id in paired:
            continue
        if _free(person, age, dyn.marriage_min_age) and (age >= late or person.id == ruler):
            lines.append(f"marry {name_of(person)} to minor-nobility")
    lines += _assignments(state, house, rules, year_end)
    lines += _prisoners(state, house, personality)
    return lines


def _assignments(state: GameState, house: str, rules: Mapping[str, Any],
                 year_end: int) -> list[str]:
    dyn = dynasty_rules(rules)
    units = [u for u in faction_units(state, house) if has_room(rules, u)]
    counts = {u.id: len(u.commanders) for u in units}
    lines = []
    for person in sorted(state.living(), key=lambda p: p.seq):
        if person.dynasty != house or not counts:
            continue
        if must_command(state, person, year_end - person.born, dyn.compulsory_age):
            target = min(counts, key=lambda uid: (counts[uid], uid))
            lines.append(f"assign {name_of(person)} to {target}")
            counts[target] += 1
            cap = next(u for u in units if u.id == target)
            if rules.get("unit_types", {}).get(cap.type, {}).get("max_commanders") == 1:
                del counts[target]
    return lines


def _prisoners(state: GameState, house: str, personality: str) -> list[str]:
    lines = []
    treasury = state.houses[house].treasury
    for person in sorted(state.living(), key=lambda p: p.seq):
        if person.prisoner_of == house:
            if personality == "ambitious":
                lines.append(f"prisoner {name_of(person)} keep")
            else:
                lines.append(f"prisoner {name_of(person)} release ransom 20")
        elif person.dynasty == house and person.prisoner_of and treasury >= 20:
            lines.append(f"pay ransom {name_of(person)} 20")
            treasury -= 20
    return lines


def dynasty_order_file(state: GameState, house: str, rules: Mapping[str, Any],
                       personality: str, rng_seed: str = "") -> str:
    body = dynasty_orders(state, house, rules, personality, rng_seed)
    return "\n".join([f"house {house}", f"# built-in player ({personality})", *body]) + "\n"
