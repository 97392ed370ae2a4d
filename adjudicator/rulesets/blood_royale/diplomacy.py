"""Dealings between houses (RULES.md B4, [D] trade): passage, intervention, gifts.

* ``allow passage`` / ``refuse passage`` are standing orders: they hold from
  this turn's movement on, until changed.
* Foreign intervention needs the same ``intervene <unit> for <house>`` line
  from both houses (checked at validation, like a marriage). For the turn the
  unit moves and fights for the king it serves, and takes provinces for him;
  its own house still pays its upkeep.
* Gifts of counters and payments of crowns are the trade the map calls for
  (no kingdom starts with a complete basic set). They happen in the
  interphase after resources appear; a payment the treasury cannot cover then
  is refused.
"""

from __future__ import annotations

from adjudicator.orders import OrderSheet
from adjudicator.rulesets.base import TurnContext
from adjudicator.rulesets.blood_royale.counters import find_counter
from adjudicator.rulesets.blood_royale.events import (
    CounterGiven,
    CrownsPaid,
    InterventionAgreed,
    PassageChanged,
)
from adjudicator.rulesets.blood_royale.orders import (
    GiveOrder,
    InterveneOrder,
    PassageOrder,
    PayCrownsOrder,
)
from adjudicator.rulesets.blood_royale.turnstate import BRTurn
from adjudicator.rulesets.blood_royale.world import br_data, set_passage
from adjudicator.rulesets.dynasty.lookup import find_dynasty
from adjudicator.state import GameState


def other_house(state: GameState, house: str, token: str) -> tuple[str | None, str | None]:
    """Another active house named by id or letter, or the reason it cannot be."""
    found = find_dynasty(state, token)
    if found is None:
        return None, f"there is no house {token!r}"
    if found.id == house:
        return None, "a house cannot deal with itself"
    if found.eliminated:
        return None, f"{found.name} is no longer in play"
    return found.id, None


def check_intervention(state: GameState, house: str, order: InterveneOrder,
                       sheets: dict[str, OrderSheet]) -> str | None:
    """Both houses must send the same line; the unit must be the sender's or serve it."""
    unit = state.units.get(order.unit)
    if unit is None:
        return f"there is no unit {order.unit}"
    under = find_dynasty(state, order.under)
    if under is None:
        return f"there is no house {order.under!r}"
    if under.id == unit.house:
        return f"{order.unit} already serves {under.name}"
    if under.eliminated:
        return f"{under.name} is no longer in play"
    if house not in (unit.house, under.id):
        return f"{order.unit} is not yours, and it would not serve you"
    partner = under.id if house == unit.house else unit.house
    sheet = sheets.get(partner)
    agreed = sheet is not None and not sheet.refused and any(
        isinstance(o, InterveneOrder) and o.unit == order.unit
        and intervention_under(state, o) == under.id for o in sheet.orders)
    if not agreed:
        return (f"{state.houses[partner].name} did not send the same line: an "
                "intervention needs both houses")
    return None


def intervention_under(state: GameState, order: InterveneOrder) -> str | None:
    found = find_dynasty(state, order.under)
    return found.id if found else None


def apply_passage_and_interventions(ctx: TurnContext) -> None:
    """Record this turn's permissions and interventions before the interphase."""
    state = ctx.state
    interventions = br_data(state).interventions
    interventions.clear()
    for house in sorted(ctx.sheets):
        if house not in state.houses or state.houses[house].eliminated:
            continue
        for order in ctx.sheets[house].orders:
            if isinstance(order, PassageOrder):
                to, _ = other_house(state, house, order.house)
                if to is not None and set_passage(state, house, to, order.allowed):
                    ctx.emit(PassageChanged(phase=ctx.dice.phase, house=house, to=to,
                                            allowed=order.allowed))
            elif isinstance(order, InterveneOrder):
                unit = state.units.get(order.unit)
                under = intervention_under(state, order)
                if unit is None or under is None or unit.house != house:
                    continue
                if state.houses[under].eliminated:
                    ctx.reject(house, order, f"{state.houses[under].name} is no longer in play")
                    continue
                interventions[unit.id] = under
                ctx.emit(InterventionAgreed(phase=ctx.dice.phase, house=house, unit=unit.id,
                                            under=under))


def end_interventions(state: GameState) -> None:
    br_data(state).interventions.clear()


def run_trade(ctx: TurnContext, turn: BRTurn) -> None:
    """Gifts of counters, then payments of crowns, houses in id order."""
    state = ctx.state
    for house in sorted(ctx.sheets):
        if house not in state.houses or state.houses[house].eliminated:
            continue
        claimed: set[str] = set()
        for order in ctx.sheets[house].of_type(GiveOrder):
            to, reason = other_house(state, house, order.to)
            counter = find_counter(state, house, order.counter, order.source, claimed)
            if counter is None or to is None:
                ctx.reject(house, order, reason or f"you have no counter {order.counter}"
                           + (f" in {order.source}" if order.source else "") + " to give")
                continue
            claimed.add(counter.id)
            counter.owner = to
            ctx.emit(CounterGiven(phase=ctx.dice.phase, house=house, to=to,
                                  counter=counter.id, good=counter.good,
                                  province=counter.province))
        for pay in ctx.sheets[house].of_type(PayCrownsOrder):
            to, reason = other_house(state, house, pay.to)
            treasury = state.houses[house].treasury
            if to is None:
                ctx.reject(house, pay, reason or "no such house")
            elif treasury < pay.amount:
                ctx.reject(house, pay, f"the treasury holds {treasury} crowns, "
                                       f"{pay.amount} needed")
            else:
                state.houses[house].treasury -= pay.amount
                state.houses[to].treasury += pay.amount
                turn.ledger(house).transfer_to(turn.ledger(to), pay.amount)
                ctx.emit(CrownsPaid(phase=ctx.dice.phase, house=house, to=to,
                                    amount=pay.amount))
