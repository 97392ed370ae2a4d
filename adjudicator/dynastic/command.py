"""A8 command: assignments, lending, and the unit command value."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.dynastic.events import Assignment
from adjudicator.dynastic.lookup import controls, find, unknown_person
from adjudicator.dynastic.orders import AssignOrder, LendOrder, PrisonerOrder
from adjudicator.dynastic.people import dynasty_rules
from adjudicator.messages import Name, house_id, msg
from adjudicator.orders import OrderSheet
from adjudicator.rulesets.base import TurnContext
from adjudicator.state import GameState, Person, Sex, Unit


def unit_type(rules: Mapping[str, Any], kind: str) -> Mapping[str, Any]:
    types: Mapping[str, Any] = rules.get("unit_types", {})
    found: Mapping[str, Any] = types.get(kind, {})
    return found


def unit_type_name(kind: str) -> Name:
    """A unit type by its id (the ``unit_types`` table's key), which is its English name."""
    return Name("unit-type", kind, kind)


def capacity(rules: Mapping[str, Any], unit: Unit) -> int | None:
    """How many commanders the unit takes at most (None: no limit)."""
    limit = int(unit_type(rules, unit.type).get("max_commanders", 0))
    return limit or None


def has_room(rules: Mapping[str, Any], unit: Unit) -> bool:
    cap = capacity(rules, unit)
    return cap is None or len(unit.commanders) < cap


def unit_command_value(state: GameState, unit: Unit, rules: Mapping[str, Any]) -> int:
    """Command of the commanders plus their wives' Ruse, limited to ±1 (A8)."""
    if not unit.commanders:
        return 0
    total = 0
    for pid in unit.commanders:
        commander = state.persons[pid]
        total += commander.command
        if commander.spouse:
            wife = state.persons[commander.spouse]
            if wife.died is None:
                total += wife.ruse
    limit = dynasty_rules(rules).command_limit
    value = max(-limit, min(limit, total))
    floor = unit_type(rules, unit.type).get("min_command_value")
    if floor is not None:
        value = max(int(floor), value)
    return value


def unit_key(unit_id: str) -> tuple[str, int, str]:
    """Unit ids in natural order: ``E-2`` before ``E-10`` (A8)."""
    prefix, _, number = unit_id.rpartition("-")
    return (prefix, int(number) if number.isascii() and number.isdigit() else 0, unit_id)


def faction_units(state: GameState, house: str) -> list[Unit]:
    """A faction's units, lowest id first by number (A8)."""
    return sorted((u for u in state.units.values() if u.house == house),
                  key=lambda u: unit_key(u.id))


def reigns(state: GameState, pid: str) -> bool:
    """Whether ``pid`` rules a house: his own, or another through his mother's line."""
    return any(h.ruler == pid and not h.eliminated for h in state.houses.values())


def must_command(state: GameState, person: Person, age: int, compulsory_age: int) -> bool:
    """Men of 20 or more, save ruling kings and prisoners, must command (A8).

    A prince who came to another dynasty's throne (A3, A6) is a ruling king
    too: his own dynasty's faction cannot call him up.
    """
    if person.sex != Sex.MALE or person.died is not None or person.dynasty is None:
        return False
    if person.prisoner_of or person.unit or age < compulsory_age:
        return False
    house = state.houses.get(person.dynasty)
    if house is None or house.eliminated:
        return False
    return not reigns(state, person.id)


def _evenness_reason(rules: Mapping[str, Any], units: list[Unit], target: Unit) -> str | None:
    open_units = [u for u in units if has_room(rules, u)]
    if target not in open_units:
        return msg("%(target)s has no room for another commander", target=target.id)
    fewest = min(len(u.commanders) for u in open_units)
    if len(target.commanders) > fewest:
        least = next(u for u in open_units if len(u.commanders) == fewest)
        return (msg("%(target)s has %(value)s commanders while %(least)s has %(fewest)s: "
                    "commanders are spread evenly (A8)", target=target.id,
                    value=len(target.commanders), least=least.id, fewest=fewest))
    return None


def check_assign(state: GameState, house: str, order: AssignOrder | LendOrder, age: int,
                 voluntary_age: int, *, before_releases: bool = False) -> str | None:
    """Why the order cannot place its man, or None.

    ``before_releases``: the turn's releases are still to come, and a prisoner
    freed by them may be assigned in the same orders (A9), so his captivity is
    no reason yet.
    """
    person = find(state, order.person)
    if person is None:
        return unknown_person(state, order.person)
    if not controls(house, person) and isinstance(order, AssignOrder):
        return msg("%(person)s does not belong to this house", person=person.name)
    if person.sex != Sex.MALE:
        return msg("%(person)s is a woman: only men command units (A8)", person=person.name)
    if person.died is not None:
        return msg("%(person)s is dead", person=person.name)
    if person.prisoner_of and not before_releases:
        return prisoner_reason(person)
    if age < voluntary_age:
        return msg("%(person)s is %(age)s: a man may command from %(voluntary_age)s (A8)",
                   person=person.name, age=age, voluntary_age=voluntary_age)
    if person.unit:
        return msg("%(person)s already commands %(unit)s and stays with it (A8)",
                   person=person.name, unit=person.unit)
    unit = state.units.get(order.unit)
    if unit is None:
        return msg("there is no unit %(unit)s", unit=order.unit)
    if isinstance(order, AssignOrder) and unit.house != person.dynasty:
        return msg("%(unit)s belongs to another house: lending needs 'lend' from both houses",
                   unit=unit.id)
    return None


def undeclared_loan(person: Person, unit: Unit, houses: set[str]) -> str | None:
    """Why a loan declared by ``houses`` is not agreed: A8, both houses declare it."""
    needed = {person.dynasty, unit.house}
    if needed <= houses:
        return None
    missing = sorted(h for h in needed - houses if h)
    return msg("%(houses)s did not declare this loan (A8: both houses declare it)",
               houses=tuple(house_id(h) for h in missing))


def check_loans(state: GameState, sheets: dict[str, OrderSheet]) -> None:
    """Refuse, in ``check``, the loans the other house did not declare."""
    loans: dict[tuple[str, str], list[tuple[OrderSheet, LendOrder]]] = {}
    for _, sheet in sorted(sheets.items()):
        for order in sheet.of_type(LendOrder):
            person = find(state, order.person)
            if person is not None and order.unit in state.units:
                loans.setdefault((person.id, order.unit), []).append((sheet, order))
    for (pid, uid), lines in sorted(loans.items()):
        reason = undeclared_loan(state.persons[pid], state.units[uid],
                                 {sheet.house for sheet, _ in lines})
        if reason is None:
            continue
        for sheet, order in lines:
            sheet.orders.remove(order)
            sheet.reject(order, reason)


def prisoner_reason(person: Person) -> str:
    return msg("%(person)s is a prisoner and cannot be assigned (A9)", person=person.name)


def check_prisoner_assignments(state: GameState, sheets: Mapping[str, OrderSheet]) -> None:
    """Refuse, in ``check``, assignments of prisoners their captor's file does not
    release: only a release settled this turn frees a man for command (A9)."""
    releases: set[tuple[str, str]] = set()
    for house, sheet in sheets.items():
        for release in sheet.of_type(PrisonerOrder):
            freed = find(state, release.person)
            if freed is not None and release.action == "release":
                releases.add((house, freed.id))
    for sheet in sheets.values():
        placing: list[AssignOrder | LendOrder] = [*sheet.of_type(AssignOrder),
                                                  *sheet.of_type(LendOrder)]
        for order in placing:
            person = find(state, order.person)
            if person is not None and person.prisoner_of and \
                    (person.prisoner_of, person.id) not in releases:
                sheet.orders.remove(order)
                sheet.reject(order, prisoner_reason(person))


def _place(ctx: TurnContext, person: Person, unit: Unit, *, automatic: bool,
           lent_by: str | None = None) -> None:
    unit.commanders.append(person.id)
    person.unit = unit.id
    ctx.emit(Assignment(phase="command", person=person.id, unit=unit.id, house=unit.house,
                        automatic=automatic, lent_by=lent_by))


def run_assignments(ctx: TurnContext) -> None:
    """Ordered assignments and loans first, then everyone still due is auto-assigned."""
    state, rules = ctx.state, ctx.rules
    dyn = dynasty_rules(rules)
    ctx.dice.set_phase("command")
    loans: dict[tuple[str, str], list[tuple[str, LendOrder]]] = {}
    for house in sorted(ctx.sheets):
        for order in ctx.orders(house):
            if isinstance(order, LendOrder):
                person = find(state, order.person)
                key = (person.id if person else order.person, order.unit)
                loans.setdefault(key, []).append((house, order))
                continue
            if not isinstance(order, AssignOrder):
                continue
            person = find(state, order.person)
            age = ctx.age(person.born) if person else 0
            reason = check_assign(state, house, order, age, dyn.voluntary_age)
            unit = state.units.get(order.unit)
            if reason is None and unit is not None:
                reason = _evenness_reason(rules, faction_units(state, unit.house), unit)
            if reason:
                ctx.reject(house, order, reason)
                continue
            assert person is not None and unit is not None
            _place(ctx, person, unit, automatic=False)
    for (pid, uid), lines in sorted(loans.items()):
        _settle_loan(ctx, pid, uid, lines)
    for person in sorted(state.living(), key=lambda p: p.seq):
        if not must_command(state, person, ctx.age(person.born), dyn.compulsory_age):
            continue
        assert person.dynasty is not None
        units = [u for u in faction_units(state, person.dynasty) if has_room(rules, u)]
        if not units:
            ctx.notify(person.dynasty, msg("%(person)s must command, but no unit of this house "
                                           "can take him: he stays unassigned (A8)",
                                           person=person.name))
            continue
        unit = min(units, key=lambda u: (len(u.commanders), unit_key(u.id)))
        _place(ctx, person, unit, automatic=True)
        ctx.notify(person.dynasty, msg("%(person)s was assigned to %(unit)s automatically",
                                       person=person.name, unit=unit.id))


def _settle_loan(ctx: TurnContext, pid: str, uid: str,
                 lines: list[tuple[str, LendOrder]]) -> None:
    state, dyn = ctx.state, dynasty_rules(ctx.rules)
    person = state.persons.get(pid)
    unit = state.units.get(uid)
    first_house, first = lines[0]
    if person is None or unit is None:
        for house, order in lines:
            ctx.reject(house, order, msg("no such person or unit in %(text)s",
                                         text=repr(order.text)))
        return
    reason = check_assign(state, first_house, first, ctx.age(person.born), dyn.voluntary_age)
    if reason is None and not has_room(ctx.rules, unit):
        reason = msg("%(unit)s has no room for another commander", unit=unit.id)
    if reason is None:
        reason = undeclared_loan(person, unit, {h for h, _ in lines})
    if reason:
        for house, order in lines:
            ctx.reject(house, order, reason)
        return
    _place(ctx, person, unit, automatic=False, lent_by=person.dynasty)
