"""Battles (RULES.md B6), and the capture of beaten commanders (A9).

``resolve_contacts`` is called after a house moved: it settles every contact
between that house and each other house in the province, in house-id order.
The numbers come from ``content/rulesets/blood-royale/battle.toml``; the
stances and the ways of ending a battle are standing orders
(``battle_orders``). A battle runs:

1. **Sides.** Every unit with armies in the province fights for the house
   commanding it (a unit lent by foreign intervention fights for the king it
   serves). The attacker is the house whose stance started the battle. Allies
   of either house present fight beside it as one side (B6 alliances): units
   pooled, losses from the side's largest unit, each house's end orders for
   its own units.
2. **Castle** [D]. The defender fights in its own capital with the castle as
   extra strength, provided no other house controls the capital. The castle
   counts in the defender's strength, absorbs its losses before any unit
   does, and is whole again at the next battle. A house that attacks out of
   its own capital has no castle ("in defence only"). The castle fights even
   with no garrison: a mover left alone in an enemy capital at the end of its
   move storms it if its stance is to attack, and the capital changes hands
   only once its castle has fallen (``control``).
3. **Preliminary rolls.** Every commander rolls 2d6 + Command: killed, captured
   by the enemy, or a bonus for his side on every round. The bonus is counted
   once per side, however many commanders earn it [D].
4. **Rounds.** Both sides roll at once; modifiers: the best command value
   among the side's units, outnumbering (strength, castle included), the
   defender in its capital, the preliminary bonus. Losses come from the
   casualty table, capped at a third of the inflicting side's own strength
   (armies + castle) at the start of the round, and at what the enemy has.
5. **Losses** [D] are taken one army at a time from the side's largest unit
   (ties: the lowest unit id), after the castle is gone. A unit brought to
   0 armies is destroyed; its commanders are captured at 1/2 as if they had
   fled (A9), and those who escape are left without a unit.
6. **After each round:** a side with no units left is eliminated. Otherwise
   each unit follows its own standing order if it has one, judged on its own
   armies and losses; else the house's, judged on the whole side's armies
   (castle not counted) and losses. Units that flee or surrender leave the
   field; the battle ends when a side has no unit left on it.
7. **Round limit** [D]: after ``max_rounds`` rounds the attacker withdraws,
   every unit it has left fleeing as in a flight.
8. **Flight.** Each commander of a fleeing unit is captured at 1/2 (A9); the
   unit moves one province (``retreat_destination``) or is destroyed if it has
   nowhere to go. Once the battle is recorded, a flight into a province
   holding another house's units settles contacts there, the fleeing house
   acting as the mover, at most ``max_chained_battles`` deep.
9. **Surrender** [D]: the unit's commanders are all taken prisoner, and its
   armies are lost with it.

Every army killed, surrendered or destroyed is lost to its owner's pool and
returns after the economy's ``lost_return_turns`` (``forces.record_lost``);
a unit that leaves the map is removed by ``forces.remove_unit``. Dice: a
battle rolls in the phase ``battle-<movement round>``, so that no battle
shifts the movement rolls.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from adjudicator.dynastic.capture import capture_commanders, take_prisoner
from adjudicator.dynastic.command import unit_command_value, unit_key
from adjudicator.dynastic.people import kill
from adjudicator.errors import RulesDataError
from adjudicator.events import Event
from adjudicator.rulesets.base import TurnContext, typed_tables
from adjudicator.rulesets.blood_royale.battle_orders import (
    end_rule,
    preferred_retreat,
    stance_towards,
)
from adjudicator.rulesets.blood_royale.board import Province, board
from adjudicator.rulesets.blood_royale.forces import record_lost, remove_unit
from adjudicator.rulesets.blood_royale.standing import Leaving, Stance
from adjudicator.rulesets.blood_royale.tables import br_rules
from adjudicator.rulesets.blood_royale.turnstate import br_turn
from adjudicator.rulesets.blood_royale.world import (
    SEA,
    allied,
    castle_holder,
    is_coastal,
    passage_allowed,
    sides_in,
    unit_side,
)
from adjudicator.state import GameState, Unit


class Preliminary(StrEnum):
    """What a commander's preliminary roll does (B6 step 3)."""

    KILLED = "killed"
    CAPTURED = "captured"
    BONUS = "bonus"
    NO_EFFECT = "none"


