"""RULES.md B6: battles, and the A9 capture of beaten commanders.

The test map (all land but the Channel)::

    london(E cap) - channel(sea) - normandy(E) - paris(F cap)
                    channel - picardy(F) - paris, champagne(F), flanders(nobody)
                    champagne - paris, burgundy(G)
"""

from __future__ import annotations

import json
import tomllib
from typing import Any

import pytest
from repo_paths import REPO

from adjudicator.dice import Dice, ScriptedDice, SeededDice
from adjudicator.errors import RulesDataError
from adjudicator.orders import Grammar, parse_orders
from adjudicator.rulesets.base import TurnContext
from adjudicator.rulesets.blood_royale.battle import (
    BattleFought,
    BattleRules,
    Flight,
    Outcome,
    RoundRoll,
    battle_rules,
    resolve_contacts,
)
from adjudicator.rulesets.blood_royale.battle_orders import (
    EndOrder,
    RetreatPreferenceOrder,
    StanceOrder,
    record_standing_orders,
    register_battle_orders,
    standing_order_lines,
    validate_battle_orders,
)
from adjudicator.rulesets.blood_royale.board import Counter, Province, board
from adjudicator.rulesets.blood_royale.control import end_of_round
from adjudicator.rulesets.blood_royale.standing import (
    HOUSE_WIDE,
    EndKind,
    EndRule,
    Stance,
    Standing,
)
from adjudicator.rulesets.blood_royale.turnstate import br_turn
from adjudicator.rulesets.blood_royale.world import br_data, declare_alliance, set_passage
from adjudicator.state import GameState, House, Person, Unit

CONTENT = REPO / "content/rulesets"


def _load(name: str) -> dict[str, Any]:
    return tomllib.loads((CONTENT / name).read_text(encoding="utf-8"))


def make_rules() -> dict[str, Any]:
    return {
        "dynasty": _load("dynastic/dynasty.toml"),
        "battle": _load("blood-royale/battle.toml"),
        "wealth": _load("blood-royale/wealth.toml"),
        "economy": _load("blood-royale/economy.toml"),
        "unit_types": {"army": {"max_commanders": 0},
                       "fleet": {"max_commanders": 0, "naval": True}},
    }


GRAMMAR = Grammar()
register_battle_orders(GRAMMAR)

MAP: dict[str, tuple[str, str | None, list[str]]] = {
    # id: (kind, controller, neighbours)
    "london": ("land", "england", ["channel"]),
    "channel": ("sea", None, ["london", "normandy", "picardy"]),
    "normandy": ("land", "england", ["channel", "paris"]),
    "paris": ("land", "france", ["normandy", "picardy", "champagne"]),
    "picardy": ("land", "france", ["paris", "champagne", "flanders", "channel"]),
    "champagne": ("land", "france", ["paris", "picardy", "burgundy"]),
    "flanders": ("land", None, ["picardy"]),
    "burgundy": ("land", "germany", ["champagne"]),
}


def make_state() -> GameState:
    state = GameState(ruleset="blood-royale", start_year=1300, years_per_turn=5, turn=1)
    for hid, letter, capital in (("england", "E", "london"), ("france", "F", "paris"),
                                 ("germany", "G", None)):
        state.houses[hid] = House(id=hid, letter=letter, name=hid.title(), capital=capital)
    for pid, (kind, controller, neighbours) in MAP.items():
        board(state).provinces[pid] = Province(
            id=pid, name=pid.title(), kind=kind, kingdom=None if kind == "sea" else controller,
            capital=pid in ("london", "paris"), neighbours=list(neighbours),
            controller=controller)
    return state


def add_unit(state: GameState, uid: str, house: str, armies: int, province: str,
             *commanders: tuple[str, int]) -> Unit:
    unit = Unit(id=uid, house=house, type="army", armies=armies, province=province)
    state.units[uid] = unit
    for name, command in commanders:
        pid = name.lower()
        state.persons[pid] = Person(id=pid, name=name, sex="M", born=1270, dynasty=house,
                                    command=command, seq=state.allocate_seq(), unit=uid)
        unit.commanders.append(pid)
    return unit


def make_ctx(state: GameState, dice: Dice, rules: dict[str, Any] | None = None) -> TurnContext:
    ctx = TurnContext(state=state, dice=dice, rules=rules or make_rules(), sheets={})
    ctx.aged = True
    return ctx


def standing(ctx: TurnContext, house: str, *lines: str) -> None:
    """Give ``house`` standing battle orders through the real parser and store."""
    sheet = parse_orders("\n".join([f"house {house}", *lines]), GRAMMAR,
                         filename=f"{house}.orders", expected_house=house)
    assert not sheet.rejections, sheet.rejections
    validate_battle_orders(ctx.state, sheet)
    assert not sheet.rejections, sheet.rejections
    ctx.sheets = {house: sheet}
    record_standing_orders(ctx)
    ctx.sheets = {}


