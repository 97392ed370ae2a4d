"""RULES.md B2.2 (the interphase), B5 (the event die), B7 (cash-in) and B8 (the end).

Positions are set by hand on the real Blood Royale map. England's land, in map
order: northumbria, york (cloth), leinster, wales, mercia, east-anglia
(cloth), middlesex (capital), wessex, kent, cornwall (metal).
"""

from __future__ import annotations

import pytest
from br_support import bare, context, fresh_state, kinds, put, rules, sheet, turn_of

from adjudicator.dice import SeededDice
from adjudicator.rulesets.blood_royale.board import board
from adjudicator.rulesets.blood_royale.control import end_revolts_by_garrison, snapshot_garrisons
from adjudicator.rulesets.blood_royale.counters import new_counter
from adjudicator.rulesets.blood_royale.diplomacy import run_trade
from adjudicator.rulesets.blood_royale.economy import (
    buy_off_revolts,
    collect_taxes,
    lift_famines,
    pay_upkeep,
    produce_resources,
    raise_armies,
    read_taxes,
    return_lost_armies,
)
from adjudicator.rulesets.blood_royale.events_die import HANDLERS, roll_event_die
from adjudicator.rulesets.blood_royale.forces import army_pool, record_lost
from adjudicator.rulesets.blood_royale.scoring import (
    goods_in_capital,
    is_cash_in_year,
    run_cash_in_and_victory,
)
from adjudicator.rulesets.blood_royale.validation import validate_blood_royale


def refused(state, house, *lines):
    orders = sheet(house, *lines)
    validate_blood_royale(state, {house: orders}, rules())
    return [r.reason for r in orders.rejections]


# -- B2.2.1 taxes ----------------------------------------------------------------


def test_b2_taxes_are_5_a_province_or_7_under_extraordinary_tax():
    """B2.2.1: "5 crowns per controlled province, or 7 under extraordinary tax"."""
    state = fresh_state()
    ctx = context(state, sheets={"england": sheet("england", "tax extraordinary")})
    turn = turn_of(ctx)
    read_taxes(ctx, turn)
    collect_taxes(ctx, turn)
    assert state.houses["england"].treasury == 170
    assert state.houses["france"].treasury == 150
    assert turn.ledger("england").taxes == 70


def test_b5_provinces_in_revolt_or_famine_pay_no_tax():
    """B5: "A province in revolt pays no tax"; famine: "pays no tax ... at the next interphase"."""
    state = fresh_state()
    board(state).provinces["york"].revolt = True
    board(state).provinces["kent"].famine = True
    board(state).provinces["flanders"].controller = "england"
    ctx = context(state)
    collect_taxes(ctx, turn_of(ctx))
    taxes = kinds(ctx, "taxes")[0]
    assert (taxes.provinces, taxes.amount, taxes.exempt) == (9, 45, ("york", "kent"))


# -- B2.2.2 resources and B2.2.3 famine -------------------------------------------------


def test_b2_a_counter_appears_in_each_controlled_resource_province_without_famine():
    """B2.2.2: "one counter of its good appears in each controlled resource province
    without famine"; B5: a province in revolt "produces no resource"."""
    state = fresh_state()
    board(state).provinces["york"].famine = True
    board(state).provinces["cornwall"].revolt = True
    board(state).provinces["flanders"].controller = "england"
    ctx = context(state)
    produce_resources(ctx)
    english = sorted((c.good, c.province) for c in board(state).counters if c.owner == "england")
    assert english == [("cloth", "east-anglia"), ("cloth", "flanders")]
    assert all(c.id == f"{c.good}-{n}" for n, c in enumerate(board(state).counters, start=1))


def test_b2_famine_counters_are_removed_after_resources():
    """B2.2.3: "Famine counters are removed" (after taxes and resources)."""
    state = fresh_state()
    board(state).provinces["york"].famine = True
    ctx = context(state)
    lift_famines(ctx)
    assert not board(state).provinces["york"].famine
    assert [e.province for e in kinds(ctx, "famine-lifted")] == ["york"]


# -- B2.2.4 revolts ----------------------------------------------------------------------