class Outcome(StrEnum):
    """How a side's battle ended: how its last unit to go left the field."""

    HELD = "held"
    ELIMINATED = "eliminated"
    FLED = "fled"
    SURRENDERED = "surrendered"
    WITHDREW = "withdrew"


# -- the tables ---------------------------------------------------------------------


@dataclass(frozen=True)
class BattleRules:
    """Typed view of ``rules["battle"]`` (battle.toml)."""

    castle: int
    prelim_dice: int
    prelim_sides: int
    killed_at_most: int
    captured_at_most: int
    bonus_at_least: int
    bonus: int
    round_sides: int
    max_rounds: int
    outnumber_ratio: int
    outnumber_bonus: int
    capital_bonus: int
    cap_divisor: int
    cap_round_up: bool
    casualties: tuple[tuple[int, int], ...]
    max_chain: int

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> BattleRules:
        try:
            p, r = data["preliminary"], data["rounds"]
            table = cls(
                castle=int(data["castle"]["strength"]),
                prelim_dice=int(p["dice"]),
                prelim_sides=int(p["sides"]),
                killed_at_most=int(p["killed_at_most"]),
                captured_at_most=int(p["captured_at_most"]),
                bonus_at_least=int(p["bonus_at_least"]),
                bonus=int(p["bonus"]),
                round_sides=int(r["sides"]),
                max_rounds=int(r["max_rounds"]),
                outnumber_ratio=int(r["outnumber_ratio"]),
                outnumber_bonus=int(r["outnumber_bonus"]),
                capital_bonus=int(r["capital_bonus"]),
                cap_divisor=int(r["cap_divisor"]),
                cap_round_up=bool(r["cap_round_up"]),
                casualties=tuple((int(lo), int(n)) for lo, n in r["casualties"]),
                max_chain=int(data["flight"]["max_chained_battles"]),
            )
        except (KeyError, TypeError, ValueError) as err:
            raise RulesDataError(f"battle rules: missing or bad entry {err}") from err
        lows = [lo for lo, _ in table.casualties]
        if lows != sorted(set(lows)):
            raise RulesDataError("battle rules: casualty rows must rise strictly")
        if table.cap_divisor < 1 or table.max_rounds < 1 or table.castle < 0:
            raise RulesDataError("battle rules: cap_divisor and max_rounds must be positive")
        if not table.killed_at_most < table.captured_at_most < table.bonus_at_least:
            raise RulesDataError("battle rules: preliminary ranges must not overlap")
        return table

    def losses(self, total: int) -> int:
        """The casualty table: losses inflicted by a modified roll."""
        inflicted = 0
        for lowest, losses in self.casualties:
            if total >= lowest:
                inflicted = losses
        return inflicted

    def cap(self, strength: int) -> int:
        """The most a side of ``strength`` may inflict in one round (a third)."""
        whole, rest = divmod(strength, self.cap_divisor)
        return whole + (1 if rest and self.cap_round_up else 0)

    def preliminary(self, total: int) -> Preliminary:
        """What a commander's preliminary roll of ``total`` does."""
        if total <= self.killed_at_most:
            return Preliminary.KILLED
        if total <= self.captured_at_most:
            return Preliminary.CAPTURED
        if total >= self.bonus_at_least:
            return Preliminary.BONUS
        return Preliminary.NO_EFFECT


def battle_rules(rules: Mapping[str, Any]) -> BattleRules:
    """The typed B6 tables of a rules mapping, parsed once per mapping."""
    return typed_tables(rules, "battle", lambda r: BattleRules.from_mapping(r["battle"]),
                        BattleRules)