def battles(ctx: TurnContext) -> list[BattleFought]:
    return [e for e in ctx.events if isinstance(e, BattleFought)]


# -- the tables ----------------------------------------------------------------------


def test_b6_casualty_table_and_cap_come_from_data() -> None:
    """B6: 1 or less → 0, 2–3 → 1, 4–5 → 2, 6+ → 3; "a third of its own strength,
    rounded up"."""
    table = battle_rules(make_rules())
    assert [table.losses(t) for t in range(-1, 10)] == [0, 0, 0, 1, 1, 2, 2, 3, 3, 3, 3]
    assert [table.cap(s) for s in (1, 2, 3, 4, 6, 7, 15)] == [1, 1, 1, 2, 2, 3, 5]
    assert table.castle == 10
    assert [table.preliminary(t) for t in (1, 2, 3, 4, 11, 12, 13)] == [
        "killed", "killed", "captured", "none", "none", "bonus", "bonus"]


def test_b6_bad_tables_are_refused() -> None:
    data = _load("blood-royale/battle.toml")
    data["rounds"]["casualties"] = [[4, 2], [2, 1]]
    with pytest.raises(RulesDataError, match="rise"):
        BattleRules.from_mapping(data)
    del data["castle"]
    with pytest.raises(RulesDataError, match="castle"):
        BattleRules.from_mapping(data)


# -- rounds ------------------------------------------------------------------------------


def test_b6_round_losses_by_table_six_against_one() -> None:
    """B6: "Each side rolls 1d6 per round, both at once" — a 6 inflicts 3 armies,
    a 1 inflicts none; the round is recorded per house."""
    state = make_state()
    add_unit(state, "E-1", "england", 9, "picardy")
    add_unit(state, "F-1", "france", 9, "picardy")
    ctx = make_ctx(state, ScriptedDice([6, 1]))
    standing(ctx, "france", "flee when losses reach 3")
    assert resolve_contacts(ctx, "picardy", "england", 1) == ["b-1-1"]
    [battle] = battles(ctx)
    assert battle.rounds == ({
        "england": RoundRoll(die=6, modifiers={}, total=6, losses_inflicted=3, armies_after=9),
        "france": RoundRoll(die=1, modifiers={}, total=1, losses_inflicted=0, armies_after=6),
    },)
    assert battle.attacker == "england" and battle.defender == "france"
    assert battle.winner == "england"
    assert battle.fled == (Flight(unit="F-1", house="france", to="paris"),)
    assert state.units["F-1"].province == "paris" and state.units["F-1"].armies == 6
    assert battle.sides[1].armies_before == 9 and battle.sides[1].armies_after == 6
    assert battle.sides[1].outcome is Outcome.FLED and battle.sides[0].outcome is Outcome.HELD
    assert state.houses["france"].armies_lost == [[3, 3]]
    assert ctx.dice.phase == "setup"  # the caller's phase is restored
    assert {r.phase for r in ctx.dice.log} == {"battle-1"}


def test_b6_one_third_cap_and_outnumbering() -> None:
    """B6: "No side inflicts more losses than a third of its own strength, rounded
    up"; "+1 if it outnumbers the enemy 2 to 1"."""
    state = make_state()
    add_unit(state, "E-1", "england", 4, "picardy")
    add_unit(state, "F-1", "france", 8, "picardy")
    ctx = make_ctx(state, ScriptedDice([6, 1]))
    standing(ctx, "england", "flee when losses reach 1")
    resolve_contacts(ctx, "picardy", "england", 1)
    [battle] = battles(ctx)
    england, france = battle.rounds[0]["england"], battle.rounds[0]["france"]
    assert england.total == 6 and england.losses_inflicted == 2  # cap: ⌈4/3⌉ = 2
    assert france.modifiers == {"outnumber": 1}  # 8 ≥ 2 × 4
    assert france.total == 2 and france.losses_inflicted == 1
    assert state.units["F-1"].armies == 6
    # England had nowhere to go: no adjacent province of its own, no preferred retreat.
    assert battle.fled == (Flight(unit="E-1", house="england", to=None),)
    assert battle.destroyed == ("E-1",)
    assert "E-1" not in state.units
    assert state.houses["england"].armies_lost == [[4, 3]]  # 1 killed + 3 destroyed
    assert battle.winner == "france"


def test_b6_losses_taken_from_the_largest_unit_first() -> None:
    """[D] losses are spread army by army over the largest unit, ties to the lowest id."""
    state = make_state()
    add_unit(state, "E-1", "england", 3, "picardy")
    add_unit(state, "E-2", "england", 5, "picardy")
    add_unit(state, "F-1", "france", 9, "picardy")
    ctx = make_ctx(state, ScriptedDice([1, 6]))
    standing(ctx, "england", "flee when losses reach 3")
    standing(ctx, "england", "retreat E-1 to flanders", "retreat E-2 to flanders")
    resolve_contacts(ctx, "picardy", "england", 1)
    assert state.units["E-1"].armies == 2 and state.units["E-2"].armies == 3
    assert state.units["E-1"].province == state.units["E-2"].province == "flanders"


