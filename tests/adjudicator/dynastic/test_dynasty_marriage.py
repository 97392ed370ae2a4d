"""RULES.md A7 marriages and contracts, A3 renunciations, A1 widows."""

from __future__ import annotations

from dynasty_helpers import (
    build,
    context,
    house,
    person,
    reasons,
    rules_for,
    scripted,
    sheets,
    spec_of,
    validated,
)

from adjudicator.dice import SeededDice
from adjudicator.dynastic.events import MinorNobleCreated, Renunciation, Wedding, WidowReturns
from adjudicator.dynastic.marriage import run_marriages
from adjudicator.dynastic.people import kill
from adjudicator.dynastic.phase import run_widows
from adjudicator.events import Notice


def _courts_spec() -> dict[str, object]:
    """England and France, each with a king, a queen and grown unmarried children."""
    persons = [person("ek", "M", 1250, "england", founder=True, spouse="eq"),
               person("eq", "F", 1255),
               person("fk", "M", 1250, "france", founder=True, spouse="fq"),
               person("fq", "F", 1255),
               person("es", "M", 1278, "england", father="ek", mother="eq", name="Edmund"),
               person("es2", "M", 1280, "england", father="ek", mother="eq", name="Lionel"),
               person("ed", "F", 1281, "england", father="ek", mother="eq", name="Joan"),
               person("fd", "F", 1280, "france", father="fk", mother="fq", name="Isabelle"),
               person("fd2", "F", 1282, "france", father="fk", mother="fq", name="Blanche"),
               person("fs", "M", 1279, "france", father="fk", mother="fq", name="Louis"),
               person("young", "F", 1291, "france", father="fk", mother="fq", name="Marie")]
    return spec_of([house("england", "E"), house("france", "F")], persons)


def _marry(**texts: str):  # type: ignore[no-untyped-def]
    ruleset, state = build(_courts_spec())
    found = validated(ruleset, state, **texts)
    ctx = context(state, ruleset, scripted(*[3] * 40), found, aged=True)
    run_marriages(ctx)
    return ctx, found


def test_a7_marriage_declared_by_both_houses_takes_place() -> None:
    """A7: "A marriage is legal only if both houses declare it, identically, in the same
    turn's orders." A1: "A wife joins her husband's court." """
    ctx, found = _marry(england="marry E1100 to F1a00\n", france='marry "Isabelle" to E1100\n')
    assert not found["england"].rejections and not found["france"].rejections
    [wedding] = [e for e in ctx.events if isinstance(e, Wedding)]
    assert (wedding.husband, wedding.wife, wedding.children_dynasty) == ("es", "fd", None)
    s = ctx.state
    assert s.persons["es"].spouse == "fd" and s.persons["fd"].court == "england"
    assert s.persons["fd"].dynasty == "france"  # A1: never changes dynasty by marriage


def test_a7_one_sided_declaration_is_rejected_naming_the_other_house() -> None:
    """A7: "A one-sided declaration is rejected with a clear message to both houses."
    DESIGN.md: `england.orders:7: marry E1200 to F1a00: France did not declare this
    marriage`."""
    ctx, _ = _marry(england="# comment\n\nmarry E1100 to F1a00\n")
    assert not any(isinstance(e, Wedding) for e in ctx.events)
    [rejection] = ctx.sheets["england"].rejections
    assert (rejection.file, rejection.line) == ("england.orders", 4)
    assert str(rejection) == ("england.orders:4: marry E1100 to F1a00: House France did not "
                              "declare this marriage")
    notices = [e for e in ctx.events if isinstance(e, Notice) and e.house == "france"]
    assert notices and "refused" in notices[0].text


def test_a7_clauses_must_match() -> None:
    """A7: "Both declarations must carry the same clauses." """
    ctx, _ = _marry(england="marry E1100 to F1a00\n",
                    france="marry F1a00 to E1100 children mother\n")
    assert not any(isinstance(e, Wedding) for e in ctx.events)
    for hid in ("england", "france"):
        assert reasons(ctx.sheets[hid]) == ["the two houses' lines differ in their clauses"]


