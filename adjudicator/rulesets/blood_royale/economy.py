"""The interphase (RULES.md B2.2): taxes, resources, famine, revolts, upkeep, raising.

Trade between houses (gifts and payments, [D]) slips in after the famine
counters are lifted, so goods that just appeared can be given away.

Each step runs for every active house, houses in id order, before the next
step starts, as on the board. Crowns never go below zero: upkeep that cannot
be paid disbands armies instead, and raising or buying off a revolt that the
treasury cannot afford is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.dynastic.command import unit_type_name
from adjudicator.messages import house_id, msg
from adjudicator.rulesets.base import TurnContext
from adjudicator.rulesets.blood_royale.board import board, province_name
from adjudicator.rulesets.blood_royale.counters import new_counter
from adjudicator.rulesets.blood_royale.diplomacy import run_exchanges, run_trade
from adjudicator.rulesets.blood_royale.events import (
    ArmiesRaised,
    ArmiesReturned,
    FamineLifted,
    ResourceAppeared,
    RevoltEnded,
    TaxesCollected,
    UpkeepPaid,
)
from adjudicator.rulesets.blood_royale.forces import (
    army_pool,
    check_new_unit_id,
    claim_unit_id,
    disband_units,
    next_unit_id,
    remove_armies,
)
from adjudicator.rulesets.blood_royale.orders import PayRevoltOrder, RaiseOrder, TaxOrder
from adjudicator.rulesets.blood_royale.tables import br_rules
from adjudicator.rulesets.blood_royale.turnstate import BRTurn
from adjudicator.rulesets.blood_royale.world import (
    LAND,
    br_data,
    controlled,
    find_province,
    is_coastal,
    is_home,
    productive,
    sides_in,
)
from adjudicator.state import GameState, Unit


def active(ctx: TurnContext) -> list[str]:
    return sorted(h.id for h in ctx.state.active_houses())


# -- 1. taxes ---------------------------------------------------------------------


def collect_taxes(ctx: TurnContext, turn: BRTurn) -> None:
    economy = br_rules(ctx.rules).economy
    for house in active(ctx):
        provinces = controlled(ctx.state, house)
        paying = [p for p in provinces if productive(p)]
        extraordinary = house in turn.extraordinary
        rate = economy.tax_extraordinary if extraordinary else economy.tax_normal
        amount = rate * len(paying)
        ctx.state.houses[house].treasury += amount
        turn.ledger(house).taxes += amount
        ctx.emit(TaxesCollected(phase=ctx.dice.phase, house=house, provinces=len(paying),
                                rate=rate, extraordinary=extraordinary, amount=amount,
                                exempt=tuple(p.id for p in provinces if not productive(p))))


# -- 2. resources and 3. famine -------------------------------------------------------


def produce_resources(ctx: TurnContext) -> None:
    for province in board(ctx.state).provinces.values():
        owner = province.controller
        if province.kind != LAND or not province.resource or owner is None:
            continue
        if ctx.state.houses[owner].eliminated or not productive(province):
            continue
        counter = new_counter(ctx.state, province.resource, owner, province.id)
        ctx.emit(ResourceAppeared(phase=ctx.dice.phase, house=owner, counter=counter.id,
                                  good=counter.good, province=province.id))


def lift_famines(ctx: TurnContext) -> None:
    for province in board(ctx.state).provinces.values():
        if province.famine:
            province.famine = False
            ctx.emit(FamineLifted(phase=ctx.dice.phase, province=province.id))


# -- 4. revolts ---------------------------------------------------------------------


def check_pay_revolt(state: GameState, house: str, order: PayRevoltOrder) -> str | None:
    province = find_province(state, order.province)
    if province is None:
        return msg("there is no province %(province)s", province=repr(order.province))
    if province.controller != house:
        return msg("%(province)s is not under your control", province=province_name(province))
    if not province.revolt:
        return msg("%(province)s is not in revolt", province=province_name(province))
    return None


def buy_off_revolts(ctx: TurnContext, turn: BRTurn) -> None:
    price = br_rules(ctx.rules).economy.revolt_price
    for house in active(ctx):
        treasury = ctx.state.houses[house]
        for order in ctx.sheets[house].of_type(PayRevoltOrder) if house in ctx.sheets else []:
            province = find_province(ctx.state, order.province)
            assert province is not None
            if not province.revolt:
                continue
            if treasury.treasury < price:
                ctx.reject(house, order, msg("ending the revolt costs %(price)s crowns and the "
                                             "treasury holds %(treasury)s", price=price,
                                             treasury=treasury.treasury))
                continue
            treasury.treasury -= price
            turn.ledger(house).revolts += price
            province.revolt = False
            ctx.emit(RevoltEnded(phase=ctx.dice.phase, house=house, province=province.id,
                                 cause="paid", price=price))


# -- 5. upkeep ------------------------------------------------------------------------


def at_home(state: GameState, unit: Unit) -> bool:
    province = board(state).provinces.get(unit.province or "")
    return province is not None and is_home(state, unit.house, province)


def unit_upkeep(state: GameState, unit: Unit, rules: Mapping[str, Any]) -> int:
    """Crowns per army: 1 in a province of the home kingdom, 2 elsewhere (B2.2.5)."""
    economy = br_rules(rules).economy
    return economy.upkeep_home if at_home(state, unit) else economy.upkeep_abroad


def upkeep_due(state: GameState, house: str, rules: Mapping[str, Any]) -> int:
    return sum(unit_upkeep(state, u, rules) * u.armies
               for u in state.units.values() if u.house == house)


def pay_upkeep(ctx: TurnContext, turn: BRTurn) -> None:
    """Unpaid armies are disbanded from the largest unit first, until the rest is paid."""
    state = ctx.state
    for house in active(ctx):
        record = state.houses[house]
        units = sorted((u for u in state.units.values() if u.house == house),
                       key=lambda u: (-u.armies, u.id))
        home = sum(u.armies for u in units if at_home(state, u))
        abroad = sum(u.armies for u in units) - home
        disbanded: dict[str, int] = {}
        due = upkeep_due(state, house, ctx.rules)
        for unit in units:
            if due <= record.treasury:
                break
            rate = unit_upkeep(state, unit, ctx.rules)
            excess = due - record.treasury
            cut = min(unit.armies, -(-excess // rate))
            disbanded[unit.id] = remove_armies(ctx, unit, cut, "upkeep")
            due -= cut * rate
        record.treasury -= due
        turn.ledger(house).upkeep += due
        ctx.emit(UpkeepPaid(phase=ctx.dice.phase, house=house, home_armies=home,
                            abroad_armies=abroad, amount=due, disbanded=disbanded))


# -- 6. raising ---------------------------------------------------------------------


def check_raise(state: GameState, house: str, order: RaiseOrder, rules: Mapping[str, Any],
                taken: set[str]) -> str | None:
    """The checks that do not depend on the turn's money (B2.2.6)."""
    typed = br_rules(rules)
    province = find_province(state, order.province)
    if province is None:
        return msg("there is no province %(province)s", province=repr(order.province))
    if order.unit_type not in typed.unit_types:
        return msg("there is no unit type %(type)s (types: %(types)s)",
                   type=repr(order.unit_type), types=tuple(sorted(typed.unit_types)))
    if not typed.unit_type(order.unit_type).raisable:
        return msg("%(type)s units cannot be raised", type=unit_type_name(order.unit_type))
    if province.kind != LAND or not is_home(state, house, province):
        return msg("%(province)s is not a province of your home kingdom",
                   province=province_name(province))
    if province.controller != house:
        return msg("%(province)s is not under your control", province=province_name(province))
    if typed.is_naval(order.unit_type) and not is_coastal(state, province):
        return msg("%(province)s has no coast for a %(type)s", province=province_name(province),
                   type=unit_type_name(order.unit_type))
    others = sorted(h for h in sides_in(state, province.id) if h != house)
    if others:
        return msg("%(province)s holds units of %(houses)s", province=province_name(province),
                   houses=tuple(house_id(h) for h in others))
    if order.as_unit is not None:
        return check_new_unit_id(state, house, order.as_unit, taken)
    return None