def test_b6_command_value_of_the_best_unit() -> None:
    """B6: "+ the unit command value (A8) of its best unit"."""
    state = make_state()
    add_unit(state, "E-1", "england", 3, "picardy", ("Weak", -1))
    add_unit(state, "E-2", "england", 3, "picardy", ("Bold", 1))
    add_unit(state, "F-1", "france", 6, "picardy", ("Dull", -1))
    # Preliminaries (2d6 each, attacker's units first): 3+4, 3+4, 3+4: no effect.
    # Then the round (3, 3) and Dull's capture roll as France flees (6: escapes).
    ctx = make_ctx(state, ScriptedDice([3, 4, 3, 4, 3, 4, 3, 3, 6]))
    standing(ctx, "england", "fight to the end")
    standing(ctx, "france", "flee when losses reach 1")
    resolve_contacts(ctx, "picardy", "england", 1)
    [battle] = battles(ctx)
    assert battle.rounds[0]["england"].modifiers == {"command": 1}
    assert battle.rounds[0]["france"].modifiers == {"command": -1}
    assert battle.rounds[0]["england"].total == 4
    assert battle.rounds[0]["france"].total == 2
    assert [p.result for p in battle.preliminary] == ["none", "none", "none"]


def test_b6_both_eliminated_is_a_draw() -> None:
    """B6: "The battle ends when one side is eliminated" — both at once: no winner."""
    state = make_state()
    add_unit(state, "E-1", "england", 1, "picardy")
    add_unit(state, "F-1", "france", 1, "picardy")
    ctx = make_ctx(state, ScriptedDice([6, 6]))
    resolve_contacts(ctx, "picardy", "england", 1)
    [battle] = battles(ctx)
    assert battle.winner is None
    assert battle.destroyed == ("F-1", "E-1")
    assert not state.units


# -- the capital ----------------------------------------------------------------------------


def test_b6_castle_absorbs_losses_before_the_garrison() -> None:
    """B6: "A capital fights as 10 extra armies, in defence only. Its castle strength
    absorbs losses before the garrison does." Also "+1 for a defender in its capital"."""
    state = make_state()
    add_unit(state, "E-1", "england", 30, "paris")
    add_unit(state, "F-1", "france", 2, "paris")
    ctx = make_ctx(state, ScriptedDice([6, 1] * 4))
    resolve_contacts(ctx, "paris", "england", 2)
    [battle] = battles(ctx)
    assert battle.id == "b-1-1" and battle.round == 2
    assert [r["france"].castle_after for r in battle.rounds] == [7, 4, 1, 0]
    assert [r["france"].armies_after for r in battle.rounds] == [2, 2, 2, 0]
    assert battle.rounds[0]["france"].modifiers == {"capital": 1}
    assert battle.rounds[0]["england"].modifiers == {"outnumber": 1}  # 30 ≥ 2 × 12
    assert battle.rounds[0]["france"].losses_inflicted == 1
    assert battle.rounds[0]["england"].castle_after is None
    assert battle.sides[1].castle == 10
    assert battle.winner == "england" and battle.destroyed == ("F-1",)
    assert state.units["E-1"].armies == 26
    assert state.houses["france"].armies_lost == [[2, 3]]


def test_b6_castle_counts_in_strength_for_the_cap_and_outnumbering() -> None:
    """[D] strength = armies + castle for the defender in its capital: 3 + 10 = 13
    outnumbers 6 and may inflict up to ⌈13/3⌉ = 5."""
    state = make_state()
    add_unit(state, "E-1", "england", 6, "paris")
    add_unit(state, "F-1", "france", 3, "paris")
    ctx = make_ctx(state, ScriptedDice([6, 1]))
    standing(ctx, "england", "flee when losses reach 1")
    resolve_contacts(ctx, "paris", "england", 1)
    [battle] = battles(ctx)
    assert battle.rounds[0]["france"].modifiers == {"outnumber": 1, "capital": 1}
    assert battle.rounds[0]["france"].total == 3
    assert battle.rounds[0]["england"].losses_inflicted == 2  # ⌈6/3⌉
    assert battle.rounds[0]["france"].castle_after == 8
    assert battle.fled == (Flight(unit="E-1", house="england", to="normandy"),)


def test_b6_no_castle_for_a_house_attacking_in_its_capital() -> None:
    """B6: the capital fights "in defence only"."""
    state = make_state()
    add_unit(state, "E-1", "england", 3, "paris")
    add_unit(state, "F-1", "france", 3, "paris")
    ctx = make_ctx(state, ScriptedDice([2, 1]))  # the attacker (France) rolls first
    standing(ctx, "england", "avoid france", "flee when losses reach 1")
    resolve_contacts(ctx, "paris", "england", 1)
    [battle] = battles(ctx)
    assert battle.attacker == "france"
    assert battle.fled == (Flight(unit="E-1", house="england", to="normandy"),)
    assert battle.sides[1].castle == 0 and battle.rounds[0]["france"].modifiers == {}


