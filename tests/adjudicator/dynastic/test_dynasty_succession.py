"""RULES.md A6 succession, extinction and personal union."""

from __future__ import annotations

from dynasty_helpers import (
    build,
    context,
    house,
    person,
    scripted,
    sheets,
    spec_of,
    validated,
)

from adjudicator.dice import SeededDice
from adjudicator.dynastic.events import Death, Extinction, Succession, UnitsDisbanded
from adjudicator.dynastic.marriage import can_marry
from adjudicator.dynastic.people import kill
from adjudicator.dynastic.succession import settle_successions


def _heiress_spec() -> dict[str, object]:
    """England's only child, a daughter, is married to France's second son."""
    persons = [person("ek", "M", 1250, "england", founder=True, spouse="eq"),
               person("eq", "F", 1255, "france", father=None),
               person("fk", "M", 1230, "france", founder=True, spouse="fq"),
               person("fq", "F", 1235),
               person("fs1", "M", 1250, "france", father="fk", mother="fq"),
               person("fs2", "M", 1252, "france", father="fk", mother="fq", spouse="ed"),
               person("ed", "F", 1275, "england", father="ek", mother="eq")]
    # the English queen is a French princess (F1a00), born after France's sons
    persons[1] = person("eq", "F", 1255, "france", father="fk", mother="fq")
    persons[1]["spouse"] = "ek"
    del persons[0]["spouse"]
    units = [{"id": "E-1", "house": "england"}, {"id": "E-2", "house": "england"},
             {"id": "F-1", "house": "france"}]
    return spec_of([house("england", "E", treasury=70), house("france", "F")],
                   sorted(persons, key=lambda p: p["born"]), units)


def _kill_and_settle(state, ruleset, *victims: str):  # type: ignore[no-untyped-def]
    ctx = context(state, ruleset, scripted())
    for pid in victims:
        kill(ctx, pid, "arbiter")
    settle_successions(ctx)
    return ctx


def test_a6_setup_crowns_the_founders() -> None:
    """A6: "The new ruler is the living person with the smallest reference number"."""
    _, state = build(_heiress_spec())
    assert state.houses["england"].ruler == "ek"
    assert state.houses["france"].ruler == "fk"
    assert state.persons["eq"].refs == {"france": "F1a00"}
    assert state.persons["ed"].refs == {"england": "E1a00", "france": "F1aa0"}


def test_a6_queen_regnant_husband_becomes_king_consort() -> None:
    """A6: "A queen regnant's husband is King Consort." A1: "If the wife is a reigning
    queen, the husband joins her court as King Consort." """
    ruleset, state = build(_heiress_spec())
    ctx = _kill_and_settle(state, ruleset, "ek")
    s = ctx.state
    assert s.houses["england"].ruler == "ed"
    [event] = [e for e in ctx.events if isinstance(e, Succession)]
    assert (event.previous, event.ruler, event.ref) == ("ek", "ed", "E1a00")
    assert s.persons["fs2"].king_consort
    assert s.persons["fs2"].court == "england"


def test_a6_queen_regnant_and_consort_live_at_her_court() -> None:
    """A1: "A wife joins her husband's court. If the wife is a reigning queen, the husband
    joins her court as King Consort." The couple must share her realm's court."""
    ruleset, state = build(_heiress_spec())
    s = _kill_and_settle(state, ruleset, "ek").state
    assert s.persons["fs2"].court == s.persons["ed"].court == "england"


def test_a6_king_consort_cannot_remarry_when_she_dies() -> None:
    """A6: "He cannot remarry when she dies." (A7: except ... a King Consort.)"""
    ruleset, state = build(_heiress_spec())
    ctx = _kill_and_settle(state, ruleset, "ek")
    kill(ctx, "ed", "arbiter")
    settle_successions(ctx)
    consort = ctx.state.persons["fs2"]
    assert consort.spouse is None
    assert can_marry(ctx.state, consort, 50, 15) == \
        f"{consort.name} was King Consort and cannot remarry (A6)"
    ctx.state.turn += 1
    found = validated(ruleset, ctx.state, france="marry F1200 to minor-nobility\n")
    assert "King Consort" in found["france"].rejections[0].reason


def test_a3_widowed_queen_can_neither_inherit_nor_remarry() -> None:
    """A3: "The widowed queen of a dead king can neither inherit nor remarry." Here she is
    a French princess (F1a00): once widowed she is passed over in France too."""
    ruleset, state = build(_heiress_spec())
    ctx = _kill_and_settle(state, ruleset, "ek")
    queen = ctx.state.persons["eq"]
    assert queen.widowed_queen and queen.spouse is None
    kill(ctx, "fk", "arbiter")
    kill(ctx, "fs1", "arbiter")
    kill(ctx, "fs2", "arbiter")
    settle_successions(ctx)
    # F1a00 (the widowed queen) is skipped: her daughter F1aa0 inherits France
    assert ctx.state.houses["france"].ruler == "ed"
    assert can_marry(ctx.state, queen, 50, 15) == \
        f"{queen.name} is a widowed queen and cannot remarry (A3)"


