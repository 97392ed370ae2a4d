"""RULES.md A5.1 births, A2 characteristics and A1 names."""

from __future__ import annotations

from collections import Counter

from dynasty_helpers import (
    add_living,
    assert_rate,
    build,
    context,
    house,
    person,
    reasons,
    royal_family,
    rules_for,
    scripted,
    sheets,
    spec_of,
    validated,
)

from adjudicator.dice import SeededDice
from adjudicator.dynastic.births import couple_house, eligible_couples, run_births
from adjudicator.dynastic.events import Birth, BirthAttempts
from adjudicator.dynastic.people import roll_characteristics
from adjudicator.state import Marriage

BOY = (1, 1, 3, 4, 3, 4)
GIRL = (1, 6, 3, 4, 3, 4)
MISS = (6,)


def _one_couple(queen_born: int = 1280, names: dict[str, list[str]] | None = None,
                king: str | None = None):  # type: ignore[no-untyped-def]
    h, people, units = royal_family("england", "E", queen_born=queen_born)
    h.update(names or {})
    if king:
        people[0]["name"] = king
    return build(spec_of([h], people, units))


def test_a5_1_mother_of_50_is_eligible_51_is_not() -> None:
    """A5.1: "Eligible couples: every married couple whose mother is 50 or younger"
    (A4: at the births step a person's age is the turn's year minus their birth year)."""
    _, state = _one_couple(queen_born=1250)
    assert len(eligible_couples(state, 1300, 50)) == 1
    _, state = _one_couple(queen_born=1249)
    assert eligible_couples(state, 1300, 50) == []


def test_a5_1_prisoners_cannot_have_children() -> None:
    """A5.1: "... and where neither spouse is a prisoner." A9: prisoners cannot have children."""
    ruleset, state = _one_couple()
    state.persons["england-king"].prisoner_of = "france"
    assert eligible_couples(state, 1300, 50) == []
    ctx = context(state, ruleset, scripted())
    assert run_births(ctx) == {}
    assert not any(isinstance(e, Birth) for e in ctx.events)
    found = validated(ruleset, state, england="birth E1000 attempts 2\n")
    assert reasons(found["england"]) == ["a prisoner cannot have children (A9)"]


def test_a5_1_silent_couple_makes_exactly_one_attempt() -> None:
    """A5.1: "Each eligible couple makes at least one attempt: declining is impossible."."""
    ruleset, state = _one_couple()
    ctx = context(state, ruleset, scripted(*MISS))
    assert run_births(ctx) == {}
    [attempts] = [e for e in ctx.events if isinstance(e, BirthAttempts)]
    assert (attempts.attempts, attempts.children, attempts.ordered) == (1, (), False)
    assert [r.purpose for r in ctx.dice.log] == ["birth attempt"]


def test_a5_1_attempts_are_one_to_three() -> None:
    """A5.1: "The couple's house may order 1, 2 or 3 attempts"."""
    ruleset, state = _one_couple()
    found = sheets(ruleset, england="birth E1000 attempts two\n")
    assert not found["england"].orders and found["england"].rejections[0].line == 2
    for bad in ("0", "4"):
        found = validated(ruleset, state, england=f"birth E1000 attempts {bad}\n")
        assert not found["england"].orders
        assert reasons(found["england"]) == [f"the number of attempts must be 1 to 3, not {bad}"]
    ctx = context(state, ruleset, scripted(*MISS, *MISS, *MISS),
                  validated(ruleset, state, england="birth E1000 attempts 3\n"))
    run_births(ctx)
    assert [r.purpose for r in ctx.dice.log] == ["birth attempt"] * 3


