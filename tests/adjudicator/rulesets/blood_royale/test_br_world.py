"""RULES.md B1 (the world and the starting state) and Part C (Westeros as data)."""

from __future__ import annotations

import copy

import pytest
from br_support import fresh_state, rules

from adjudicator.dice import ScriptedDice
from adjudicator.dynastic.command import unit_command_value
from adjudicator.errors import RulesDataError, SetupError
from adjudicator.rulesets.blood_royale.board import board
from adjudicator.rulesets.blood_royale.setup import build_blood_royale_state
from adjudicator.rulesets.blood_royale.tables import br_rules
from adjudicator.rulesets.blood_royale.world import (
    check_world,
    controlled,
    find_province,
    home_provinces,
    shortest_path,
)


def test_b1_each_house_controls_its_kingdom_with_100_crowns_and_5_armies():
    """B1: "100 crowns in the treasury, and 5 armies in one unit in the capital";
    B3: "A home province is controlled by its kingdom"."""
    state = fresh_state()
    assert sorted(state.houses) == ["england", "france", "germany", "italy", "spain"]
    for house in state.houses.values():
        assert house.treasury == 100
        assert len(controlled(state, house.id)) == 10 == len(home_provinces(state, house.id))
        units = [u for u in state.units.values() if u.house == house.id]
        assert [(u.armies, u.province, u.type) for u in units] == [(5, house.capital, "army")]
        assert board(state).provinces[house.capital or ""].capital
    assert all(p.controller is None for p in board(state).provinces.values() if p.kind == "sea")


def test_b1_starting_family_king_25_queen_20_child_5_all_zero():
    """B1: "a king of 25 (born 1275), the founder (x1000); a queen of 20 (born 1280),
    from the minor nobility; a child of 5 (born 1295); all with characteristics 0"."""
    state = fresh_state()
    for house in state.houses.values():
        family = [p for p in state.persons.values()
                  if p.dynasty == house.id or p.court == house.id]
        king = state.persons[house.ruler or ""]
        assert (king.born, king.founder, king.refs) == (1275, True,
                                                       {house.id: f"{house.letter}1000"})
        queen = state.persons[king.spouse or ""]
        assert (queen.born, queen.dynasty, queen.sex) == (1280, None, "F")
        child = next(p for p in family if p.born == 1295)
        assert (child.father, child.mother, child.dynasty) == (king.id, queen.id, house.id)
        assert all(p.constitution == p.command == p.ruse == 0 for p in family)


def test_b1_the_childs_sex_is_one_recorded_die_per_house():
    """B1: "a child of 5 (born 1295), whose sex is random" — one die each, recorded."""
    dice = ScriptedDice([1, 6, 3, 4, 2, 50])
    state = build_blood_royale_state({}, rules(), dice)
    sexes = [p.sex for p in state.persons.values() if p.born == 1295]
    assert sexes == ["M", "F", "M", "F", "M"]
    assert [r.purpose for r in dice.log[:5]] == ["sex of the starting child"] * 5
    assert [r.subject for r in dice.log[:5]] == sorted(state.houses)


def test_b1_campaign_houses_people_and_units_override_the_pack():
    """DESIGN: a scenario may declare its own [[house]], [[person]] and [[unit]]."""
    spec = {
        "house": [{"id": "england", "letter": "E", "player": "Ann"},
                  {"id": "france", "letter": "F"}],
        "person": [{"id": "ed", "name": "Edwin", "sex": "M", "born": 1270,
                    "dynasty": "england", "founder": True},
                   {"id": "ph", "name": "Phil", "sex": "M", "born": 1272,
                    "dynasty": "france", "founder": True}],
        "unit": [{"id": "E-1", "house": "england", "armies": 7, "province": "kent"}],
    }
    state = fresh_state(spec=spec)
    assert sorted(state.houses) == ["england", "france"]
    assert state.houses["england"].player == "Ann"
    assert state.houses["england"].name == "House Plantagenet"
    assert sorted(state.persons) == ["ed", "ph"]
    assert [(u.id, u.armies, u.province) for u in state.units.values()] == [("E-1", 7, "kent")]
    assert all(p.controller is None for p in board(state).provinces.values() if p.kingdom == "germany")


def test_b1_a_house_needs_a_kingdom_of_its_letter():
    with pytest.raises(SetupError, match="letter 'Q'"):
        fresh_state(spec={"house": [{"id": "quebec", "letter": "Q"}]})


def test_b8_end_year_defaults_to_1400_unless_a_target_is_set():
    """B8: "At the agreed end year (default 1400) ... A campaign may instead set a target"."""
    assert fresh_state().end_year == 1400 == br_rules(rules()).economy.end_year
    targeted = fresh_state(spec={"target": 1000})
    assert (targeted.end_year, targeted.target) == (None, 1000)
    assert fresh_state(spec={"end_year": 1350}).end_year == 1350


@pytest.mark.parametrize("world", ["blood-royale", "westeros"])
def test_b1_every_map_is_symmetric_and_connected(world):
    """B1: adjacency is data; a one-way border would make moves depend on direction."""
    data = rules(world)["world"]
    check_world(data)
    state = fresh_state(world)
    start = next(iter(board(state).provinces))
    for pid in board(state).provinces:
        assert shortest_path(state, start, pid, lambda p: True) is not None


def test_b1_a_one_way_border_is_refused():
    data = copy.deepcopy(rules()["world"])
    first = data["province"][0]
    first["neighbours"] = [*first["neighbours"], "toledo"]
    with pytest.raises(RulesDataError, match="not the other way"):
        check_world(data)


def test_b1_provinces_are_found_by_id_or_name():
    state = fresh_state()
    assert find_province(state, "ile-de-france") is find_province(state, "Ile de France")
    assert find_province(state, "East Anglia").id == "east-anglia"
    assert find_province(state, "Atlantis") is None


def test_c_westeros_is_a_content_pack_chosen_by_the_campaign():
    """Part C: seven houses on a Westeros map with the Blood Royale rules; which law
    and which unit types are data: Martell absolute, Targaryen Dragons. The campaign
    says ``world = "westeros"``."""
    state = fresh_state("westeros")
    assert len(state.houses) == 7
    assert state.houses["martell"].law == "absolute"
    assert {h.law for h in state.houses.values() if h.id != "martell"} == {"male-preference"}
    dragons = [u for u in state.units.values() if u.type == "dragon"]
    assert dragons and all(u.house == "targaryen" for u in dragons)
    typed = br_rules(rules("westeros"))
    assert typed.unit_type("dragon").flying and not typed.unit_type("dragon").raisable


def test_c_a_dragon_never_commands_below_zero():
    """A8, C: "A Dragon's value is never below 0" — the floor is unit-type data."""
    state = fresh_state("westeros")
    dragon = next(u for u in state.units.values() if u.type == "dragon")
    king = state.persons[state.houses["targaryen"].ruler or ""]
    king.command = -1
    dragon.commanders = [king.id]
    assert unit_command_value(state, dragon, rules("westeros")) == 0
