"""Static checks of the Blood Royale orders, against the state before the turn.

A sheet is read in its own order, so a line may use what an earlier line
creates (``split 2 from E-1 as E-4`` then ``move E-4 to ...``). Whatever
depends on the turn's evolution (money after taxes, the army cap after
losses, enemies met on the way) is checked while resolving instead, with
``TurnContext.reject``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from adjudicator.messages import msg
from adjudicator.orders import Order, OrderSheet
from adjudicator.rulesets.blood_royale.battle_orders import validate_battle_orders
from adjudicator.rulesets.blood_royale.counters import check_counter, find_counter
from adjudicator.rulesets.blood_royale.diplomacy import (
    check_exchange_lots,
    check_intervention,
    intervention_under,
    other_house,
    unmatched_exchange,
)
from adjudicator.rulesets.blood_royale.economy import check_pay_revolt, check_raise
from adjudicator.rulesets.blood_royale.forces import check_merge, check_split
from adjudicator.rulesets.blood_royale.movement import check_carry, check_move
from adjudicator.rulesets.blood_royale.orders import (
    AllyOrder,
    CarryOrder,
    DisbandOrder,
    ExchangeOrder,
    GiveOrder,
    InterveneOrder,
    MergeOrder,
    MoveOrder,
    PassageOrder,
    PayCrownsOrder,
    PayRevoltOrder,
    RaiseOrder,
    SplitOrder,
    TaxOrder,
)
from adjudicator.rulesets.blood_royale.world import find_province
from adjudicator.state import GameState


@dataclass
class Planned:
    """A unit as the sheet will find it: its type, place and (if known) armies."""

    type: str
    province: str
    armies: int | None


@dataclass
class SheetCheck:
    state: GameState
    house: str
    rules: Mapping[str, Any]
    serving: dict[str, str]
    units: dict[str, Planned] = field(default_factory=dict)
    created: set[str] = field(default_factory=set)
    #: units an earlier line merged or disbanded → why they are gone
    gone: dict[str, str] = field(default_factory=dict)
    moved: set[str] = field(default_factory=set)
    carried: set[str] = field(default_factory=set)
    taxed: bool = False

    def __post_init__(self) -> None:
        for unit in self.state.units.values():
            if self.serving.get(unit.id, unit.house) == self.house and unit.province:
                self.units[unit.id] = Planned(unit.type, unit.province, unit.armies)

    def own(self, uid: str) -> str | None:
        """Why the house cannot reorganise ``uid`` (None when it can)."""
        if uid in self.gone:
            return msg("%(unit)s is %(gone)s by an earlier line", unit=uid, gone=self.gone[uid])
        if uid not in self.units:
            return msg("you have no unit %(unit)s", unit=uid)
        if uid in self.serving:
            return msg("%(unit)s serves another king this turn", unit=uid)
        return None

    def check(self, order: Order) -> str | None:
        handler = _HANDLERS.get(type(order))
        return handler(self, order) if handler else None


def _tax(check: SheetCheck, order: Order) -> str | None:
    if check.taxed:
        return msg("the tax is ordered twice")
    check.taxed = True
    return None


def _pay_revolt(check: SheetCheck, order: Order) -> str | None:
    assert isinstance(order, PayRevoltOrder)
    return check_pay_revolt(check.state, check.house, order)


def _pay_crowns(check: SheetCheck, order: Order) -> str | None:
    assert isinstance(order, PayCrownsOrder)
    return other_house(check.state, check.house, order.to)[1]


def _give(check: SheetCheck, order: Order) -> str | None:
    assert isinstance(order, GiveOrder)
    return other_house(check.state, check.house, order.to)[1] or check_counter(
        check.state, check.house, order.counter, order.source)


def _passage(check: SheetCheck, order: Order) -> str | None:
    assert isinstance(order, PassageOrder)
    return other_house(check.state, check.house, order.house)[1]


def _ally(check: SheetCheck, order: Order) -> str | None:
    assert isinstance(order, AllyOrder)
    return other_house(check.state, check.house, order.house)[1]


def _raise(check: SheetCheck, order: Order) -> str | None:
    assert isinstance(order, RaiseOrder)
    reason = check_raise(check.state, check.house, order, check.rules, check.created)
    if reason is None and order.as_unit is not None:
        province = find_province(check.state, order.province)
        assert province is not None
        check.created.add(order.as_unit)
        check.units[order.as_unit] = Planned(order.unit_type, province.id, None)
    return reason


def _split(check: SheetCheck, order: Order) -> str | None:
    assert isinstance(order, SplitOrder)
    reason = check.own(order.unit)
    if reason:
        return reason
    source = check.units[order.unit]
    unit = check.state.units.get(order.unit)
    if unit is not None and source.armies is not None:
        planned = replace(unit, armies=source.armies)
        reason = check_split(check.state, check.house, order, planned, check.created)
        if reason:
            return reason
        source.armies -= order.armies
    new_id = order.as_unit
    if new_id is not None:
        check.created.add(new_id)
        check.units[new_id] = Planned(source.type, source.province, order.armies)
    return None


def _merge(check: SheetCheck, order: Order) -> str | None:
    assert isinstance(order, MergeOrder)
    reason = check.own(order.unit) or check.own(order.into)
    if reason:
        return reason
    unit, into = check.state.units.get(order.unit), check.state.units.get(order.into)
    if unit is not None and into is not None:
        reason = check_merge(check.state, check.house, order, unit, into, check.rules)
        if reason:
            return reason
    elif check.units[order.unit].province != check.units[order.into].province:
        return msg("%(unit)s and %(into)s are not in the same province", unit=order.unit,
                   into=order.into)
    check.gone[order.unit] = msg("merged into %(into)s", into=order.into)
    del check.units[order.unit]
    return None


def _disband(check: SheetCheck, order: Order) -> str | None:
    assert isinstance(order, DisbandOrder)
    reason = check.own(order.unit)
    if reason:
        return reason
    check.gone[order.unit] = msg("disbanded")
    del check.units[order.unit]
    return None


def _move(check: SheetCheck, order: Order) -> str | None:
    assert isinstance(order, MoveOrder)
    if order.unit in check.gone:
        return msg("%(unit)s is %(gone)s by an earlier line", unit=order.unit,
                   gone=check.gone[order.unit])
    planned = check.units.get(order.unit)
    if planned is None:
        unit = check.state.units.get(order.unit)
        if unit is not None:
            return msg("unit %(unit)s is not under your orders this turn", unit=order.unit)
        return msg("there is no unit %(unit)s", unit=order.unit)
    if order.unit in check.moved:
        return msg("unit %(unit)s already has a move order", unit=order.unit)
    reason = check_move(check.state, order, planned.type, planned.province, check.rules)
    if reason is None:
        check.moved.add(order.unit)
    return reason


def _carry(check: SheetCheck, order: Order) -> str | None:
    assert isinstance(order, CarryOrder)
    reason = check_counter(check.state, check.house, order.counter, order.source)
    if reason:
        return reason
    counter = find_counter(check.state, check.house, order.counter, order.source, check.carried)
    if counter is not None:
        check.carried.add(counter.id)
        start = counter.province
    else:
        source = find_province(check.state, order.source or "")
        assert source is not None
        start = source.id
    return check_carry(check.state, order, start, check.rules)


_HANDLERS = {
    TaxOrder: _tax,
    PayRevoltOrder: _pay_revolt,
    PayCrownsOrder: _pay_crowns,
    GiveOrder: _give,
    PassageOrder: _passage,
    AllyOrder: _ally,
    RaiseOrder: _raise,
    SplitOrder: _split,
    MergeOrder: _merge,
    MoveOrder: _move,
    CarryOrder: _carry,
    DisbandOrder: _disband,
}


def _drop(sheet: OrderSheet, order: Order, reason: str) -> None:
    sheet.orders.remove(order)
    sheet.reject(order, reason)


def _refuse_exchanges(state: GameState, live: dict[str, OrderSheet]) -> None:
    """B7a: first every line that cannot stand on its own; then every line left without
    the partner's same line, so that a refused line refuses its answer too."""
    faulty = [(sheet, order, reason) for house, sheet in live.items()
              for order in sheet.of_type(ExchangeOrder)
              if (reason := check_exchange_lots(state, house, order)) is not None]
    for sheet, order, reason in faulty:
        _drop(sheet, order, reason)
    alone = [(sheet, order, reason) for house, sheet in live.items()
             for order in sheet.of_type(ExchangeOrder)
             if (reason := unmatched_exchange(state, house, order, live)) is not None]
    for sheet, order, reason in alone:
        _drop(sheet, order, reason)


def validate_blood_royale(state: GameState, sheets: dict[str, OrderSheet],
                          rules: Mapping[str, Any]) -> None:
    """Move every Blood Royale order the state forbids into its sheet's rejections."""
    live = {h: s for h, s in sorted(sheets.items())
            if not s.refused and h in state.houses and not state.houses[h].eliminated}
    refused_interventions = [
        (sheet, order, reason) for house, sheet in live.items()
        for order in sheet.of_type(InterveneOrder)
        if (reason := check_intervention(state, house, order, live)) is not None]
    for sheet, order, reason in refused_interventions:
        _drop(sheet, order, reason)
    _refuse_exchanges(state, live)
    serving: dict[str, str] = {}
    for house, sheet in live.items():
        for intervene in sheet.of_type(InterveneOrder):
            under = intervention_under(state, intervene)
            if under is not None and state.units[intervene.unit].house == house:
                serving[intervene.unit] = under
    for house, sheet in live.items():
        check = SheetCheck(state, house, rules, serving)
        for line in list(sheet.orders):
            reason = check.check(line)
            if reason is not None:
                _drop(sheet, line, reason)
        validate_battle_orders(state, sheet)
