"""Units as stacks of armies: numbering, the army pool, splits and merges (B2, B4).

Unit ids are the house letter, a dash and a number (``E-2``). A new unit takes
the next number the house has never used, so a unit id names one unit for the
whole campaign; an order may instead name the new unit itself (``as E-7``)
when that id is free.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from adjudicator.dynastic.command import capacity, unit_type_name
from adjudicator.dynastic.events import UnitsDisbanded
from adjudicator.messages import house_id, house_name, msg
from adjudicator.rulesets.base import TurnContext
from adjudicator.rulesets.blood_royale.events import UnitsMerged, UnitSplit
from adjudicator.rulesets.blood_royale.orders import DisbandOrder, MergeOrder, SplitOrder
from adjudicator.rulesets.blood_royale.tables import br_rules
from adjudicator.rulesets.blood_royale.world import br_data
from adjudicator.state import GameState, Unit

_UNIT_ID = re.compile(r"^([A-Z])-([1-9][0-9]{0,3})$")


def _highest(state: GameState, house: str) -> int:
    letter = state.houses[house].letter
    highest = br_data(state).unit_numbers.get(house, 0)
    for uid in state.units:
        match = _UNIT_ID.match(uid)
        if match and match.group(1) == letter:
            highest = max(highest, int(match.group(2)))
    return highest


def next_unit_id(state: GameState, house: str) -> str:
    """The id a new unit of ``house`` takes: one above every number it has used."""
    return f"{state.houses[house].letter}-{_highest(state, house) + 1}"


def claim_unit_id(state: GameState, house: str, uid: str) -> None:
    """Record that ``house`` has used ``uid``'s number."""
    match = _UNIT_ID.match(uid)
    if match:
        br_data(state).unit_numbers[house] = max(_highest(state, house), int(match.group(2)))


def check_new_unit_id(state: GameState, house: str, uid: str, taken: set[str]) -> str | None:
    """Why ``uid`` cannot name a new unit of ``house`` (None when it can)."""
    letter = state.houses[house].letter
    match = _UNIT_ID.match(uid)
    if not match or match.group(1) != letter:
        return msg("a new unit of %(house)s is named %(letter)s-<number>, not %(uid)s",
                   house=house_name(state.houses[house]), letter=letter, uid=uid)
    if uid in state.units or uid in taken:
        return msg("the unit id %(unit)s is already in use", unit=uid)
    return None


def capped_armies(state: GameState, house: str, rules: Mapping[str, Any]) -> int:
    """Armies of ``house`` on the map that count against the cap (fleets aside)."""
    typed = br_rules(rules)
    return sum(u.armies for u in state.units.values()
               if u.house == house and typed.unit_type(u.type).capped)


def lost_pending(state: GameState, house: str, turn: int) -> int:
    """Lost armies not yet back in the pool at ``turn`` (B2.2.6)."""
    return sum(count for count, back in state.houses[house].armies_lost if back > turn)


def army_pool(state: GameState, house: str, rules: Mapping[str, Any], turn: int) -> int:
    """How many more armies ``house`` may raise at ``turn`` under the cap."""
    cap = br_rules(rules).economy.army_cap
    return max(0, cap - capped_armies(state, house, rules) - lost_pending(state, house, turn))


def record_lost(state: GameState, house: str, armies: int, turn: int,
                rules: Mapping[str, Any]) -> None:
    """Armies lost in battle, to plague or at sea return to the pool later (B2.2.6)."""
    if armies > 0:
        back = turn + br_rules(rules).economy.lost_return_turns
        state.houses[house].armies_lost.append([armies, back])


def remove_unit(ctx: TurnContext, unit: Unit, reason: str) -> None:
    """Take a unit off the map; its commanders are free for reassignment (A8)."""
    for pid in unit.commanders:
        person = ctx.state.persons.get(pid)
        if person is not None and person.unit == unit.id:
            person.unit = None
    del ctx.state.units[unit.id]
    br_data(ctx.state).interventions.pop(unit.id, None)
    ctx.emit(UnitsDisbanded(phase=ctx.dice.phase, house=unit.house, units=(unit.id,),
                            reason=reason))


def remove_armies(ctx: TurnContext, unit: Unit, armies: int, reason: str) -> int:
    """Take up to ``armies`` from a unit, removing it at zero; returns how many went."""
    taken = min(armies, unit.armies)
    unit.armies -= taken
    if unit.armies <= 0:
        remove_unit(ctx, unit, reason)
    return taken


def check_disband(state: GameState, house: str, order: DisbandOrder) -> str | None:
    unit = state.units.get(order.unit)
    if unit is None or unit.house != house:
        return msg("%(house)s has no unit %(unit)s", house=house_id(house), unit=order.unit)
    if unit.id in br_data(state).interventions:
        return msg("%(unit)s serves another king this turn", unit=unit.id)
    return None


