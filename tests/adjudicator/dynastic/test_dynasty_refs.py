"""RULES.md A3: reference numbers, and the ruler as the smallest of them."""

from __future__ import annotations

from dynasty_helpers import (
    build,
    context,
    house,
    person,
    pid_of,
    refs,
    royal_family,
    scripted,
    sheets,
    spec_of,
)

from adjudicator.dynastic.births import run_births
from adjudicator.dynastic.marriage import run_renunciations
from adjudicator.dynastic.people import kill
from adjudicator.dynastic.refs import SON_CHARS, line_of_succession, ruler_of
from adjudicator.dynastic.succession import settle_successions

# A successful birth attempt under ScriptedDice: success, sex, Constitution 2d6, trait 2d6.
BOY = (1, 1, 3, 4, 3, 4)
GIRL = (1, 6, 3, 4, 3, 4)
MISS = (6,)


def _two_dynasties() -> dict[str, object]:
    """England and France over three generations, with a cross-dynasty marriage."""
    persons = [
        person("ek", "M", 1240, "england", founder=True, spouse="eq"),
        person("eq", "F", 1245),
        person("fk", "M", 1240, "france", founder=True, spouse="fq"),
        person("fq", "F", 1245),
        person("es1", "M", 1260, "england", father="ek", mother="eq", spouse="es1w"),
        person("ed1", "F", 1261, "england", father="ek", mother="eq", spouse="fs1"),
        person("es2", "M", 1262, "england", father="ek", mother="eq"),
        person("ed2", "F", 1263, "england", father="ek", mother="eq"),
        person("fs1", "M", 1260, "france", father="fk", mother="fq"),
        person("es1w", "F", 1262),
        # grandchildren: through a son, and through a daughter married into France
        person("es1-s", "M", 1280, "england", father="es1", mother="es1w"),
        person("es1-d", "F", 1281, "england", father="es1", mother="es1w"),
        person("ed1-s", "M", 1282, "france", father="fs1", mother="ed1"),
        person("ed1-d", "F", 1283, "france", father="fs1", mother="ed1"),
        # great-grandchild of the founder, below the 4th generation the number grows
        person("es1-s-w", "F", 1280),
    ]
    persons[10]["spouse"] = "es1-s-w"
    persons.append(person("es1-s-s", "M", 1298, "england", father="es1-s", mother="es1-s-w"))
    return spec_of([house("england", "E"), house("france", "F")], persons)


def test_a3_format_founder_children_and_grandchildren() -> None:
    """A3: "Founding king: E1000. His first son E1100, second son E1200, first daughter
    E1a00 ... the first son of E1100 is E1110." """
    _, state = build(_two_dynasties())
    e = refs(state, "england")
    assert e["ek"] == "E1000" and state.persons["ek"].founder
    assert (e["es1"], e["es2"], e["ed1"], e["ed2"]) == ("E1100", "E1200", "E1a00", "E1b00")
    assert (e["es1-s"], e["es1-d"]) == ("E1110", "E11a0")
    assert e["es1-s-s"] == "E1111"
    assert refs(state, "france")["fs1"] == "F1100"


def test_a3_mother_line_numbers_children_in_her_dynasty() -> None:
    """A3: "A person holds one reference number per dynasty in whose succession they
    stand: every dynasty in which one of their parents holds a number." A daughter's
    children are numbered in her dynasty as well as in their father's."""
    _, state = build(_two_dynasties())
    son, daughter = state.persons["ed1-s"], state.persons["ed1-d"]
    assert son.dynasty == "france"
    assert son.refs == {"england": "E1a10", "france": "F1110"}
    assert daughter.refs == {"england": "E1aa0", "france": "F11a0"}
    assert son.ref_from == {"england": "ed1", "france": "fs1"}


def test_a3_minor_nobility_holds_no_number() -> None:
    """A7: a minor noble "belongs to no playing dynasty and has no claims"."""
    _, state = build(_two_dynasties())
    assert state.persons["eq"].refs == {} and state.persons["es1w"].refs == {}


def test_a3_tenth_son_takes_letter_a() -> None:
    """A3: "sons are 1–9, then A–Z from the 10th son on"."""
    persons = [person("k", "M", 1230, "england", founder=True, spouse="q"),
               person("q", "F", 1240)]
    persons += [person(f"s{i}", "M", 1255 + i, "england", father="k", mother="q")
                for i in range(1, 12)]
    _, state = build(spec_of([house("england", "E")], persons))
    got = [state.persons[f"s{i}"].refs["england"] for i in range(1, 12)]
    assert got == [f"E1{c}00" for c in "123456789AB"]
    assert SON_CHARS.index("A") == 9


