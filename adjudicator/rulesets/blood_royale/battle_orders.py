"""Battle orders (RULES.md B6): stances, how a side ends a battle, retreats.

All of them are *standing* orders: a line given once holds, turn after turn,
until the house gives another (kept in the state as ``standing.Standing``).
The syntax [D]:

``attack <house|unit|everyone>`` / ``avoid <house|unit|everyone>``
    The house's stance when its units meet that house's units, that unit, or
    anyone. A house is named by id or letter, a unit by id (``F-2``).
``fight [<unit>] to the end``
``flee [<unit>] when below <N> armies``
``flee [<unit>] when losses reach <N>``
``surrender [<unit>] when below <N> armies``
    How the house's side ends a battle. Without a unit the order is the
    house's; with one it holds for that unit alone and overrides the house's.
``retreat <unit> to <province>``
    The unit's preferred retreat when it flees.

Which stance applies to a unit met in battle [D]: the stance towards that
unit, else towards its house, else towards ``everyone``; with none of these,
``avoid`` if either house allows the other passage (a house does not fall
upon the guests it let in, nor upon its hosts), ``attack`` otherwise.

How a house ends a battle when it gave no order: ``[standing]`` of
``battle.toml`` (by default, fight to the end).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.dynastic.lookup import find_dynasty
from adjudicator.errors import OrderSyntaxError, RulesDataError
from adjudicator.messages import msg
from adjudicator.orders import Cursor, Grammar, Order, OrderSheet
from adjudicator.rulesets.base import TurnContext
from adjudicator.rulesets.blood_royale.standing import (
    HOUSE_WIDE,
    EndKind,
    EndRule,
    Stance,
    Standing,
)
from adjudicator.rulesets.blood_royale.world import (
    allied,
    br_data,
    find_province,
    passage_allowed,
)
from adjudicator.state import GameState, Unit

EVERYONE = "everyone"

_UNIT_ID = re.compile(r"^[A-Za-z]+-\d+$")


# -- the orders -------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class StanceOrder(Order):
    stance: Stance
    target: str  # a house token, a unit id, or "everyone"


@dataclass(frozen=True, kw_only=True)
class EndOrder(Order):
    unit: str | None
    kind: EndKind
    threshold: int = 0


@dataclass(frozen=True, kw_only=True)
class RetreatPreferenceOrder(Order):
    unit: str
    province: str


def _is_unit_id(token: str) -> bool:
    return bool(_UNIT_ID.match(token))


def _optional_unit(c: Cursor, before: str) -> str | None:
    """An optional unit id between the verb and the word ``before``."""
    if c.peek() == before or c.at_end():
        return None
    token = c.ident(msg("a unit id"))
    if not _is_unit_id(token):
        raise OrderSyntaxError(msg("expected a unit id (like E-1) or %(before)s, found "
                                   "%(token)s", before=repr(before), token=repr(token)))
    return token.upper()


def _stance(c: Cursor, stance: Stance) -> StanceOrder:
    token = c.ident(msg("a house, a unit or 'everyone'"))
    if _is_unit_id(token):
        target = token.upper()
    elif token.lower() in (EVERYONE, "all", "anyone"):
        target = EVERYONE
    else:
        target = token.lower()
    return StanceOrder(line=c.line, text=c.text, stance=stance, target=target)


def _attack(c: Cursor) -> StanceOrder:
    return _stance(c, Stance.ATTACK)


def _avoid(c: Cursor) -> StanceOrder:
    return _stance(c, Stance.AVOID)


def _fight(c: Cursor) -> EndOrder:
    unit = _optional_unit(c, "to")
    c.expect("to")
    c.expect("the")
    c.expect("end")
    return EndOrder(line=c.line, text=c.text, unit=unit, kind=EndKind.FIGHT)


def _below(c: Cursor) -> int:
    c.expect("below")
    n = c.integer(msg("the number of armies"), 1, 1000)
    c.expect("armies", "army")
    return n


def _flee(c: Cursor) -> EndOrder:
    unit = _optional_unit(c, "when")
    c.expect("when")
    if c.accept("losses"):
        c.expect("reach", "reaches")
        n = c.integer(msg("the losses"), 1, 1000)
        return EndOrder(line=c.line, text=c.text, unit=unit, kind=EndKind.FLEE_LOSSES,
                        threshold=n)
    return EndOrder(line=c.line, text=c.text, unit=unit, kind=EndKind.FLEE_BELOW,
                    threshold=_below(c))


def _surrender(c: Cursor) -> EndOrder:
    unit = _optional_unit(c, "when")
    c.expect("when")
    return EndOrder(line=c.line, text=c.text, unit=unit, kind=EndKind.SURRENDER_BELOW,
                    threshold=_below(c))


def _retreat(c: Cursor) -> RetreatPreferenceOrder:
    unit = c.ident(msg("a unit id"))
    if not _is_unit_id(unit):
        raise OrderSyntaxError(msg("expected a unit id (like E-1), found %(unit)s",
                                   unit=repr(unit)))
    c.expect("to")
    return RetreatPreferenceOrder(line=c.line, text=c.text, unit=unit.upper(),
                                  province=c.ident(msg("a province")))


def register_battle_orders(grammar: Grammar) -> None:
    """Add the B6 standing orders to ``grammar``."""
    grammar.rules["attack"] = _attack
    grammar.rules["avoid"] = _avoid
    grammar.rules["fight"] = _fight
    grammar.rules["flee"] = _flee
    grammar.rules["surrender"] = _surrender
    grammar.rules["retreat"] = _retreat


BattleOrder = StanceOrder | EndOrder | RetreatPreferenceOrder


# -- checking and recording -------------------------------------------------------


def check_battle_order(state: GameState, house: str, order: Order) -> str | None:
    """Why the state forbids ``order`` for ``house``, or None if it stands."""
    if isinstance(order, StanceOrder):
        if order.target == EVERYONE:
            return None
        if _is_unit_id(order.target):
            target_unit = state.units.get(order.target)
            if target_unit is None:
                return msg("there is no unit %(unit)s", unit=order.target)
            if target_unit.house == house:
                return msg("%(target)s is this house's own unit", target=order.target)
            return None
        target = find_dynasty(state, order.target)
        if target is None:
            return msg("there is no house %(target)s", target=repr(order.target))
        if target.id == house:
            return msg("a house cannot take a stance towards itself")
        return None
    unit_id = order.unit if isinstance(order, EndOrder | RetreatPreferenceOrder) else None
    if unit_id is not None:
        unit = state.units.get(unit_id)
        if unit is None:
            return msg("there is no unit %(unit)s", unit=unit_id)
        if unit.house != house:
            return msg("%(unit_id)s is not this house's unit", unit_id=unit_id)
    if isinstance(order, RetreatPreferenceOrder) and find_province(state, order.province) is None:
        return msg("there is no province %(province)s", province=repr(order.province))
    return None


def validate_battle_orders(state: GameState, sheet: OrderSheet) -> None:
    """Move every battle order of ``sheet`` the state forbids into its rejections."""
    kept: list[Order] = []
    for order in sheet.orders:
        reason = None
        if isinstance(order, StanceOrder | EndOrder | RetreatPreferenceOrder):
            reason = check_battle_order(state, sheet.house, order)
        if reason is None:
            kept.append(order)
        else:
            sheet.reject(order, reason)
    sheet.orders = kept


def _standing(state: GameState, house: str) -> Standing:
    return br_data(state).standing.setdefault(house, Standing())


def record_standing_orders(ctx: TurnContext) -> None:
    """Store this turn's battle orders of every house; later lines override earlier ones.

    Call once per turn before the first movement round. Orders the state
    forbids are rejected here too, in case ``validate`` was not run.
    """
    state = ctx.state
    for house in sorted(ctx.sheets):
        for order in ctx.orders(house):
            if not isinstance(order, StanceOrder | EndOrder | RetreatPreferenceOrder):
                continue
            reason = check_battle_order(state, house, order)
            if reason:
                ctx.reject(house, order, reason)
                continue
            entry = _standing(state, house)
            if isinstance(order, StanceOrder):
                target = order.target
                if target != EVERYONE and not _is_unit_id(target):
                    found = find_dynasty(state, target)
                    assert found is not None
                    target = found.id
                entry.stance[target] = order.stance
            elif isinstance(order, EndOrder):
                entry.end[order.unit or HOUSE_WIDE] = EndRule(order.kind, order.threshold)
            else:
                province = find_province(state, order.province)
                assert province is not None
                entry.retreat[order.unit] = province.id


# -- reading the standing orders --------------------------------------------------


def default_end_rule(rules: Mapping[str, Any]) -> EndRule:
    """``[standing]`` of battle.toml: the rule of a house that gave none."""
    try:
        table = rules["battle"]["standing"]
        kind, threshold = table["end"], int(table["end_threshold"])
    except (KeyError, TypeError, ValueError) as err:
        raise RulesDataError(f"battle rules: missing or bad [standing] entry {err}") from err
    if kind not in set(EndKind):
        raise RulesDataError(f"battle rules: unknown standing end {kind!r}")
    return EndRule(EndKind(kind), threshold)


def _stored(state: GameState, house: str) -> Standing:
    return br_data(state).standing.get(house) or Standing()


def end_rule(state: GameState, rules: Mapping[str, Any], house: str,
             unit: str | None = None) -> EndRule | None:
    """The rule ordered for ``unit`` (None if it has none of its own), or the house's."""
    ends = _stored(state, house).end
    if unit is not None:
        return ends.get(unit)
    return ends.get(HOUSE_WIDE) or default_end_rule(rules)


