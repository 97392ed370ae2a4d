"""The end of a movement round: control markers, seized counters, revolts put down.

B3 [D]: a house places its marker on a province its units hold unopposed at
the end of a round. A marker on one's own home province is simply removed
(the home kingdom controls it again). Fleets in port take nothing, and a
guest never takes the province of the house that let it pass.

B6 [D]: an enemy capital changes hands, and gives up its goods, only once its
castle has fallen in a battle of the round.

B4 [D]: a counter in a province where enemy units stand and none of its
owner's do is taken by that enemy (the strongest, if several).

B5: a revolt ends when 4 or more of the controller's armies stay in the
province through a whole round: units there at the start of the round and
still there at its end.
"""

from __future__ import annotations

from adjudicator.rulesets.base import TurnContext
from adjudicator.rulesets.blood_royale.board import Province, board
from adjudicator.rulesets.blood_royale.events import ControlChanged, CounterSeized, RevoltEnded
from adjudicator.rulesets.blood_royale.tables import br_rules
from adjudicator.rulesets.blood_royale.turnstate import BRTurn
from adjudicator.rulesets.blood_royale.world import (
    LAND,
    castle_holder,
    is_hostile_to,
    passage_allowed,
    sides_in,
    unit_side,
)
from adjudicator.state import GameState


def snapshot_garrisons(ctx: TurnContext, turn: BRTurn) -> None:
    """At the start of a round: the controller's units in each province in revolt."""
    state = ctx.state
    turn.garrisons = {}
    for province in board(state).provinces.values():
        if province.revolt and province.controller:
            turn.garrisons[province.id] = {
                u.id for u in state.units.values()
                if u.province == province.id and unit_side(state, u) == province.controller}


def _castle_stands(state: GameState, turn: BRTurn, province: Province) -> bool:
    return castle_holder(state, province) is not None and province.id not in turn.breached


def place_markers(ctx: TurnContext, turn: BRTurn, round_no: int) -> None:
    state = ctx.state
    typed = br_rules(ctx.rules)
    for province in board(state).provinces.values():
        if province.kind != LAND or _castle_stands(state, turn, province):
            continue
        holders = sorted({side for side, units in sides_in(state, province.id).items()
                          if any(not typed.is_naval(u.type) for u in units)})
        if len(holders) != 1:
            continue
        side = holders[0]
        previous = province.controller
        if previous == side or state.houses[side].eliminated:
            continue
        if previous is not None and passage_allowed(state, previous, side):
            continue
        province.controller = side
        ctx.emit(ControlChanged(phase=ctx.dice.phase, province=province.id, previous=previous,
                                controller=side, round=round_no))


def seize_counters(ctx: TurnContext, turn: BRTurn, round_no: int) -> None:
    state = ctx.state
    for counter in board(state).counters:
        sides = sides_in(state, counter.province)
        if not sides or counter.owner in sides or _castle_stands(
                state, turn, board(state).provinces[counter.province]):
            continue
        enemies = [(-sum(u.armies for u in units), side) for side, units in sides.items()
                   if is_hostile_to(state, side, counter.owner)]
        if not enemies:
            continue
        taker = min(enemies)[1]
        previous = counter.owner
        counter.owner = taker
        ctx.emit(CounterSeized(phase=ctx.dice.phase, house=taker, counter=counter.id,
                               good=counter.good, province=counter.province,
                               previous=previous, round=round_no))


def end_revolts_by_garrison(ctx: TurnContext, turn: BRTurn) -> None:
    state = ctx.state
    needed = br_rules(ctx.rules).events.garrison
    for pid, stayed in sorted(turn.garrisons.items()):
        province = board(state).provinces[pid]
        if not province.revolt or province.controller is None:
            continue
        armies = sum(u.armies for uid, u in state.units.items()
                     if uid in stayed and u.province == pid
                     and unit_side(state, u) == province.controller)
        if armies >= needed:
            province.revolt = False
            ctx.emit(RevoltEnded(phase=ctx.dice.phase, house=province.controller,
                                 province=pid, cause="garrison"))


def end_of_round(ctx: TurnContext, turn: BRTurn, round_no: int) -> None:
    """Markers first, so a counter in a province just taken is judged by the new map."""
    place_markers(ctx, turn, round_no)
    seize_counters(ctx, turn, round_no)
    end_revolts_by_garrison(ctx, turn)