def test_a5_1_the_attempt_bounds_and_default_are_the_data_s() -> None:
    """A5.1: "The couple's house may order 1, 2 or 3 attempts" and "Each eligible couple
    makes at least one attempt": the numbers are the data's (``[births]``), so a
    campaign allowing 4, with a default of 2, gets exactly that."""
    h, people, units = royal_family("england", "E")
    spec = spec_of([h], people, units)
    rules = rules_for(spec, births={"max_attempts": 4, "default_attempts": 2})
    ruleset, state = build(spec, rules=rules)
    found = validated(ruleset, state, england="birth E1000 attempts 4\n")
    assert reasons(found["england"]) == [] and len(found["england"].orders) == 1
    ctx = context(state, ruleset, scripted(*MISS * 4), found)
    run_births(ctx)
    assert [r.purpose for r in ctx.dice.log] == ["birth attempt"] * 4
    found = validated(ruleset, state, england="birth E1000 attempts 5\n")
    assert reasons(found["england"]) == ["the number of attempts must be 1 to 4, not 5"]
    ctx = context(state, ruleset, scripted(*MISS * 2))
    run_births(ctx)
    [attempts] = [e for e in ctx.events if isinstance(e, BirthAttempts)]
    assert (attempts.attempts, attempts.ordered) == (2, False)


def test_a5_1_each_extra_attempt_adds_one_to_the_mother_difficulty() -> None:
    """A5.1: "Every attempt after the first adds 1 to the wife's survival difficulty
    this turn." """
    for attempts, penalty in ((1, None), (2, 1), (3, 2)):
        ruleset, state = _one_couple()
        ctx = context(state, ruleset, scripted(*MISS * attempts),
                      validated(ruleset, state, england=f"birth E1000 attempts {attempts}\n"))
        assert run_births(ctx).get("england-queen") == penalty


def test_a5_1_newborn_is_born_in_the_turn_year_and_rolls_characteristics() -> None:
    """A5.1: "a newborn is born in the turn's year and rolls its characteristics (A2)";
    A2: 2–4 → −1, 10–12 → +1."""
    ruleset, state = _one_couple()
    ctx = context(state, ruleset, scripted(1, 1, 1, 1, 6, 6))
    run_births(ctx)
    [birth] = [e for e in ctx.events if isinstance(e, Birth)]
    child = ctx.state.persons[birth.person]
    assert child.born == 1300 and child.sex == "M" and child.dynasty == "england"
    assert (child.constitution, child.command, child.ruse) == (-1, 1, 0)
    assert child.court == "england"
    assert [r.purpose for r in ctx.dice.log] == ["birth attempt", "sex", "constitution",
                                                  "command"]


def test_a1_children_of_mother_dynasty_contract() -> None:
    """A1: "A child belongs to the father's dynasty. A marriage contract may give the
    children to the mother's dynasty instead." """
    ruleset, state = _one_couple()
    state.marriages[0].children_dynasty = "england"
    state.persons["england-king"].dynasty = "england"
    ctx = context(state, ruleset, scripted(*GIRL))
    run_births(ctx)
    [birth] = [e for e in ctx.events if isinstance(e, Birth)]
    assert ctx.state.persons[birth.person].sex == "F"
    assert birth.dynasty == "england"


def _many_couples(n: int):  # type: ignore[no-untyped-def]
    ruleset, state = _one_couple(queen_born=1240)  # the founders' own couple is too old
    for i in range(n):
        add_living(state, f"h{i}", "M", 1270, "england")
        add_living(state, f"w{i}", "F", 1280, None, court="england")
        state.persons[f"h{i}"].spouse, state.persons[f"w{i}"].spouse = f"w{i}", f"h{i}"
        state.marriages.append(Marriage(id=f"mx{i}", husband=f"h{i}", wife=f"w{i}", turn=0,
                                        year=1300))
    return ruleset, state


