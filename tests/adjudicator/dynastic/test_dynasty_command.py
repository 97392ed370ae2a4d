"""RULES.md A8 command: assignment, spreading, Dragons, lending, unit command value."""

from __future__ import annotations

from dynasty_helpers import (
    add_living,
    build,
    context,
    house,
    person,
    reasons,
    scripted,
    spec_of,
    validated,
)

from adjudicator.dynastic.command import run_assignments, unit_command_value
from adjudicator.dynastic.events import Assignment
from adjudicator.events import Notice
from adjudicator.state import GameState


def _army_spec(units: list[tuple[str, str, str]] | None = None) -> dict[str, object]:
    """England with sons of 25, 20, 19 and 15 at the end of turn 1300; France's king."""
    persons = [person("ek", "M", 1250, "england", founder=True, spouse="eq"),
               person("eq", "F", 1255),
               person("fk", "M", 1250, "france", founder=True),
               person("s25", "M", 1280, "england", father="ek", mother="eq"),
               person("s20", "M", 1285, "england", father="ek", mother="eq"),
               person("s19", "M", 1286, "england", father="ek", mother="eq"),
               person("s15", "M", 1290, "england", father="ek", mother="eq"),
               person("s14", "M", 1291, "england", father="ek", mother="eq")]
    units = units or [("E-1", "england", "army"), ("E-2", "england", "army"),
                      ("F-1", "france", "army")]
    return spec_of([house("england", "E"), house("france", "F")], persons,
                   [{"id": u, "house": h, "type": t} for u, h, t in units])


def _run(spec: dict[str, object] | None = None, **texts: str):  # type: ignore[no-untyped-def]
    ruleset, state = build(spec or _army_spec())
    found = validated(ruleset, state, **texts)
    ctx = context(state, ruleset, scripted(), found, aged=True)
    run_assignments(ctx)
    return ctx, found


def _assigned(ctx) -> dict[str, tuple[str, bool]]:  # type: ignore[no-untyped-def]
    return {e.person: (e.unit, e.automatic) for e in ctx.events if isinstance(e, Assignment)}


def test_a8_men_of_twenty_are_auto_assigned_and_the_report_says_so() -> None:
    """A8: "Every man aged 20 or more must be assigned ... A man who must be assigned and
    whose house gave no order is assigned by the adjudicator, and the report says so. He
    goes to the faction's unit with the fewest commanders; ties go to the lowest unit id."
    The ruling king need not be assigned."""
    ctx, _ = _run()
    assert _assigned(ctx) == {"s25": ("E-1", True), "s20": ("E-2", True)}
    notices = [e.text for e in ctx.events if isinstance(e, Notice) and e.house == "england"]
    assert len(notices) == 2 and all("automatically" in n for n in notices)
    assert ctx.state.persons["s25"].unit == "E-1"
    assert ctx.state.units["E-1"].commanders == ["s25"]


def test_a8_auto_assignment_ties_go_to_the_lowest_unit_id_by_number() -> None:
    """A8: "ties go to the lowest unit id, compared by number (`E-2` before `E-10`)." """
    ctx, _ = _run(_army_spec([("E-10", "england", "army"), ("E-2", "england", "army"),
                              ("F-1", "france", "army")]))
    assert _assigned(ctx) == {"s25": ("E-2", True), "s20": ("E-10", True)}


def test_a8_men_with_no_unit_to_take_them_are_reported_every_turn() -> None:
    """A8: "A man who must be assigned while his faction has no unit that can take him
    stays unassigned, and the house's report says so each turn." """
    ruleset, state = build(_army_spec([("F-1", "france", "army")]))
    # by the end of the second turn the sons of 15 and 19 are 20 as well
    for due in (("s20", "s25"), ("s15", "s19", "s20", "s25")):
        ctx = context(state, ruleset, scripted(), aged=True)
        run_assignments(ctx)
        assert not _assigned(ctx)
        notices = sorted(e.text for e in ctx.events
                         if isinstance(e, Notice) and e.house == "england")
        assert notices == [f"{ctx.state.persons[p].name} must command, but no unit of this "
                           "house can take him: he stays unassigned (A8)" for p in due]
        state = ctx.state


def test_a8_voluntary_from_fifteen_not_before() -> None:
    """A8: "A man may be assigned voluntarily from 15." """
    ctx, found = _run(england="assign E1400 to E-1\nassign E1500 to E-1\n"
                              "assign E1300 to E-2\n")
    assert reasons(found["england"]) == ["S14 is 14: a man may command from 15 (A8)"]
    assigned = _assigned(ctx)
    assert assigned["s15"] == ("E-1", False) and assigned["s19"] == ("E-2", False)
    assert "s14" not in assigned


def test_a8_prisoners_are_not_assigned() -> None:
    """A8: "Prisoners are not assigned." """
    ruleset, state = build(_army_spec())
    state.persons["s25"].prisoner_of = "france"
    found = validated(ruleset, state, england="assign E1100 to E-1\n")
    ctx = context(state, ruleset, scripted(), found, aged=True)
    run_assignments(ctx)
    assert [r.reason for r in ctx.all_rejections()] == \
        ["S25 is a prisoner and cannot be assigned (A9)"]
    assert "s25" not in _assigned(ctx)