def test_b2_a_revolt_ends_for_15_crowns():
    """B2.2.4: "a house may end a revolt by paying 15 crowns"."""
    state = fresh_state()
    board(state).provinces["york"].revolt = True
    ctx = context(state, sheets={"england": sheet("england", "pay revolt York")})
    buy_off_revolts(ctx, turn_of(ctx))
    assert not board(state).provinces["york"].revolt
    assert state.houses["england"].treasury == 85


def test_b2_a_revolt_the_treasury_cannot_pay_is_refused():
    state = fresh_state()
    board(state).provinces["york"].revolt = True
    state.houses["england"].treasury = 10
    orders = sheet("england", "pay revolt york")
    ctx = context(state, sheets={"england": orders})
    buy_off_revolts(ctx, turn_of(ctx))
    assert board(state).provinces["york"].revolt
    assert orders.rejections[0].reason == \
        "ending the revolt costs 15 crowns and the treasury holds 10"


def test_b2_paying_for_a_province_not_in_revolt_is_refused():
    state = fresh_state()
    assert refused(state, "england", "pay revolt kent", "pay revolt normandy") == [
        "Kent is not in revolt", "Normandy is not under your control"]


# -- B2.2.5 upkeep ------------------------------------------------------------------------


def test_b2_upkeep_is_1_an_army_at_home_and_2_abroad():
    """B2.2.5: "1 crown per army at home, 2 per army abroad"."""
    state = bare(fresh_state())
    put(state, "E-1", "england", "middlesex", 5)
    put(state, "E-2", "england", "normandy", 3)
    ctx = context(state)
    pay_upkeep(ctx, turn_of(ctx))
    assert state.houses["england"].treasury == 100 - 5 - 6
    paid = next(e for e in kinds(ctx, "upkeep") if e.house == "england")
    assert (paid.home_armies, paid.abroad_armies, paid.amount) == (5, 3, 11)


def test_b2_unpaid_armies_are_disbanded_largest_unit_first():
    """B2.2.5: "Armies that cannot be paid are disbanded, largest unit first"."""
    state = bare(fresh_state())
    put(state, "E-1", "england", "middlesex", 5)
    put(state, "E-2", "england", "normandy", 3)
    state.houses["england"].treasury = 4
    ctx = context(state)
    pay_upkeep(ctx, turn_of(ctx))
    assert "E-1" not in state.units
    assert state.units["E-2"].armies == 2
    assert state.houses["england"].treasury == 0
    paid = next(e for e in kinds(ctx, "upkeep") if e.house == "england")
    assert (paid.disbanded, paid.amount) == ({"E-1": 5, "E-2": 1}, 4)


# -- B2.2.6 raising ----------------------------------------------------------------------


def test_b2_raising_costs_5_an_army_and_joins_the_unit_there():
    """B2.2.6: "5 crowns per army, placed in the capital or a controlled home province"."""
    state = fresh_state()
    ctx = context(state, sheets={"england": sheet(
        "england", "raise 3 in middlesex", "raise 2 in kent as E-7", "raise 1 fleet in kent")})
    raise_armies(ctx, turn_of(ctx))
    assert state.units["E-1"].armies == 8
    assert (state.units["E-7"].armies, state.units["E-7"].province) == (2, "kent")
    assert (state.units["E-8"].type, state.units["E-8"].armies) == ("fleet", 1)
    assert state.houses["england"].treasury == 100 - 30
    assert turn_of(ctx).ledger("england").raised == 30


def test_b2_at_most_20_armies_a_kingdom_fleets_aside():
    """B2.2.6: "At most 20 armies per kingdom, fleets aside"."""
    state = fresh_state()
    put(state, "E-2", "england", "kent", 12)
    put(state, "E-3", "england", "english-channel", 4, "fleet")
    record_lost(state, "england", 1, state.turn, rules())
    orders = sheet("england", "raise 3 in middlesex", "raise 1 in middlesex")
    ctx = context(state, sheets={"england": orders})
    raise_armies(ctx, turn_of(ctx))
    assert state.units["E-1"].armies == 7
    assert "only 2 of 3 armies raised in Middlesex: the army cap" in \
        [e.text for e in kinds(ctx, "notice")]
    assert orders.rejections[0].reason.startswith("the kingdom already has its 20 armies")


