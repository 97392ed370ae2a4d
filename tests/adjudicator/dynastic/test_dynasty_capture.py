"""RULES.md A9 capture and the fate of prisoners."""

from __future__ import annotations

from dynasty_helpers import (
    add_living,
    assert_rate,
    build,
    context,
    house,
    person,
    reasons,
    scripted,
    sheets,
    spec_of,
    validated,
)

from adjudicator.dice import SeededDice
from adjudicator.dynastic.capture import capture_commanders, run_prisoners
from adjudicator.dynastic.events import (
    Assignment,
    Capture,
    CaptureEscaped,
    Death,
    PrisonerKept,
    PrisonerReleased,
)
from adjudicator.dynastic.phase import run_arbiter


def _spec() -> dict[str, object]:
    persons = [person("ek", "M", 1250, "england", founder=True),
               person("fk", "M", 1250, "france", founder=True),
               person("f1", "M", 1275, "france", father="fk", name="Louis"),
               person("f2", "M", 1276, "france", father="fk", name="Charles")]
    units = [{"id": "E-1", "house": "england"}, {"id": "F-1", "house": "france"},
             {"id": "F-2", "house": "france"}]
    return spec_of([house("england", "E", treasury=100), house("france", "F", treasury=50)],
                   persons, units)


def _with_commanders():  # type: ignore[no-untyped-def]
    ruleset, state = build(_spec())
    for pid in ("f1", "f2"):
        state.persons[pid].unit = "F-1"
        state.units["F-1"].commanders.append(pid)
    return ruleset, state


def test_a9_retreat_directive_captures_each_commander_on_one_half() -> None:
    """A9: "When a unit is forced to retreat, each of its commanders is captured with
    probability 1/2." DESIGN.md: `retreat E-1 by F`. A d6 of 1–3 captures."""
    ruleset, state = _with_commanders()
    found = validated(ruleset, state, arbiter="retreat F-1 by E\n")
    ctx = context(state, ruleset, scripted(3, 4), found)
    run_arbiter(ctx)
    s = ctx.state
    [capture] = [e for e in ctx.events if isinstance(e, Capture)]
    [escaped] = [e for e in ctx.events if isinstance(e, CaptureEscaped)]
    assert (capture.person, capture.captor, capture.unit) == ("f1", "england", "F-1")
    assert escaped.person == "f2"
    assert s.persons["f1"].prisoner_of == "england" and s.persons["f1"].unit is None
    assert s.units["F-1"].commanders == ["f2"]
    assert [r.purpose for r in ctx.dice.log] == ["capture", "capture"]


def test_a9_retreat_directive_checks() -> None:
    """A9: the captor is another house; the unit must exist."""
    ruleset, state = _with_commanders()
    found = validated(ruleset, state, arbiter="retreat F-1 by F\nretreat X-9 by E\n"
                                              "retreat F-1 by Q\n")
    assert reasons(found["arbiter"]) == ["a house cannot capture its own commanders",
                                         "there is no unit X-9", "there is no house 'Q'"]


def test_a9_capture_rate_is_one_half() -> None:
    """A9: captured "with probability 1/2". Statistical, fixed seed, 4 standard errors."""
    ruleset, state = build(_spec())
    ctx = context(state, ruleset, SeededDice("qa-capture", 1))
    unit = ctx.state.units["F-1"]
    for i in range(4000):
        add_living(ctx.state, f"c{i}", "M", 1270, "france", unit="F-1")
        unit.commanders.append(f"c{i}")
    taken = capture_commanders(ctx, unit, "england")
    assert_rate(len(taken), 4000, 0.5)
    assert len(unit.commanders) == 4000 - len(taken)


def _prisoner_state():  # type: ignore[no-untyped-def]
    ruleset, state = build(_spec())
    state.persons["f1"].prisoner_of = "england"
    state.persons["f1"].captured_turn = 0
    return ruleset, state


def _fate(**texts: str):  # type: ignore[no-untyped-def]
    ruleset, state = _prisoner_state()
    found = validated(ruleset, state, **texts)
    ctx = context(state, ruleset, scripted(), found, aged=True)
    run_prisoners(ctx)
    return ctx, found