def test_a5_1_birth_rate_one_half_and_boys_one_half() -> None:
    """A5.1: "Each attempt produces a child with probability 1/2; a boy or a girl with
    equal odds." Statistical, fixed seed, 4 standard errors."""
    ruleset, state = _many_couples(3000)
    ctx = context(state, ruleset, SeededDice("qa-births", 1))
    run_births(ctx)
    births = [e for e in ctx.events if isinstance(e, Birth)]
    attempts = sum(e.attempts for e in ctx.events if isinstance(e, BirthAttempts))
    assert attempts == 3000
    assert_rate(len(births), attempts, 0.5)
    boys = sum(1 for b in births if ctx.state.persons[b.person].sex == "M")
    assert_rate(boys, len(births), 0.5)


def test_a2_characteristics_one_sixth_two_thirds_one_sixth() -> None:
    """A2: "Each characteristic is a separate 2d6 roll: 2–4 → −1 (1/6), 5–9 → 0 (2/3),
    10–12 → +1 (1/6)." Statistical, fixed seed, 4 standard errors, per characteristic."""
    ruleset, state = _one_couple()
    ctx = context(state, ruleset, SeededDice("qa-characteristics", 1))
    trials = 6000
    for i in range(trials):
        roll_characteristics(ctx, add_living(ctx.state, f"p{i}", "MF"[i % 2], 1300, None))
    people = [ctx.state.persons[f"p{i}"] for i in range(trials)]
    for label, values in (("constitution", [p.constitution for p in people]),
                          ("command", [p.command for p in people if p.sex == "M"]),
                          ("ruse", [p.ruse for p in people if p.sex == "F"])):
        counts = Counter(values)
        assert set(counts) == {-1, 0, 1}, label
        for value, p in ((-1, 1 / 6), (0, 2 / 3), (1, 1 / 6)):
            assert_rate(counts[value], len(values), p)
    assert all(p.command == 0 for p in people if p.sex == "F")
    assert all(p.ruse == 0 for p in people if p.sex == "M")


def test_a2_founders_have_zero_characteristics_unless_declared() -> None:
    """A2: "Founders and starting characters have 0 in everything, unless the campaign
    file says otherwise." """
    h, people, _ = royal_family("england", "E")
    people[0]["command"] = 1
    _, state = build(spec_of([h], people))
    king, queen = state.persons["england-king"], state.persons["england-queen"]
    assert (king.constitution, king.command, queen.ruse, queen.constitution) == (0, 1, 0, 0)


def test_a1_newborn_takes_first_unused_name_then_an_ordinal() -> None:
    """A1: "A newborn takes the first unused name from its dynasty's name list for its sex
    ... If that list is used up, the name takes an ordinal ("Edmund II")." """
    ruleset, state = _one_couple(names={"male_names": ["Edmund", "Hal"],
                                        "female_names": ["Maud"]}, king="Hal")
    ctx = context(state, ruleset, scripted(*BOY, *BOY, *GIRL),
                  validated(ruleset, state, england="birth E1000 attempts 3\n"))
    run_births(ctx)
    names = [ctx.state.persons[e.person].name for e in ctx.events if isinstance(e, Birth)]
    assert names == ["Edmund", "Edmund II", "Maud"]


def test_a1_royal_children_never_take_minor_nobility_names() -> None:
    """A1: "A newborn takes the first unused name from its dynasty's name list for its
    sex; the lists are ruleset data." A house without lists of its own takes the common
    lists, never the names kept for the minor nobility (A7)."""
    ruleset, state = _one_couple()
    minor = ruleset.rules["names"]["minor-nobility"]
    ctx = context(state, ruleset, scripted(*BOY, *GIRL),
                  validated(ruleset, state, england="birth E1000 attempts 2\n"))
    run_births(ctx)
    names = [ctx.state.persons[e.person].name for e in ctx.events if isinstance(e, Birth)]
    assert names == ["John", "Mary"]
    assert not set(names) & {*minor["male"], *minor["female"]}


