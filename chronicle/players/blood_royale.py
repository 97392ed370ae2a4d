"""The built-in Blood Royale player: war and economy orders over the dynasty ones.

It reads only the public state, like a human player, and writes an ordinary
order file. What it does each turn:

* **money**: extraordinary tax when the treasury runs low (never while a
  province is in revolt), buy off revolts it can afford, raise armies in the
  capital up to its personality's target strength, keeping a reserve;
* **defence**: a garrison stays in the capital; home provinces held by others
  are retaken first, and the field army comes home when enemies stand near;
* **war**: an ambitious house (or a mercantile one grown strong) sends a field
  army, split off the capital's unit, at the weakest foreign province next to
  its land, never at a well-defended castle;
* **trade**: counters go home on their own; every built-in player runs the same
  public market, so two built-in houses swap a surplus basic good for a missing
  one in the same turn, and let each other pass so the goods can travel;
* **friends**: passage for houses tied by a living marriage and for trade partners;
* **prisoners**: ransom or keep, through the dynasty player.

``personality`` is ``cautious``, ``ambitious`` or ``mercantile``. Chance comes
from ``random.Random(rng_seed)`` only. Lines the rules would refuse at once
are dropped before the file is written, so the player sends legal orders
(a line can still fail on what the turn brings, like a human's).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.orders import parse_orders
from adjudicator.rulesets.blood_royale.economy import upkeep_due
from adjudicator.rulesets.blood_royale.forces import army_pool, next_unit_id
from adjudicator.rulesets.blood_royale.ruleset import BLOOD_ROYALE_GRAMMAR
from adjudicator.rulesets.blood_royale.scoring import goods_in_capital
from adjudicator.rulesets.blood_royale.tables import BRRules, br_rules
from adjudicator.rulesets.blood_royale.validation import validate_blood_royale
from adjudicator.rulesets.blood_royale.world import (
    LAND,
    controlled,
    home_provinces,
    is_hostile_to,
    passage_allowed,
    productive,
    shortest_path,
    sides_in,
    unit_side,
)
from adjudicator.state import GameState, Province, Unit


@dataclass(frozen=True)
class Temper:
    """How a personality weighs money against war."""

    reserve: int          # crowns kept back after raising
    poor: int             # below this (after taxes and upkeep) taxes go extraordinary
    strength: int         # armies it wants on the map
    garrison: int         # armies kept in the capital
    attack_from: int      # a field army at least this large goes to war (0: never)
    end_order: str        # its standing order for ending battles


TEMPERS = {
    "cautious": Temper(reserve=40, poor=15, strength=9, garrison=6, attack_from=0,
                       end_order="flee when below 3 armies"),
    "ambitious": Temper(reserve=10, poor=45, strength=16, garrison=4, attack_from=4,
                        end_order="fight to the end"),
    "mercantile": Temper(reserve=30, poor=30, strength=8, garrison=5, attack_from=9,
                         end_order="flee when losses reach 4"),
}


class Planner:
    """One house's turn of thinking; every method appends order lines."""

    def __init__(self, state: GameState, house: str, rules: Mapping[str, Any],
                 personality: str, rng: random.Random) -> None:
        self.state = state
        self.house = house
        self.rules = rules
        self.typed: BRRules = br_rules(rules)
        self.temper = TEMPERS.get(personality, TEMPERS["cautious"])
        self.rng = rng
        self.lines: list[str] = []
        record = state.houses[house]
        self.capital = record.capital or ""
        paying = [p for p in controlled(state, house) if productive(p)]
        self.income = len(paying) * self.typed.economy.tax_normal
        self.extra_income = len(paying) * self.typed.economy.tax_extraordinary
        self.money = record.treasury - upkeep_due(state, house, rules)
        self.friends: set[str] = set()

    # -- helpers ---------------------------------------------------------------
    def my_units(self) -> list[Unit]:
        return sorted((u for u in self.state.units.values()
                       if u.house == self.house and unit_side(self.state, u) == self.house
                       and not self.typed.is_naval(u.type)), key=lambda u: u.id)

    def hostile(self, province: Province) -> bool:
        return province.kind == LAND and is_hostile_to(self.state, self.house,
                                                         province.controller)

    def enemy_armies(self, pid: str) -> int:
        return sum(u.armies for side, units in sides_in(self.state, pid).items()
                   if side != self.house and side not in self.friends for u in units)

    def path(self, start: str, goal: str) -> list[str] | None:
        """Through friendly land to ``goal``; the last step may enter enemy land."""
        state = self.state

        def can_enter(p: Province) -> bool:
            return p.id == goal or (p.kind == LAND and not self.hostile(p)
                                    and not self.enemy_armies(p.id))

        found = shortest_path(state, start, goal, can_enter)
        limit = self.typed.movement.moves * self.typed.movement.rounds
        return found[:limit] if found else None

    def move(self, unit: str, path: list[str]) -> None:
        if path:
            self.lines.append(f"move {unit} to {' '.join(path)}")

    # -- money -----------------------------------------------------------------
    def taxes(self) -> None:
        revolts = any(p.revolt for p in controlled(self.state, self.house))
        if self.money + self.income < self.temper.poor and not revolts:
            self.lines.append("tax extraordinary")
            self.money += self.extra_income
        else:
            self.lines.append("tax normal")
            self.money += self.income

    def revolts(self) -> None:
        price = self.typed.economy.revolt_price
        troubled = sorted((p for p in controlled(self.state, self.house) if p.revolt),
                          key=lambda p: (p.resource is None, not p.capital, p.id))
        for province in troubled:
            if self.money - price >= self.temper.reserve // 2:
                self.lines.append(f"pay revolt {province.id}")
                self.money -= price

    def raising(self) -> None:
        on_map = sum(u.armies for u in self.my_units())
        wanted = self.temper.strength - on_map
        cost = self.typed.economy.raise_cost
        room = army_pool(self.state, self.house, self.rules, self.state.turn + 1)
        affordable = max(0, (self.money - self.temper.reserve) // cost)
        count = min(wanted, room, affordable)
        where = self.muster()
        if count > 0 and where and not self.enemy_armies(where):
            self.lines.append(f"raise {count} in {where}")
            self.money -= count * cost

    def muster(self) -> str:
        """Where new armies are raised: the capital, unless it is an island.

        Armies cross the sea only where a fleet waits (B4), which these
        players never plan: an island house (Pyke, Dragonstone) raises its
        armies in a home province on the mainland instead (B2.2.6), or they
        would never leave home.
        """
        state = self.state

        def on_land(pid: str) -> bool:
            return any(state.provinces[n].kind == LAND for n in state.provinces[pid].neighbours)

        if not self.capital or on_land(self.capital):
            return self.capital
        mainland = [p for p in home_provinces(state, self.house)
                    if p.controller == self.house and p.kind == LAND and on_land(p.id)
                    and not self.enemy_armies(p.id)]
        return min(mainland, key=lambda p: p.id).id if mainland else self.capital

    # -- friends and trade -------------------------------------------------------
    def marriage_friends(self) -> set[str]:
        friends: set[str] = set()
        for person in self.state.living():
            if person.dynasty != self.house or not person.spouse:
                continue
            spouse = self.state.persons[person.spouse]
            if spouse.dynasty and spouse.dynasty != self.house:
                friends.add(spouse.dynasty)
        return friends

    def trades(self) -> list[tuple[str, str, str]]:
        """The public market: (giver, good, taker) swaps every built-in player computes."""
        state = self.state
        basic = self.typed.basic_goods
        houses = sorted(h.id for h in state.active_houses())
        stock = {h: goods_in_capital(state, h) for h in houses}

        def short(h: str) -> list[str]:
            least = min(stock[h].get(g, 0) for g in basic)
            return [g for g in basic if stock[h].get(g, 0) == least]

        def spare(h: str, good: str) -> bool:
            least = min(stock[h].get(g, 0) for g in basic)
            return stock[h].get(good, 0) >= least + 2

        swaps: list[tuple[str, str, str]] = []
        busy: set[str] = set()
        for a in houses:
            for b in houses:
                if a >= b or a in busy or b in busy or not self.linked(a, b):
                    continue
                give = next((g for g in short(b) if spare(a, g)), None)
                take = next((g for g in short(a) if spare(b, g)), None)
                if give and take:
                    swaps += [(a, give, b), (b, take, a)]
                    busy |= {a, b}
        return swaps

    def linked(self, a: str, b: str) -> bool:
        """A land route between the two capitals through their own or free land."""
        state = self.state
        start, goal = state.houses[a].capital, state.houses[b].capital
        if not start or not goal:
            return False
        route = shortest_path(state, start, goal, lambda p: p.kind == LAND
                              and p.controller in (a, b, None))
        return route is not None

    def diplomacy(self) -> None:
        partners = {taker if giver == self.house else giver
                    for giver, _, taker in self.trades() if self.house in (giver, taker)}
        self.friends = (self.marriage_friends() | partners) - {self.house}
        occupiers = {p.controller for p in home_provinces(self.state, self.house)
                     if p.controller not in (None, self.house)}
        for other in sorted(self.friends - occupiers):
            if not passage_allowed(self.state, self.house, other):
                self.lines.append(f"allow passage {other}")
            self.lines.append(f"avoid {other}")
        for other in sorted(occupiers):
            if other and passage_allowed(self.state, self.house, other):
                self.lines.append(f"refuse passage {other}")
        for giver, good, taker in self.trades():
            if giver == self.house:
                self.lines.append(f"give {good} from {self.capital} to {taker}")

    # -- war ---------------------------------------------------------------------
    def targets(self, strength: int) -> list[Province]:
        """Foreign land next to ours, held by a house we are not friends with."""
        state = self.state
        ours = {p.id for p in controlled(state, self.house)}
        found: list[tuple[int, str, Province]] = []
        for pid in sorted(ours):
            for nid in state.provinces[pid].neighbours:
                province = state.provinces[nid]
                if province.kind != LAND or province.controller == self.house:
                    continue
                if province.controller in self.friends:
                    continue
                defence = self.enemy_armies(nid)
                castle = 10 if province.capital and province.controller else 0
                if defence + castle > strength // 2:
                    continue
                score = defence * 3 - (4 if province.resource else 0) + self.rng.randint(0, 2)
                found.append((score, nid, province))
        return [p for _, _, p in sorted(found, key=lambda t: (t[0], t[1]))]

    def war(self) -> None:
        state = self.state
        units = self.my_units()
        in_capital = [u for u in units if u.province == self.capital]
        field = [u for u in units if u.province != self.capital]
        threat = sum(self.enemy_armies(n) for n in state.provinces[self.capital].neighbours) \
            if self.capital else 0
        moved: set[str] = set()
        if not in_capital and field:
            routes = {u.id: self.path(u.province or "", self.capital) for u in field}
            reachable = [u for u in field if routes[u.id]]
            if reachable:
                home = min(reachable, key=lambda u: (len(routes[u.id] or []), u.id))
                self.move(home.id, routes[home.id] or [])
                moved.add(home.id)
        lost = [p for p in home_provinces(state, self.house)
                if p.controller not in (self.house, None) and p.id != self.capital]
        for unit in field:
            if unit.id in moved:
                continue
            if threat >= 4:
                self.move(unit.id, self.path(unit.province or "", self.capital) or [])
            elif lost:
                target = lost.pop(0)
                self.move(unit.id, self.path(unit.province or "", target.id) or [])
            elif self.temper.attack_from and unit.armies >= self.temper.attack_from:
                goals = self.targets(unit.armies)
                if goals:
                    self.declare(goals[0])
                    self.move(unit.id, self.path(unit.province or "", goals[0].id) or [])
            moved.add(unit.id)
        self.sally(in_capital, lost, threat)

    def sally(self, in_capital: list[Unit], lost: list[Province], threat: int) -> None:
        """Split a field army off the capital's unit when the garrison can spare it."""
        if not in_capital or threat >= 4:
            return
        main = max(in_capital, key=lambda u: (u.armies, u.id))
        spare = main.armies - self.temper.garrison
        goal: Province | None = lost[0] if lost else None
        if goal is None and self.temper.attack_from and spare >= self.temper.attack_from:
            goals = self.targets(spare)
            goal = goals[0] if goals else None
            if goal is not None:
                self.declare(goal)
        if goal is None or spare < 1:
            return
        path = self.path(self.capital, goal.id)
        if not path:
            return
        new_id = next_unit_id(self.state, self.house)
        self.lines.append(f"split {spare} from {main.id} as {new_id}")
        self.move(new_id, path)

    def declare(self, goal: Province) -> None:
        if goal.controller and goal.controller != self.house:
            self.lines.append(f"attack {goal.controller}")

    def standing(self) -> None:
        self.lines.append(self.temper.end_order)


def _dynasty_lines(state: GameState, house: str, rules: Mapping[str, Any], personality: str,
                   rng_seed: str) -> list[str]:
    try:
        from chronicle.players.dynasty import dynasty_orders
    except ImportError:
        return []
    return list(dynasty_orders(state, house, rules, personality, rng_seed))


def keep_legal(text: str, state: GameState, house: str, rules: Mapping[str, Any]) -> str:
    """Drop the Blood Royale lines the rules refuse at once."""
    sheet = parse_orders(text, BLOOD_ROYALE_GRAMMAR, filename=f"{house}.orders",
                         expected_house=house)
    validate_blood_royale(state, {house: sheet}, rules)
    refused = {r.line for r in sheet.rejections}
    lines = text.splitlines()
    return "\n".join(line for n, line in enumerate(lines, start=1) if n not in refused) + "\n"


def blood_royale_orders(state: GameState, house: str, rules: Mapping[str, Any],
                        personality: str, rng_seed: str) -> str:
    """A full order file for ``house``'s next turn."""
    work = state.copy()
    planner = Planner(work, house, rules, personality, random.Random(rng_seed))
    planner.taxes()
    planner.revolts()
    planner.diplomacy()
    planner.raising()
    planner.war()
    planner.standing()
    head = [f"house {house}", f"# built-in player ({personality})"]
    body = _dynasty_lines(work, house, rules, personality, rng_seed) + planner.lines
    return keep_legal("\n".join(head + body) + "\n", work, house, rules)
