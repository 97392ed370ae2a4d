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

from adjudicator.dynastic.lookup import label
from adjudicator.dynastic.template import dynasty_template
from adjudicator.rulesets.base import Gettext, same
from adjudicator.rulesets.blood_royale.battle_orders import standing_order_lines
from adjudicator.rulesets.blood_royale.board import board
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
from adjudicator.state import GameState


def _next_cash_in(state: GameState, rules: Mapping[str, Any]) -> int | None:
    """The year of the next cash-in: a year ending in 5, or the last year."""
    for turn in range(state.turn + 1, state.turn + 21):
        year = state.year_of(turn)
        if is_cash_in_year(year, rules) or (state.end_year is not None
                                            and year >= state.end_year):
            return year
    return None


def economy_lines(state: GameState, house: str, rules: Mapping[str, Any],
                  _: Gettext = same) -> list[str]:
    typed = br_rules(rules)
    economy = typed.economy
    record = state.houses[house]
    paying = [p for p in controlled(state, house) if productive(p)]
    out = ["", "# ---- " + _("War and economy (Blood Royale)") + " ----",
           "# " + _("Treasury: %(treasury)s crowns. Taxes at the interphase: %(provinces)s "
                    "provinces x %(normal)s = %(normal_total)s crowns, or x %(extra)s = "
                    "%(extra_total)s under extraordinary tax (worse unrest rolls).")
           % {"treasury": record.treasury, "provinces": len(paying),
              "normal": economy.tax_normal, "normal_total": len(paying) * economy.tax_normal,
              "extra": economy.tax_extraordinary,
              "extra_total": len(paying) * economy.tax_extraordinary},
           "tax normal"]
    revolts = [p for p in controlled(state, house) if p.revolt]
    famines = [p for p in controlled(state, house) if p.famine]
    if revolts:
        out.append("# " + _("Provinces in revolt (no tax, no goods); %(price)s crowns end a "
                            "revolt:") % {"price": economy.revolt_price})
        out += [f"# pay revolt {p.id}   # {p.name}" for p in revolts]
    if famines:
        out.append("# " + _("Famine (no tax, no goods at this interphase): %(provinces)s")
                   % {"provinces": ", ".join(p.name for p in famines)})
    lost = [p.name for p in home_provinces(state, house) if p.controller != house]
    if lost:
        out.append("# " + _("Home provinces held by others: %(provinces)s")
                   % {"provinces": ", ".join(lost)})
    return out


def unit_lines(state: GameState, house: str, rules: Mapping[str, Any],
               _: Gettext = same) -> list[str]:
    typed = br_rules(rules)
    movement = typed.movement
    out = ["", "# " + _("Units. move <unit> to <province> ... [then <province> ...]: up to "
                        "%(moves)s provinces a round through your land and land that allows you "
                        "passage, %(hostile)s into or within enemy land; %(rounds)s rounds a "
                        "turn. Units hold unless ordered.")
           % {"moves": movement.moves, "hostile": movement.hostile_moves,
              "rounds": movement.rounds}]
    serving = br_data(state).interventions
    mine = sorted((u for u in state.units.values()
                   if u.house == house or unit_side(state, u) == house), key=lambda u: u.id)
    for unit in mine:
        where = board(state).provinces.get(unit.province or "")
        commanders = ", ".join(label(state.persons[p]) for p in unit.commanders) or _("none")
        lent = (_(", serving %(house)s") % {"house": serving[unit.id]}
                if unit.id in serving else "")
        out.append(f"# {unit.id}: " + _("%(type)s, %(armies)s armies in %(province)s%(lent)s; "
                                        "commanders: %(commanders)s")
                   % {"type": unit.type, "armies": unit.armies,
                      "province": where.name if where else "?", "lent": lent,
                      "commanders": commanders})
        if where is not None:
            out.append("#   " + _("next to: %(provinces)s")
                       % {"provinces": " ".join(where.neighbours)})
            out.append(f"# move {unit.id} to {where.neighbours[0]}")
    if not mine:
        out.append("#   " + _("(no units)"))
    room = army_pool(state, house, rules, state.turn + 1)
    capital = state.houses[house].capital or "?"
    coast = [p.id for p in home_provinces(state, house)
             if p.controller == house and is_coastal(state, p)]
    out += ["", "# " + _("Raising: %(cost)s crowns an army, in your capital or a home province "
                         "you control; room for %(room)s more under the cap of %(cap)s (fleets "
                         "aside).") % {"cost": typed.economy.raise_cost, "room": room,
                                       "cap": typed.economy.army_cap},
            f"# raise 1 in {capital}"]
    if coast and any(t.naval and t.raisable for t in typed.unit_types.values()):
        out.append(f"# raise 1 fleet in {coast[0]}   # "
                   + _("coastal: %(provinces)s") % {"provinces": " ".join(coast)})
    out.append("# split <N> from <unit> [as <new unit>]   |   merge <unit> into <unit>")
    return out


