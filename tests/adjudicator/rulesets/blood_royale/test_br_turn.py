"""RULES.md B2 (the whole turn), B7 (wealth standings), the template, the export, and a
smoke test: twenty turns played by the built-in players on the real map."""

from __future__ import annotations

import copy
from collections import Counter

import pytest
from br_support import PERSONALITIES, play, rules, ruleset, sheet, start
from dynasty_helpers import shared_mutables

from adjudicator.dice import SeededDice
from adjudicator.orders import parse_orders
from adjudicator.rulesets.blood_royale import (
    blood_royale_template,
    export_blood_royale,
)
from adjudicator.rulesets.blood_royale.board import board
from adjudicator.state import GameState
from chronicle.rulesets.blood_royale.player import blood_royale_orders

BR_WORDS = {"tax", "pay", "raise", "split", "merge", "move", "carry", "allow", "refuse",
            "intervene", "give", "attack", "avoid", "fight", "flee", "surrender", "retreat"}


def test_b2_a_turn_runs_dynasty_interphase_movement_cash_in_then_wealth():
    """B2: "1. Dynasty phase 2. Interphase ... 3. Movement rounds: 2 per turn ...
    4. Cash-in 5. Victory check"; a wealth row per house closes the turn."""
    state = start()
    result = ruleset().resolve(state, {}, SeededDice("order", 1))
    kinds = [e.kind for e in result.events]
    first = {kind: kinds.index(kind) for kind in reversed(kinds)}
    assert first["birth-attempts"] < first["taxes"] < first["resource"] < first["upkeep"] \
        < first["kingdom-order"] < first["wealth"]
    rounds = [e.round for e in result.events if e.kind == "kingdom-order"]
    assert rounds == [1, 2]
    assert kinds[-5:] == ["wealth"] * 5
    assert result.state.turn == 1 and state.turn == 0


def test_b1_a_snapshot_of_the_previous_layout_plays_the_same_turn():
    """B1: "Five kingdoms: England, France, Germany, Italy and Spain": each house's home
    kingdom is in Blood Royale's part of the state. That part of a snapshot written before
    battle orders and unit numbers were recorded still loads, and the next turn is the same."""
    state = start()
    data = state.to_dict()
    part = data["extra"]["blood_royale"]
    assert part["homes"]["england"] == "england"
    del part["unit_numbers"], part["standing"]
    loaded = GameState.from_dict(data)
    ours = ruleset().resolve(state, {}, SeededDice("snapshot", 1))
    theirs = ruleset().resolve(loaded, {}, SeededDice("snapshot", 1))
    assert [e.payload() for e in theirs.events] == [e.payload() for e in ours.events]
    assert theirs.state.to_dict() == ours.state.to_dict()


def test_b2_a_turn_leaves_the_previous_state_alone_and_copies_share_nothing_mutable():
    """B2: the turn's steps, "1. Dynasty phase 2. Interphase ... 3. Movement rounds",
    all act on a copy: the state before the turn is unchanged and shares no mutable
    object with the state after it, or with a copy of it."""
    state = start()
    before = state.to_dict()
    after = ruleset().resolve(state, {}, SeededDice("copy", 1)).state
    assert state.to_dict() == before
    assert shared_mutables(state, after) == []
    assert shared_mutables(after, after.copy()) == []


def test_b7_a_wealth_row_per_house_per_turn_accounts_for_the_treasury():
    """B7: "Wealth standings: treasuries, the goods in each capital and the value of the
    best cash-in, per turn"; DESIGN.md wealth[] fields."""
    state = start()
    sheets = {"england": sheet("england", "tax extraordinary", "raise 2 in middlesex")}
    result = ruleset().resolve(state, sheets, SeededDice("wealth", 1))
    rows = {e.house: e for e in result.events if e.kind == "wealth"}
    assert sorted(rows) == sorted(state.houses)
    england = rows["england"]
    assert (england.turn, england.year, england.taxes, england.raised) == (1, 1300, 70, 10)
    for house, row in rows.items():
        assert row.treasury == result.state.houses[house].treasury
        assert row.treasury == 100 + row.taxes - row.upkeep - row.raised + row.cash_in


def test_b4_the_template_states_the_data_s_counter_move():
    """B4: resource counters "move up to 4 provinces per round towards the owner's
    capital": the template says so with the data's number."""
    state = start()
    assert "(4 provinces a round)" in blood_royale_template(state, "england", rules())
    changed = {k: copy.deepcopy(v) for k, v in rules().items() if not k.startswith("_")}
    changed["economy"]["movement"]["counter_moves"] = 6
    assert "(6 provinces a round)" in blood_royale_template(state, "england", changed)