def test_b2_raising_is_limited_by_the_treasury():
    state = fresh_state()
    state.houses["england"].treasury = 12
    ctx = context(state, sheets={"england": sheet("england", "raise 4 in middlesex")})
    raise_armies(ctx, turn_of(ctx))
    assert (state.units["E-1"].armies, state.houses["england"].treasury) == (7, 2)


def test_b2_raising_only_at_home_in_a_controlled_province():
    state = fresh_state()
    board(state).provinces["york"].controller = "france"
    assert refused(state, "england", "raise 2 in normandy", "raise 2 in york",
                   "raise 1 fleet in mercia", "raise 1 dragon in middlesex",
                   "raise 1 in middlesex as F-3", "raise 1 in middlesex as E-1") == [
        "Normandy is not a province of your home kingdom",
        "York is not under your control",
        "Mercia has no coast for a fleet",
        "there is no unit type 'dragon' (types: army, fleet)",
        "a new unit of House Plantagenet is named E-<number>, not F-3",
        "the unit id E-1 is already in use"]


def test_b2_lost_armies_return_to_the_pool_after_two_turns():
    """B2.2.6: "Lost armies return to the pool after 2 turns"."""
    state = fresh_state()
    record_lost(state, "england", 3, 1, rules())
    assert state.houses["england"].armies_lost == [[3, 3]]
    assert army_pool(state, "england", rules(), 2) == 20 - 5 - 3
    assert army_pool(state, "england", rules(), 3) == 20 - 5
    state.turn = 3
    ctx = context(state)
    return_lost_armies(ctx)
    assert state.houses["england"].armies_lost == []
    assert [(e.house, e.armies) for e in kinds(ctx, "armies-returned")] == [("england", 3)]


# -- B5 the event die -------------------------------------------------------------------------


def test_b5_unrest_rolls_each_province_with_its_modifiers():
    """B5 event 3: "1d6: −2 under extraordinary tax, −1 per adjacent province already in
    revolt. A result of 1 or less is a revolt. A province holding 4 or more armies
    never revolts." York is in revolt; Middlesex holds 5 armies and does not roll."""
    state = fresh_state()
    board(state).provinces["york"].revolt = True
    # event die 3, then northumbria leinster wales mercia east-anglia wessex kent cornwall
    ctx = context(state, faces=[3, 2, 1, 2, 2, 3, 6, 6, 6])
    assert roll_event_die(ctx, turn_of(ctx), "england", 1) == "unrest"
    broke = [(e.province, e.die, e.modifier) for e in kinds(ctx, "revolt")]
    assert broke == [("northumbria", 2, -1), ("leinster", 1, 0), ("mercia", 2, -1)]
    assert [r.subject for r in ctx.dice.log[1:]] == [
        "northumbria", "leinster", "wales", "mercia", "east-anglia", "wessex", "kent",
        "cornwall"]


def test_b5_extraordinary_tax_worsens_unrest_by_2():
    state = fresh_state()
    ctx = context(state, faces=[3, 3, 4, 4, 4, 4, 4, 4, 4, 4])
    turn_of(ctx).extraordinary.add("england")
    roll_event_die(ctx, turn_of(ctx), "england", 1)
    assert [(e.province, e.modifier) for e in kinds(ctx, "revolt")] == [("northumbria", -2)]


def test_b5_unrest_revolts_one_province_in_six_without_modifiers():
    """B5: on 1d6 "a result of 1 or less is a revolt": 1/6 for a lone quiet province."""
    state = bare(fresh_state())
    for province in board(state).provinces.values():
        if province.controller == "england" and province.id != "leinster":
            province.controller = "france"
    ctx = context(state, dice=SeededDice("unrest", 1))
    trials = 6000
    revolts = 0
    for _ in range(trials):
        board(state).provinces["leinster"].revolt = False
        HANDLERS["unrest"](ctx, turn_of(ctx), "england", 1)
        revolts += board(state).provinces["leinster"].revolt
    assert abs(revolts / trials - 1 / 6) < 0.015