def _empty_paris(armies: int, ctx_dice: Dice) -> tuple[GameState, TurnContext, Counter]:
    state = make_state()
    add_unit(state, "E-1", "england", armies, "paris")
    wine = Counter(id="wine-1", good="wine", owner="france", province="paris")
    board(state).counters.append(wine)
    return state, make_ctx(state, ctx_dice), wine


def test_b6_an_ungarrisoned_capital_fights_with_its_castle_and_holds() -> None:
    """B6 [D]: "The castle fights even with no garrison. A unit of another house that
    ends a kingdom's move in an enemy capital with no defending units must fight the
    castle (10 armies, with the defender-in-its-capital bonus) if its house attacks";
    "Until the castle has lost all its strength in a battle, the capital's control does
    not change and the goods stored there cannot be seized"."""
    state, ctx, wine = _empty_paris(2, ScriptedDice([1, 6]))  # England rolls first
    resolve_contacts(ctx, "paris", "england", 1)
    end_of_round(ctx, br_turn(ctx), 1)
    [battle] = battles(ctx)
    assert (battle.attacker, battle.defender, battle.winner) == ("england", "france", "france")
    assert battle.sides[1].units == () and battle.sides[1].castle == 10
    assert battle.rounds[0]["france"].modifiers == {"outnumber": 1, "capital": 1}
    assert battle.destroyed == ("E-1",)
    assert board(state).provinces["paris"].controller == "france" and wine.owner == "france"


def test_b6_a_castle_that_falls_gives_up_the_capital_and_its_goods() -> None:
    """B6 [D]: "Until the castle has lost all its strength in a battle, the capital's
    control does not change and the goods stored there cannot be seized": once it has,
    they do."""
    state, ctx, wine = _empty_paris(30, ScriptedDice([6, 1] * 4))
    resolve_contacts(ctx, "paris", "england", 1)
    end_of_round(ctx, br_turn(ctx), 1)
    [battle] = battles(ctx)
    assert [r["france"].castle_after for r in battle.rounds] == [7, 4, 1, 0]
    assert battle.winner == "england" and state.units["E-1"].armies == 26
    assert board(state).provinces["paris"].controller == "england" and wine.owner == "england"


def test_b6_a_unit_that_avoids_an_empty_capital_takes_nothing() -> None:
    """B6 [D]: an empty enemy capital's castle is fought "if its house attacks; if it
    avoids, nothing happens"."""
    state, ctx, wine = _empty_paris(30, ScriptedDice([]))
    standing(ctx, "england", "avoid france")
    assert resolve_contacts(ctx, "paris", "england", 1) == []
    end_of_round(ctx, br_turn(ctx), 1)
    assert board(state).provinces["paris"].controller == "france" and wine.owner == "france"


# -- alliances ------------------------------------------------------------------------------


def test_b6_allies_in_one_province_fight_one_battle_as_one_side() -> None:
    """B6: "in a province where both have units facing a common enemy they fight one
    battle as one side: their armies, commanders and modifiers are pooled (the best unit
    command value on the side counts), losses are shared out in proportion to armies,
    largest unit first, and each house's flight and surrender orders apply to its own
    units"."""
    state = make_state()
    add_unit(state, "E-1", "england", 3, "flanders")
    add_unit(state, "F-1", "france", 4, "flanders", ("Louis", 1))
    add_unit(state, "G-1", "germany", 7, "flanders")
    for one, other in (("england", "france"), ("france", "england")):
        declare_alliance(state, one, other, True)
    # Louis's preliminary 2d6 (3 + 3), then Germany's die and the allies' die
    ctx = make_ctx(state, ScriptedDice([3, 3, 6, 6]))
    standing(ctx, "germany", "flee when losses reach 1")
    standing(ctx, "england", "flee when losses reach 1")
    resolve_contacts(ctx, "flanders", "germany", 1)
    [battle] = battles(ctx)
    allies = battle.sides[1]
    assert (allies.house, allies.allies, allies.units) == ("england", ("france",),
                                                            ("E-1", "F-1"))
    assert allies.armies_before == 7 and allies.commanders == ("louis",)
    assert battle.rounds[0]["england"].modifiers == {"command": 1}
    assert battle.rounds[0]["germany"].losses_inflicted == 3
    # 3 losses, army by army from the largest unit: F-1 4→3, then E-1 3→2 (lower id), F-1 →2
    assert battle.sides[1].losses == 3
    assert [f.unit for f in battle.fled] == ["G-1", "E-1"]
    assert state.units["F-1"].armies == 2 and state.units["F-1"].province == "flanders"


