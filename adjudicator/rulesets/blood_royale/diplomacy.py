"""Dealings between houses (RULES.md B4, B6, B7a): passage, alliances, intervention,
gifts, payments and binding exchanges.

* ``allow passage`` / ``refuse passage`` are standing orders: they hold from
  this turn's movement on, until changed.
* ``ally`` / ``end alliance`` are standing orders too: an alliance holds while
  both houses declare it (B6), and gives passage both ways.
* Foreign intervention needs the same ``intervene <unit> for <house>`` line
  from both houses (checked at validation, like a marriage). For the turn the
  unit moves and fights for the king it serves, and takes provinces for him;
  its own house still pays its upkeep.
* Gifts of counters and payments of crowns are the trade the map calls for
  (no kingdom starts with a complete basic set). They happen in the
  interphase after resources appear; a payment the treasury cannot cover then
  is refused.
* Binding exchanges (B7a) follow the gifts and payments: both houses send the
  same exchange, each writing its own part first; it happens whole, or not at
  all when either side cannot deliver, and then both lines are refused with
  the reason.
"""

from __future__ import annotations

from adjudicator.dynastic.lookup import find_dynasty
from adjudicator.messages import house_name, msg
from adjudicator.orders import OrderSheet
from adjudicator.rulesets.base import TurnContext
from adjudicator.rulesets.blood_royale.board import Counter
from adjudicator.rulesets.blood_royale.counters import check_counter, find_counter
from adjudicator.rulesets.blood_royale.events import (
    AllianceDeclared,
    CounterGiven,
    CrownsPaid,
    ExchangeMade,
    InterventionAgreed,
    PassageChanged,
)
from adjudicator.rulesets.blood_royale.orders import (
    AllyOrder,
    ExchangeOrder,
    GiveOrder,
    InterveneOrder,
    Lot,
    PassageOrder,
    PayCrownsOrder,
)
from adjudicator.rulesets.blood_royale.turnstate import BRTurn
from adjudicator.rulesets.blood_royale.world import (
    allied,
    br_data,
    declare_alliance,
    find_province,
    set_passage,
)
from adjudicator.state import GameState


def other_house(state: GameState, house: str, token: str) -> tuple[str | None, str | None]:
    """Another active house named by id or letter, or the reason it cannot be."""
    found = find_dynasty(state, token)
    if found is None:
        return None, msg("there is no house %(token)s", token=repr(token))
    if found.id == house:
        return None, msg("a house cannot deal with itself")
    if found.eliminated:
        return None, msg("%(found)s is no longer in play", found=house_name(found))
    return found.id, None


def check_intervention(state: GameState, house: str, order: InterveneOrder,
                       sheets: dict[str, OrderSheet]) -> str | None:
    """Both houses must send the same line; the unit must be the sender's or serve it."""
    unit = state.units.get(order.unit)
    if unit is None:
        return msg("there is no unit %(unit)s", unit=order.unit)
    under = find_dynasty(state, order.under)
    if under is None:
        return msg("there is no house %(under)s", under=repr(order.under))
    if under.id == unit.house:
        return msg("%(unit)s already serves %(under)s", unit=order.unit, under=house_name(under))
    if under.eliminated:
        return msg("%(under)s is no longer in play", under=house_name(under))
    if house not in (unit.house, under.id):
        return msg("%(unit)s is not yours, and it would not serve you", unit=order.unit)
    partner = under.id if house == unit.house else unit.house
    sheet = sheets.get(partner)
    agreed = sheet is not None and not sheet.refused and any(
        isinstance(o, InterveneOrder) and o.unit == order.unit
        and intervention_under(state, o) == under.id for o in sheet.orders)
    if not agreed:
        return (msg("%(partner)s did not send the same line: an intervention needs both houses",
                    partner=house_name(state.houses[partner])))
    return None


def intervention_under(state: GameState, order: InterveneOrder) -> str | None:
    found = find_dynasty(state, order.under)
    return found.id if found else None


# -- binding exchanges (B7a) ---------------------------------------------------------

LotKey = tuple[int, tuple[tuple[str, str | None], ...]]


def _lot_key(state: GameState, lot: Lot) -> LotKey:
    """A lot as both houses must agree on it, whatever the spelling of its provinces."""
    refs = []
    for ref in lot.counters:
        source = None
        if ref.source is not None:
            province = find_province(state, ref.source)
            source = province.id if province else ref.source.lower()
        refs.append((ref.token, source))
    return lot.crowns, tuple(sorted(refs))


def exchange_partner(state: GameState, order: ExchangeOrder) -> str | None:
    found = find_dynasty(state, order.house)
    return found.id if found else None


def is_matching_exchange(state: GameState, house: str, order: ExchangeOrder,
                         other: ExchangeOrder) -> bool:
    """Whether ``other`` (the partner's line) describes the same exchange as ``order``."""
    return (exchange_partner(state, other) == house
            and _lot_key(state, other.gives) == _lot_key(state, order.gets)
            and _lot_key(state, other.gets) == _lot_key(state, order.gives))


def check_exchange_lots(state: GameState, house: str, order: ExchangeOrder) -> str | None:
    """The partner must be in play, and each counter must be its giver's (or be due to
    it at this interphase, as for gifts)."""
    partner, reason = other_house(state, house, order.house)
    if partner is None:
        return reason
    for giver, lot in ((house, order.gives), (partner, order.gets)):
        for ref in lot.counters:
            problem = check_counter(state, giver, ref.token, ref.source)
            if problem is not None:
                if giver == house:
                    return problem
                partner_name = house_name(state.houses[partner])
                if ref.source:
                    return msg("%(partner)s has no such counter: %(token)s from %(source)s",
                               partner=partner_name, token=ref.token, source=ref.source)
                return msg("%(partner)s has no such counter: %(token)s",
                           partner=partner_name, token=ref.token)
    return None


