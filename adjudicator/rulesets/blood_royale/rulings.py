"""Blood Royale's own arbiter directive: ``control normandy by england``.

DESIGN.md "Arbiter directives": "control normandy by england # Blood Royale: a
province's control by ruling". Like every directive it takes effect at the
start of the turn, in file order, and is recorded as a public ``Ruling``. A
home province ruled back to its own kingdom is simply its kingdom's again
(B3: no marker on it).
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.dynastic.orders import ARBITER_GRAMMAR
from adjudicator.events import Ruling
from adjudicator.messages import house_name, msg
from adjudicator.orders import Cursor, Grammar, Order
from adjudicator.rulesets.base import TurnContext
from adjudicator.rulesets.blood_royale.board import province_name
from adjudicator.rulesets.blood_royale.world import LAND, find_province
from adjudicator.state import GameState


@dataclass(frozen=True, kw_only=True)
class ControlOrder(Order):
    province: str
    house: str


BR_ARBITER_GRAMMAR: Grammar = ARBITER_GRAMMAR.extended()


@BR_ARBITER_GRAMMAR.rule("control")
def _control(c: Cursor) -> ControlOrder:
    province = c.next(msg("a province")).text
    c.expect("by")
    return ControlOrder(line=c.line, text=c.text, province=province, house=c.ident(msg("the "
                                                                                       "house")))


def _house(state: GameState, named: str) -> str | None:
    for house in state.houses.values():
        if named.lower() in (house.id.lower(), house.letter.lower()):
            return house.id
    return None


def check_control(state: GameState, order: ControlOrder) -> str | None:
    """Why ``order`` cannot apply to ``state``, or None."""
    province = find_province(state, order.province)
    if province is None:
        return msg("there is no province %(province)s", province=repr(order.province))
    if province.kind != LAND:
        return msg("%(province)s is a sea: nobody controls it (B3)",
                   province=province_name(province))
    house = _house(state, order.house)
    if house is None:
        return msg("there is no house %(house)s", house=repr(order.house))
    if state.houses[house].eliminated:
        return msg("%(house)s is out of play", house=house_name(state.houses[house]))
    if province.controller == house:
        return msg("%(house)s controls %(province)s already",
                   house=house_name(state.houses[house]), province=province_name(province))
    return None


def foresee_control(state: GameState, order: ControlOrder) -> None:
    province, house = find_province(state, order.province), _house(state, order.house)
    if province is not None and house is not None:
        province.controller = house


def apply_control(ctx: TurnContext, order: ControlOrder, file_house: str) -> None:
    reason = check_control(ctx.state, order)
    if reason is not None:
        ctx.reject(file_house, order, reason)
        return
    province, house = find_province(ctx.state, order.province), _house(ctx.state, order.house)
    assert province is not None and house is not None
    previous = province.controller
    province.controller = house
    ctx.emit(Ruling(phase=ctx.dice.phase, directive="control", house=house,
                    province=province.id, previous=previous))