def test_b6_allies_storm_an_empty_capital_together() -> None:
    """B6: the castle fights "even with no garrison", and allies facing a common enemy
    "fight one battle as one side"."""
    state, ctx, _ = _empty_paris(20, ScriptedDice([6, 1] * 4))
    add_unit(state, "G-1", "germany", 10, "paris")
    for one, other in (("england", "germany"), ("germany", "england")):
        declare_alliance(state, one, other, True)
    resolve_contacts(ctx, "paris", "england", 1)
    [battle] = battles(ctx)
    assert battle.sides[0].units == ("E-1", "G-1") and battle.sides[0].allies == ("germany",)
    assert battle.winner == "england"


# -- preliminary rolls ----------------------------------------------------------------------------


def test_b6_preliminary_rolls_kill_capture_and_bonus() -> None:
    """B6: 2d6 + Command: "2 or less: he is killed; 3: he is captured; 12: his side
    gets +1 on every round of this battle"."""
    state = make_state()
    add_unit(state, "E-1", "england", 6, "picardy", ("Edward", 0), ("Edmund", 0))
    add_unit(state, "F-1", "france", 6, "picardy", ("Philippe", 1))
    dice = ScriptedDice([1, 1,   # Edward: 2 → killed
                         1, 2,   # Edmund: 3 → captured
                         5, 6,   # Philippe: 11 + 1 = 12 → bonus
                         1, 2])  # round 1: England 1, France 2 + 1 + 1
    ctx = make_ctx(state, dice)
    standing(ctx, "england", "flee when losses reach 2")
    resolve_contacts(ctx, "picardy", "england", 1)
    [battle] = battles(ctx)
    assert [(p.person, p.total, p.result) for p in battle.preliminary] == [
        ("edward", 2, "killed"), ("edmund", 3, "captured"), ("philippe", 12, "bonus")]
    assert battle.killed == ("edward",) and battle.captured == ("edmund",)
    assert state.persons["edward"].died == 1300 and state.persons["edward"].death_cause == "battle"
    # Issue 17 item 7: "Each death with its roll and the number needed" (3 to live).
    [death] = [e for e in ctx.events if e.kind == "death"]
    assert (death.person, death.roll, death.needed) == ("edward", 2, 3)
    assert state.persons["edmund"].prisoner_of == "france"
    assert "E-1" not in state.units  # it fled with no retreat open to it
    assert battle.rounds[0]["france"].modifiers == {"command": 1, "preliminary": 1}
    assert battle.rounds[0]["france"].losses_inflicted == 2
    assert battle.sides[0].commanders == ("edward", "edmund")
    assert dice.remaining == 0  # E-1 fled with no commander left: no capture roll


# -- ending a battle ----------------------------------------------------------------------------------


def test_b6_surrender_takes_all_commanders() -> None:
    """B6: "A unit that surrenders loses all its commanders as prisoners." """
    state = make_state()
    add_unit(state, "E-1", "england", 5, "picardy", ("Edward", 0), ("Edmund", 0))
    add_unit(state, "F-1", "france", 5, "picardy")
    ctx = make_ctx(state, ScriptedDice([3, 4, 3, 4, 1, 4]))
    standing(ctx, "england", "surrender when below 4 armies")
    resolve_contacts(ctx, "picardy", "england", 1)
    [battle] = battles(ctx)
    assert battle.surrendered == ("E-1",)
    assert battle.captured == ("edward", "edmund")
    assert state.persons["edward"].prisoner_of == state.persons["edmund"].prisoner_of == "france"
    assert "E-1" not in state.units
    assert battle.sides[0].outcome is Outcome.SURRENDERED and battle.winner == "france"
    assert state.houses["england"].armies_lost == [[5, 3]]  # 2 killed, 3 surrendered


def test_a9_flight_captures_each_commander_at_one_half() -> None:
    """B6/A9: "Each commander of a unit that surrenders or flees is captured with
    probability 1/2." Statistical, fixed seeds."""
    rolls = taken = 0
    for trial in range(1500):
        state = make_state()
        add_unit(state, "E-1", "england", 5, "picardy", ("Edward", 0), ("Edmund", 0))
        add_unit(state, "F-1", "france", 5, "picardy")
        ctx = make_ctx(state, SeededDice(f"capture-{trial}", turn=1))
        standing(ctx, "england", "flee when below 100 armies", "retreat E-1 to flanders")
        resolve_contacts(ctx, "picardy", "england", 1)
        [battle] = battles(ctx)
        early = sum(p.result in ("killed", "captured") for p in battle.preliminary)
        flight_rolls = sum(r.purpose == "capture" for r in ctx.dice.log)
        assert flight_rolls == 2 - early
        rolls += flight_rolls
        taken += len(battle.captured) - sum(p.result == "captured"
                                            for p in battle.preliminary)
    assert rolls > 2500
    assert abs(taken / rolls - 0.5) < 0.03


