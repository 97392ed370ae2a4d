"""RULES.md B2.3 (movement rounds), B3 (control) and B4 (movement), on the real map.

Movement tests use an event die that never does anything (``quiet_rules``),
and a stand-in for the battle rules that records the contacts it is given.
"""

from __future__ import annotations

from br_support import (
    Contacts,
    bare,
    context,
    fresh_state,
    kinds,
    put,
    quiet_rules,
    rules,
    sheet,
    turn_of,
)

from adjudicator.rulesets.blood_royale.board import board
from adjudicator.rulesets.blood_royale.control import place_markers, seize_counters
from adjudicator.rulesets.blood_royale.counters import new_counter
from adjudicator.rulesets.blood_royale.diplomacy import apply_passage_and_interventions
from adjudicator.rulesets.blood_royale.forces import reorganise
from adjudicator.rulesets.blood_royale.movement import run_movement
from adjudicator.rulesets.blood_royale.validation import validate_blood_royale
from adjudicator.rulesets.blood_royale.world import set_passage, unit_side

QUIET = quiet_rules()


def play(state, *sheets, world_rules=QUIET, contacts=None):
    """Both movement rounds of a turn with the given sheets; returns the context."""
    table = {s.house: s for s in sheets}
    validate_blood_royale(state, table, world_rules)
    ctx = context(state, sheets=table, table=world_rules)
    apply_passage_and_interventions(ctx)
    reorganise(ctx)
    run_movement(ctx, turn_of(ctx), contacts or Contacts())
    return ctx


def moves(ctx, unit):
    return [(e.round, e.path, e.stopped) for e in kinds(ctx, "unit-moved") if e.unit == unit]


def refused(state, house, *lines, **others):
    table = {house: sheet(house, *lines), **others}
    validate_blood_royale(state, table, rules())
    return [r.reason for r in table[house].rejections]


# -- how far a unit goes (B4) ---------------------------------------------------------


def test_b4_up_to_3_provinces_a_round_through_own_land():
    """B4: "up to 3 provinces through provinces its house controls"; 2 rounds a turn."""
    state = bare(fresh_state())
    put(state, "E-1", "england", "northumbria", 5)
    ctx = play(state, sheet("england", "move E-1 to york mercia middlesex wessex kent"))
    assert moves(ctx, "E-1") == [
        (1, ("york", "mercia", "middlesex"), "3 provinces allowed this round"),
        (2, ("wessex", "kent"), "")]
    assert state.units["E-1"].province == "kent"


def test_b4_then_makes_a_unit_stop_for_the_round():
    state = bare(fresh_state())
    put(state, "E-1", "england", "northumbria", 5)
    ctx = play(state, sheet("england", "move E-1 to york then mercia middlesex"))
    assert moves(ctx, "E-1") == [(1, ("york",), ""), (2, ("mercia", "middlesex"), "")]


def test_b4_entering_enemy_land_ends_the_move():
    """B4: "only 1 province when it enters ... an enemy-controlled province"."""
    state = bare(fresh_state())
    put(state, "F-1", "france", "ile-de-france", 5)
    ctx = play(state, sheet("france", "move F-1 to champagne rhineland westphalia"))
    assert moves(ctx, "F-1") == [(1, ("champagne", "rhineland"), "Rhineland is enemy ground"),
                                 (2, ("westphalia",), "Westphalia is enemy ground")]


def test_b4_a_unit_on_enemy_land_moves_one_province_a_round():
    """B4: "only 1 province when it ... moves within an enemy-controlled province"."""
    state = bare(fresh_state())
    put(state, "F-1", "france", "rhineland", 5)
    ctx = play(state, sheet("france", "move F-1 to champagne flanders normandy"))
    assert moves(ctx, "F-1") == [(1, ("champagne",), "1 province allowed this round"),
                                 (2, ("flanders", "normandy"), "")]


def test_b4_passage_lets_a_unit_cross_at_full_speed():
    """B4: "through provinces its house controls or has passage through"."""
    state = bare(fresh_state())
    put(state, "F-1", "france", "champagne", 5)
    ctx = play(state, sheet("germany", "allow passage france"),
               sheet("france", "move F-1 to rhineland franconia bavaria"))
    assert moves(ctx, "F-1") == [(1, ("rhineland", "franconia", "bavaria"), "")]
    assert [(e.house, e.to) for e in kinds(ctx, "passage")] == [("germany", "france")]