def preferred_retreat(state: GameState, house: str, unit: str) -> str | None:
    return _stored(state, house).retreat.get(unit)


def stance_towards(state: GameState, house: str, unit: Unit | None, unit_side: str) -> Stance:
    """The stance of ``house`` towards ``unit`` of ``unit_side``, or towards that house
    itself when ``unit`` is None (its castle, say). Allies never fight each other (B6),
    whatever their stances."""
    if allied(state, house, unit_side):
        return Stance.AVOID
    stances = _stored(state, house).stance
    keys = (unit_side, EVERYONE) if unit is None else (unit.id, unit_side, EVERYONE)
    for key in keys:
        if key in stances:
            return stances[key]
    if passage_allowed(state, house, unit_side) or passage_allowed(state, unit_side, house):
        return Stance.AVOID
    return Stance.ATTACK


def standing_order_lines(state: GameState, house: str) -> list[str]:
    """The house's standing battle orders as order lines, for its next template.

    An order about a unit since destroyed or disbanded is left out: ``check``
    would refuse the line the template gave back.
    """
    stored = _stored(state, house)

    def standing(target: str) -> bool:
        return target in (EVERYONE, HOUSE_WIDE) or target in state.houses \
            or target in state.units

    lines = [f"{stance} {target}" for target, stance in sorted(stored.stance.items())
             if standing(target)]
    for unit, rule in sorted(stored.end.items()):
        if standing(unit):
            lines.append(rule.order_text(None if unit == HOUSE_WIDE else unit))
    lines.extend(f"retreat {unit} to {province}"
                 for unit, province in sorted(stored.retreat.items()) if unit in state.units)
    return lines