def test_a6_personal_union_one_person_rules_two_dynasties() -> None:
    """A6: "Personal union. One person may come to rule two dynasties. Both factions
    continue." """
    ruleset, state = build(_heiress_spec())
    ctx = _kill_and_settle(state, ruleset, "ek", "fk", "fs1", "eq", "fs2")
    s = ctx.state
    assert s.houses["england"].ruler == s.houses["france"].ruler == "ed"
    assert not s.houses["england"].eliminated and not s.houses["france"].eliminated


def test_a6_child_ruler_rules() -> None:
    """A6: "A child ruler rules; no regency rules apply." """
    persons = [person("k", "M", 1260, "england", founder=True, spouse="q"),
               person("q", "F", 1265),
               person("baby", "M", 1298, "england", father="k", mother="q")]
    ruleset, state = build(spec_of([house("england", "E")], persons))
    ctx = _kill_and_settle(state, ruleset, "k")
    assert ctx.state.houses["england"].ruler == "baby"


def test_a6_extinction_disbands_units_and_zeroes_treasury() -> None:
    """A6: "If no living person holds a number in the dynasty, the dynasty is eliminated:
    its units are disbanded; its provinces become uncontrolled; its treasury is lost." """
    ruleset, state = build(_heiress_spec())
    state.persons["ed"].refs.pop("england")  # she renounced England
    state.persons["ek"].unit = "E-1"
    state.units["E-1"].commanders.append("ek")
    ctx = _kill_and_settle(state, ruleset, "ek")
    s = ctx.state
    england = s.houses["england"]
    assert england.eliminated and england.ruler is None and england.treasury == 0
    assert england.eliminated_turn == 1
    assert not [u for u in s.units.values() if u.house == "england"]
    assert "F-1" in s.units
    assert [e.house for e in ctx.events if isinstance(e, Extinction)] == ["england"]
    [disbanded] = [e for e in ctx.events if isinstance(e, UnitsDisbanded)]
    assert disbanded.units == ("E-1", "E-2") and disbanded.reason == "extinction"
    assert not s.houses["france"].eliminated


def test_a6_extinct_house_orders_are_refused() -> None:
    """A6: an eliminated dynasty no longer plays: its order file is refused."""
    ruleset, state = build(_heiress_spec())
    state.houses["england"].eliminated = True
    found = validated(ruleset, state, england="birth E1000\n")
    assert found["england"].refused and "not in play" in found["england"].refused


def _reigning_queen_spec() -> dict[str, object]:
    """England is ruled by its founder, a queen with a son; France has a grown prince."""
    persons = [person("eq", "F", 1275, "england", founder=True),
               person("es", "M", 1290, "england", mother="eq"),
               person("fk", "M", 1265, "france", founder=True),
               person("fs", "M", 1280, "france", father="fk")]
    return spec_of([house("england", "E"), house("france", "F")], persons)


def _play(seed: str, **texts: str):  # type: ignore[no-untyped-def]
    ruleset, state = build(_reigning_queen_spec())
    assert state.houses["england"].ruler == "eq"
    result = ruleset.resolve(state, sheets(ruleset, **texts), SeededDice(seed, 1))
    assert not result.rejections
    assert not [e for e in result.events if isinstance(e, Death)]
    return result


def test_a3_queen_who_renounces_in_a_marriage_contract_leaves_the_throne() -> None:
    """A3: "A reigning ruler who renounces leaves the throne at once: succession (A6) runs
    in the same step, and the new ruler is the living holder of the smallest number. The
    invariant has no exception: after every step, a dynasty's ruler holds its smallest
    living number." A5.5: succession runs again after step 6 for every dynasty whose
    ruler renounced there."""
    line = "marry E1000 to F1100 renounce E1000 in E\n"
    result = _play("qa-renounce-contract", england=line, france=line)
    england = result.state.houses["england"]
    assert result.state.persons["eq"].spouse == "fs"
    assert england.ruler == "es" and result.state.persons["es"].refs["england"] == "E1100"
    [event] = [e for e in result.events if isinstance(e, Succession)]
    assert (event.house, event.previous, event.ruler) == ("england", "eq", "es")
    assert [r.person for r in england.rulers] == ["eq", "es"]


def test_a3_ruler_who_renounces_by_order_leaves_the_throne() -> None:
    """A3: "after every step, a dynasty's ruler holds its smallest living number", the
    renunciation order (A5.6) included."""
    result = _play("qa-renounce-order", england="renounce E1000 in E\n")
    assert result.state.houses["england"].ruler == "es"
    assert "england" not in result.state.persons["eq"].refs