def return_lost_armies(ctx: TurnContext) -> None:
    for house in active(ctx):
        record = ctx.state.houses[house]
        back = sum(count for count, when in record.armies_lost if when <= ctx.turn)
        record.armies_lost = [entry for entry in record.armies_lost if entry[1] > ctx.turn]
        if back:
            ctx.emit(ArmiesReturned(phase=ctx.dice.phase, house=house, armies=back))


def raise_armies(ctx: TurnContext, turn: BRTurn) -> None:
    """Raise in order of the lines; a line the money or the cap cuts short raises less."""
    state = ctx.state
    typed = br_rules(ctx.rules)
    for house in active(ctx):
        record = state.houses[house]
        for order in ctx.sheets[house].of_type(RaiseOrder) if house in ctx.sheets else []:
            province = find_province(state, order.province)
            assert province is not None
            cost = typed.raise_cost(order.unit_type)
            affordable = record.treasury // cost if cost else order.armies
            room = (army_pool(state, house, ctx.rules, ctx.turn)
                    if typed.unit_type(order.unit_type).capped else order.armies)
            armies = min(order.armies, affordable, room)
            if armies <= 0:
                why = (msg("the treasury holds %(treasury)s crowns, %(cost)s needed per army",
                           treasury=record.treasury, cost=cost)
                       if affordable <= 0 else
                       msg("the kingdom already has its %(army_cap)s armies (lost armies count "
                           "until they return)", army_cap=typed.economy.army_cap))
                ctx.reject(house, order, why)
                continue
            if armies < order.armies:
                short = msg("not enough crowns") if armies == affordable else msg("the army cap")
                ctx.notify(house, msg("only %(armies)s of %(ordered)s armies raised in "
                                      "%(province)s: %(why)s", armies=armies,
                                      ordered=order.armies, province=province_name(province),
                                      why=short))
            unit, new = _raising_unit(state, house, order, province.id)
            unit.armies += armies
            record.treasury -= armies * cost
            turn.ledger(house).raised += armies * cost
            ctx.emit(ArmiesRaised(phase=ctx.dice.phase, house=house, unit=unit.id,
                                  unit_type=unit.type, province=province.id, armies=armies,
                                  cost=armies * cost, new_unit=new))