def test_b6_flight_to_preferred_retreat() -> None:
    """B6: fleeing units "move one province, to the house's preferred retreat if that
    is legal". [D] Legal: adjacent, fit for the unit, and the side's, a host's, or
    no one's — Flanders belongs to no one."""
    state = make_state()
    add_unit(state, "F-1", "france", 6, "picardy")
    add_unit(state, "E-1", "england", 6, "picardy", ("Edward", 0))
    ctx = make_ctx(state, ScriptedDice([3, 4, 1, 4, 6]))  # capture roll 6: escapes
    standing(ctx, "england", "flee when losses reach 2", "retreat E-1 to flanders")
    resolve_contacts(ctx, "picardy", "england", 1)
    [battle] = battles(ctx)
    assert battle.fled == (Flight(unit="E-1", house="england", to="flanders"),)
    assert state.units["E-1"].province == "flanders"
    assert state.units["E-1"].commanders == ["edward"]
    assert state.persons["edward"].prisoner_of is None


def test_b6_illegal_preferred_retreat_falls_back_then_destroys() -> None:
    """B6: "else to an adjacent province it controls. If no legal province exists,
    they are destroyed." Paris is France's: closed to England without passage."""
    state = make_state()
    add_unit(state, "F-1", "france", 6, "picardy")
    add_unit(state, "E-1", "england", 6, "picardy", ("Edward", 0))
    ctx = make_ctx(state, ScriptedDice([3, 4, 1, 4, 1]))  # capture roll 1: taken
    standing(ctx, "england", "flee when losses reach 2", "retreat E-1 to paris")
    resolve_contacts(ctx, "picardy", "england", 1)
    [battle] = battles(ctx)
    assert battle.fled == (Flight(unit="E-1", house="england", to=None),)
    assert "E-1" not in state.units
    assert battle.captured == ("edward",)
    assert state.houses["england"].armies_lost == [[6, 3]]


def test_b6_preferred_retreat_through_passage() -> None:
    """[D] A province whose controller allows the side passage is a legal retreat;
    passage also makes both houses avoid each other unless ordered to attack."""
    state = make_state()
    add_unit(state, "F-1", "france", 6, "picardy")
    add_unit(state, "E-1", "england", 6, "picardy")
    set_passage(state, "france", "england", True)
    ctx = make_ctx(state, ScriptedDice([]))
    standing(ctx, "england", "retreat E-1 to paris")
    assert resolve_contacts(ctx, "picardy", "england", 1) == []
    standing(ctx, "england", "attack france", "flee when losses reach 1")
    ctx.dice = ScriptedDice([1, 4])
    resolve_contacts(ctx, "picardy", "england", 1)
    assert state.units["E-1"].province == "paris"


def test_b6_fallback_prefers_an_empty_controlled_province() -> None:
    """[D] Without a preferred retreat: an adjacent controlled province, preferring one
    without another house's units, then map order."""
    state = make_state()
    add_unit(state, "E-1", "england", 9, "picardy")
    add_unit(state, "F-1", "france", 9, "picardy")
    add_unit(state, "E-2", "england", 1, "paris")
    ctx = make_ctx(state, ScriptedDice([6, 1]))
    standing(ctx, "france", "flee when losses reach 3")
    standing(ctx, "england", "avoid france", "attack F-1")  # the unit's stance wins
    resolve_contacts(ctx, "picardy", "england", 1)
    assert state.units["F-1"].province == "champagne"


def test_b6_fleets_flee_to_sea_or_a_coast() -> None:
    """[D] a fleeing fleet stands where fleets may: at sea or on a coast (its side's)."""
    state = make_state()
    add_unit(state, "E-1", "england", 6, "channel").type = "fleet"
    add_unit(state, "F-1", "france", 6, "channel").type = "fleet"
    ctx = make_ctx(state, ScriptedDice([6, 1]))
    standing(ctx, "france", "flee when losses reach 1")
    resolve_contacts(ctx, "channel", "england", 1)
    assert state.units["F-1"].province == "picardy"


def test_b6_flight_starts_a_chained_battle() -> None:
    """B6: fleeing units "may start a new battle there"."""
    state = make_state()
    add_unit(state, "E-1", "england", 6, "picardy")
    add_unit(state, "F-1", "france", 6, "picardy")
    add_unit(state, "G-1", "germany", 8, "champagne")
    ctx = make_ctx(state, ScriptedDice([6, 1,    # Picardy: England inflicts 2 (cap)
                                        6, 1]))  # Champagne: Germany 6+1 → 3 (cap 3)
    standing(ctx, "france", "flee when losses reach 2", "retreat F-1 to champagne",
             "avoid germany")
    assert resolve_contacts(ctx, "picardy", "england", 1) == ["b-1-1", "b-1-2"]
    first, second = battles(ctx)
    assert first.fled == (Flight(unit="F-1", house="france", to="champagne"),)
    assert (second.province, second.attacker, second.defender) == (
        "champagne", "germany", "france")
    assert second.rounds[0]["germany"].modifiers == {"outnumber": 1}
    # Losses count per battle: France fled again after 3 losses, to Paris (Picardy
    # is held by England).
    assert second.fled == (Flight(unit="F-1", house="france", to="paris"),)
    assert state.units["F-1"].armies == 1 and state.units["F-1"].province == "paris"


