"""Movement rounds (RULES.md B2.3, B4): kingdom order, event die, moves, contacts.

Each round the active houses are drawn from a cup (``Dice.shuffled``) and the
order is published. In its slot a house rolls the event die, moves the units
it commands, then its resource counters, and then every contact between its
units and another house's is settled by the battle rules.

How far a unit goes in a round (B4, with our [D] readings):

* up to 3 provinces through land its house controls, land of a house that
  allows it passage, uncontrolled land and sea zones;
* entering land held by another house without passage ends the move, and a
  unit that starts the round on such land moves 1 province at most (a unit
  lent by foreign intervention is not on enemy land in its own house's);
* entering a province holding another house's units ends the move;
* a fleet sails through sea zones and coastal provinces only; an army may
  cross a sea zone only where a fleet of its side lies, and never ends a
  round at sea: it stops on the last land it reached; a flying unit goes
  anywhere.

Resource counters go up to 4 provinces a round through the owner's land,
land with passage, uncontrolled land and sea zones holding the owner's
fleet. Without a ``carry`` order a counter takes the shortest such route to
its owner's capital, avoiding provinces where hostile units stand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.dynastic.command import unit_type_name
from adjudicator.messages import Message, house_id, msg, msg_in
from adjudicator.orders import Order
from adjudicator.rulesets.base import TurnContext
from adjudicator.rulesets.blood_royale.board import Counter, Province, board, province_name
from adjudicator.rulesets.blood_royale.control import end_of_round, snapshot_garrisons
from adjudicator.rulesets.blood_royale.counters import find_counter
from adjudicator.rulesets.blood_royale.events import CounterMoved, KingdomOrderDrawn, UnitMoved
from adjudicator.rulesets.blood_royale.events_die import roll_event_die
from adjudicator.rulesets.blood_royale.orders import CarryOrder, MoveOrder
from adjudicator.rulesets.blood_royale.tables import BRRules, br_rules
from adjudicator.rulesets.blood_royale.turnstate import BRTurn, Route
from adjudicator.rulesets.blood_royale.world import (
    LAND,
    SEA,
    castle_holder,
    find_province,
    is_coastal,
    is_hostile_to,
    shortest_path,
    sides_in,
    unit_side,
)
from adjudicator.state import GameState, Unit

ContactResolver = Callable[[TurnContext, str, str, int], list[str]]


# -- static checks -----------------------------------------------------------------


def resolve_path(state: GameState, start: str,
                 legs: tuple[tuple[str, ...], ...]) -> tuple[list[list[str]], str | None]:
    """Province tokens to ids, each next to the one before; or the reason why not."""
    resolved: list[list[str]] = []
    here = start
    for leg in legs:
        resolved.append([])
        for token in leg:
            province = find_province(state, token)
            if province is None:
                return [], msg("there is no province %(token)s", token=repr(token))
            if province.id not in board(state).provinces[here].neighbours:
                return [], (msg("%(province)s does not border %(here)s",
                                province=province_name(province),
                                here=province_name(board(state).provinces[here])))
            resolved[-1].append(province.id)
            here = province.id
    return resolved, None


def check_lengths(what: str, target: Province, legs: list[list[str]], per_round: int,
                  rounds: int) -> str | None:
    """Leg by leg with 'then', or the whole path over the turn's rounds."""
    if len(legs) > rounds:
        return msg("%(what)s has %(legs)s legs, but a turn has %(rounds)s rounds", what=what,
                   legs=len(legs), rounds=rounds)
    if len(legs) > 1:
        for leg in legs:
            if len(leg) > per_round:
                return msg("%(what)s cannot reach %(target)s this round: %(provinces)s "
                           "provinces, %(per_round)s allowed", what=what,
                           target=target_name(leg, target), provinces=len(leg),
                           per_round=per_round)
        return None
    total = len(legs[0])
    if total > per_round * rounds:
        return msg("%(what)s cannot reach %(target)s this turn: %(total)s provinces, "
                   "%(allowed)s allowed (%(per_round)s per round)", what=what,
                   target=province_name(target), total=total, allowed=per_round * rounds,
                   per_round=per_round)
    return None


def target_name(leg: list[str], fallback: Province) -> str:
    # A leg's last step is as the player wrote it, not a province's name.
    return leg[-1] if leg else province_name(fallback)