def test_a3_absolute_primogeniture_numbers_by_birth_order() -> None:
    """A3: "Absolute primogeniture (House Martell): every child, of either sex, is
    numbered in birth order: 1–9, then A–Z." """
    persons = [person("k", "M", 1250, "martell", founder=True, spouse="q"),
               person("q", "F", 1255),
               person("c1", "F", 1270, "martell", father="k", mother="q"),
               person("c2", "M", 1271, "martell", father="k", mother="q"),
               person("c3", "F", 1272, "martell", father="k", mother="q")]
    _, state = build(spec_of([house("martell", "M", "absolute")], persons))
    assert [state.persons[c].refs["martell"] for c in ("c1", "c2", "c3")] == \
        ["M1100", "M1200", "M1300"]
    # the eldest child, a daughter, is first in line
    state.persons["k"].died = 1300
    assert ruler_of(state, "martell").id == "c1"  # type: ignore[union-attr]


def test_a3_daughter_of_absolute_house_in_male_preference_house() -> None:
    """A3: "it follows D's law": a child is numbered in each dynasty by that dynasty's law."""
    persons = [person("mk", "M", 1240, "martell", founder=True, spouse="mq"),
               person("mq", "F", 1245),
               person("ek", "M", 1240, "england", founder=True, spouse="eq"),
               person("eq", "F", 1245),
               person("md", "F", 1262, "martell", father="mk", mother="mq", spouse="es"),
               person("es", "M", 1260, "england", father="ek", mother="eq"),
               person("g1", "F", 1280, "england", father="es", mother="md"),
               person("g2", "M", 1281, "england", father="es", mother="md")]
    _, state = build(spec_of([house("martell", "M", "absolute"), house("england", "E")],
                             persons))
    assert state.persons["g1"].refs == {"england": "E11a0", "martell": "M1110"}
    assert state.persons["g2"].refs == {"england": "E1110", "martell": "M1120"}


def test_a3_child_extends_the_smaller_parent_number() -> None:
    """A3: "The child's number in dynasty D extends the smaller of its parents' numbers
    in D." A marriage between two claimants of England (from different dynasties)."""
    persons = [person("ek", "M", 1220, "england", founder=True, spouse="eq"),
               person("eq", "F", 1225),
               person("fk", "M", 1220, "france", founder=True, spouse="fq"),
               person("fq", "F", 1225),
               person("es", "M", 1240, "england", father="ek", mother="eq", spouse="esw"),
               person("esw", "F", 1240),
               person("ed", "F", 1242, "england", father="ek", mother="eq", spouse="fs"),
               person("fs", "M", 1240, "france", father="fk", mother="fq"),
               # E1110 (England) and E1a10's sister E1aa0 (France) ...
               person("e-grandson", "M", 1260, "england", father="es", mother="esw"),
               person("f-granddaughter", "F", 1262, "france", father="fs", mother="ed"),
               ]
    persons[8]["spouse"] = "f-granddaughter"
    persons.append(person("child", "M", 1280, "england", father="e-grandson",
                          mother="f-granddaughter"))
    _, state = build(spec_of([house("england", "E"), house("france", "F")], persons))
    assert state.persons["e-grandson"].refs["england"] == "E1110"
    assert state.persons["f-granddaughter"].refs["england"] == "E1aa0"
    child = state.persons["child"]
    assert child.refs["england"] == "E1111"
    assert child.ref_from["england"] == "e-grandson"
    assert child.refs["france"] == "F11a1"


def _order_of_succession_spec() -> dict[str, object]:
    """King E1100 (the founder is dead) with sons, daughters, brothers and sisters."""
    persons = [
        person("founder", "M", 1200, "england", founder=True, spouse="fw"),
        person("fw", "F", 1205),
        person("king", "M", 1230, "england", father="founder", mother="fw", spouse="kw"),
        person("brother", "M", 1232, "england", father="founder", mother="fw", spouse="bw"),
        person("sister", "F", 1234, "england", father="founder", mother="fw"),
        person("kw", "F", 1232),
        person("bw", "F", 1234),
        person("son1", "M", 1250, "england", father="king", mother="kw", spouse="s1w"),
        person("son2", "M", 1252, "england", father="king", mother="kw"),
        person("dau1", "F", 1251, "england", father="king", mother="kw", spouse="d1h"),
        person("dau2", "F", 1253, "england", father="king", mother="kw"),
        person("nephew", "M", 1252, "england", father="brother", mother="bw"),
        person("s1w", "F", 1250),
        person("d1h", "M", 1248),
        person("grandson", "M", 1270, "england", father="son1", mother="s1w"),
        person("dau1-son", "M", 1271, "england", father="d1h", mother="dau1"),
    ]
    return spec_of([house("england", "E")], persons)


