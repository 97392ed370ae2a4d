"""RULES.md A5.3 survival and A5.4 the epidemic."""

from __future__ import annotations

import pytest
from dynasty_helpers import (
    add_living,
    assert_rate,
    build,
    context,
    royal_family,
    scripted,
    spec_of,
)

from adjudicator.dice import SeededDice
from adjudicator.dynastic.events import Death, Epidemic
from adjudicator.dynastic.survival import run_epidemic, run_survival, survival_roll
from adjudicator.rulesets.base import TurnContext

# A5.3: (lowest age of the band, roll needed on 2d6 + Constitution)
BANDS = [(15, 3), (20, 4), (45, 5), (50, 6), (55, 7), (60, 8), (65, 9), (70, 10), (85, 11)]


def _ctx(seed: str | None = None, faces: tuple[int, ...] = ()) -> TurnContext:
    h, people, units = royal_family("england", "E")
    ruleset, state = build(spec_of([h], people, units))
    dice = SeededDice(seed, 1) if seed else scripted(*faces)
    return context(state, ruleset, dice, aged=True)


def _live_probability(needed: int, con: int, penalty: int = 0) -> float:
    """Exact: an unmodified 2 kills, else 2d6 + Con − penalty must reach ``needed``."""
    good = sum(1 for a in range(1, 7) for b in range(1, 7)
               if a + b != 2 and a + b + con - penalty >= needed)
    return good / 36


def test_a5_3_table_is_the_ruleset_data() -> None:
    """A5.3: "Difficulty by age: 15–19 3+, 20–44 4+, 45–49 5+, 50–54 6+, 55–59 7+,
    60–64 8+, 65–69 9+, 70–84 10+, 85+ 11+"."""
    ctx = _ctx(faces=())
    from adjudicator.dynastic.people import dynasty_rules

    rules = dynasty_rules(ctx.rules)
    assert list(rules.survival_table) == BANDS
    for (low, needed), nxt in zip(BANDS, [*BANDS[1:], (200, None)], strict=True):
        assert rules.difficulty(low) == needed
        assert rules.difficulty(nxt[0] - 1) == needed
    assert rules.difficulty(14) is None


@pytest.mark.parametrize(("low", "needed"), BANDS)
def test_a5_3_each_band_and_constitution_matches_exact_2d6_odds(low: int, needed: int) -> None:
    """A5.3: "2d6 + Constitution − that turn's birth penalty. The person dies if the
    result is below the difficulty for their age. An unmodified 2 is always fatal."
    For Constitution −1, 0 and +1 against the exact 2d6 probability, 4 standard errors."""
    ctx = _ctx(seed=f"qa-survival-{low}")
    trials = 1500
    for con in (-1, 0, 1):
        people = [add_living(ctx.state, f"p{low}-{con}-{i}", "M", ctx.year + 5 - low - (i % 5),
                             None, constitution=con) for i in range(trials)]
        lived = sum(survival_roll(ctx, p) for p in people)
        assert_rate(lived, trials, _live_probability(needed, con))


def test_a5_3_band_edges_with_scripted_dice() -> None:
    """A5.3: at 20 the roll needed is 4: a 3 dies, a 4 lives; at 19 a 3 lives."""
    ctx = _ctx(faces=(1, 2, 2, 2, 1, 2))
    twenty = add_living(ctx.state, "twenty", "M", ctx.year + 5 - 20, None)
    twenty_b = add_living(ctx.state, "twenty-b", "M", ctx.year + 5 - 20, None)
    nineteen = add_living(ctx.state, "nineteen", "M", ctx.year + 5 - 19, None)
    assert survival_roll(ctx, twenty) is False
    assert survival_roll(ctx, twenty_b) is True
    assert survival_roll(ctx, nineteen) is True