# -- the record ------------------------------------------------------------------------


@dataclass(frozen=True)
class BattleSide:
    """One house's side of a battle (DESIGN.md ``battles[].sides``).

    ``armies_after``: the armies its starting units still have, wherever they
    fled; ``losses``: armies killed; ``commanders``: at the start; ``castle``:
    its starting castle strength; ``allies``: the houses fighting beside ``house``
    as one side (B6 alliances), whose units are among ``units``.
    """

    house: str
    units: tuple[str, ...]
    armies_before: int
    commanders: tuple[str, ...]
    castle: int
    armies_after: int
    losses: int
    outcome: Outcome
    allies: tuple[str, ...] = ()


@dataclass(frozen=True)
class RoundRoll:
    """One side's roll in one round (DESIGN.md ``battles[].rounds``)."""

    die: int
    modifiers: dict[str, int]
    total: int
    losses_inflicted: int
    armies_after: int
    castle_after: int | None = None  # None: the side has no castle

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"die": self.die, "modifiers": dict(self.modifiers),
                                "total": self.total, "losses_inflicted": self.losses_inflicted,
                                "armies_after": self.armies_after}
        if self.castle_after is not None:
            data["castle_after"] = self.castle_after
        return data


@dataclass(frozen=True)
class PreliminaryRoll:
    """One commander's preliminary roll (B6 step 3)."""

    person: str
    house: str
    unit: str
    die: int
    faces: tuple[int, ...]
    command: int
    total: int
    result: Preliminary


@dataclass(frozen=True)
class Flight:
    """A unit that fled; ``to`` is None when it found nowhere to go and was destroyed."""

    unit: str
    house: str
    to: str | None


@dataclass(frozen=True, kw_only=True)
class BattleFought(Event):
    """One battle, complete enough to write its published account (B6).

    ``rounds``: per round, each house's roll.
    """

    kind: ClassVar[str] = "battle"
    id: str
    turn: int
    round: int
    province: str
    attacker: str
    defender: str
    sides: tuple[BattleSide, ...]
    rounds: tuple[Mapping[str, RoundRoll], ...]
    preliminary: tuple[PreliminaryRoll, ...] = ()
    winner: str | None = None
    captured: tuple[str, ...] = ()
    killed: tuple[str, ...] = ()
    fled: tuple[Flight, ...] = ()
    surrendered: tuple[str, ...] = ()
    destroyed: tuple[str, ...] = ()

    def payload(self) -> dict[str, Any]:
        data = super().payload()
        data["rounds"] = [{house: roll.to_dict() for house, roll in entry.items()}
                          for entry in self.rounds]
        return data

    def subjects(self) -> list[str]:
        seen = [p for side in self.sides for p in side.commanders]
        return list(dict.fromkeys([*seen, *self.captured, *self.killed]))

    def houses(self) -> list[str]:
        return [self.attacker, self.defender,
                *(ally for side in self.sides for ally in side.allies)]


# -- one battle in progress ------------------------------------------------------------------


@dataclass
class _Side:
    """One side of a battle: the house it is named after, and its allies beside it."""

    house: str
    enemy: str
    units: list[str]
    allies: tuple[str, ...] = ()
    castle: int = 0
    in_capital: bool = False
    bonus: bool = False
    losses: int = 0
    unit_losses: dict[str, int] = field(default_factory=dict)
    house_losses: dict[str, int] = field(default_factory=dict)
    outcome: Outcome = Outcome.HELD

    def armies(self, state: GameState) -> int:
        return sum(state.units[u].armies for u in self.units)

    def strength(self, state: GameState) -> int:
        return self.armies(state) + self.castle

    def standing(self) -> bool:
        """Whether the side is still on the field: a unit, or a castle not yet fallen."""
        return bool(self.units) or self.castle > 0