def check_terrain(state: GameState, unit_type: str, legs: list[list[str]],
                  typed: BRRules) -> str | None:
    kind = typed.unit_type(unit_type)
    for leg in legs:
        for pid in leg:
            province = board(state).provinces[pid]
            if kind.naval and province.kind == LAND and not is_coastal(state, province):
                return msg("%(unit_type)s units cannot sail inland to %(province)s",
                           unit_type=unit_type_name(unit_type), province=province_name(province))
        if not (kind.naval or kind.flying) and board(state).provinces[leg[-1]].kind == SEA:
            return msg("%(unit_type)s units cannot end a move at sea (%(name)s)",
                       unit_type=unit_type_name(unit_type),
                       name=province_name(board(state).provinces[leg[-1]]))
    return None


def check_move(state: GameState, order: MoveOrder, unit_type: str, start: str,
               rules: Mapping[str, Any]) -> str | None:
    """The checks that do not depend on the turn: names, borders, lengths, terrain."""
    typed = br_rules(rules)
    legs, reason = _checked_path(state, start, order.legs, msg_in("subject", "unit %(unit)s",
                                                                  unit=order.unit),
                                 typed.movement.moves, typed.movement.rounds)
    return reason or check_terrain(state, unit_type, legs, typed)


def check_carry(state: GameState, order: CarryOrder, start: str,
                rules: Mapping[str, Any]) -> str | None:
    typed = br_rules(rules)
    return _checked_path(state, start, order.legs, msg_in("subject", "counter %(counter)s",
                                                          counter=order.counter),
                         typed.movement.counter_moves, typed.movement.rounds)[1]


def _checked_path(state: GameState, start: str, tokens: tuple[tuple[str, ...], ...], what: str,
                  per_round: int, rounds: int) -> tuple[list[list[str]], str | None]:
    """A path's provinces by leg, or why its names, borders or lengths are wrong."""
    legs, reason = resolve_path(state, start, tokens)
    if reason is not None:
        return legs, reason
    target = board(state).provinces[legs[-1][-1]]
    for_names = [[board(state).provinces[p].name for p in leg] for leg in legs]
    return legs, check_lengths(what, target, for_names, per_round, rounds)


# -- who may go where ------------------------------------------------------------------


def _fleet_of(state: GameState, side: str, province: str, typed: BRRules) -> bool:
    return any(unit_side(state, u) == side and typed.is_naval(u.type)
               for u in state.units.values() if u.province == province)


def _foreign_units(state: GameState, side: str, province: str) -> list[str]:
    return sorted(h for h in sides_in(state, province) if h != side)


@dataclass
class Step:
    """The outcome of one round's move: provinces entered and why it stopped."""

    entered: list[str]
    stopped: str


def _enemy_ground(state: GameState, unit: Unit, side: str, province: Province) -> bool:
    """Land held by a house that gives ``side`` no passage; a unit lent by foreign
    intervention is still at home on its own house's land."""
    return province.kind == LAND and province.controller != unit.house \
        and is_hostile_to(state, side, province.controller)


def plan_unit_round(state: GameState, unit: Unit, side: str, path: list[str],
                    typed: BRRules) -> Step:
    """How far ``unit`` gets along ``path`` this round (pure: the state is not changed)."""
    kind = typed.unit_type(unit.type)
    here = unit.province or ""
    start = board(state).provinces[here]
    allowance = typed.movement.moves
    if _enemy_ground(state, unit, side, start):
        allowance = typed.movement.hostile_moves
    entered: list[str] = []
    stopped = ""
    for pid in path:
        province = board(state).provinces[pid]
        if len(entered) >= allowance:
            stopped = (msg("%(allowance)s provinces allowed this round", allowance=allowance)
                       if allowance > 1 else
                       msg("%(allowance)s province allowed this round", allowance=allowance))
            break
        if pid not in board(state).provinces[here].neighbours:
            stopped = msg("%(province)s does not border %(here)s",
                          province=province_name(province),
                          here=province_name(board(state).provinces[here]))
            break
        if province.kind == SEA and not (kind.naval or kind.flying) \
                and not _fleet_of(state, side, pid, typed):
            stopped = msg("no fleet of yours lies in the %(province)s to carry it",
                          province=province_name(province))
            break
        entered.append(pid)
        here = pid
        others = _foreign_units(state, side, pid)
        if others:
            stopped = msg("units of %(houses)s stand in %(province)s",
                          houses=tuple(house_id(h) for h in others),
                          province=province_name(province))
            break
        if _enemy_ground(state, unit, side, province):
            stopped = msg("%(province)s is enemy ground", province=province_name(province))
            break
    if not (kind.naval or kind.flying):
        while entered and board(state).provinces[entered[-1]].kind == SEA:
            entered.pop()
            stopped = msg("it cannot end a round at sea")
    return Step(entered=entered, stopped=stopped)


def counter_can_enter(state: GameState, owner: str, province: Province,
                      typed: BRRules) -> bool:
    if province.kind == SEA:
        return _fleet_of(state, owner, province.id, typed)
    return not is_hostile_to(state, owner, province.controller)