def test_b4_entering_a_province_holding_another_houses_units_ends_the_move():
    """B4: "Entering a province that holds another house's units ends the move";
    B2.3: then battles are settled wherever the mover's units meet another house's."""
    state = bare(fresh_state())
    put(state, "F-1", "france", "ile-de-france", 5)
    put(state, "G-1", "germany", "champagne", 2)
    contacts = Contacts()
    ctx = play(state, sheet("france", "move F-1 to champagne burgundy"), contacts=contacts)
    assert moves(ctx, "F-1")[0] == (1, ("champagne",), "units of germany stand in Champagne")
    assert ("champagne", "france", 1) in contacts.calls
    assert {province for province, _, _ in contacts.calls} == {"champagne"}


def test_b4_an_army_crosses_the_sea_only_where_its_fleet_lies():
    """B4 [D]: armies cross a sea zone holding a fleet of their side, and never end a
    round at sea: they stop on the last land reached."""
    state = bare(fresh_state())
    put(state, "E-1", "england", "mercia", 5)
    put(state, "E-2", "england", "kent", 3)
    put(state, "E-7", "england", "north-sea", 1, "fleet")
    put(state, "E-8", "england", "english-channel", 1, "fleet")
    state.units.pop("E-8")
    ctx = play(state, sheet("england", "move E-2 to english-channel normandy"))
    assert moves(ctx, "E-2")[0] == (
        1, (), "no fleet of yours lies in the English Channel to carry it")
    put(state, "E-8", "england", "english-channel", 1, "fleet")
    ctx = play(state, sheet("england", "move E-1 to york north-sea english-channel normandy"))
    assert moves(ctx, "E-1") == [
        (1, ("york",), "it cannot end a round at sea"),
        (2, ("north-sea", "english-channel", "normandy"), "Normandy is enemy ground")]


def test_c_a_dragon_flies_over_the_sea():
    """Part C: Dragons are a unit type from data (``flying``); an army on Dragonstone
    cannot leave without a fleet."""
    world = quiet_rules("westeros")
    state = fresh_state("westeros")
    dragon = next(u.id for u in state.units.values() if u.type == "dragon")
    army = next(u.id for u in state.units.values()
                if u.house == "targaryen" and u.type == "army")
    ctx = play(state, sheet("targaryen", f"move {dragon} to narrow-sea storms-end",
                            f"move {army} to narrow-sea storms-end"), world_rules=world)
    assert moves(ctx, dragon) == [(1, ("narrow-sea", "storms-end"),
                                   "units of baratheon stand in Storm's End")]
    assert moves(ctx, army)[0][1] == ()


# -- the orders a player gets wrong ------------------------------------------------------


def test_b4_illegal_moves_are_refused_with_a_reason():
    state = bare(fresh_state())
    put(state, "E-1", "england", "northumbria", 5)
    put(state, "E-3", "england", "kent", 2, "fleet")
    put(state, "F-1", "france", "flanders", 5)
    assert refused(
        state, "england",
        "move E-1 to york mercia middlesex wessex then kent",
        "move E-1 to york mercia middlesex kent wessex cornwall english-channel",
        "move E-1 to kent",
        "move E-1 to atlantis",
        "move F-1 to normandy",
        "move E-1 to york north-sea",
        "move E-3 to middlesex mercia",
        "move E-9 to york",
        "move E-1 to york",
        "move E-1 to york",
    ) == [
        "unit E-1 cannot reach Wessex this round: 4 provinces, 3 allowed",
        "unit E-1 cannot reach English Channel this turn: 7 provinces, 6 allowed "
        "(3 per round)",
        "Kent does not border Northumbria",
        "there is no province 'atlantis'",
        "unit F-1 is not under your orders this turn",
        "army units cannot end a move at sea (North Sea)",
        "fleet units cannot sail inland to Mercia",
        "there is no unit E-9",
        "unit E-1 already has a move order",
    ]


def test_b4_order_lines_that_do_not_parse_say_why():
    orders = sheet("england", "move E-1 to then york", "move E-1 to york then", "tax high",
                   "raise 0 in kent", "pay tribute", "carry wine from to york")
    assert [r.reason for r in orders.rejections] == [
        "'then' must follow at least one province",
        "the move needs at least one province after then",
        "expected 'normal' or 'extraordinary', found 'high'",
        "the number of armies must be 1 to 99, not 0",
        "expected 'pay revolt <province>', 'pay <N> crowns to <house>' or "
        "'pay ransom <person> <N>'",
        "expected 'to', found 'york'"]