def test_b5_plague_halves_armies_rounding_losses_up_and_those_present_roll_survival():
    """B5 event 1: "Plague in a random home province (d10). Armies there are halved,
    rounding the losses up. Characters present roll survival at once." In a capital
    the court is present."""
    state = bare(fresh_state())
    put(state, "E-1", "england", "middlesex", 5)
    put(state, "F-9", "france", "middlesex", 3)
    court = sorted(p.id for p in state.living() if p.court == "england")
    ctx = context(state, faces=[1, 7] + [6, 6] * len(court))
    roll_event_die(ctx, turn_of(ctx), "england", 1)
    plague = kinds(ctx, "plague")[0]
    assert (plague.province, plague.losses) == ("middlesex", {"E-1": 3, "F-9": 2})
    assert (state.units["E-1"].armies, state.units["F-9"].armies) == (2, 1)
    assert sorted(plague.exposed) == court and plague.dead == ()
    assert state.houses["england"].armies_lost == [[3, 3]]
    assert state.houses["france"].armies_lost == [[2, 3]]
    assert ctx.dice.log[1].dice == "1d10"


def test_b5_plague_spares_fleets_and_dragons():
    """B5 event 1 halves *armies*: a fleet in port and a Dragon (Part C) are not
    made of armies, so a plague on Dragonstone leaves them whole."""
    state = bare(fresh_state("westeros"))
    put(state, "R-1", "targaryen", "dragonstone", 4)
    put(state, "R-2", "targaryen", "dragonstone", 1, kind="dragon")
    put(state, "R-3", "targaryen", "dragonstone", 2, kind="fleet")
    court = [p for p in state.living() if p.court == "targaryen"]
    home = [p.id for p in board(state).provinces.values()
            if p.kind == "land" and p.kingdom == "targaryen"]
    ctx = context(state, faces=[1, home.index("dragonstone") + 1] + [6, 6] * len(court),
                  world="westeros")
    roll_event_die(ctx, turn_of(ctx), "targaryen", 1)
    plague = kinds(ctx, "plague")[0]
    assert plague.province == "dragonstone" and plague.losses == {"R-1": 2}
    assert (state.units["R-2"].armies, state.units["R-3"].armies) == (1, 2)


def test_b5_famine_lands_on_a_random_home_province():
    state = fresh_state()
    ctx = context(state, faces=[2, 2])
    roll_event_die(ctx, turn_of(ctx), "england", 1)
    assert board(state).provinces["york"].famine
    assert [e.province for e in kinds(ctx, "event-die")] == ["york"]


def test_b5_storm_sinks_fleets_at_sea_on_1_or_2_and_is_calm_without_fleets():
    state = bare(fresh_state())
    ctx = context(state, faces=[4])
    assert roll_event_die(ctx, turn_of(ctx), "england", 1) == "calm"
    put(state, "E-3", "england", "english-channel", 2, "fleet")
    put(state, "E-4", "england", "north-sea", 2, "fleet")
    put(state, "E-5", "england", "kent", 2, "fleet")
    ctx = context(state, faces=[4, 2, 3])
    assert roll_event_die(ctx, turn_of(ctx), "england", 1) == "storm"
    assert sorted(state.units) == ["E-4", "E-5"]
    assert [e.unit for e in kinds(ctx, "fleet-lost")] == ["E-3"]


def test_b5_good_harvest_adds_a_basic_good_in_a_controlled_resource_province():
    state = fresh_state()
    ctx = context(state, faces=[5, 3])
    roll_event_die(ctx, turn_of(ctx), "england", 1)
    assert [(c.good, c.province, c.owner) for c in board(state).counters] == [
        ("metal", "cornwall", "england")]


def test_b5_four_armies_staying_a_whole_round_end_a_revolt():
    """B5: a revolt ends "when 4 or more of its armies stay there through a whole round"."""
    state = bare(fresh_state())
    for pid in ("york", "mercia", "kent"):
        board(state).provinces[pid].revolt = True
    put(state, "E-1", "england", "york", 4)
    put(state, "E-2", "england", "mercia", 3)
    ctx = context(state)
    turn = turn_of(ctx)
    snapshot_garrisons(ctx, turn)
    put(state, "E-3", "england", "kent", 6)
    end_revolts_by_garrison(ctx, turn)
    assert [p for p in ("york", "mercia", "kent") if board(state).provinces[p].revolt] == [
        "mercia", "kent"]
    assert [(e.province, e.cause) for e in kinds(ctx, "revolt-ended")] == [("york", "garrison")]