def test_b6_chained_battles_are_bounded() -> None:
    """[D] a flight starts new battles at most ``max_chained_battles`` deep."""
    state = make_state()
    add_unit(state, "E-1", "england", 6, "picardy")
    add_unit(state, "F-1", "france", 6, "picardy")
    add_unit(state, "G-1", "germany", 8, "champagne")
    rules = make_rules()
    rules["battle"]["flight"]["max_chained_battles"] = 0
    ctx = make_ctx(state, ScriptedDice([6, 1]), rules)
    standing(ctx, "france", "flee when losses reach 2", "retreat F-1 to champagne")
    assert resolve_contacts(ctx, "picardy", "england", 1) == ["b-1-1"]
    assert state.units["F-1"].province == "champagne"


def test_b6_round_limit_the_attacker_withdraws() -> None:
    """[D] after ``max_rounds`` rounds the attacker withdraws as a flight."""
    state = make_state()
    add_unit(state, "E-1", "england", 5, "picardy")
    add_unit(state, "F-1", "france", 5, "picardy")
    ctx = make_ctx(state, ScriptedDice([1, 1] * 20))
    standing(ctx, "england", "retreat E-1 to flanders")
    resolve_contacts(ctx, "picardy", "england", 1)
    [battle] = battles(ctx)
    assert len(battle.rounds) == 20
    assert battle.sides[0].outcome is Outcome.WITHDREW and battle.winner == "france"
    assert state.units["E-1"].province == "flanders"


def test_b6_unit_order_overrides_the_house_order() -> None:
    """[D] ``flee E-2 when ...`` holds for that unit alone, judged on its own armies."""
    state = make_state()
    add_unit(state, "E-1", "england", 6, "picardy")
    add_unit(state, "E-2", "england", 2, "picardy")
    add_unit(state, "F-1", "france", 9, "picardy")
    ctx = make_ctx(state, ScriptedDice([1, 3, 6, 1]))
    standing(ctx, "england", "flee E-2 when below 3 armies", "retreat E-2 to flanders")
    standing(ctx, "france", "flee when below 9 armies")
    resolve_contacts(ctx, "picardy", "england", 1)
    [battle] = battles(ctx)
    # Round 1: France inflicts 1 on E-1 (largest); E-2 (2 armies) flees all the same.
    assert battle.fled[0] == Flight(unit="E-2", house="england", to="flanders")
    assert battle.rounds[1]["england"].armies_after == 5
    # Round 2: England inflicts 2: France is below 9 and flees; E-1 holds the field.
    assert battle.winner == "england" and len(battle.rounds) == 2
    assert [s.outcome for s in battle.sides] == [Outcome.HELD, Outcome.FLED]


# -- when a battle happens ----------------------------------------------------------------------------


def test_b6_stances_decide_whether_to_fight() -> None:
    """B6: "The moving house decides whether to attack ... If it does not attack, the
    other house may." Two houses that avoid each other share the province."""
    state = make_state()
    add_unit(state, "E-1", "england", 5, "picardy")
    add_unit(state, "F-1", "france", 5, "picardy")
    ctx = make_ctx(state, ScriptedDice([]))
    standing(ctx, "england", "avoid everyone")
    standing(ctx, "france", "avoid england")
    assert resolve_contacts(ctx, "picardy", "england", 1) == []
    assert not ctx.dice.log
    standing(ctx, "france", "attack E-1")
    ctx.dice = ScriptedDice([1, 1] * 20)
    assert resolve_contacts(ctx, "picardy", "england", 1) == ["b-1-1"]
    assert battles(ctx)[0].attacker == "france"


def test_b6_each_other_house_in_turn() -> None:
    """The mover settles a contact with each house present, in house-id order."""
    state = make_state()
    add_unit(state, "E-1", "england", 9, "flanders")
    add_unit(state, "G-1", "germany", 1, "flanders")
    add_unit(state, "F-1", "france", 1, "flanders")
    ctx = make_ctx(state, ScriptedDice([6, 1, 6, 1]))
    assert resolve_contacts(ctx, "flanders", "england", 1) == ["b-1-1", "b-1-2"]
    assert [b.defender for b in battles(ctx)] == ["france", "germany"]


# -- the orders ----------------------------------------------------------------------------------------