# -- splits, merges and foreign intervention (B4) -------------------------------------------


def test_b4_units_split_and_merge():
    """B4: "Units may split and merge by order"; the new unit can move at once."""
    state = fresh_state()
    king = state.houses["england"].ruler or ""
    state.units["E-1"].commanders = [king]
    state.persons[king].unit = "E-1"
    ctx = play(state, sheet("england", "split 2 from E-1 as E-4", "move E-4 to kent"))
    assert (state.units["E-1"].armies, state.units["E-4"].armies) == (3, 2)
    assert state.units["E-4"].province == "kent"
    put(state, "E-5", "england", "middlesex", 4)
    play(state, sheet("england", "merge E-1 into E-5"))
    assert "E-1" not in state.units and state.units["E-5"].armies == 7
    assert state.units["E-5"].commanders == [king] and state.persons[king].unit == "E-5"
    assert [e.new_unit for e in kinds(ctx, "unit-split")] == ["E-4"]


def test_b4_impossible_splits_and_merges_are_refused():
    state = fresh_state()
    put(state, "E-2", "england", "kent", 2)
    assert refused(state, "england", "split 5 from E-1", "merge E-2 into E-1",
                   "split 1 from E-1 as E-2", "merge E-1 into E-1") == [
        "E-1 has 5 armies: a split leaves at least one, so at most 4 can go",
        "E-2 and E-1 are not in the same province",
        "the unit id E-2 is already in use",
        "a unit cannot merge into itself"]


def test_b4_foreign_intervention_needs_both_houses():
    """B4: "A house may place units under another king's orders for the turn. Both
    houses must declare it."."""
    state = fresh_state()
    assert refused(state, "england", "intervene E-1 for france") == [
        "House Capet did not send the same line: an intervention needs both houses"]
    france = sheet("france", "intervene E-1 for F", "move E-1 to mercia")
    assert refused(state, "england", "intervene E-1 for france", "move E-1 to kent",
                   france=france) == ["unit E-1 is not under your orders this turn"]
    assert france.rejections == []


def test_b4_a_unit_under_intervention_moves_for_the_king_it_serves():
    """B4: "the king who asks for help manages the foreign troops as if they were his";
    [D] on its own house's land the lent unit is not on enemy ground."""
    state = fresh_state()
    ctx = play(state, sheet("england", "intervene E-1 for france"),
               sheet("france", "intervene E-1 for france", "move E-1 to mercia york"))
    assert unit_side(state, state.units["E-1"]) == "france"
    assert [(e.house, e.path) for e in kinds(ctx, "unit-moved")] == [
        ("france", ("mercia", "york"))]


# -- resource counters (B4) ------------------------------------------------------------------


def test_b4_counters_go_4_provinces_a_round_towards_the_capital():
    """B4: resource counters "move up to 4 provinces per round towards the owner's
    capital, through provinces the owner controls or has passage through"."""
    state = bare(fresh_state())
    for pid in ("brandenburg", "holstein"):
        board(state).provinces[pid].controller = "france"
    set_passage(state, "germany", "france", True)
    food = new_counter(state, "food", "france", "brandenburg")
    ctx = play(state)
    assert [(e.round, e.path) for e in kinds(ctx, "counter-moved")] == [
        (1, ("holstein", "westphalia", "rhineland", "flanders")), (2, ("ile-de-france",))]
    assert food.province == "ile-de-france"


def test_b4_a_counter_without_passage_stays_where_it_is():
    state = bare(fresh_state())
    board(state).provinces["brandenburg"].controller = "france"
    new_counter(state, "food", "france", "brandenburg")
    ctx = play(state)
    assert kinds(ctx, "counter-moved") == []


def test_b4_a_carry_order_sets_the_route():
    state = bare(fresh_state())
    cloth = new_counter(state, "cloth", "england", "york")
    ctx = play(state, sheet("england", "carry cloth from york to northumbria"))
    assert [e.path for e in kinds(ctx, "counter-moved")] == [("northumbria",)]
    assert cloth.province == "northumbria"