@dataclass
class _Record:
    preliminary: list[PreliminaryRoll] = field(default_factory=list)
    rounds: list[dict[str, RoundRoll]] = field(default_factory=list)
    captured: list[str] = field(default_factory=list)
    killed: list[str] = field(default_factory=list)
    fled: list[Flight] = field(default_factory=list)
    surrendered: list[str] = field(default_factory=list)
    destroyed: list[str] = field(default_factory=list)
    lost: dict[str, int] = field(default_factory=dict)

    def lose(self, owner: str, armies: int) -> None:
        self.lost[owner] = self.lost.get(owner, 0) + armies


def _fighters(state: GameState, province: str) -> dict[str, list[Unit]]:
    """The units with armies in ``province``, by the house commanding them."""
    found: dict[str, list[Unit]] = {}
    for house, units in sides_in(state, province).items():
        armed = sorted((u for u in units if u.armies > 0), key=lambda u: unit_key(u.id))
        if armed:
            found[house] = armed
    return found


def _free_commanders(state: GameState, unit: Unit) -> list[str]:
    """The unit's living, free commanders, in order of birth into the campaign."""
    found = [pid for pid in unit.commanders
             if state.persons[pid].died is None and state.persons[pid].prisoner_of is None]
    return sorted(found, key=lambda pid: state.persons[pid].seq)


# -- where a fleeing unit goes -------------------------------------------------------------


def _fits(state: GameState, rules: Mapping[str, Any], unit: Unit, province: Province) -> bool:
    """Where a unit may stand (as in movement): fleets at sea or on a coast, flying
    units anywhere, the rest on land."""
    kind = br_rules(rules).unit_type(unit.type)
    if kind.naval:
        return province.kind == SEA or is_coastal(state, province)
    return province.kind != SEA or kind.flying


def _open_to(state: GameState, side: str, province: Province) -> bool:
    """A preferred retreat must be the side's, its host's (passage), or no one's."""
    owner = province.controller
    return owner is None or owner == side or passage_allowed(state, owner, side)


def retreat_destination(state: GameState, rules: Mapping[str, Any], unit: Unit,
                        side: str) -> str | None:
    """Where a unit fleeing from its province goes (B6 "Fleeing units") [D].

    1. Its preferred retreat (``retreat <unit> to <province>``), if adjacent,
       fit for the unit (land for armies; sea or coast for fleets) and held by its side,
       by a house allowing the side passage, or by no one.
    2. Else an adjacent province its side controls (for a fleet: an adjacent
       sea zone, which no one controls), preferring one without another
       house's units, then map order.
    3. Else None: the unit is destroyed.
    """
    assert unit.province is not None
    origin = board(state).provinces[unit.province]
    wanted = preferred_retreat(state, unit.house, unit.id)
    if wanted in origin.neighbours:
        target = board(state).provinces[wanted]
        if _fits(state, rules, unit, target) and _open_to(state, side, target):
            return target.id
    options: list[tuple[bool, int, str]] = []
    for index, pid in enumerate(origin.neighbours):
        province = board(state).provinces[pid]
        if not _fits(state, rules, unit, province):
            continue
        if province.controller == side or (province.kind == SEA and province.controller is None):
            occupied = any(h != side for h in _fighters(state, pid))
            options.append((occupied, index, pid))
    return min(options)[2] if options else None


# -- fighting ---------------------------------------------------------------------------------


def _modifiers(ctx: TurnContext, table: BattleRules, side: _Side, own: int,
               foe: int) -> dict[str, int]:
    """The named modifiers of one side's round roll (zeros left out)."""
    state = ctx.state
    found = {
        "command": max((unit_command_value(state, state.units[u], ctx.rules)
                        for u in side.units), default=0),
        "outnumber": table.outnumber_bonus if own >= table.outnumber_ratio * foe else 0,
        "capital": table.capital_bonus if side.in_capital else 0,
        "preliminary": table.bonus if side.bonus else 0,
    }
    return {name: value for name, value in found.items() if value}