def test_a9_release_against_ransom_only_if_the_prisoner_house_pays() -> None:
    """A9: "release, optionally against a ransom in crowns, paid only if the prisoner's
    house declares it". DESIGN reading: the prisoner's house sends `pay ransom P N`."""
    ctx, _ = _fate(england="prisoner F1100 release ransom 40\n",
                   france="pay ransom F1100 40\n")
    s = ctx.state
    assert s.persons["f1"].prisoner_of is None
    assert (s.houses["england"].treasury, s.houses["france"].treasury) == (140, 10)
    [released] = [e for e in ctx.events if isinstance(e, PrisonerReleased)]
    assert released.ransom == 40


def test_a9_unpaid_ransom_keeps_the_prisoner() -> None:
    """A9: a ransom is "paid only if the prisoner's house declares it"; otherwise kept."""
    ctx, _ = _fate(england="prisoner F1100 release ransom 40\n")
    s = ctx.state
    assert s.persons["f1"].prisoner_of == "england"
    assert (s.houses["england"].treasury, s.houses["france"].treasury) == (100, 50)
    assert "did not declare a ransom of 40" in reasons(ctx.sheets["england"])[0]
    assert any(isinstance(e, PrisonerKept) for e in ctx.events)
    ctx, _ = _fate(england="prisoner F1100 release ransom 40\n",
                   france="pay ransom F1100 30\n")
    assert ctx.state.persons["f1"].prisoner_of == "england"


def test_a9_release_without_ransom() -> None:
    """A9: release (optionally against a ransom)."""
    ctx, _ = _fate(england="prisoner F1100 release\n", france="pay ransom F1100 30\n")
    s = ctx.state
    assert s.persons["f1"].prisoner_of is None
    assert (s.houses["england"].treasury, s.houses["france"].treasury) == (100, 50)


def test_a9_execute() -> None:
    """A9: the captor may "execute"."""
    ctx, _ = _fate(england="prisoner F1100 execute\n")
    [death] = [e for e in ctx.events if isinstance(e, Death)]
    assert (death.person, death.cause) == ("f1", "executed")
    assert ctx.state.persons["f1"].died == 1300


def test_a9_keep_is_the_default() -> None:
    """A9: "Default. With no order, the prisoner is kept." """
    ctx, _ = _fate()
    [kept] = [e for e in ctx.events if isinstance(e, PrisonerKept)]
    assert (kept.person, kept.captor) == ("f1", "england")
    assert ctx.state.persons["f1"].prisoner_of == "england"


def test_a9_only_the_captor_decides_and_only_the_prisoner_house_pays() -> None:
    """A9: "the captor orders one of ..."; the ransom is the prisoner's house's to pay."""
    _, found = _fate(france="prisoner F1100 release\n", england="pay ransom F1100 10\n")
    assert reasons(found["france"]) == ["Louis is not this house's prisoner"]
    assert reasons(found["england"]) == ["Louis does not belong to this house"]
    _, found = _fate(england="prisoner F1200 execute\n")
    assert reasons(found["england"]) == ["Charles is nobody's prisoner"]


def test_a9_captured_commander_is_not_reassigned_the_same_turn() -> None:
    """A9: "What prisoners cannot do: have children, or be assigned." Full turn."""
    ruleset, state = _with_commanders()
    found = sheets(ruleset, arbiter="retreat F-1 by E\n")
    for seed in range(40):
        result = ruleset.resolve(state, found, SeededDice(f"qa-turn-{seed}", 1))
        taken = [e.person for e in result.events if isinstance(e, Capture)]
        if taken:
            break
    assert taken
    for pid in taken:
        prisoner = result.state.persons[pid]
        if prisoner.died is None:
            assert prisoner.prisoner_of == "england" and prisoner.unit is None
            assert all(pid not in u.commanders for u in result.state.units.values())


def test_a9_no_ransom_is_paid_for_a_dead_prisoner() -> None:
    """A9: release against a ransom frees a living prisoner. The arbiter's `kill`
    "takes effect at the start of the turn", so the ransom must not change hands."""
    ruleset, state = _prisoner_state()
    found = sheets(ruleset, arbiter='kill F1100 cause "died in his cell"\n',
                   england="prisoner F1100 release ransom 40\n",
                   france="pay ransom F1100 40\n")
    result = ruleset.resolve(state, found, SeededDice("qa-dead-prisoner", 1))
    assert result.state.persons["f1"].died is not None
    assert not any(isinstance(e, PrisonerReleased) for e in result.events)
    assert result.state.houses["france"].treasury == 50