# -- trade [D] ---------------------------------------------------------------------------------


def test_trade_gifts_of_counters_and_payments_of_crowns():
    state = fresh_state()
    cloth = new_counter(state, "cloth", "england", "middlesex")
    orders = sheet("england", f"give {cloth.id} to france", "pay 30 crowns to F",
                   "pay 500 crowns to france")
    ctx = context(state, sheets={"england": orders})
    run_trade(ctx, turn_of(ctx))
    assert cloth.owner == "france"
    assert (state.houses["england"].treasury, state.houses["france"].treasury) == (70, 130)
    assert orders.rejections[0].reason == "the treasury holds 70 crowns, 500 needed"


# -- B7 cash-in and B8 the end ----------------------------------------------------------------


@pytest.mark.parametrize(("year", "cashing"), [(1300, False), (1305, True), (1310, False),
                                               (1395, True), (1400, False)])
def test_b7_a_cash_in_closes_every_turn_whose_year_ends_in_5(year, cashing):
    """B2.4: "Cash-in (B7): at the end of every turn whose year ends in 5"."""
    assert is_cash_in_year(year, rules()) is cashing


def _stock(state, house, province, *goods):
    for good in goods:
        new_counter(state, good, house, province)


def test_b7_the_best_sets_in_the_capital_are_cashed_and_the_surplus_stays():
    """B7: "Resources inside the capital are turned into crowns ... Surplus goods stay"."""
    state = fresh_state()
    state.turn = 2
    _stock(state, "england", "middlesex", "metal", "cloth", "food", "wine", "gold", "cloth")
    _stock(state, "england", "kent", "metal", "food")
    ctx = context(state)
    run_cash_in_and_victory(ctx, turn_of(ctx))
    assert state.houses["england"].treasury == 220
    assert goods_in_capital(state, "england") == {"cloth": 1}
    assert sorted(c.good for c in board(state).counters if c.province == "kent") == ["food", "metal"]
    cashed = kinds(ctx, "cash-in")[0]
    assert (cashed.sets, cashed.value, cashed.final) == (("basic+wine+gold",), 120, False)


def test_b7_no_cash_in_in_other_years():
    state = fresh_state()
    _stock(state, "england", "middlesex", "metal", "cloth", "food")
    ctx = context(state)
    run_cash_in_and_victory(ctx, turn_of(ctx))
    assert state.houses["england"].treasury == 100 and not kinds(ctx, "cash-in")


def test_b8_at_the_end_year_a_final_cash_in_and_the_richest_wins():
    """B8: "At the agreed end year (default 1400) there is a final cash-in of the
    complete sets, and the richest house wins"."""
    state = fresh_state()
    state.turn = 21
    assert state.year_of(21) == 1400
    _stock(state, "spain", "toledo", "metal", "cloth", "food")
    state.houses["france"].treasury = 140
    ctx = context(state)
    run_cash_in_and_victory(ctx, turn_of(ctx))
    assert (state.finished, state.winner) == (True, "spain")
    won = kinds(ctx, "victory")[0]
    assert (won.reason, won.standings["spain"], won.standings["france"]) == ("end-year", 150, 140)
    assert kinds(ctx, "cash-in")[0].final


def test_b8_a_target_is_won_after_a_cash_in_by_the_richest_above_it():
    """B8: "The first house to exceed it after a cash-in wins; if several exceed it in
    the same turn, the richest wins"."""
    state = fresh_state(spec={"target": 140})
    state.houses["france"].treasury = 145
    state.houses["germany"].treasury = 500
    ctx = context(state)
    run_cash_in_and_victory(ctx, turn_of(ctx))
    assert not state.finished
    state.turn = 2
    _stock(state, "england", "middlesex", "metal", "cloth", "food")
    state.houses["germany"].treasury = 90
    ctx = context(state)
    run_cash_in_and_victory(ctx, turn_of(ctx))
    assert (state.finished, state.winner) == (True, "england")
    assert kinds(ctx, "victory")[0].reason == "target"