def disband_units(ctx: TurnContext) -> None:
    """``disband <unit>`` (DESIGN.md dealings), before upkeep: the armies go back to the
    pool at once, not after the wait of armies lost (B2.2.6), and cost no upkeep."""
    for house in sorted(ctx.sheets):
        if house not in ctx.state.houses or ctx.state.houses[house].eliminated:
            continue
        for order in ctx.sheets[house].of_type(DisbandOrder):
            reason = check_disband(ctx.state, house, order)
            if reason is not None:
                ctx.reject(house, order, reason)
                continue
            remove_unit(ctx, ctx.state.units[order.unit], "disbanded by order")


# -- splits and merges ---------------------------------------------------------


def check_split(state: GameState, house: str, order: SplitOrder, unit: Unit | None,
                taken: set[str]) -> str | None:
    if unit is None or unit.house != house:
        return msg("%(house)s has no unit %(unit)s", house=house_id(house), unit=order.unit)
    if unit.id in br_data(state).interventions:
        return msg("%(unit)s serves another king this turn", unit=unit.id)
    if order.armies >= unit.armies:
        return (msg("%(unit)s has %(armies)s armies: a split leaves at least one, so at most "
                   "%(most)s can go", unit=unit.id, armies=unit.armies, most=unit.armies - 1))
    if order.as_unit is not None:
        return check_new_unit_id(state, house, order.as_unit, taken)
    return None


def check_merge(state: GameState, house: str, order: MergeOrder, unit: Unit | None,
                into: Unit | None, rules: Mapping[str, Any]) -> str | None:
    for uid, found in ((order.unit, unit), (order.into, into)):
        if found is None or found.house != house:
            return msg("%(house)s has no unit %(unit)s", house=house_id(house), unit=uid)
        if found.id in br_data(state).interventions:
            return msg("%(unit)s serves another king this turn", unit=found.id)
    assert unit is not None and into is not None
    if unit.id == into.id:
        return msg("a unit cannot merge into itself")
    if unit.type != into.type:
        return msg("%(unit)s is a %(type)s and %(into)s a %(other)s: only alike units merge",
                   unit=unit.id, type=unit_type_name(unit.type), into=into.id,
                   other=unit_type_name(into.type))
    if unit.province != into.province:
        return msg("%(unit)s and %(into)s are not in the same province", unit=unit.id, into=into.id)
    limit = capacity(rules, into)
    if limit is not None and len(unit.commanders) + len(into.commanders) > limit:
        return msg("%(into)s can take at most %(limit)s commander(s)", into=into.id, limit=limit)
    return None


def apply_split(ctx: TurnContext, house: str, order: SplitOrder) -> None:
    state = ctx.state
    unit = state.units.get(order.unit)
    reason = check_split(state, house, order, unit, set())
    if reason is not None:
        ctx.reject(house, order, reason)
        return
    assert unit is not None
    new_id = order.as_unit or next_unit_id(state, house)
    claim_unit_id(state, house, new_id)
    unit.armies -= order.armies
    state.units[new_id] = Unit(id=new_id, house=house, type=unit.type, armies=order.armies,
                               province=unit.province)
    ctx.emit(UnitSplit(phase=ctx.dice.phase, house=house, unit=unit.id, new_unit=new_id,
                       armies=order.armies, province=unit.province))


def apply_merge(ctx: TurnContext, house: str, order: MergeOrder) -> None:
    state = ctx.state
    unit, into = state.units.get(order.unit), state.units.get(order.into)
    reason = check_merge(state, house, order, unit, into, ctx.rules)
    if reason is not None:
        ctx.reject(house, order, reason)
        return
    assert unit is not None and into is not None
    moved = tuple(unit.commanders)
    into.armies += unit.armies
    for pid in moved:
        into.commanders.append(pid)
        state.persons[pid].unit = into.id
    del state.units[unit.id]
    ctx.emit(UnitsMerged(phase=ctx.dice.phase, house=house, unit=unit.id, into=into.id,
                         armies=unit.armies, commanders=moved))


def reorganise(ctx: TurnContext) -> None:
    """Splits, then merges, of every house in id order (after raising, before moving)."""
    for house in sorted(ctx.sheets):
        if house not in ctx.state.houses or ctx.state.houses[house].eliminated:
            continue
        sheet = ctx.sheets[house]
        for split in sheet.of_type(SplitOrder):
            apply_split(ctx, house, split)
        for merge in sheet.of_type(MergeOrder):
            apply_merge(ctx, house, merge)