def test_b6_battle_orders_parse() -> None:
    text = "\n".join(["house england", "attack France", "avoid F-2", "avoid everyone",
                      "fight to the end", "fight e-1 to the end", "flee when below 3 armies",
                      "flee E-1 when losses reach 4", "surrender when below 1 army",
                      "retreat E-1 to flanders", "flee when above 3 armies", "retreat E-1",
                      "fight france to the end"])
    sheet = parse_orders(text, GRAMMAR, filename="england.orders", expected_house="england")
    assert sheet.orders[0] == StanceOrder(line=2, text="attack France", stance="attack",
                                          target="france")
    assert sheet.orders[1].target == "F-2"  # type: ignore[attr-defined]
    assert sheet.orders[2].target == "everyone"  # type: ignore[attr-defined]
    ends = [o for o in sheet.orders if isinstance(o, EndOrder)]
    assert [(o.unit, o.kind, o.threshold) for o in ends] == [
        (None, "fight", 0), ("E-1", "fight", 0), (None, "flee-below", 3),
        ("E-1", "flee-losses", 4), (None, "surrender-below", 1)]
    assert sheet.orders[-1] == RetreatPreferenceOrder(
        line=10, text="retreat E-1 to flanders", unit="E-1", province="flanders")
    assert [r.line for r in sheet.rejections] == [11, 12, 13]


def test_b6_battle_orders_are_checked_and_stand() -> None:
    """Standing orders persist in the state until changed; bad ones are rejected."""
    state = make_state()
    add_unit(state, "E-1", "england", 5, "london")
    add_unit(state, "F-1", "france", 5, "paris")
    text = "\n".join(["house england", "attack burgundy", "avoid E-1", "flee F-1 when below 2 armies",
                      "retreat E-1 to atlantis", "avoid F", "flee when below 2 armies",
                      "flee when losses reach 3", "retreat E-1 to Normandy"])
    sheet = parse_orders(text, GRAMMAR, filename="england.orders", expected_house="england")
    validate_battle_orders(state, sheet)
    assert [r.line for r in sheet.rejections] == [2, 3, 4, 5]
    ctx = make_ctx(state, ScriptedDice([]))
    ctx.sheets = {"england": sheet}
    record_standing_orders(ctx)
    stored = br_data(state).standing["england"]
    assert stored == Standing(stance={"france": Stance.AVOID},
                              end={HOUSE_WIDE: EndRule(EndKind.FLEE_LOSSES, 3)},
                              retreat={"E-1": "normandy"})
    snapshot = json.loads(json.dumps(state.to_dict()))
    assert snapshot["extra"]["blood_royale"]["standing"]["england"] == {
        "stance": {"france": "avoid"}, "end": {"*": {"kind": "flee-losses", "n": 3}},
        "retreat": {"E-1": "normandy"}}
    assert br_data(GameState.from_dict(snapshot)).standing["england"] == stored
    lines = standing_order_lines(state, "england")
    assert lines == ["avoid france", "flee when losses reach 3", "retreat E-1 to normandy"]
    again = parse_orders("\n".join(["house england", *lines]), GRAMMAR,
                         filename="england.orders", expected_house="england")
    assert not again.rejections and len(again.orders) == 3


def test_standing_orders_of_a_destroyed_unit_leave_the_template() -> None:
    """Issue 17 item 7: "Standing orders of destroyed units are dropped from templates
    (today `check` refuses what `template` wrote)"."""
    state = make_state()
    add_unit(state, "E-1", "england", 5, "london")
    add_unit(state, "E-2", "england", 5, "london")
    br_data(state).standing["england"] = Standing(
        stance={"E-2": Stance.AVOID, "france": Stance.AVOID},
        end={"E-2": EndRule(EndKind.FLEE_BELOW, 2), HOUSE_WIDE: EndRule(EndKind.FIGHT)},
        retreat={"E-1": "normandy", "E-2": "normandy"})
    del state.units["E-2"]  # destroyed in battle, or disbanded
    lines = standing_order_lines(state, "england")
    assert all("E-2" not in line for line in lines)
    assert "retreat E-1 to normandy" in lines and "avoid france" in lines
    sheet = parse_orders("\n".join(["house england", *lines]), GRAMMAR,
                         filename="england.orders", expected_house="england")
    validate_battle_orders(state, sheet)
    assert not sheet.rejections and len(sheet.orders) == len(lines) == 3


def test_b6_end_rules_render_as_orders() -> None:
    """Every way of ending a battle renders as a line the parser reads back."""
    rules = [EndRule(EndKind.FIGHT), EndRule(EndKind.FLEE_BELOW, 2),
             EndRule(EndKind.FLEE_LOSSES, 4), EndRule(EndKind.SURRENDER_BELOW, 1)]
    for unit in (None, "E-3"):
        text = "\n".join(["house england", *(r.order_text(unit) for r in rules)])
        sheet = parse_orders(text, GRAMMAR, filename="e.orders", expected_house="england")
        assert [(o.unit, o.kind, o.threshold) for o in sheet.orders  # type: ignore[attr-defined]
                ] == [(unit, r.kind, r.threshold) for r in rules]