def counter_lines(state: GameState, house: str, rules: Mapping[str, Any],
                  _: Gettext = same) -> list[str]:
    capital = state.houses[house].capital
    away = [c for c in board(state).counters if c.owner == house and c.province != capital]
    out = ["", "# " + _("Resource counters go home by themselves (%(moves)s provinces a "
                        "round); carry <counter> to <province> ... sets another route.")
           % {"moves": br_rules(rules).movement.counter_moves}]
    for counter in away:
        out.append("#   " + _("%(counter)s in %(province)s")
                   % {"counter": counter.id, "province": board(state).provinces[counter.province].name})
    goods = goods_in_capital(state, house)
    best = best_cash_in(goods, rules)
    shown = ", ".join(f"{g} {n}" for g, n in goods.items()) or _("none")
    when = _next_cash_in(state, rules)
    values = {"goods": shown, "value": best.value, "year": when}
    out.append("# " + (_("Goods in the capital: %(goods)s; a cash-in now would pay %(value)s "
                         "crowns; next cash-in at the end of %(year)s.") if when else
                       _("Goods in the capital: %(goods)s; a cash-in now would pay %(value)s "
                         "crowns.")) % values)
    out.append("# give <counter> to <house>   |   pay <N> crowns to <house>")
    return out


def diplomacy_lines(state: GameState, house: str, _: Gettext = same) -> list[str]:
    passage = br_data(state).passage
    allowed = passage.get(house, [])
    given = sorted(h for h, to in passage.items() if house in to)
    nobody = _("nobody")
    out = ["", "# " + _("Passage (standing): allow passage <house> | refuse passage <house>"),
           "#   " + _("you allow: %(allowed)s; allowed by: %(given)s")
           % {"allowed": ", ".join(allowed) or nobody, "given": ", ".join(given) or nobody},
           "# intervene <unit> for <house>   # " + _("both houses send the same line")]
    declared = br_data(state).allies
    mine = declared.get(house, [])
    theirs = sorted(h for h, to in declared.items() if house in to)
    out += ["# " + _("Alliances (standing, B6): ally <house> | end alliance <house>"),
            "#   " + _("you declare: %(mine)s; declared by: %(theirs)s")
            % {"mine": ", ".join(mine) or nobody, "theirs": ", ".join(theirs) or nobody},
            "# exchange <lot> for <lot> with <house>   # "
            + _("binding (B7a): both houses send it"),
            "", "# " + _("Standing battle orders (attack/avoid, flee/surrender, retreat):")]
    standing = standing_order_lines(state, house)
    out += standing or ["#   " + _("(none: the defaults apply)")]
    return out


def blood_royale_template(state: GameState, house: str, rules: Mapping[str, Any],
                          _: Gettext = same) -> str:
    """The dynasty template followed by the Blood Royale part, for the next turn."""
    lines = [dynasty_template(state, house, rules, _).rstrip("\n")]
    lines += economy_lines(state, house, rules, _)
    lines += unit_lines(state, house, rules, _)
    lines += counter_lines(state, house, rules, _)
    lines += diplomacy_lines(state, house, _)
    return "\n".join(lines) + "\n"
