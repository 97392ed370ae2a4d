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
  its land or to its sea lanes, or at an enemy capital within two provinces
  when the army outnumbers the garrison; idle armies come home to merge;
* **fleets**: a fleet waits in each sea zone its goods must cross to reach the
  capital (its own from islands, or a partner's across the sea), and armies
  cross there too;
* **trade**: counters go home on their own; every built-in player runs the same
  public market, so two built-in houses swap a surplus basic good for a missing
  one by a binding exchange in the same turn, or one buys the other's surplus
  for crowns, and they let each other pass so the goods can travel;
* **friends**: passage for houses tied by a living marriage and for trade partners;
* **prisoners**: ransom or keep, through the dynasty player.

``personality`` is ``cautious``, ``ambitious`` or ``mercantile``. Chance comes
from ``random.Random(rng_seed)`` only. Lines the rules would refuse at once
are dropped before the file is written, so the player sends legal orders
(a line can still fail on what the turn brings, like a human's).
"""

from __future__ import annotations

import random
from collections import Counter as Tally
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.orders import parse_orders
from adjudicator.rulesets.blood_royale.battle import battle_rules
from adjudicator.rulesets.blood_royale.board import Province, board
from adjudicator.rulesets.blood_royale.economy import upkeep_due
from adjudicator.rulesets.blood_royale.forces import army_pool, next_unit_id
from adjudicator.rulesets.blood_royale.ruleset import BLOOD_ROYALE_GRAMMAR
from adjudicator.rulesets.blood_royale.tables import BRRules, br_rules
from adjudicator.rulesets.blood_royale.validation import validate_blood_royale
from adjudicator.rulesets.blood_royale.world import (
    LAND,
    SEA,
    controlled,
    home_provinces,
    is_coastal,
    is_hostile_to,
    passage_allowed,
    productive,
    shortest_path,
    sides_in,
    unit_side,
)
from adjudicator.state import GameState, Unit


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
    "ambitious": Temper(reserve=10, poor=45, strength=18, garrison=4, attack_from=4,
                        end_order="fight to the end"),
    "mercantile": Temper(reserve=30, poor=30, strength=8, garrison=5, attack_from=9,
                         end_order="flee when losses reach 4"),
}


#: Crowns a built-in buyer pays for a good it lacks (a basic set pays 50, B7).
PRICE = 20
#: Sea zones a house keeps a fleet in, at most.
MAX_LANES = 3


@dataclass(frozen=True)
class Deal:
    """One half of a market bargain: ``giver`` hands ``counter`` to ``taker``, who
    pays ``price`` crowns for it, or in a swap the counter ``back``: a binding
    exchange (B7a), so neither good leaves unless both do."""

    giver: str
    counter: str
    taker: str
    price: int = 0
    back: str | None = None


class Planner:
    """One house's turn of thinking; every method appends order lines."""

    def __init__(self, state: GameState, house: str, rules: Mapping[str, Any],
                 personality: str, rng: random.Random) -> None:
        self.state = state
        self.house = house
        self.rules = rules
        self.typed: BRRules = br_rules(rules)
        self.castle = battle_rules(rules).castle
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
        self.lanes: list[str] = []
        self.new_units = 0
        #: The exchange lines our partners send in answer to ours (B7a).
        self.answers: dict[str, list[str]] = {}

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

    def new_unit(self) -> str:
        """A fresh unit id, distinct from the others this file creates."""
        letter = self.state.houses[self.house].letter
        number = int(next_unit_id(self.state, self.house).split("-")[1]) + self.new_units
        self.new_units += 1
        return f"{letter}-{number}"

    def path(self, start: str, goal: str, *, siege: bool = False) -> list[str] | None:
        """Through friendly land, and the sea where our fleets wait, to ``goal``;
        the last step may enter enemy land, or with ``siege`` the last two (B4:
        the unit stops on entering it, and goes one province further next round).
        An army never ends a turn at sea, so the path stops on land."""
        state = self.state

        def can_enter(p: Province) -> bool:
            if p.id == goal:
                return True
            if p.kind == SEA:
                return p.id in self.lanes
            if self.enemy_armies(p.id):
                return False
            return not self.hostile(p) or (siege and goal in p.neighbours)

        found = shortest_path(state, start, goal, can_enter)
        limit = self.typed.movement.moves * self.typed.movement.rounds
        route = (found or [])[:limit]
        while route and board(state).provinces[route[-1]].kind == SEA:
            route.pop()
        return route or None

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
        """Where new armies are raised: the capital, unless it is an island
        with no fleet of ours at its shore.

        Armies cross the sea only where a fleet waits (B4): without one, an
        island house (Pyke, Dragonstone) raises its armies in a home province
        on the mainland instead (B2.2.6), or they would never leave home.
        """
        state = self.state

        def on_land(pid: str) -> bool:
            return any(board(state).provinces[n].kind == LAND or n in self.lanes
                       for n in board(state).provinces[pid].neighbours)

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

    def trades(self) -> list[Deal]:
        """The public market every built-in player computes alike.

        Each linked pair of houses deals once a turn: a swap of a spare basic
        good for a missing one, as a binding exchange, else a sale, where the
        buyer pays ``PRICE`` crowns for a good it lacks, with a gift and a
        payment (B7a): one-sided orders, kept because every built-in player
        reads the same market. A house needs what it owns least of, wherever
        its counters lie (goods on their way count), and spares, from what
        waits in its capital, a good it owns two or more of, and more of than
        of its scarcest: giving it away costs the house no set (B7) and leaves
        it one towards the next.
        """
        state = self.state
        basic = self.typed.basic_goods
        houses = sorted(h.id for h in state.active_houses())
        owned = {h: Tally(c.good for c in board(state).counters if c.owner == h) for h in houses}
        stores = {h: sorted((c for c in board(state).counters if c.owner == h
                             and c.province == state.houses[h].capital), key=lambda c: c.id)
                  for h in houses}
        purse = {h: state.houses[h].treasury for h in houses}

        def short(h: str) -> list[str]:
            least = min(owned[h][g] for g in basic)
            return [g for g in basic if owned[h][g] == least]

        def spare(h: str, good: str) -> str | None:
            if owned[h][good] < 2 or owned[h][good] <= min(owned[h][g] for g in basic):
                return None
            return next((c.id for c in stores[h] if c.good == good), None)

        deals: list[Deal] = []

        def offer(giver: str, taker: str) -> tuple[str, str] | None:
            """The good ``taker`` lacks that ``giver`` spares, and its counter."""
            return next(((g, c) for g in short(taker) if (c := spare(giver, g))), None)

        def hand(giver: str, goods: tuple[str, str], taker: str, price: int = 0,
                 back: str | None = None) -> None:
            good, counter = goods
            stores[giver] = [c for c in stores[giver] if c.id != counter]
            owned[giver][good] -= 1
            owned[taker][good] += 1
            purse[taker] -= price
            deals.append(Deal(giver, counter, taker, price, back))

        # The houses with the fewest sets trade first: goods are scarce (seven
        # houses share four cloth a turn in Westeros), and a set is worth most
        # to the poorest.
        needy = sorted(houses, key=lambda h: (min(owned[h][g] for g in basic), h))
        for a, b in ((a, b) for i, a in enumerate(needy) for b in needy[i + 1:]):
            if not self.linked(a, b):
                continue
            give, take = offer(a, b), offer(b, a)
            if give and take:
                hand(a, give, b, back=take[1])
                hand(b, take, a, back=give[1])
                continue
            for seller, buyer, goods in ((a, b, give), (b, a, take)):
                if goods and purse[buyer] >= 2 * PRICE:
                    hand(seller, goods, buyer, PRICE)
                    break
        return deals

    def linked(self, a: str, b: str) -> bool:
        """A route between the two capitals through their own or free land, or the
        sea (the taker's fleet carries the good across, B4)."""
        state = self.state
        start, goal = state.houses[a].capital, state.houses[b].capital
        if not start or not goal:
            return False
        route = shortest_path(state, start, goal, lambda p: p.kind == SEA
                              or p.controller in (a, b, None))
        return route is not None

    def diplomacy(self) -> None:
        deals = self.trades()
        partners = {d.taker if d.giver == self.house else d.giver
                    for d in deals if self.house in (d.giver, d.taker)}
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
        for deal in deals:
            if deal.giver == self.house and deal.back:
                self.lines.append(f"exchange {deal.counter} for {deal.back} with {deal.taker}")
                self.answers.setdefault(deal.taker, []).append(
                    f"exchange {deal.back} for {deal.counter} with {self.house}")
            elif deal.giver == self.house:
                self.lines.append(f"give {deal.counter} to {deal.taker}")
            elif deal.taker == self.house and deal.price:
                self.lines.append(f"pay {deal.price} crowns to {deal.giver}")
                self.money -= deal.price
        self.lanes = self.sea_lanes(deals)

    # -- fleets --------------------------------------------------------------------
    def sea_lanes(self, deals: list[Deal]) -> list[str]:
        """The sea zones our goods must cross to reach the capital (B4: a counter
        crosses the sea only where its owner's fleet lies): from our resource
        provinces, from wherever our counters lie, and from the capitals of the
        houses giving us goods this turn."""
        state = self.state
        if not self.capital:
            return []
        origins = [p.id for p in controlled(state, self.house) if p.resource]
        origins += [c.province for c in board(state).counters if c.owner == self.house]
        origins += [state.houses[d.giver].capital or "" for d in deals if d.taker == self.house]

        def passable(p: Province) -> bool:
            return p.kind == LAND and (not self.hostile(p) or p.controller in self.friends)

        lanes: list[str] = []
        for origin in dict.fromkeys(o for o in origins if o and o != self.capital):
            if shortest_path(state, origin, self.capital, passable) is not None:
                continue
            route = shortest_path(state, origin, self.capital,
                                  lambda p: p.kind == SEA or passable(p))
            lanes += [pid for pid in route or [] if board(state).provinces[pid].kind == SEA
                      and pid not in lanes]
        return lanes[:MAX_LANES]

    def fleets(self) -> None:
        """A fleet in every lane: one already there stays, an idle one sails
        there, else one is raised on the nearest shore (B2.2.6). Fleets leave
        other fleets in peace, so the lanes stay open (B6: the house that
        moves decides by its stance towards the unit it meets)."""
        state = self.state
        naval_type = next((name for name, kind in self.typed.unit_types.items() if kind.naval),
                          None)
        if naval_type is None:
            return
        naval = sorted((u for u in state.units.values() if self.typed.is_naval(u.type)),
                       key=lambda u: u.id)
        for unit in naval:
            if unit.house != self.house and board(state).provinces[unit.province or ""].kind == SEA:
                self.lines.append(f"avoid {unit.id}")
        ours = [u for u in naval if u.house == self.house and unit_side(state, u) == self.house]
        manned = {u.province for u in ours}
        idle = [u for u in ours if u.province not in self.lanes]
        cost = self.typed.economy.raise_cost
        limit = self.typed.movement.moves * self.typed.movement.rounds

        def sail(start: str, lane: str) -> list[str] | None:
            route = shortest_path(state, start, lane,
                                  lambda p: p.kind == SEA or is_coastal(state, p))
            return route if route is not None and len(route) <= limit else None

        for lane in self.lanes:
            if lane in manned:
                continue
            sailing = next(((u, r) for u in idle if (r := sail(u.province or "", lane))), None)
            if sailing:
                idle.remove(sailing[0])
                self.move(sailing[0].id, sailing[1])
                continue
            shores = [(route, p.id) for p in home_provinces(state, self.house)
                      if p.controller == self.house and is_coastal(state, p)
                      and not sides_in(state, p.id).keys() - {self.house}
                      and (route := sail(p.id, lane))]
            if shores and self.money >= cost:
                route, shore = min(shores, key=lambda t: (len(t[0]), t[1]))
                uid = self.new_unit()
                self.lines.append(f"raise 1 {naval_type} in {shore} as {uid}")
                self.move(uid, route)
                self.money -= cost

    # -- war ---------------------------------------------------------------------
    def targets(self, strength: int, start: str) -> list[tuple[Province, list[str]]]:
        """Where an army of ``strength`` at ``start`` can strike this turn, with its
        path, best first: foreign land next to ours or to the sea lanes our
        fleets keep (B4: armies cross the sea where a fleet lies), held by a
        house we are not friends with, or an enemy capital there or one province
        beyond. A capital comes first when ``strength`` outnumbers its garrison
        by a quarter of the castle (B6: the castle fights as 10 more armies, so
        a siege is a gamble an ambitious house takes for the goods stored
        there)."""
        state = self.state
        ours = {p.id for p in controlled(state, self.house)}
        scored: dict[str, tuple[int, Province]] = {}
        for pid in sorted(ours) + self.lanes:
            for nid in board(state).provinces[pid].neighbours:
                province = board(state).provinces[nid]
                if province.kind != LAND or province.controller == self.house:
                    continue
                if province.controller in self.friends:
                    continue
                defence = self.enemy_armies(nid)
                if not province.capital and defence <= strength // 2:
                    score = defence * 3 - (4 if province.resource else 0)
                    scored.setdefault(nid, (score + self.rng.randint(0, 2), province))
                for cid in [nid, *province.neighbours]:
                    capital = board(state).provinces[cid]
                    if (not capital.capital or capital.controller in (None, self.house)
                            or capital.controller in self.friends or cid in scored):
                        continue
                    garrison = self.enemy_armies(cid)
                    if garrison + self.castle // 4 < strength:
                        scored[cid] = (garrison - self.castle + self.rng.randint(0, 2), capital)
        found = []
        for _, goal in sorted(scored.values(), key=lambda t: (t[0], t[1].id)):
            path = self.path(start, goal.id, siege=goal.capital)
            if path:
                found.append((goal, path))
        return found

    def war(self) -> None:
        state = self.state
        units = self.my_units()
        in_capital = [u for u in units if u.province == self.capital]
        field = [u for u in units if u.province != self.capital]
        threat = sum(self.enemy_armies(n) for n in board(state).provinces[self.capital].neighbours) \
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
            elif goals := self.war_goals(unit.armies, unit.province or ""):
                self.declare(goals[0][0])
                self.move(unit.id, goals[0][1])
            else:
                # Markers stay when the army leaves (B3), so an idle army goes home
                # to join the garrison: the next sally is strong enough for a castle.
                self.move(unit.id, self.path(unit.province or "", self.capital) or [])
            moved.add(unit.id)
        self.sally(in_capital, lost, threat)

    def war_goals(self, strength: int, start: str) -> list[tuple[Province, list[str]]]:
        if not self.temper.attack_from or strength < self.temper.attack_from:
            return []
        return self.targets(strength, start)

    def sally(self, in_capital: list[Unit], lost: list[Province], threat: int) -> None:
        """Split a field army off the capital's unit when the garrison can spare it."""
        if not in_capital or threat >= 4:
            return
        main = max(in_capital, key=lambda u: (u.armies, u.id))
        for other in in_capital:
            if other.id != main.id:
                self.lines.append(f"merge {other.id} into {main.id}")
        spare = main.armies - self.temper.garrison
        if spare < 1:
            return
        path = self.path(self.capital, lost[0].id) if lost else None
        if not lost and (goals := self.war_goals(spare, self.capital)):
            self.declare(goals[0][0])
            path = goals[0][1]
        if not path:
            return
        new_id = self.new_unit()
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
        from chronicle.rulesets.dynastic.player import dynasty_orders
    except ImportError:
        return []
    return list(dynasty_orders(state, house, rules, personality, rng_seed))


def keep_legal(text: str, state: GameState, house: str, rules: Mapping[str, Any],
               answers: Mapping[str, list[str]] | None = None) -> str:
    """Drop the Blood Royale lines the rules refuse at once.

    ``answers`` are the lines other houses will send that ours need (B7a: an
    exchange stands only with the partner's same line); the market tells every
    built-in player what its partners write, so the exchange is kept.
    """
    sheets = {other: parse_orders("\n".join([f"house {other}", *lines]) + "\n",
                                  BLOOD_ROYALE_GRAMMAR, filename=f"{other}.orders",
                                  expected_house=other)
              for other, lines in (answers or {}).items()}
    sheet = sheets[house] = parse_orders(text, BLOOD_ROYALE_GRAMMAR, filename=f"{house}.orders",
                                         expected_house=house)
    validate_blood_royale(state, sheets, rules)
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
    planner.fleets()
    planner.raising()
    planner.war()
    planner.standing()
    head = [f"house {house}", f"# built-in player ({personality})"]
    body = _dynasty_lines(work, house, rules, personality, rng_seed) + planner.lines
    return keep_legal("\n".join(head + body) + "\n", work, house, rules, planner.answers)