def _preliminaries(ctx: TurnContext, table: BattleRules, sides: Sequence[_Side],
                   where: str, record: _Record, label: str) -> None:
    state = ctx.state
    for side in sides:
        for uid in side.units:
            for pid in _free_commanders(state, state.units[uid]):
                roll = ctx.dice.roll(table.prelim_dice, table.prelim_sides,
                                     "preliminary roll", pid)
                command = state.persons[pid].command
                result = table.preliminary(roll.total + command)
                record.preliminary.append(PreliminaryRoll(
                    person=pid, house=side.house, unit=uid, die=roll.total,
                    faces=tuple(roll.faces), command=command, total=roll.total + command,
                    result=result))
                if result is Preliminary.KILLED:
                    # Needed to live: one more than the killing totals (B6).
                    kill(ctx, pid, "battle", label, roll=roll.total + command,
                         needed=table.killed_at_most + 1)
                    record.killed.append(pid)
                elif result is Preliminary.CAPTURED:
                    take_prisoner(ctx, pid, side.enemy, where)
                    record.captured.append(pid)
                elif result is Preliminary.BONUS:
                    side.bonus = True


def _suffer(ctx: TurnContext, side: _Side, losses: int, where: str, record: _Record) -> None:
    """Apply one round's losses: the castle first, then the largest unit, army by army."""
    state = ctx.state
    absorbed = min(side.castle, losses)
    side.castle -= absorbed
    for _ in range(losses - absorbed):
        uid = min(side.units, key=lambda u: (-state.units[u].armies, unit_key(u)))
        unit = state.units[uid]
        unit.armies -= 1
        side.losses += 1
        side.unit_losses[uid] = side.unit_losses.get(uid, 0) + 1
        house = unit_side(state, unit)
        side.house_losses[house] = side.house_losses.get(house, 0) + 1
        record.lose(unit.house, 1)
    for uid in list(side.units):
        unit = state.units[uid]
        if unit.armies <= 0:
            side.units.remove(uid)
            side.outcome = Outcome.ELIMINATED
            record.destroyed.append(uid)
            record.captured.extend(capture_commanders(ctx, unit, side.enemy, where))
            remove_unit(ctx, unit, f"destroyed in battle at {board(state).provinces[where].name}")
    if not side.standing():
        side.outcome = Outcome.ELIMINATED


def _leave(ctx: TurnContext, side: _Side, uid: str, action: Leaving, where: str,
           record: _Record) -> None:
    """A unit flees or surrenders (B6 "Fleeing units", "Captures in defeat")."""
    state = ctx.state
    unit = state.units[uid]
    side.units.remove(uid)
    if action is Leaving.SURRENDER:
        side.outcome = Outcome.SURRENDERED
        for pid in _free_commanders(state, unit):
            take_prisoner(ctx, pid, side.enemy, where)
            record.captured.append(pid)
        record.surrendered.append(uid)
        record.lose(unit.house, unit.armies)
        remove_unit(ctx, unit, f"surrendered in battle at {board(state).provinces[where].name}")
        return
    if side.outcome is not Outcome.WITHDREW:
        side.outcome = Outcome.FLED
    record.captured.extend(capture_commanders(ctx, unit, side.enemy, where))
    house = unit_side(state, unit)
    destination = retreat_destination(state, ctx.rules, unit, house)
    record.fled.append(Flight(unit=uid, house=house, to=destination))
    if destination is None:
        record.destroyed.append(uid)
        record.lose(unit.house, unit.armies)
        remove_unit(ctx, unit, f"found no retreat from {board(state).provinces[where].name}")
    else:
        unit.province = destination