def test_a7_children_clause_gives_the_mother_dynasty() -> None:
    """A7: "the children's dynasty (default: the father's)"."""
    ctx, _ = _marry(england="marry E1100 to F1a00 children mother\n",
                    france="marry F1a00 to E1100 children mother\n")
    [wedding] = [e for e in ctx.events if isinstance(e, Wedding)]
    assert wedding.children_dynasty == "france"
    assert ctx.state.marriages[-1].children_dynasty == "france"


def test_a7_renunciation_clause_is_applied_and_public() -> None:
    """A7: "renunciations by either spouse, which are public and irrevocable"."""
    line = "marry E1100 to F1a00 renounce F1a00 in F\n"
    ctx, _ = _marry(england=line, france=line)
    assert "france" not in ctx.state.persons["fd"].refs
    [event] = [e for e in ctx.events if isinstance(e, Renunciation)]
    assert (event.person, event.dynasty, event.ref) == ("fd", "france", "F1a00")
    assert Renunciation.public


def test_a7_same_clause_written_with_letter_or_house_id_agrees() -> None:
    """A7: "Both declarations must carry the same clauses." Naming France by its letter or
    its id is the same clause (DESIGN.md accepts either for a dynasty)."""
    ctx, _ = _marry(england="marry E1100 to F1a00 renounce F1a00 in F\n",
                    france="marry F1a00 to E1100 renounce F1a00 in france\n")
    assert any(isinstance(e, Wedding) for e in ctx.events)


def test_a7_nobody_marries_within_their_own_dynasty() -> None:
    """A7: "Neither may marry a member of their own dynasty." """
    _, found = _marry(england="marry E1100 to E1a00\n")
    assert "nobody may marry within their own dynasty" in reasons(found["england"])[0]


def test_a7_spouses_must_be_fifteen() -> None:
    """A7: "Both spouses are 15 or older" (A4: the age reached at the end of the turn)."""
    _, found = _marry(england='marry E1200 to "Marie"\n', france='marry "Marie" to E1200\n')
    assert reasons(found["france"]) == ["Marie is 14: spouses must be 15 or older (A7)"]
    ruleset, state = build(_courts_spec())
    state.turn = 1  # turn 2 (1305): Marie reaches 19
    ok = validated(ruleset, state, england='marry E1200 to "Marie"\n',
                   france='marry "Marie" to E1200\n')
    assert not ok["france"].rejections


def test_a7_one_spouse_at_a_time() -> None:
    """A7: "Nobody has two living spouses." The same man agreed with two brides in one
    turn marries only the first; an already-married person is refused."""
    ctx, found = _marry(england="marry E1100 to F1a00\nmarry E1100 to F1b00\n",
                        france="marry F1a00 to E1100\nmarry F1b00 to E1100\n")
    assert len([e for e in ctx.events if isinstance(e, Wedding)]) == 1
    assert any("is already declared on line 2" in r for r in reasons(ctx.sheets["england"]))
    _, found = _marry(england="marry E1000 to F1a00\n")
    assert "already married" in reasons(found["england"])[0]


def test_a7_minor_nobility_spouse_is_created() -> None:
    """A7: "A house may marry a member to the minor nobility, a spouse created by the
    arbiter who belongs to no playing dynasty and has no claims." """
    ctx, found = _marry(england="marry E1a00 to minor-nobility\n")
    assert not found["england"].rejections
    [created] = [e for e in ctx.events if isinstance(e, MinorNobleCreated)]
    spouse = ctx.state.persons[created.person]
    assert spouse.dynasty is None and spouse.refs == {} and spouse.sex == "M"
    assert spouse.court == "england"  # a minor noble joins the princess's court
    assert ctx.state.persons["ed"].spouse == spouse.id
    assert spouse.age(1305) >= 15