def test_a5_3_natural_two_always_kills() -> None:
    """A5.3: "Natural 2: an unmodified 2 is always fatal." Even when Constitution +1
    would reach the 3 a 17-year-old needs."""
    ctx = _ctx(faces=(1, 1))
    youth = add_living(ctx.state, "youth", "M", ctx.year + 5 - 17, None, constitution=1)
    assert survival_roll(ctx, youth) is False
    [death] = [e for e in ctx.events if isinstance(e, Death)]
    assert death.detail == "natural 2" and ctx.state.persons["youth"].died == ctx.year


def test_a5_3_birth_penalty_lowers_the_mother_roll() -> None:
    """A5.1/A5.3: the roll is "2d6 + Constitution − that turn's birth penalty"; a death
    the penalty alone caused is a death in childbirth."""
    ctx = _ctx(faces=(3, 2, 3, 3))
    mother = add_living(ctx.state, "mother", "F", ctx.year + 5 - 25, None)
    other = add_living(ctx.state, "other", "F", ctx.year + 5 - 25, None)
    assert survival_roll(ctx, mother, penalty=2) is False
    assert ctx.state.persons["mother"].death_cause == "childbirth"
    assert survival_roll(ctx, other, penalty=2) is True


def test_a5_3_childbirth_only_when_the_penalty_made_the_difference() -> None:
    """A5.1: "Every attempt after the first adds 1 to the wife's survival difficulty this
    turn." A mother of 30 (4+ needed) who made three attempts rolls 2d6 − 2: she dies in
    childbirth on a 4 or 5 (7/36), where the penalty made the difference, and of natural
    causes on a 2 or 3 (3/36), as she would have without it. Fixed seed, 4 s.e."""
    ctx = _ctx("qa-childbirth")
    trials = 6000
    for i in range(trials):
        survival_roll(ctx, add_living(ctx.state, f"m{i}", "F", ctx.year + 5 - 30, None),
                      penalty=2)
    causes = [e.cause for e in ctx.events if isinstance(e, Death)]
    assert_rate(causes.count("childbirth"), trials, 7 / 36)
    assert_rate(causes.count("natural"), trials, 3 / 36)
    assert len(causes) == causes.count("childbirth") + causes.count("natural")


def test_a5_3_only_those_fifteen_or_more_after_ageing_roll() -> None:
    """A5.3: "every living person aged 15 or more, after ageing". A child born 1290 is 15
    at the end of turn 1300 and rolls; one born 1291 does not."""
    h, people, units = royal_family("england", "E")
    ruleset, state = build(spec_of([h], people, units))
    add_living(state, "fifteen", "M", 1290, "england")
    add_living(state, "fourteen", "M", 1291, "england")
    ctx = context(state, ruleset, scripted(*(3, 3) * 3), aged=True)
    run_survival(ctx, {})
    assert sorted(r.subject or "" for r in ctx.dice.log) == \
        ["england-king", "england-queen", "fifteen"]


def test_a5_3_statistical_penalty_of_two() -> None:
    """A5.1: three attempts: difficulty +2 for the mother, against the exact odds."""
    ctx = _ctx(seed="qa-penalty")
    trials = 3000
    people = [add_living(ctx.state, f"m{i}", "F", ctx.year + 5 - 30, None) for i in range(trials)]
    lived = sum(survival_roll(ctx, p, penalty=2) for p in people)
    assert_rate(lived, trials, _live_probability(4, 0, 2))


# -- A5.4 -----------------------------------------------------------------------


def test_a5_4_threshold_is_drawn_secretly_at_setup() -> None:
    """A5.4: "The arbiter holds a secret number y, drawn uniformly from 0–135." The roll
    is recorded with secret=True."""
    h, people, units = royal_family("england", "E")
    ruleset, _ = build(spec_of([h], people, units))
    dice = SeededDice("qa-threshold", 0, "setup")
    state = ruleset.setup(spec_of([h], people, units), dice)
    [roll] = [r for r in dice.log if r.purpose == "epidemic threshold"]
    assert roll.secret and roll.dice == "1d136"
    assert state.epidemic_threshold == roll.total - 1