def unmatched_exchange(state: GameState, house: str, order: ExchangeOrder,
                       sheets: dict[str, OrderSheet]) -> str | None:
    """Why the partner's sheet holds no line for the same exchange (None if it does)."""
    partner = exchange_partner(state, order)
    assert partner is not None
    sheet = sheets.get(partner)
    if sheet is not None and not sheet.refused and any(
            is_matching_exchange(state, house, order, o) for o in sheet.of_type(ExchangeOrder)):
        return None
    return (msg("%(partner)s did not send the same exchange: both houses must send it, each "
                "giving its own part first", partner=house_name(state.houses[partner])))


def _deliverable(state: GameState, giver: str, lot: Lot) -> tuple[list[Counter], str | None]:
    """The counters ``giver`` would hand over, or why it cannot deliver ``lot``."""
    name = house_name(state.houses[giver])
    if state.houses[giver].treasury < lot.crowns:
        return [], (msg("%(name)s's treasury holds %(treasury)s crowns, %(crowns)s needed",
                        name=name, treasury=state.houses[giver].treasury, crowns=lot.crowns))
    claimed: set[str] = set()
    found: list[Counter] = []
    for ref in lot.counters:
        counter = find_counter(state, giver, ref.token, ref.source, claimed)
        if counter is None:
            if ref.source:
                return [], msg("%(name)s no longer has %(token)s in %(source)s",
                               name=name, token=ref.token, source=ref.source)
            return [], msg("%(name)s no longer has %(token)s", name=name, token=ref.token)
        claimed.add(counter.id)
        found.append(counter)
    return found, None


def _exchange(ctx: TurnContext, turn: BRTurn, house: str, order: ExchangeOrder,
              partner: str, answer: ExchangeOrder) -> None:
    """One agreed exchange: all of it, or nothing and both houses told why."""
    state = ctx.state
    given, reason = _deliverable(state, house, order.gives)
    received, other_reason = _deliverable(state, partner, order.gets)
    failure = reason or other_reason
    if failure is not None:
        for who, line in ((house, order), (partner, answer)):
            ctx.reject(who, line, msg("%(failure)s: neither part of the exchange happens",
                                      failure=failure))
        return
    for giver, taker, lot, counters in ((house, partner, order.gives, given),
                                        (partner, house, order.gets, received)):
        state.houses[giver].treasury -= lot.crowns
        state.houses[taker].treasury += lot.crowns
        turn.ledger(giver).transfer_to(turn.ledger(taker), lot.crowns)
        for counter in counters:
            counter.owner = taker
    ctx.emit(ExchangeMade(phase=ctx.dice.phase, house=house, partner=partner,
                          crowns_given=order.gives.crowns, crowns_received=order.gets.crowns,
                          counters_given=tuple(c.id for c in given),
                          counters_received=tuple(c.id for c in received)))


def run_exchanges(ctx: TurnContext, turn: BRTurn) -> None:
    """Every agreed exchange once, led by the house whose id sorts first."""
    state = ctx.state
    answered: set[tuple[str, int]] = set()
    for house in sorted(ctx.sheets):
        if house not in state.houses or state.houses[house].eliminated:
            continue
        for order in ctx.sheets[house].of_type(ExchangeOrder):
            partner = exchange_partner(state, order)
            if (house, order.line) in answered or partner not in ctx.sheets:
                continue
            answer = next((o for o in ctx.sheets[partner].of_type(ExchangeOrder)
                           if (partner, o.line) not in answered
                           and is_matching_exchange(state, house, order, o)), None)
            if answer is None:
                continue
            answered.update(((house, order.line), (partner, answer.line)))
            _exchange(ctx, turn, house, order, partner, answer)


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
            elif isinstance(order, AllyOrder):
                ally, _ = other_house(state, house, order.house)
                if ally is not None and declare_alliance(state, house, ally, order.allied):
                    ctx.emit(AllianceDeclared(phase=ctx.dice.phase, house=house, ally=ally,
                                              declared=order.allied,
                                              in_force=allied(state, house, ally)))
            elif isinstance(order, InterveneOrder):
                unit = state.units.get(order.unit)
                under = intervention_under(state, order)
                if unit is None or under is None or unit.house != house:
                    continue
                if state.houses[under].eliminated:
                    ctx.reject(house, order, msg("%(under)s is no longer in play",
                                                 under=house_name(state.houses[under])))
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
                ctx.reject(house, order, reason or (
                    msg("you have no counter %(counter)s in %(source)s to give",
                        counter=order.counter, source=order.source) if order.source else
                    msg("you have no counter %(counter)s to give", counter=order.counter)))
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
                ctx.reject(house, pay, reason or msg("no such house"))
            elif treasury < pay.amount:
                ctx.reject(house, pay, msg("the treasury holds %(treasury)s crowns, %(amount)s "
                                           "needed", treasury=treasury, amount=pay.amount))
            else:
                state.houses[house].treasury -= pay.amount
                state.houses[to].treasury += pay.amount
                turn.ledger(house).transfer_to(turn.ledger(to), pay.amount)
                ctx.emit(CrownsPaid(phase=ctx.dice.phase, house=house, to=to,
                                    amount=pay.amount))