def test_a7_minor_noble_age_is_the_partner_s_within_the_data_bounds() -> None:
    """A7: the minor nobility, "a spouse created by the arbiter": [D] the spouse takes the
    partner's age within the data's ``minor_groom_age`` / ``minor_bride_age`` bounds."""
    from dynasty_helpers import rules_for

    spec = _courts_spec()
    for bounds, born in (([18, 40], 1281), ([30, 35], 1275)):
        ruleset, state = build(spec, rules=rules_for(spec, marriage={"minor_groom_age": bounds}))
        found = validated(ruleset, state, england="marry E1a00 to minor-nobility\n")
        ctx = context(state, ruleset, scripted(*[3] * 40), found, aged=True)
        run_marriages(ctx)
        [created] = [e for e in ctx.events if isinstance(e, MinorNobleCreated)]
        assert ctx.state.persons[created.person].born == born  # Joan is 24 in 1305


def test_a7_minor_nobility_can_be_switched_off() -> None:
    """A7: "This is a ruleset option, on by default." """
    from dynasty_helpers import rules_for

    spec = _courts_spec()
    ruleset, state = build(spec, rules=rules_for(spec, marriage={"min_age": 15,
                                                               "minor_nobility": False}))
    found = validated(ruleset, state, england="marry E1a00 to minor-nobility\n")
    assert reasons(found["england"]) == [
        "this campaign does not allow marriages to the minor nobility"]


def test_a7_prisoners_may_marry() -> None:
    """A7: "Prisoners may marry. They cannot have children." """
    ruleset, state = build(_courts_spec())
    state.persons["es"].prisoner_of = "france"
    found = validated(ruleset, state, england="marry E1100 to F1a00\n",
                      france="marry F1a00 to E1100\n")
    ctx = context(state, ruleset, scripted(), found, aged=True)
    run_marriages(ctx)
    assert any(isinstance(e, Wedding) for e in ctx.events)


def test_a7_marrying_a_reigning_queen_makes_a_king_consort() -> None:
    """A1: "If the wife is a reigning queen, the husband joins her court as King
    Consort." """
    ruleset, state = build(_courts_spec())
    state.houses["france"].ruler = "fd"
    ctx = context(state, ruleset, scripted(),
                  validated(ruleset, state, england="marry E1100 to F1a00\n",
                            france="marry F1a00 to E1100\n"), aged=True)
    run_marriages(ctx)
    assert ctx.state.persons["es"].king_consort and ctx.state.persons["es"].court == "france"


def test_a1_widow_returns_to_her_birth_court() -> None:
    """A1: "At the end of the dynasty phase, every widow except a queen returns to the
    court of her birth dynasty." """
    ctx, _ = _marry(england="marry E1100 to F1a00\n", france="marry F1a00 to E1100\n")
    assert ctx.state.persons["fd"].court == "england"
    kill(ctx, "es", "arbiter")
    run_widows(ctx)
    assert ctx.state.persons["fd"].court == "france"
    [event] = [e for e in ctx.events if isinstance(e, WidowReturns)]
    assert (event.court, event.previous_court) == ("france", "england")


def test_a1_widowed_queen_stays() -> None:
    """A1: "every widow except a queen returns"."""
    ruleset, state = build(_courts_spec())
    state.persons["eq"].dynasty = None
    ctx = context(state, ruleset, scripted(), aged=True)
    kill(ctx, "ek", "arbiter")
    run_widows(ctx)
    assert ctx.state.persons["eq"].widowed_queen
    assert ctx.state.persons["eq"].court == "england"
    assert not any(isinstance(e, WidowReturns) for e in ctx.events)


def test_a5_7_widow_whose_birth_dynasty_is_extinct_stays() -> None:
    """A5.7: "A widow whose birth dynasty is extinct, or who was born in the minor
    nobility, stays at her late husband's court." """
    ctx, _ = _marry(england="marry E1100 to F1a00\n", france="marry F1a00 to E1100\n")
    ctx.state.houses["france"].eliminated = True
    kill(ctx, "es", "arbiter")
    run_widows(ctx)
    assert ctx.state.persons["fd"].court == "england"
    assert not any(isinstance(e, WidowReturns) for e in ctx.events)


def test_a1_minor_noble_widow_keeps_a_court() -> None:
    """A1: widows return "to the court of her birth dynasty"; a minor noble has none, so
    she must stay where she lives rather than vanish from every court."""
    ctx, _ = _marry(england="marry E1200 to minor-nobility\n")
    bride = ctx.state.persons["es2"].spouse
    assert bride is not None
    kill(ctx, "es2", "arbiter")
    run_widows(ctx)
    assert ctx.state.persons[bride].court == "england"


