"""The order template of a Blood Royale house: the dynasty part, then war and economy.

Everything a player needs to write the turn's orders is listed as comments:
the treasury and what taxes will bring, provinces in revolt or famine, every
unit with its place and its neighbours, the room left under the army cap,
the counters on the map and in the capital, passage permissions and the
standing battle orders. Suggested lines are commented out, ready to edit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.rulesets.blood_royale.battle_orders import standing_order_lines
from adjudicator.rulesets.blood_royale.forces import army_pool
from adjudicator.rulesets.blood_royale.scoring import goods_in_capital, is_cash_in_year
from adjudicator.rulesets.blood_royale.tables import br_rules
from adjudicator.rulesets.blood_royale.wealth import best_cash_in
from adjudicator.rulesets.blood_royale.world import (
    br_data,
    controlled,
    home_provinces,
    is_coastal,
    productive,
    unit_side,
)
from adjudicator.rulesets.dynasty.lookup import label
from adjudicator.rulesets.dynasty.template import dynasty_template
from adjudicator.state import GameState


def _next_cash_in(state: GameState, rules: Mapping[str, Any]) -> int | None:
    """The year of the next cash-in: a year ending in 5, or the last year."""
    for turn in range(state.turn + 1, state.turn + 21):
        year = state.year_of(turn)
        if is_cash_in_year(year, rules) or (state.end_year is not None
                                            and year >= state.end_year):
            return year
    return None


def economy_lines(state: GameState, house: str, rules: Mapping[str, Any]) -> list[str]:
    typed = br_rules(rules)
    economy = typed.economy
    record = state.houses[house]
    paying = [p for p in controlled(state, house) if productive(p)]
    out = ["", "# ---- War and economy (Blood Royale) ----",
           f"# Treasury: {record.treasury} crowns. Taxes at the interphase: {len(paying)} "
           f"provinces x {economy.tax_normal} = {len(paying) * economy.tax_normal} crowns, "
           f"or x {economy.tax_extraordinary} = {len(paying) * economy.tax_extraordinary} "
           "under extraordinary tax (worse unrest rolls).",
           "tax normal"]
    revolts = [p for p in controlled(state, house) if p.revolt]
    famines = [p for p in controlled(state, house) if p.famine]
    if revolts:
        out.append(f"# Provinces in revolt (no tax, no goods); {economy.revolt_price} crowns "
                   "end a revolt:")
        out += [f"# pay revolt {p.id}   # {p.name}" for p in revolts]
    if famines:
        out.append("# Famine (no tax, no goods at this interphase): "
                   + ", ".join(p.name for p in famines))
    lost = [p.name for p in home_provinces(state, house) if p.controller != house]
    if lost:
        out.append("# Home provinces held by others: " + ", ".join(lost))
    return out


def unit_lines(state: GameState, house: str, rules: Mapping[str, Any]) -> list[str]:
    typed = br_rules(rules)
    movement = typed.movement
    out = ["", f"# Units. move <unit> to <province> ... [then <province> ...]: up to "
               f"{movement.moves} provinces a round through your land and land that allows "
               f"you passage, {movement.hostile_moves} into or within enemy land; "
               f"{movement.rounds} rounds a turn. Units hold unless ordered."]
    serving = br_data(state).interventions
    mine = sorted((u for u in state.units.values()
                   if u.house == house or unit_side(state, u) == house), key=lambda u: u.id)
    for unit in mine:
        where = state.provinces.get(unit.province or "")
        commanders = ", ".join(label(state.persons[p]) for p in unit.commanders) or "none"
        lent = f", serving {serving[unit.id]}" if unit.id in serving else ""
        out.append(f"# {unit.id}: {unit.type}, {unit.armies} armies in "
                   f"{where.name if where else '?'}{lent}; commanders: {commanders}")
        if where is not None:
            out.append("#   next to: " + " ".join(where.neighbours))
            out.append(f"# move {unit.id} to {where.neighbours[0]}")
    if not mine:
        out.append("#   (no units)")
    room = army_pool(state, house, rules, state.turn + 1)
    capital = state.houses[house].capital or "?"
    coast = [p.id for p in home_provinces(state, house)
             if p.controller == house and is_coastal(state, p)]
    out += ["", f"# Raising: {typed.economy.raise_cost} crowns an army, in your capital or a "
                f"home province you control; room for {room} more under the cap of "
                f"{typed.economy.army_cap} (fleets aside).",
            f"# raise 1 in {capital}"]
    if coast and any(t.naval and t.raisable for t in typed.unit_types.values()):
        out.append(f"# raise 1 fleet in {coast[0]}   # coastal: {' '.join(coast)}")
    out.append("# split <N> from <unit> [as <new unit>]   |   merge <unit> into <unit>")
    return out


def counter_lines(state: GameState, house: str, rules: Mapping[str, Any]) -> list[str]:
    capital = state.houses[house].capital
    away = [c for c in state.counters if c.owner == house and c.province != capital]
    out = ["", f"# Resource counters go home by themselves "
               f"({br_rules(rules).movement.counter_moves} provinces a round); "
               "carry <counter> to <province> ... sets another route."]
    for counter in away:
        out.append(f"#   {counter.id} in {state.provinces[counter.province].name}")
    goods = goods_in_capital(state, house)
    best = best_cash_in(goods, rules)
    shown = ", ".join(f"{g} {n}" for g, n in goods.items()) or "none"
    when = _next_cash_in(state, rules)
    out.append(f"# Goods in the capital: {shown}; a cash-in now would pay {best.value} crowns"
               + (f"; next cash-in at the end of {when}." if when else "."))
    out.append("# give <counter> to <house>   |   pay <N> crowns to <house>")
    return out


def diplomacy_lines(state: GameState, house: str) -> list[str]:
    passage = br_data(state).passage
    allowed = passage.get(house, [])
    given = sorted(h for h, to in passage.items() if house in to)
    out = ["", "# Passage (standing): allow passage <house> | refuse passage <house>",
           f"#   you allow: {', '.join(allowed) or 'nobody'}; allowed by: "
           f"{', '.join(given) or 'nobody'}",
           "# intervene <unit> for <house>   # both houses send the same line"]
    declared = br_data(state).allies
    mine = declared.get(house, [])
    theirs = sorted(h for h, to in declared.items() if house in to)
    out += ["# Alliances (standing, B6): ally <house> | end alliance <house>",
            f"#   you declare: {', '.join(mine) or 'nobody'}; declared by: "
            f"{', '.join(theirs) or 'nobody'}",
            "# exchange <lot> for <lot> with <house>   # binding (B7a): both houses send it",
           "", "# Standing battle orders (attack/avoid, flee/surrender, retreat):"]
    standing = standing_order_lines(state, house)
    out += standing or ["#   (none: the defaults apply)"]
    return out


def blood_royale_template(state: GameState, house: str, rules: Mapping[str, Any]) -> str:
    """The dynasty template followed by the Blood Royale part, for the next turn."""
    lines = [dynasty_template(state, house, rules).rstrip("\n")]
    lines += economy_lines(state, house, rules)
    lines += unit_lines(state, house, rules)
    lines += counter_lines(state, house, rules)
    lines += diplomacy_lines(state, house)
    return "\n".join(lines) + "\n"