def test_b4_a_counter_with_enemy_units_and_none_of_its_owners_is_seized():
    """B4 [D]: "a resource counter in a province held by an enemy unit at the end of a
    round is taken by that enemy"."""
    state = bare(fresh_state())
    taken = new_counter(state, "cloth", "england", "york")
    guarded = new_counter(state, "metal", "england", "cornwall")
    put(state, "F-9", "france", "york", 2)
    put(state, "F-8", "france", "cornwall", 2)
    put(state, "E-1", "england", "cornwall", 1)
    ctx = context(state)
    seize_counters(ctx, turn_of(ctx), 1)
    assert (taken.owner, guarded.owner) == ("france", "england")
    assert [(e.counter, e.previous) for e in kinds(ctx, "counter-seized")] == [
        (taken.id, "england")]


def test_b4_a_guest_with_passage_seizes_nothing():
    state = bare(fresh_state())
    cloth = new_counter(state, "cloth", "england", "york")
    put(state, "F-9", "france", "york", 2)
    set_passage(state, "england", "france", True)
    seize_counters(ctx := context(state), turn_of(ctx), 1)
    assert cloth.owner == "england"


# -- control (B3) ---------------------------------------------------------------------------


def test_b3_units_holding_a_foreign_province_unopposed_place_a_marker():
    """B3: "A house places its marker when its units hold a foreign province, unopposed,
    at the end of a movement round"."""
    state = bare(fresh_state())
    put(state, "F-9", "france", "york", 2)
    put(state, "F-8", "france", "mercia", 2)
    put(state, "E-1", "england", "mercia", 1)
    ctx = context(state)
    place_markers(ctx, turn_of(ctx), 1)
    assert (board(state).provinces["york"].controller, board(state).provinces["mercia"].controller) == (
        "france", "england")
    assert [(e.province, e.previous, e.controller) for e in kinds(ctx, "control")] == [
        ("york", "england", "france")]


def test_b3_a_home_province_is_freed_by_its_kingdom_and_guests_take_nothing():
    """B3: a home province is the kingdom's "unless another house's control marker is on
    it"; [D] a house that allowed passage is not conquered by its guest, and fleets in
    port take nothing."""
    state = bare(fresh_state())
    board(state).provinces["york"].controller = "france"
    put(state, "E-1", "england", "york", 1)
    put(state, "F-9", "france", "mercia", 3)
    put(state, "F-7", "france", "kent", 3, "fleet")
    set_passage(state, "england", "france", True)
    place_markers(ctx := context(state), turn_of(ctx), 1)
    controllers = [board(state).provinces[p].controller for p in ("york", "mercia", "kent")]
    assert controllers == ["england", "england", "england"]


def test_b3_control_changes_at_the_end_of_each_round():
    state = bare(fresh_state())
    put(state, "F-1", "france", "flanders", 5)
    ctx = play(state, sheet("france", "move F-1 to rhineland westphalia"))
    assert [(e.round, e.province) for e in kinds(ctx, "control")] == [
        (1, "rhineland"), (2, "westphalia")]


# -- the round (B2.3) ---------------------------------------------------------------------------


def test_b2_the_kingdom_order_is_drawn_each_round_and_published():
    """B2.3: "the kingdoms are drawn in a random order, which is recorded and published"."""
    state = fresh_state()
    ctx = play(state)
    drawn = kinds(ctx, "kingdom-order")
    assert [d.round for d in drawn] == [1, 2]
    assert all(sorted(d.order) == sorted(state.houses) for d in drawn)
    picks = [r.dice for r in ctx.dice.log if r.purpose == "kingdom order"]
    assert picks == ["1d5", "1d4", "1d3", "1d2", "1d1"] * 2


def test_b2_each_kingdom_rolls_its_event_die_then_moves_then_fights():
    """B2.3: "each kingdom in its turn first rolls the event die (B5), then moves (B4);
    then battles are fought wherever its units share a province"."""
    state = bare(fresh_state())
    put(state, "E-1", "england", "kent", 3)
    put(state, "F-9", "france", "york", 2)
    put(state, "G-9", "germany", "york", 2)
    contacts = Contacts()
    ctx = play(state, sheet("england", "move E-1 to middlesex"), contacts=contacts)
    order = kinds(ctx, "kingdom-order")[0].order
    steps = [(e.kind, e.house) for e in ctx.events if e.kind in ("event-die", "unit-moved")]
    assert [h for kind, h in steps if kind == "event-die"][:5] == list(order)
    england = steps.index(("event-die", "england"))
    assert steps[england + 1] == ("unit-moved", "england")
    assert [c for c in contacts.calls if c[2] == 1] == [
        ("york", house, 1) for house in order if house in ("france", "germany")]