def test_a8_commanders_are_spread_evenly() -> None:
    """A8: "commander counts across the faction's units differ by at most one"."""
    ctx, _ = _run(england="assign E1100 to E-1\nassign E1200 to E-1\n")
    assert reasons(ctx.sheets["england"]) == [
        "E-1 has 1 commanders while E-2 has 0: commanders are spread evenly (A8)"]
    counts = sorted(len(u.commanders) for u in ctx.state.units.values() if u.house == "england")
    assert counts == [1, 1]


def test_a8_a_dragon_takes_exactly_one_commander() -> None:
    """A8: "A Dragon takes exactly one commander." Auto-assignment skips a full Dragon."""
    spec = _army_spec([("E-1", "england", "dragon"), ("E-2", "england", "army"),
                       ("F-1", "france", "army")])
    ctx, _ = _run(spec, england="assign E1100 to E-1\nassign E1200 to E-1\n")
    assert "E-1 has no room for another commander" in reasons(ctx.sheets["england"])
    assert ctx.state.units["E-1"].commanders == ["s25"]
    assert _assigned(ctx)["s20"] == ("E-2", True)


def test_a8_once_assigned_a_commander_stays() -> None:
    """A8: "Once assigned, a commander stays with his unit unless he is captured"."""
    ruleset, state = build(_army_spec())
    state.persons["s25"].unit = "E-1"
    state.units["E-1"].commanders.append("s25")
    found = validated(ruleset, state, england="assign E1100 to E-2\n")
    assert reasons(found["england"]) == ["S25 already commands E-1 and stays with it (A8)"]


def test_a8_lending_needs_both_houses() -> None:
    """A8: "A man may command another faction's unit if both houses declare it." """
    ctx, _ = _run(england="lend E1100 to F-1\n")
    assert reasons(ctx.sheets["england"]) == [
        "france did not declare this loan (A8: both houses declare it)"]
    assert _assigned(ctx)["s25"] == ("E-1", True)
    ctx, _ = _run(england="lend E1100 to F-1\n", france="lend E1100 to F-1\n")
    [loan] = [e for e in ctx.events if isinstance(e, Assignment) and e.person == "s25"]
    assert (loan.unit, loan.house, loan.lent_by, loan.automatic) == \
        ("F-1", "france", "england", False)
    _, found = _run(england="assign E1100 to F-1\n")
    assert "lending needs 'lend' from both houses" in reasons(found["england"])[0]


def _valued(state: GameState, uid: str, rules) -> int:  # type: ignore[no-untyped-def]
    return unit_command_value(state, state.units[uid], rules)


def test_a8_unit_command_value() -> None:
    """A8: "Add up the Command of all the unit's commanders and the Ruse of each
    commander's wife. Limit the total to −1, 0 or +1. A Dragon's value is never below 0.
    A unit without a commander has value 0." """
    spec = _army_spec([("E-1", "england", "army"), ("E-2", "england", "dragon"),
                       ("F-1", "france", "army")])
    ruleset, state = build(spec)
    rules = ruleset.rules
    assert _valued(state, "E-1", rules) == 0
    a = add_living(state, "a", "M", 1270, "england", command=1, spouse="aw")
    add_living(state, "aw", "F", 1275, None, ruse=1, spouse="a")
    b = add_living(state, "b", "M", 1270, "england", command=1)
    state.units["E-1"].commanders = [a.id, b.id]
    assert _valued(state, "E-1", rules) == 1  # 1 + 1 + 1 = 3, limited to +1
    a.command, b.command = -1, -1
    state.persons["aw"].ruse = 0
    assert _valued(state, "E-1", rules) == -1  # −2 limited to −1
    state.persons["aw"].ruse = 1
    b.command = 0
    assert _valued(state, "E-1", rules) == 0  # wife's Ruse +1 cancels his −1
    state.persons["aw"].died = 1300
    assert _valued(state, "E-1", rules) == -1  # a dead wife no longer counts
    state.units["E-2"].commanders = [b.id]
    b.command = -1
    assert _valued(state, "E-2", rules) == 0  # a Dragon is never below 0
    b.command = 1
    assert _valued(state, "E-2", rules) == 1


def test_a8_a_prince_reigning_over_another_house_is_not_called_up() -> None:
    """A8: "The ruling king need not be assigned", whichever throne he sits on: an
    English prince who inherited France through his mother (A3, A6) is not assigned
    to an English unit, nor offered one in England's order template."""
    ruleset, state = build(_army_spec())
    state.houses["france"].ruler = "s25"
    ctx = context(state, ruleset, scripted(), validated(ruleset, state), aged=True)
    run_assignments(ctx)
    assert "s25" not in _assigned(ctx)
    assert _assigned(ctx) == {"s20": ("E-1", True), "fk": ("F-1", True)}  # France's old king
    template = ruleset.template(state, "england")
    assert "S25" not in template.split("# Command")[1].split("# Prisoners")[0]
    assert "S20" in template.split("# Command")[1]