def _raising_unit(state: GameState, house: str, order: RaiseOrder,
                  province: str) -> tuple[Unit, bool]:
    """The house's own unit of that type in the province, or a new one."""
    interventions = br_data(state).interventions
    if order.as_unit is None:
        for unit in sorted(state.units.values(), key=lambda u: u.id):
            if (unit.house == house and unit.province == province
                    and unit.type == order.unit_type and unit.id not in interventions):
                return unit, False
    if order.as_unit is not None:
        named = state.units.get(order.as_unit)
        if named is not None and named.house == house and named.province == province \
                and named.type == order.unit_type:
            return named, False
    uid = order.as_unit if order.as_unit and order.as_unit not in state.units \
        else next_unit_id(state, house)
    claim_unit_id(state, house, uid)
    unit = Unit(id=uid, house=house, type=order.unit_type, armies=0, province=province)
    state.units[uid] = unit
    return unit, True


# -- the whole interphase ----------------------------------------------------------------


def read_taxes(ctx: TurnContext, turn: BRTurn) -> None:
    for house, sheet in ctx.sheets.items():
        if any(order.extraordinary for order in sheet.of_type(TaxOrder)):
            turn.extraordinary.add(house)


def run_interphase(ctx: TurnContext, turn: BRTurn) -> None:
    """B2.2 steps 1 to 6, in the rulebook's order."""
    ctx.dice.set_phase("interphase")
    read_taxes(ctx, turn)
    collect_taxes(ctx, turn)
    produce_resources(ctx)
    lift_famines(ctx)
    run_trade(ctx, turn)
    run_exchanges(ctx, turn)
    buy_off_revolts(ctx, turn)
    disband_units(ctx)
    pay_upkeep(ctx, turn)
    return_lost_armies(ctx)
    raise_armies(ctx, turn)
