"""The event die (RULES.md B5): one d6 per kingdom per round, before it moves.

The table maps faces to event names (``economy.toml`` ``[events] table``);
this module holds one handler per event name. Random provinces are drawn with
a die of as many faces as there are candidates, in map order, so every draw
is recorded.
"""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.dynastic.survival import survival_roll
from adjudicator.rulesets.base import TurnContext
from adjudicator.rulesets.blood_royale.board import Province, board
from adjudicator.rulesets.blood_royale.counters import new_counter
from adjudicator.rulesets.blood_royale.events import (
    EventDieRolled,
    FamineStruck,
    FleetLost,
    PlagueStruck,
    ResourceAppeared,
    RevoltBroke,
)
from adjudicator.rulesets.blood_royale.forces import record_lost, remove_armies
from adjudicator.rulesets.blood_royale.tables import br_rules
from adjudicator.rulesets.blood_royale.turnstate import BRTurn
from adjudicator.rulesets.blood_royale.world import (
    SEA,
    controlled,
    home_house,
    home_provinces,
    productive,
    unit_side,
)
from adjudicator.state import Person

Handler = Callable[[TurnContext, BRTurn, str, int], str | None]


def roll_event_die(ctx: TurnContext, turn: BRTurn, house: str, round_no: int) -> str:
    """Roll the house's event die and apply the event; returns the event's name."""
    typed = br_rules(ctx.rules).events
    face = ctx.dice.roll(1, typed.die, "event die", house).total
    event = typed.table[face]
    if event == "storm" and not any(
            u.house == house and br_rules(ctx.rules).is_naval(u.type)
            for u in ctx.state.units.values()):
        event = "calm"
    marker = len(ctx.events)
    province = HANDLERS[event](ctx, turn, house, round_no)
    ctx.events.insert(marker, EventDieRolled(phase=ctx.dice.phase, house=house, round=round_no,
                                             face=face, event=event, province=province))
    return event


def _draw(ctx: TurnContext, candidates: list[Province], purpose: str,
          house: str) -> Province | None:
    if not candidates:
        return None
    return candidates[ctx.dice.pick(len(candidates), purpose, house)]


def persons_present(ctx: TurnContext, province: Province) -> list[Person]:
    """Commanders of the units there, and in a capital its court and prisoners."""
    state = ctx.state
    found: dict[str, Person] = {}
    for unit in sorted(state.units.values(), key=lambda u: u.id):
        if unit.province == province.id:
            for pid in unit.commanders:
                found[pid] = state.persons[pid]
    court = home_house(state, province) if province.capital else None
    if court is not None:
        for person in state.living():
            at_court = person.court == court and not person.unit and not person.prisoner_of
            if at_court or person.prisoner_of == court:
                found.setdefault(person.id, person)
    return sorted((p for p in found.values() if p.died is None), key=lambda p: p.seq)


def _plague(ctx: TurnContext, turn: BRTurn, house: str, round_no: int) -> str | None:
    """Armies there halved, losses rounded up; everyone present rolls survival.

    Only units made of armies (those under the army cap) suffer: a plague
    does not sink fleets or kill Dragons.
    """
    province = _draw(ctx, home_provinces(ctx.state, house), "plague province", house)
    if province is None:
        return None
    typed = br_rules(ctx.rules)
    losses: dict[str, int] = {}
    owners: dict[str, str] = {}
    for unit in sorted(ctx.state.units.values(), key=lambda u: u.id):
        if unit.province != province.id or not typed.unit_type(unit.type).capped:
            continue
        owner = unit.house
        lost = remove_armies(ctx, unit, -(-unit.armies // 2), "plague")
        losses[unit.id] = lost
        owners[unit.id] = owner
        record_lost(ctx.state, owner, lost, ctx.turn, ctx.rules)
    exposed = persons_present(ctx, province)
    dead = tuple(p.id for p in exposed if not survival_roll(ctx, p, "plague"))
    ctx.emit(PlagueStruck(phase=ctx.dice.phase, house=house, province=province.id,
                          losses=losses, exposed=tuple(p.id for p in exposed), dead=dead,
                          owners=owners))
    return province.id


def _famine(ctx: TurnContext, turn: BRTurn, house: str, round_no: int) -> str | None:
    province = _draw(ctx, home_provinces(ctx.state, house), "famine province", house)
    if province is None:
        return None
    province.famine = True
    ctx.emit(FamineStruck(phase=ctx.dice.phase, house=house, province=province.id))
    return province.id


def garrison(ctx: TurnContext, house: str, province: str) -> int:
    """Armies of the units ``house`` commands in a province."""
    return sum(u.armies for u in ctx.state.units.values()
               if u.province == province and unit_side(ctx.state, u) == house)


def _unrest(ctx: TurnContext, turn: BRTurn, house: str, round_no: int) -> str | None:
    """Every controlled province rolls; a garrison of 4 armies keeps it quiet."""
    typed = br_rules(ctx.rules).events
    state = ctx.state
    in_revolt = {p.id for p in board(state).provinces.values() if p.revolt}
    base = typed.extraordinary_modifier if house in turn.extraordinary else 0
    for province in controlled(state, house):
        if province.revolt or garrison(ctx, house, province.id) >= typed.garrison:
            continue
        adjacent = sum(1 for n in province.neighbours if n in in_revolt)
        modifier = base + typed.adjacent_revolt_modifier * adjacent
        die = ctx.dice.roll(1, typed.unrest_die, "unrest", province.id).total
        if die + modifier <= typed.revolt_at_most:
            province.revolt = True
            ctx.emit(RevoltBroke(phase=ctx.dice.phase, house=house, province=province.id,
                                 die=die, modifier=modifier))
    return None


def _storm(ctx: TurnContext, turn: BRTurn, house: str, round_no: int) -> str | None:
    """Each of the house's fleets at sea sinks on 1-2; its commanders roll survival."""
    typed = br_rules(ctx.rules)
    state = ctx.state
    for unit in sorted(state.units.values(), key=lambda u: u.id):
        where = board(state).provinces.get(unit.province or "")
        if unit.house != house or not typed.is_naval(unit.type) or where is None \
                or where.kind != SEA:
            continue
        die = ctx.dice.roll(1, typed.events.storm_die, "storm", unit.id).total
        if die > typed.events.storm_loss_at_most:
            continue
        crew = [state.persons[pid] for pid in unit.commanders]
        ctx.emit(FleetLost(phase=ctx.dice.phase, house=house, unit=unit.id,
                           province=where.id, armies=unit.armies, die=die))
        remove_armies(ctx, unit, unit.armies, "storm")
        for person in crew:
            survival_roll(ctx, person, "storm")
    return None


def _harvest(ctx: TurnContext, turn: BRTurn, house: str, round_no: int) -> str | None:
    basic = br_rules(ctx.rules).basic_goods
    candidates = [p for p in controlled(ctx.state, house)
                  if p.resource in basic and productive(p)]
    province = _draw(ctx, candidates, "harvest province", house)
    if province is None or province.resource is None:
        return None
    counter = new_counter(ctx.state, province.resource, house, province.id)
    ctx.emit(ResourceAppeared(phase=ctx.dice.phase, house=house, counter=counter.id,
                              good=counter.good, province=province.id, cause="harvest"))
    return province.id


def _nothing(ctx: TurnContext, turn: BRTurn, house: str, round_no: int) -> str | None:
    return None


HANDLERS: dict[str, Handler] = {
    "plague": _plague,
    "famine": _famine,
    "unrest": _unrest,
    "storm": _storm,
    "calm": _nothing,
    "harvest": _harvest,
    "nothing": _nothing,
}