def test_a5_4_threshold_is_uniform_on_0_to_135() -> None:
    """A5.4: y is "drawn uniformly from 0–135": mean 67.5, both ends reachable."""
    from adjudicator.dynastic.survival import draw_threshold

    ctx = _ctx(seed="qa-uniform")
    draws = []
    for _ in range(20000):
        draw_threshold(ctx)
        draws.append(ctx.state.epidemic_threshold or 0)
    assert min(draws) == 0 and max(draws) == 135
    mean, var = 67.5, (136**2 - 1) / 12
    assert abs(sum(draws) / len(draws) - mean) <= 4 * (var / len(draws)) ** 0.5


def _population(ctx: TurnContext, n: int) -> None:
    for i in range(len(ctx.state.persons), len(ctx.state.persons) + n - len(ctx.state.living())):
        add_living(ctx.state, f"x{i}", "MF"[i % 2], 1290, "england")


def test_a5_4_strikes_only_when_population_exceeds_20n_plus_y() -> None:
    """A5.4: "An epidemic strikes if the living population exceeds 20·N + y." One
    dynasty, y = 3: 23 living is safe, 24 is an epidemic."""
    ctx = _ctx(faces=())
    ctx.state.epidemic_threshold = 3
    _population(ctx, 23)
    run_epidemic(ctx)
    assert ctx.dice.log == [] and not ctx.events
    _population(ctx, 24)
    ctx.dice = scripted(*(1, 2) * 24, 50)
    ctx.dice.turn = ctx.turn
    run_epidemic(ctx)
    [epidemic] = [e for e in ctx.events if isinstance(e, Epidemic)]
    assert epidemic.population == 24 and epidemic.dead == ()


def test_a5_4_eliminated_dynasties_do_not_count() -> None:
    """A5.4: "N is the number of dynasties still in play"."""
    eh, ep, eu = royal_family("england", "E")
    fh, fp, fu = royal_family("france", "F")
    ruleset, state = build(spec_of([eh, fh], ep + fp, eu + fu))
    state.houses["france"].eliminated = True
    state.epidemic_threshold = 0
    ctx = context(state, ruleset, scripted(*(1, 2) * 21, 1), aged=True)
    _population(ctx, 21)
    run_epidemic(ctx)
    assert any(isinstance(e, Epidemic) for e in ctx.events)


def test_a5_4_doubles_kill_and_a_new_secret_threshold_is_drawn() -> None:
    """A5.4: "every living person, of any age, rolls 2d6, and doubles are fatal. After an
    epidemic: a new y is drawn, and it is secret too." """
    ctx = _ctx(faces=())
    ctx.state.epidemic_threshold = 0
    _population(ctx, 21)
    living = sorted(ctx.state.living(), key=lambda p: p.seq)
    faces = [3, 3, 4, 5] + [1, 2] * 19 + [100]
    ctx.dice = scripted(*faces)
    ctx.dice.turn = ctx.turn
    run_epidemic(ctx)
    [epidemic] = [e for e in ctx.events if isinstance(e, Epidemic)]
    assert epidemic.dead == (living[0].id,)
    assert ctx.state.persons[living[0].id].death_cause == "epidemic"
    last = ctx.dice.log[-1]
    assert last.purpose == "epidemic threshold" and last.secret
    assert ctx.state.epidemic_threshold == 99
    assert not any(r.secret for r in ctx.dice.log[:-1])


def test_a5_4_epidemic_kills_one_sixth() -> None:
    """A5.4: doubles on 2d6 are fatal: each person dies with probability 1/6."""
    ctx = _ctx(seed="qa-epidemic")
    ctx.state.epidemic_threshold = 0
    _population(ctx, 4000)
    run_epidemic(ctx)
    [epidemic] = [e for e in ctx.events if isinstance(e, Epidemic)]
    assert_rate(len(epidemic.dead), epidemic.population, 1 / 6)
    assert all(ctx.state.persons[p].death_cause == "epidemic" for p in epidemic.dead)