def _safe(state: GameState, owner: str, province: Province, typed: BRRules) -> bool:
    return counter_can_enter(state, owner, province, typed) and not any(
        is_hostile_to(state, side, owner) for side in sides_in(state, province.id))


def auto_route(state: GameState, counter: Counter, typed: BRRules) -> list[str]:
    """The counter's default path to its owner's capital (empty when none or there)."""
    capital = state.houses[counter.owner].capital
    if capital is None or capital not in board(state).provinces:
        return []
    path = shortest_path(state, counter.province, capital,
                         lambda p: _safe(state, counter.owner, p, typed))
    return path or []


# -- one round ------------------------------------------------------------------------


def _round_path(route: Route | None) -> list[str]:
    return list(route.legs[0]) if route is not None and route.legs else []


def _consume(ctx: TurnContext, route: Route, used: int, stopped: str) -> None:
    """Drop what was walked. With 'then' legs the rest of this round's leg is lost;
    otherwise the rest waits for the next round."""
    rest = route.legs[0][used:]
    if stopped:
        route.stopped = stopped
    if route.split_legs:
        route.legs.pop(0)
        if rest:
            ctx.notify(route.house, msg("%(text)s: stopped short this round (%(stopped)s); the "
                                        "rest of that leg is lost", text=route.order.text,
                                        stopped=stopped))
    elif rest:
        route.legs[0] = rest
    else:
        route.legs.pop(0)


def move_unit(ctx: TurnContext, uid: str, route: Route, round_no: int) -> None:
    state = ctx.state
    unit = state.units.get(uid)
    if unit is None:
        route.legs = []
        ctx.notify(route.house, msg("%(text)s: unit %(uid)s no longer exists",
                                    text=route.order.text, uid=uid))
        return
    step = plan_unit_round(state, unit, route.house, _round_path(route), br_rules(ctx.rules))
    start = unit.province
    if step.entered:
        unit.province = step.entered[-1]
    ctx.emit(UnitMoved(phase=ctx.dice.phase, house=route.house, unit=uid, owner=unit.house,
                       round=round_no, path=tuple(step.entered), stopped=step.stopped,
                       start=start))
    _consume(ctx, route, len(step.entered), step.stopped)


def move_counter(ctx: TurnContext, counter: Counter, route: Route | None, round_no: int) -> None:
    """Along the carry route, else the automatic route, up to 4 provinces a round."""
    state = ctx.state
    typed = br_rules(ctx.rules)
    path = _round_path(route) if route is not None else auto_route(state, counter, typed)
    entered: list[str] = []
    stopped = ""
    here = counter.province
    for pid in path[:typed.movement.counter_moves]:
        province = board(state).provinces[pid]
        if pid not in board(state).provinces[here].neighbours:
            stopped = msg("%(province)s does not border %(here)s",
                          province=province_name(province),
                          here=province_name(board(state).provinces[here]))
            break
        if not counter_can_enter(state, counter.owner, province, typed):
            stopped = msg("%(province)s is closed to it", province=province_name(province))
            break
        entered.append(pid)
        here = pid
    if entered:
        counter.province = entered[-1]
        ctx.emit(CounterMoved(phase=ctx.dice.phase, house=counter.owner, counter=counter.id,
                              good=counter.good, round=round_no, path=tuple(entered)))
    if route is not None:
        limit = typed.movement.counter_moves
        _consume(ctx, route, len(entered), stopped or (
            msg("%(limit)s provinces allowed this round", limit=limit)
            if len(path) > len(entered) else ""))


def settle_contacts(ctx: TurnContext, side: str, round_no: int,
                    resolve_contacts: ContactResolver) -> None:
    """Every province where ``side``'s units meet another house's units or castle,
    in map order."""
    state = ctx.state
    for pid in list(board(state).provinces):
        sides = sides_in(state, pid)
        if side in sides and (len(sides) > 1 or castle_holder(
                state, board(state).provinces[pid]) not in (None, side)):
            resolve_contacts(ctx, pid, side, round_no)


def house_slot(ctx: TurnContext, turn: BRTurn, house: str, round_no: int,
               resolve_contacts: ContactResolver) -> None:
    """One kingdom's slot: event die, units, counters, contacts."""
    state = ctx.state
    roll_event_die(ctx, turn, house, round_no)
    if state.houses[house].eliminated:
        return
    for uid, unit_route in list(turn.unit_routes.items()):
        if unit_route.house == house and unit_route.legs:
            move_unit(ctx, uid, unit_route, round_no)
    capital = state.houses[house].capital
    for counter in list(board(state).counters):
        if counter.owner != house:
            continue
        route = turn.counter_routes.get(counter.id)
        if route is not None and route.house != house:
            del turn.counter_routes[counter.id]
            route = None
        if route is None and counter.province != capital:
            move_counter(ctx, counter, None, round_no)
        elif route is not None and route.legs:
            move_counter(ctx, counter, route, round_no)
    settle_contacts(ctx, house, round_no, resolve_contacts)