def test_a3_renounce_order_and_its_checks() -> None:
    """A3: "A person who renounces their rights in a dynasty loses their number in it."
    Only the house's own members, and only a number they hold."""
    ruleset, state = build(_courts_spec())
    found = validated(ruleset, state, england="renounce E1a00 in E\nrenounce F1a00 in F\n"
                                              "renounce E1a00 in F\nrenounce E1a00 in Q\n")
    assert reasons(found["england"]) == [
        "Isabelle does not belong to this house",
        "Joan holds no number in House France",
        "there is no dynasty 'Q'"]
    from adjudicator.dynastic.marriage import run_renunciations

    ctx = context(state, ruleset, scripted(), found, aged=True)
    run_renunciations(ctx)
    assert ctx.state.persons["ed"].refs == {}
    assert ctx.state.persons["ed"].renounced == {"england": 1}


def test_a7_check_reports_a_one_sided_marriage_before_the_turn() -> None:
    """DESIGN.md: `check` validates the next turn's orders and exits 1 if any line is
    rejected; a marriage only one house declared is knowable from the files alone."""
    ruleset, state = build(_courts_spec())
    found = sheets(ruleset, england="marry E1100 to F1a00\n", france="# nothing\n")
    ruleset.validate(state, found)
    assert [str(r) for r in found["england"].rejections] == [
        "england.orders:2: marry E1100 to F1a00: House France did not declare this marriage"]
    agreed = sheets(ruleset, england="marry E1100 to F1a00\n",
                    france='marry "Isabelle" to E1100\n')
    ruleset.validate(state, agreed)
    assert not agreed["england"].rejections and not agreed["france"].rejections


def _young_groom_turn(born: int, **overrides: object):  # type: ignore[no-untyped-def]
    """England's prince born in ``born`` and France's princess both declare their marriage;
    `check` and the turn are asked in turn."""
    persons = [person("ek", "M", 1260, "england", founder=True),
               person("groom", "M", born, "england", father="ek", name="Edmund"),
               person("fk", "M", 1260, "france", founder=True),
               person("bride", "F", 1280, "france", father="fk", name="Isabelle")]
    spec = spec_of([house("england", "E"), house("france", "F")], persons)
    ruleset, state = build(spec, rules=rules_for(spec, **overrides))
    texts = {"england": "marry E1100 to F1a00\n", "france": "marry F1a00 to E1100\n"}
    checked = sheets(ruleset, **texts)
    ruleset.validate(state, checked)
    result = ruleset.resolve(state, sheets(ruleset, **texts), SeededDice("qa-young-groom", 1))
    assert result.state.persons["groom"].died is None
    return checked, result


def test_a4_a7_who_turns_fifteen_during_the_turn_may_marry() -> None:
    """A7: "Both spouses are 15 or older." A4: "Every later step of the turn uses that
    age: survival, marriage, command, battles." Edmund, born 1290, is 10 at the births
    step of 1300 and 15 at its end: `check` and the turn both let him marry."""
    checked, result = _young_groom_turn(1290)
    assert not checked["england"].rejections and not checked["france"].rejections
    assert not result.rejections
    assert result.state.persons["groom"].spouse == "bride"


def test_a4_a7_check_and_the_turn_count_a_spouse_age_alike() -> None:
    """A4: ageing "moves everyone to the age they reach at the end of the turn", however
    long the turn. With ten-year turns a prince born 1295 is 15 at the end of 1300's
    turn; with 1296 he is 14, and both `check` and the turn refuse him."""
    checked, result = _young_groom_turn(1295, years_per_turn=10)
    assert not checked["england"].rejections and not result.rejections
    assert result.state.persons["groom"].spouse == "bride"
    checked, result = _young_groom_turn(1296, years_per_turn=10)
    too_young = "Edmund is 14: spouses must be 15 or older (A7)"
    assert reasons(checked["england"]) == [too_young]
    assert too_young in [r.reason for r in result.rejections]
    assert result.state.persons["groom"].spouse is None