def _decisions(ctx: TurnContext, side: _Side) -> list[tuple[str, Leaving]]:
    """The units of ``side`` that flee or surrender after a round, by standing order.

    Each house's orders apply to its own units (B6 alliances); a house-wide rule is
    judged on that house's armies and losses on the side, which are the whole side's
    when it fights alone."""
    state = ctx.state
    armies: dict[str, int] = {}
    for uid in side.units:
        house = unit_side(state, state.units[uid])
        armies[house] = armies.get(house, 0) + state.units[uid].armies
    leaving: list[tuple[str, Leaving]] = []
    for uid in side.units:
        house = unit_side(state, state.units[uid])
        own = end_rule(state, ctx.rules, house, uid)
        if own is not None:
            action = own.decide(state.units[uid].armies, side.unit_losses.get(uid, 0))
        else:
            house_rule = end_rule(state, ctx.rules, house)
            assert house_rule is not None
            action = house_rule.decide(armies[house], side.house_losses.get(house, 0))
        if action is not None:
            leaving.append((uid, action))
    return leaving


def _rounds(ctx: TurnContext, table: BattleRules, attacker: _Side, defender: _Side,
            where: str, record: _Record) -> None:
    state = ctx.state
    pairs = ((attacker, defender), (defender, attacker))
    for _ in range(table.max_rounds):
        strength = {s.house: s.strength(state) for s in (attacker, defender)}
        rolled: dict[str, tuple[int, dict[str, int], int, int]] = {}
        for side, foe in pairs:
            die = ctx.dice.roll(1, table.round_sides, "battle round", side.house).total
            mods = _modifiers(ctx, table, side, strength[side.house], strength[foe.house])
            total = die + sum(mods.values())
            inflicted = min(table.losses(total), table.cap(strength[side.house]),
                            strength[foe.house])
            rolled[side.house] = (die, mods, total, inflicted)
        for side, foe in pairs:
            _suffer(ctx, foe, rolled[side.house][3], where, record)
        record.rounds.append({
            side.house: RoundRoll(*rolled[side.house], armies_after=side.armies(state),
                                  castle_after=side.castle if side.in_capital else None)
            for side in (attacker, defender)})
        if not attacker.standing() or not defender.standing():
            return
        leaving = [(side, uid, action) for side in (attacker, defender)
                   for uid, action in _decisions(ctx, side)]
        for side, uid, action in leaving:
            _leave(ctx, side, uid, action, where, record)
        if not attacker.standing() or not defender.standing():
            return
    attacker.outcome = Outcome.WITHDREW
    for uid in list(attacker.units):
        _leave(ctx, attacker, uid, Leaving.FLEE, where, record)


def _next_battle_id(ctx: TurnContext) -> str:
    count = sum(1 for e in ctx.events if isinstance(e, BattleFought) and e.turn == ctx.turn)
    return f"b-{ctx.turn}-{count + 1}"


def _battle(ctx: TurnContext, where: str, attacker: str, defender: str, round_no: int,
            depth: int) -> list[str]:
    """Fight one battle, record it, then settle the contacts its flights made."""
    state, table = ctx.state, battle_rules(ctx.rules)
    battle_id = _next_battle_id(ctx)
    present = _fighters(state, where)
    att = _side(state, present, attacker, defender)
    dfn = _side(state, present, defender, attacker)
    if castle_holder(state, board(state).provinces[where]) in (defender, *dfn.allies):
        dfn.castle, dfn.in_capital = table.castle, True
    starts = [(side, tuple(side.units), sum(state.units[u].armies for u in side.units),
               tuple(p for u in side.units for p in _free_commanders(state, state.units[u])),
               side.castle)
              for side in (att, dfn)]
    record = _Record()
    label = f"battle {battle_id} at {board(state).provinces[where].name}"
    _preliminaries(ctx, table, (att, dfn), where, record, label)
    _rounds(ctx, table, att, dfn, where, record)
    sides = tuple(
        BattleSide(house=side.house, units=units, armies_before=before, commanders=commanders,
                   castle=castle, allies=side.allies,
                   armies_after=sum(state.units[u].armies for u in units if u in state.units),
                   losses=side.losses,
                   outcome=Outcome.HELD if side.standing() else side.outcome)
        for side, units, before, commanders, castle in starts)
    for owner, armies in sorted(record.lost.items()):
        if owner in state.houses:
            record_lost(state, owner, armies, ctx.turn, ctx.rules)
    winner = None
    if att.standing() and not dfn.standing():
        winner = attacker
    elif dfn.standing() and not att.standing():
        winner = defender
    if dfn.in_capital and not dfn.castle:
        br_turn(ctx).breached.add(where)
    ctx.emit(BattleFought(
        phase=ctx.dice.phase, id=battle_id, turn=ctx.turn, round=round_no, province=where,
        attacker=attacker, defender=defender, sides=sides,
        rounds=tuple(record.rounds), preliminary=tuple(record.preliminary), winner=winner,
        captured=tuple(record.captured), killed=tuple(record.killed),
        fled=tuple(record.fled), surrendered=tuple(record.surrendered),
        destroyed=tuple(record.destroyed)))
    fought = [battle_id]
    if depth < table.max_chain:
        for house in (attacker, defender):
            destinations = [f.to for f in record.fled if f.house == house and f.to]
            for destination in dict.fromkeys(destinations):
                assert destination is not None
                fought.extend(_settle(ctx, destination, house, round_no, depth + 1))
    return fought


