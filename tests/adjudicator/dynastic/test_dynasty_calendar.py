"""RULES.md A4, the turn calendar: its length is the rules data's ``years_per_turn``."""

from __future__ import annotations

from dynasty_helpers import build, context, royal_family, rules_for, scripted, spec_of

from adjudicator.state import GameState


def _spec() -> dict[str, object]:
    h, people, units = royal_family("england", "E")
    return spec_of([h], people, units)


def test_a4_one_turn_is_five_years_by_default() -> None:
    """A4: "One turn is 5 years." "Turn 1 is year 1300, turn 2 is 1305, and so on."""
    _, state = build(_spec())
    assert state.years_per_turn == 5
    assert [state.year_of(t) for t in (1, 2, 3)] == [1300, 1305, 1310]


def test_a4_the_data_sets_the_length_of_a_turn() -> None:
    """A4: "One turn is 5 years", read from the data: with ``years_per_turn = 10`` turn 2
    is 1310, and ageing (A5 step 2) moves everyone on by 10 years."""
    spec = _spec()
    ruleset, state = build(spec, rules=rules_for(spec, years_per_turn=10))
    assert [state.year_of(t) for t in (1, 2, 3)] == [1300, 1310, 1320]
    ctx = context(state, ruleset, scripted())
    assert ctx.age(1290) == 10
    ctx.aged = True
    assert ctx.age(1290) == 20
    template = ruleset.template(state, "england")
    assert "# Orders for turn 1 (1300)." in template


def test_a4_the_calendar_survives_a_snapshot_and_old_snapshots_count_five() -> None:
    """A4: "One turn is 5 years": a snapshot keeps the campaign's calendar; one written
    before the calendar was data (no ``years_per_turn``) was always five years a turn."""
    spec = _spec()
    _, state = build(spec, rules=rules_for(spec, years_per_turn=10))
    data = state.to_dict()
    assert GameState.from_dict(data).year_of(2) == 1310
    del data["years_per_turn"]
    assert GameState.from_dict(data).year_of(2) == 1305