EXPECTED_LINE = ["king", "son1", "grandson", "son2", "dau1", "dau1-son", "dau2",
                 "brother", "nephew", "sister"]


def test_a3_smallest_number_reproduces_the_five_step_order_of_succession() -> None:
    """A3: "The living holder of the smallest reference number, in plain ASCII order, is
    always the ruler. This ordering reproduces exactly the seed's order of succession:
    1. The eldest son and all his heirs. 2. Then the second son and his heirs. 3. Then
    the daughters and their heirs, by age. 4. Then the brothers of the king and their
    heirs. 5. Then the sisters." """
    ruleset, state = build(_order_of_succession_spec())
    state.persons["founder"].died = 1299
    line = [p.id for p in line_of_succession(state, "england", limit=50)]
    assert line == EXPECTED_LINE
    assert [state.persons[p].refs["england"] for p in line] == [
        "E1100", "E1110", "E1111", "E1120", "E11a0", "E11a1", "E11b0",
        "E1200", "E1210", "E1a00"]
    # killing each ruler in turn crowns exactly the next in line (A6)
    ctx = context(state, ruleset, scripted())
    settle_successions(ctx)
    for expected_next in EXPECTED_LINE[1:]:
        kill(ctx, ctx.state.houses["england"].ruler or "", "arbiter")
        settle_successions(ctx)
        assert ctx.state.houses["england"].ruler == expected_next


def test_a3_renunciation_children_before_keep_after_get_none() -> None:
    """A3: "A person who renounces their rights in a dynasty loses their number in it.
    Children born after the renunciation get no number in that dynasty through this
    parent. Children born before keep theirs." """
    fam_house, fam_people, _ = royal_family("england", "E", king_born=1250, queen_born=1255)
    fam_people += [person("prince", "M", 1270, "england", father="england-king",
                          mother="england-queen", spouse="princess"),
                   person("princess", "F", 1280),
                   person("elder", "M", 1296, "england", father="prince", mother="princess")]
    ruleset, state = build(spec_of([fam_house], fam_people))
    assert state.persons["elder"].refs == {"england": "E1110"}
    ctx = context(state, ruleset, scripted(), sheets(ruleset, england="renounce E1100 in E\n"))
    run_renunciations(ctx)
    after = ctx.state
    assert "england" not in after.persons["prince"].refs
    assert after.persons["prince"].renounced == {"england": 1}
    assert after.persons["elder"].refs == {"england": "E1110"}
    # next turn the couple has a child: no English number through the prince
    after.turn = 1
    later = context(after, ruleset, scripted(*MISS, *BOY))  # the king's couple, then the prince's
    run_births(later)
    newborn = [p for p in later.state.persons.values() if p.born == 1305]
    assert len(newborn) == 1 and newborn[0].father == "prince"
    assert newborn[0].refs == {}
    # the elder son now heads the prince's branch in the succession
    line = [p.id for p in line_of_succession(later.state, "england")]
    assert line == ["england-king", "elder"]


def test_a3_births_in_one_phase_numbered_in_attempt_order() -> None:
    """A3: "Children born in the same birth phase take the order of the attempts that
    produced them." Three attempts: boy, girl, boy → E1100, E1a00, E1200."""
    fam_house, fam_people, _ = royal_family("england", "E")
    ruleset, state = build(spec_of([fam_house], fam_people))
    ctx = context(state, ruleset, scripted(*BOY, *GIRL, *BOY),
                  sheets(ruleset, england="birth E1000 attempts 3\n"))
    run_births(ctx)
    born = sorted((p for p in ctx.state.persons.values() if p.born == 1300), key=lambda p: p.seq)
    assert [(p.sex, p.refs["england"]) for p in born] == \
        [("M", "E1100"), ("F", "E1a00"), ("M", "E1200")]


def test_a3_widowed_queen_holds_no_number_and_cannot_inherit() -> None:
    """A3: "The widowed queen of a dead king can neither inherit nor remarry. She holds
    no number in her husband's dynasty anyway." """
    ruleset, state = build(_two_dynasties())
    ctx = context(state, ruleset, scripted())
    kill(ctx, "ek", "arbiter")
    queen = ctx.state.persons["eq"]
    assert queen.widowed_queen and "england" not in queen.refs
    settle_successions(ctx)
    assert ctx.state.houses["england"].ruler == pid_of(ctx.state, "E1100")