def test_a1_names_are_unique_across_the_campaign() -> None:
    """A1: "Names stay unique across the whole campaign." France's list offers a name
    England already used: France's child takes the next one."""
    eh, ep, _ = royal_family("england", "E")
    fh, fp, _ = royal_family("france", "F")
    eh["male_names"] = ["Louis"]
    fh["male_names"] = ["Louis", "Charles"]
    ruleset, state = build(spec_of([eh, fh], ep + fp))
    ctx = context(state, ruleset, scripted(*BOY, *BOY))
    run_births(ctx)
    names = sorted(ctx.state.persons[e.person].name for e in ctx.events if isinstance(e, Birth))
    assert names == ["Charles", "Louis"]
    assert len({p.name.lower() for p in ctx.state.persons.values()}) == len(ctx.state.persons)


def test_a1_house_may_choose_the_name_in_the_birth_order() -> None:
    """A1: "A house may instead choose the name in the birth order." `name son|daughter|
    newborn of P "Name"`; a taken name is refused."""
    ruleset, state = _one_couple()
    found = validated(ruleset, state, england=(
        'birth E1000 attempts 2\nname daughter of E1000 "Blanche"\n'
        'name son of E1000 "Richard"\nname son of E1000 "King of England"\n'))
    assert reasons(found["england"]) == [
        "the name 'King of England' is already taken (names are unique)"]
    assert found["england"].rejections[0].line == 5
    ctx = context(state, ruleset, scripted(*BOY, *GIRL), found)
    run_births(ctx)
    names = [ctx.state.persons[e.person].name for e in ctx.events if isinstance(e, Birth)]
    assert names == ["Richard", "Blanche"]


def test_a1_newborn_names_go_to_the_boys_then_the_girls() -> None:
    """DESIGN.md: `name newborn of E1100 "Richard"`: "optional names for this turn's
    births, boys then girls". A girl born first does not take the name; several names
    may stand on one line."""
    ruleset, state = _one_couple()
    found = validated(ruleset, state, england=(
        'birth E1000 attempts 3\nname newborn of E1000 "Richard" "Blanche" "Isabel"\n'))
    assert not found["england"].rejections
    ctx = context(state, ruleset, scripted(*GIRL, *BOY, *GIRL), found)
    run_births(ctx)
    born = [ctx.state.persons[e.person] for e in ctx.events if isinstance(e, Birth)]
    assert [(p.sex, p.name) for p in born] == [("F", "Blanche"), ("M", "Richard"),
                                               ("F", "Isabel")]


def test_a1_a_name_given_twice_on_one_line_is_refused() -> None:
    ruleset, state = _one_couple()
    found = validated(ruleset, state, england='name son of E1000 "Hugh" "hugh"\n')
    assert reasons(found["england"]) == ["the same name is given twice"]


def test_a5_1_only_the_couple_house_orders_births() -> None:
    """DESIGN.md: "birth E1000 attempts 2  # couple named by either spouse". Another
    house cannot order an English couple's births."""
    eh, ep, _ = royal_family("england", "E")
    fh, fp, _ = royal_family("france", "F")
    ruleset, state = build(spec_of([eh, fh], ep + fp))
    found = validated(ruleset, state, france="birth E1000 attempts 3\n",
                      england='birth "Queen of England" attempts 2\n')
    assert reasons(found["france"]) == ["King of England belongs to no family of this house"]
    assert not found["england"].rejections
    assert found["england"].orders[0].person == "Queen of England"  # type: ignore[attr-defined]


def test_a5_1_unmarried_person_cannot_be_ordered_to_birth() -> None:
    """A5.1: only "married couples" make attempts."""
    h, people, _ = royal_family("england", "E")
    people.append(person("bachelor", "M", 1275, "england", father="england-king",
                         mother="england-queen"))
    people[0]["born"] = 1250
    people[1]["born"] = 1255
    ruleset, state = build(spec_of([h], people))
    found = validated(ruleset, state, england="birth E1100\n")
    assert reasons(found["england"]) == ["Bachelor is not married"]