def _side(state: GameState, present: Mapping[str, list[Unit]], house: str,
          enemy: str) -> _Side:
    """``house`` and every ally of it present that is not also the enemy's ally: one
    side, its armies pooled (B6 alliances)."""
    allies = tuple(other for other in sorted(present)
                   if other not in (house, enemy) and allied(state, other, house)
                   and not allied(state, other, enemy))
    units = sorted((u.id for h in (house, *allies) for u in present.get(h, [])), key=unit_key)
    return _Side(house, enemy, units, allies)


def _attacker(state: GameState, mover: str, other: str,
              present: Mapping[str, list[Unit]]) -> str | None:
    """B6 "When a battle happens": the mover's stance decides, else the other's."""
    if any(stance_towards(state, mover, u, other) is Stance.ATTACK for u in present[other]):
        return mover
    if any(stance_towards(state, other, u, mover) is Stance.ATTACK for u in present[mover]):
        return other
    return None


def _settle(ctx: TurnContext, where: str, mover: str, round_no: int, depth: int) -> list[str]:
    fought: list[str] = []
    for other in sorted(_fighters(ctx.state, where)):
        present = _fighters(ctx.state, where)
        if mover not in present:
            break
        if other == mover or other not in present:
            continue
        attacker = _attacker(ctx.state, mover, other, present)
        if attacker is not None:
            defender = other if attacker == mover else mover
            fought.extend(_battle(ctx, where, attacker, defender, round_no, depth))
    if depth == 0:
        fought.extend(_storm(ctx, where, mover, round_no))
    return fought


def _storm(ctx: TurnContext, where: str, mover: str, round_no: int) -> list[str]:
    """B6 [D] "The castle fights even with no garrison": a mover left alone (or with
    its allies) in an enemy capital fights its castle, if its stance towards that house
    is to attack.
    Only at the end of a kingdom's move: a flight into a capital storms nothing."""
    state = ctx.state
    holder = castle_holder(state, board(state).provinces[where])
    present = _fighters(state, where)
    if (holder is None or holder == mover or mover not in present
            or any(h != mover and not allied(state, h, mover) for h in present)
            or where in br_turn(ctx).breached):
        return []
    if stance_towards(state, mover, None, holder) is not Stance.ATTACK:
        return []
    return _battle(ctx, where, mover, holder, round_no, 0)


def resolve_contacts(ctx: TurnContext, province_id: str, mover: str, round_no: int) -> list[str]:
    """Settle every contact between ``mover`` and the other houses in ``province_id``.

    Called after ``mover`` moved in movement round ``round_no`` (B2.3). Fights
    whatever battles the stances call for (and those the flights start),
    emits one ``BattleFought`` per battle, and returns their ids in order.
    """
    previous = ctx.dice.phase
    ctx.dice.set_phase(f"battle-{round_no}")
    try:
        return _settle(ctx, province_id, mover, round_no, 0)
    finally:
        ctx.dice.set_phase(previous)