def run_round(ctx: TurnContext, turn: BRTurn, round_no: int,
              resolve_contacts: ContactResolver) -> None:
    ctx.dice.set_phase(f"movement-{round_no}")
    houses = sorted(h.id for h in ctx.state.active_houses())
    order = ctx.dice.shuffled(houses, "kingdom order")
    ctx.emit(KingdomOrderDrawn(phase=ctx.dice.phase, round=round_no, order=tuple(order)))
    snapshot_garrisons(ctx, turn)
    turn.breached.clear()
    for house in order:
        if not ctx.state.houses[house].eliminated:
            house_slot(ctx, turn, house, round_no, resolve_contacts)
    end_of_round(ctx, turn, round_no)


# -- the turn's routes ------------------------------------------------------------------


def plan_routes(ctx: TurnContext, turn: BRTurn) -> None:
    """Read every house's move and carry orders into routes, after the interphase."""
    state = ctx.state
    for house in sorted(ctx.sheets):
        if house not in state.houses or state.houses[house].eliminated:
            continue
        claimed: set[str] = set(turn.counter_routes)
        for order in ctx.sheets[house].orders:
            if isinstance(order, MoveOrder):
                _plan_move(ctx, turn, house, order)
            elif isinstance(order, CarryOrder):
                _plan_carry(ctx, turn, house, order, claimed)


def _route(order: Order, house: str, legs: list[list[str]]) -> Route:
    return Route(order=order, house=house, legs=[list(leg) for leg in legs],
                 split_legs=len(legs) > 1)


def _plan_move(ctx: TurnContext, turn: BRTurn, house: str, order: MoveOrder) -> None:
    unit = ctx.state.units.get(order.unit)
    if unit is None or unit.province is None:
        ctx.reject(house, order, msg("unit %(unit)s no longer exists", unit=order.unit))
        return
    if unit_side(ctx.state, unit) != house:
        ctx.reject(house, order, msg("unit %(unit)s is not under your orders this turn",
                                     unit=order.unit))
        return
    legs, reason = resolve_path(ctx.state, unit.province, order.legs)
    if reason is not None:
        ctx.reject(house, order, reason)
        return
    turn.unit_routes[unit.id] = _route(order, house, legs)


def _plan_carry(ctx: TurnContext, turn: BRTurn, house: str, order: CarryOrder,
                claimed: set[str]) -> None:
    counter = find_counter(ctx.state, house, order.counter, order.source, claimed)
    if counter is None:
        ctx.reject(house, order, msg("you have no counter %(counter)s in %(source)s to carry",
                                     counter=order.counter, source=order.source)
                   if order.source else
                   msg("you have no counter %(counter)s to carry", counter=order.counter))
        return
    legs, reason = resolve_path(ctx.state, counter.province, order.legs)
    if reason is not None:
        ctx.reject(house, order, reason)
        return
    claimed.add(counter.id)
    turn.counter_routes[counter.id] = _route(order, house, legs)


def run_movement(ctx: TurnContext, turn: BRTurn, resolve_contacts: ContactResolver) -> None:
    """All movement rounds of the turn (B2.3)."""
    plan_routes(ctx, turn)
    for round_no in range(1, br_rules(ctx.rules).movement.rounds + 1):
        run_round(ctx, turn, round_no, resolve_contacts)
    for route in [*turn.unit_routes.values(), *turn.counter_routes.values()]:
        left = sum(len(leg) for leg in route.legs)
        if left:
            ctx.notify(route.house, _still_to_go(route.order.text, left, route.stopped))


def _still_to_go(text: str, left: int, stopped: str) -> Message:
    """The notice of a route the turn's rounds did not finish."""
    if left > 1:
        if stopped:
            return msg("%(text)s: the turn ended with %(left)s provinces still to go "
                       "(last stop: %(stopped)s)", text=text, left=left, stopped=stopped)
        return msg("%(text)s: the turn ended with %(left)s provinces still to go",
                   text=text, left=left)
    if stopped:
        return msg("%(text)s: the turn ended with %(left)s province still to go "
                   "(last stop: %(stopped)s)", text=text, left=left, stopped=stopped)
    return msg("%(text)s: the turn ended with %(left)s province still to go",
               text=text, left=left)