def test_a9_check_reports_a_ransom_that_will_not_be_paid() -> None:
    """`check` sees across files: a release against a ransom the prisoner's house did
    not declare, or cannot pay, is refused before the turn; a matched one passes."""
    ruleset, state = _prisoner_state()
    found = sheets(ruleset, england="prisoner F1100 release ransom 40\n",
                   france="pay ransom F1100 30\n")
    ruleset.validate(state, found)
    assert "did not declare a ransom of 40" in reasons(found["england"])[0]
    matched = sheets(ruleset, england="prisoner F1100 release ransom 40\n",
                     france="pay ransom F1100 40\n")
    ruleset.validate(state, matched)
    assert not matched["england"].rejections and not matched["france"].rejections


def test_a9_prisoner_released_this_turn_may_be_assigned_by_his_house() -> None:
    """A9: "A prisoner released in a dynasty phase may be assigned by his own house in
    the same turn's orders: releases are settled before assignments." """
    ruleset, state = _prisoner_state()
    found = sheets(ruleset, england="prisoner F1100 release\n", france="assign F1100 to F-2\n")
    ruleset.validate(state, found)
    assert not found["england"].rejections and not found["france"].rejections
    result = ruleset.resolve(state, found, SeededDice("qa-release-assign", 1))
    assert not result.rejections
    freed = result.state.persons["f1"]
    assert freed.died is None
    assert freed.prisoner_of is None and freed.unit == "F-2"
    [placed] = [e for e in result.events if isinstance(e, Assignment) and e.person == "f1"]
    assert not placed.automatic


def test_a9_prisoner_kept_this_turn_cannot_be_assigned() -> None:
    """A9: "What prisoners cannot do: have children, or be assigned." `check` sees that
    the captor's file does not release him; the turn refuses the line after the
    releases are settled."""
    ruleset, state = _prisoner_state()
    found = sheets(ruleset, england="prisoner F1100 keep\n", france="assign F1100 to F-2\n")
    ruleset.validate(state, found)
    assert reasons(found["france"]) == ["Louis is a prisoner and cannot be assigned (A9)"]
    found = sheets(ruleset, france="assign F1100 to F-2\n")
    result = ruleset.resolve(state, found, SeededDice("qa-kept-assign", 1))
    assert [r.reason for r in result.rejections] == \
        ["Louis is a prisoner and cannot be assigned (A9)"]
    assert result.state.persons["f1"].unit is None


def test_a9_captor_is_told_the_ransom_cannot_be_paid_not_that_it_was_not_declared() -> None:
    """A9: "Ransoms are paid in crowns from the house treasury." France declares the
    ransom but holds only 20 crowns: England hears that France cannot pay, in `check`
    and in the turn."""
    ruleset, state = _prisoner_state()
    state.houses["france"].treasury = 20
    texts = {"england": "prisoner F1100 release ransom 40\n", "france": "pay ransom F1100 40\n"}
    expected = ["House France cannot pay 40 crowns; the prisoner is kept"]
    checked = sheets(ruleset, **texts)
    ruleset.validate(state, checked)
    assert reasons(checked["england"]) == expected
    result = ruleset.resolve(state, sheets(ruleset, **texts), SeededDice("qa-poor", 1))
    assert [r.reason for r in result.rejections if r.house == "england"] == expected
    assert result.state.persons["f1"].prisoner_of == "england"
    assert result.state.houses["france"].treasury == 20


def test_a9_a_house_pays_the_ransom_asked_up_to_what_it_declared() -> None:
    """A9: a ransom is "paid only if the prisoner's house declares it"; "Ransoms are paid
    in crowns from the house treasury." DESIGN reading (docs/orders.md): `pay ransom P N`
    agrees to pay up to N. France holds 40 and offers up to 50; England asks 40: paid."""
    ruleset, state = _prisoner_state()
    state.houses["france"].treasury = 40
    texts = {"england": "prisoner F1100 release ransom 40\n", "france": "pay ransom F1100 50\n"}
    checked = sheets(ruleset, **texts)
    ruleset.validate(state, checked)
    assert not checked["england"].rejections and not checked["france"].rejections
    result = ruleset.resolve(state, sheets(ruleset, **texts), SeededDice("qa-offer", 1))
    assert not result.rejections
    assert result.state.persons["f1"].prisoner_of is None
    assert (result.state.houses["france"].treasury, result.state.houses["england"].treasury) \
        == (0, 140)
