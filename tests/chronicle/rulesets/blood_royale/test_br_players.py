"""The built-in Blood Royale players use every part of the game: fleets (B4),
trade and crown payments (B7a), cash-ins (B7) and sieges of capitals (B6)."""

from __future__ import annotations

import re

from br_support import bare, play, put, quiet_rules, rules, ruleset, sheets_of, start

from adjudicator.dice import SeededDice
from adjudicator.orders import parse_orders
from adjudicator.rulesets.blood_royale.board import Counter, board
from chronicle.rulesets.blood_royale.player import TEMPERS, blood_royale_orders


def _move_end(text: str, unit: str) -> str:
    line = next(x for x in text.splitlines() if x.startswith(f"move {unit} to "))
    return line.split()[-1]


def test_b4_an_island_house_keeps_a_fleet_in_its_lane_and_ships_goods_and_armies():
    """B4: "an army crosses a sea zone only where a fleet of yours lies", and counters
    travel through "sea zones where one of your fleets lies". Greyjoy's capital and
    its metal are islands: its player raises a fleet on turn 1 and keeps it in
    Ironman's Bay, where its goods and armies then cross."""
    table = quiet_rules("westeros")  # no storms: the fleet stays afloat
    shipped_goods = shipped_armies = False
    for turn, (before, result) in enumerate(play("westeros", 4, "island", table), start=1):
        if turn == 1:
            raised = [e for e in result.events if e.kind == "raise" and e.house == "greyjoy"
                      and e.unit_type == "fleet"]
            assert raised, "an island house raises a fleet at once"
            assert result.state.units[raised[0].unit].province == "ironmans-bay"
        for event in result.events:
            if event.kind not in ("counter-moved", "unit-moved") or event.house != "greyjoy" \
                    or "ironmans-bay" not in event.path:
                continue
            if event.kind == "counter-moved":
                shipped_goods = True
            elif any(u.type == "army" for s in (before, result.state)
                     if (u := s.units.get(event.unit))):
                shipped_armies = True
    assert shipped_goods and shipped_armies


def test_b7_a_house_one_good_short_buys_it_across_the_sea_and_cashes_in():
    """B7: "Resources inside the capital are turned into crowns at a cash-in. A basic
    set is one metal, one cloth and one food: 50 crowns." B7a: "Gifts and payments
    (give, pay) are one-sided": England, with metal and cloth at home, pays France
    for its spare food, and both players write their half. England's new fleet in the
    North Sea carries the food home in time for the cash-in of 1305 (B4)."""
    table = quiet_rules()
    state = bare(start(seed="sale"))
    board(state).counters += [Counter("metal-901", "metal", "england", "middlesex"),
                       Counter("cloth-902", "cloth", "england", "middlesex"),
                       Counter("food-903", "food", "france", "ile-de-france"),
                       Counter("food-904", "food", "france", "ile-de-france")]
    files = {h: blood_royale_orders(state, h, table, "cautious", "sale")
             for h in ("england", "france")}
    assert "give food-903 to england" in files["france"]
    assert "allow passage england" in files["france"]
    assert "pay 20 crowns to france" in files["england"]
    fleet = re.search(r"^raise 1 fleet in \S+ as (E-\d+)$", files["england"], re.M)
    assert fleet and _move_end(files["england"], fleet[1]) == "north-sea"
    rs = ruleset(table=table)
    events = []
    for _ in range(2):  # 1300, then 1305 and its cash-in
        sheets = {h: parse_orders(blood_royale_orders(state, h, table, "cautious", "sale"),
                                  rs.grammar, filename=f"{h}.orders", expected_house=h)
                  for h in ("england", "france")}
        result = rs.resolve(state, sheets, SeededDice("sale", state.turn + 1))
        events += result.events
        state = result.state
    carried = [e for e in events if e.kind == "counter-moved" and e.counter == "food-903"]
    assert any("north-sea" in e.path for e in carried)
    assert [e.value for e in events if e.kind == "cash-in" and e.house == "england"] == [50]
    assert ("england", "france", 20) in [(e.house, e.to, e.amount) for e in events
                                         if e.kind == "crowns-paid"]


def test_b7a_two_houses_swap_their_spare_goods_by_a_binding_exchange():
    """B7a: "Two houses may agree an exchange of crowns and counters that is all or
    nothing: both houses send the same exchange." England spares metal and lacks food;
    France spares food and lacks metal: each writes the same exchange, its own part
    first, and it happens whole at the interphase."""
    table = quiet_rules()
    state = bare(start(seed="swap"))
    board(state).counters += [Counter("metal-901", "metal", "england", "middlesex"),
                       Counter("metal-902", "metal", "england", "middlesex"),
                       Counter("food-903", "food", "france", "ile-de-france"),
                       Counter("food-904", "food", "france", "ile-de-france")]
    texts = {h: blood_royale_orders(state, h, table, "cautious", "swap")
             for h in ("england", "france")}
    assert "exchange metal-901 for food-903 with france" in texts["england"]
    assert "exchange food-903 for metal-901 with england" in texts["france"]
    result = ruleset(table=table).resolve(state, sheets_of(texts), SeededDice("swap", 1))
    made = [e for e in result.events if e.kind == "exchange"]
    assert [(e.house, e.partner, e.counters_given, e.counters_received) for e in made] == [
        ("england", "france", ("metal-901",), ("food-903",))]
    assert {c.id: c.owner for c in board(result.state).counters}["food-903"] == "england"


def test_b7_a_house_keeps_the_last_good_of_a_set_in_the_making():
    """B7: a set needs one of each basic good, so a house does not sell its only metal
    to a house that lacks metal, even for crowns."""
    table = rules()
    state = bare(start(seed="keep"))
    board(state).counters += [Counter("metal-901", "metal", "england", "middlesex"),
                       Counter("cloth-902", "cloth", "england", "middlesex")]
    for house in ("england", "france"):
        text = blood_royale_orders(state, house, table, "cautious", "keep")
        assert "give " not in text and "crowns to" not in text


def test_b6_an_ambitious_house_lays_siege_to_a_capital_within_reach():
    """B6: "A capital fights as 10 extra armies, in defence only." Italy's ambitious
    player, with 16 armies at home, marches on Austria next door when its field army
    outnumbers the garrison by a quarter of the castle, and leaves it be otherwise."""
    table = rules()
    state = bare(start(seed="siege"))
    put(state, "I-1", "italy", "campania", 16)
    put(state, "G-1", "germany", "austria", 5)
    text = blood_royale_orders(state, "italy", table, "ambitious", "siege")
    spare = 16 - TEMPERS["ambitious"].garrison
    split = re.search(rf"^split {spare} from I-1 as (I-\d+)$", text, re.M)
    assert split and "attack germany" in text
    assert _move_end(text, split[1]) == "austria"
    state.units["G-1"].armies = spare - 2
    text = blood_royale_orders(state, "italy", table, "ambitious", "siege")
    split = re.search(rf"^split {spare} from I-1 as (I-\d+)$", text, re.M)
    assert split and _move_end(text, split[1]) != "austria"