def test_the_template_lists_treasury_units_neighbours_and_is_legal_as_it_stands():
    state = start()
    text = blood_royale_template(state, "england", rules())
    assert text.startswith("house england\n")
    assert "# Treasury: 100 crowns." in text
    assert "# E-1: army, 5 armies in Middlesex; commanders: none" in text
    assert "#   next to: mercia east-anglia wessex kent north-sea" in text
    assert "room for 15 more under the cap of 20" in text
    orders = parse_orders(text, ruleset().grammar, filename="england.orders",
                          expected_house="england")
    ruleset().validate(state, {"england": orders})
    assert orders.rejections == [] and orders.refused is None


def test_the_export_gives_provinces_units_battles_and_wealth():
    """DESIGN.md JSON export: provinces[], units[], battles[], wealth[]."""
    state = start()
    result = ruleset().resolve(state, {}, SeededDice("export", 1))
    triples = [(1, e.kind, e.payload()) for e in result.events]
    triples.append((1, "battle", {"id": "b-1-1", "round": 1, "province": "york",
                                  "sides": [], "rounds": []}))
    data = export_blood_royale(result.state, triples, rules())
    york = next(p for p in data["provinces"] if p["id"] == "york")
    assert set(york) >= {"id", "name", "kingdom", "kind", "capital", "resource", "controller",
                         "neighbours", "revolt", "famine"}
    assert (york["kingdom"], york["resource"], york["controller"]) == (
        "england", "cloth", "england")
    assert data["units"][0]["id"] == "E-1" and "command_value" in data["units"][0]
    assert [(b["id"], b["turn"]) for b in data["battles"]] == [("b-1-1", 1)]
    assert [(w["turn"], w["house"]) for w in data["wealth"]] == [
        (1, h) for h in sorted(state.houses)]
    assert set(data["wealth"][0]) == {"turn", "year", "house", "treasury", "goods", "taxes",
                                      "upkeep", "raised", "cash_in", "best_cash_in",
                                      "revolts", "paid", "received", "ransom_paid",
                                      "ransom_received"}
    assert "units" not in export_blood_royale(result.state, triples)


# -- smoke test -------------------------------------------------------------------------------


def _check_battle(battle):
    """Every round adds up: total = die + modifiers; losses never negative; no side
    loses more than its enemy inflicted, nor ends with more armies than it began with."""
    houses = [side["house"] for side in battle["sides"]]
    inflicted = Counter()
    for entry in battle["rounds"]:
        for house, roll in entry.items():
            assert roll["total"] == roll["die"] + sum(roll["modifiers"].values())
            assert roll["losses_inflicted"] >= 0
            inflicted[house] += roll["losses_inflicted"]
    for side in battle["sides"]:
        enemy = next(h for h in houses if h != side["house"])
        assert 0 <= side["armies_after"] <= side["armies_before"]
        assert side.get("losses", 0) <= inflicted[enemy]


@pytest.mark.parametrize(("world", "turns"), [("blood-royale", 20), ("westeros", 8)])
def test_b_twenty_turns_of_built_in_players_keep_the_invariants(world, turns):
    played = battles = late = 0
    for before, result in play(world, turns, "smoke"):
        state = result.state
        played += 1
        assert all(u.armies >= 1 and u.province in board(state).provinces for u in state.units.values())
        assert all(h.treasury >= 0 for h in state.houses.values())
        assert all(c.province in board(state).provinces and c.owner in state.houses
                   for c in board(state).counters)
        for pid, province in board(state).provinces.items():
            assert all(pid in board(state).provinces[n].neighbours for n in province.neighbours)
        rows = [e for e in result.events if e.kind == "wealth"]
        assert sorted(r.house for r in rows) == sorted(h.id for h in state.active_houses())
        for event in result.events:
            if event.kind == "battle":
                battles += 1
                _check_battle(event.payload())
        late += sum(1 for r in result.rejections if r.text.split()[0] in BR_WORDS)
        assert state.turn == before.turn + 1
    assert played == turns
    assert late <= turns, "the built-in players' orders should mostly stand"
    assert battles > 0 or world == "westeros"


def test_the_same_seed_and_orders_give_the_same_campaign():
    """DESIGN: "Running a turn twice with the same orders gives the same store"."""
    first = [r.state.to_dict() for _, r in play("blood-royale", 4, "twice")]
    second = [r.state.to_dict() for _, r in play("blood-royale", 4, "twice")]
    assert first == second


def test_personalities_change_the_orders():
    state = start()
    files = {p: blood_royale_orders(state, "france", rules(), p, "x") for p in PERSONALITIES}
    assert len(set(files.values())) == 3
    assert "raise" in files["ambitious"]