def test_a5_1_house_without_name_list_still_gets_unique_names() -> None:
    """A1: names come from ruleset data and stay unique, whatever the list."""
    ruleset, state = build(spec_of([house("england", "E")],
                                   [person("k", "M", 1275, "england", founder=True, spouse="q"),
                                    person("q", "F", 1280)]))
    ctx = context(state, ruleset, scripted(*BOY, *BOY, *BOY),
                  validated(ruleset, state, england="birth k attempts 3\n"))
    run_births(ctx)
    names = [p.name.lower() for p in ctx.state.persons.values()]
    assert len(names) == len(set(names)) == 5


def test_a2_every_newborn_roll_is_recorded_under_the_child() -> None:
    """DESIGN.md: every roll is recorded with its subject. A newborn's characteristics
    are rolled before it is named, then recorded under its own id."""
    ruleset, state = _one_couple()
    ctx = context(state, ruleset, scripted(*BOY, *GIRL),
                  validated(ruleset, state, england="birth E1000 attempts 2\n"))
    run_births(ctx)
    children = [e.person for e in ctx.events if isinstance(e, Birth)]
    traits = [r.subject for r in ctx.dice.log if r.purpose in ("constitution", "command", "ruse")]
    assert traits == [children[0], children[0], children[1], children[1]]


def test_a5_1_a_couple_at_a_foreign_court_is_offered_to_its_own_house() -> None:
    """A5.1: "The couple's house may order 1, 2 or 3 attempts". A French prince who
    grew up at the English court (his father was King Consort there) and his Spanish
    wife are France's couple: France's order template offers them, its order stands,
    and England, the house they merely live with, may not order them."""
    spec = spec_of(
        [house("england", "E"), house("france", "F"), house("spain", "S")],
        [person("ek", "M", 1275, "england", founder=True, spouse="eq"),
         person("eq", "F", 1280),
         person("fk", "M", 1250, "france", founder=True),
         person("sk", "M", 1250, "spain", founder=True),
         person("fp", "M", 1278, "france", spouse="sp"),
         person("sp", "F", 1281, "spain")])
    ruleset, state = build(spec)
    state.persons["fp"].court = state.persons["sp"].court = "england"
    marriage = state.current_marriage("fp")
    assert marriage is not None and couple_house(state, marriage) == "france"
    assert "birth Fp" in ruleset.template(state, "france").replace('"', "")
    assert "Fp" not in ruleset.template(state, "england").split("# Marriages")[0]
    found = validated(ruleset, state, france="birth fp attempts 2\n",
                      england="birth sp attempts 1\n")
    assert not found["france"].rejections
    assert reasons(found["england"]) == ["Sp belongs to no family of this house"]


def test_a5_1_and_a8_the_template_states_the_data_s_numbers() -> None:
    """A5.1: "The couple's house may order 1, 2 or 3 attempts", "Every attempt after the
    first adds 1 to the wife's survival difficulty"; A8: "Every man aged 20 or more must be
    assigned". The order template repeats these numbers from the data."""
    h, people, units = royal_family("england", "E")
    spec = spec_of([h], people, units)
    ruleset, state = build(spec)
    text = ruleset.template(state, "england")
    assert "# Births: every eligible couple makes 1 attempt unless you order 2 or 3;" in text
    assert "# each attempt after the first adds 1 to the mother's survival difficulty." in text
    assert "# birth E1000 attempts 1 " in text
    assert "# Command: men of 20 and more are assigned automatically" in text
    rules = rules_for(spec, births={"max_attempts": 4, "default_attempts": 2,
                                    "extra_attempt_penalty": 2},
                      command={"compulsory_age": 25})
    ruleset, state = build(spec, rules=rules)
    text = ruleset.template(state, "england")
    assert "# Births: every eligible couple makes 2 attempts unless you order 1, 3 or 4;" in text
    assert "# each attempt after the first adds 2 to the mother's survival difficulty." in text
    assert "# birth E1000 attempts 2 " in text
    assert "# Command: men of 25 and more are assigned automatically" in text
