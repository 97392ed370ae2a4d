"""A5.3 survival and A5.4 the epidemic."""

from __future__ import annotations

from collections.abc import Iterable

from adjudicator.dice import Roll
from adjudicator.dynastic.events import Epidemic
from adjudicator.dynastic.people import dynasty_rules, kill
from adjudicator.rulesets.base import TurnContext
from adjudicator.state import Person


def survival_roll(ctx: TurnContext, person: Person, purpose: str = "natural",
                  penalty: int = 0) -> bool:
    """One survival roll: 2d6 + Constitution against the age's difficulty.

    An unmodified 2 always kills. ``penalty`` is the mother's birth penalty;
    a death that the penalty alone caused is recorded as a death in childbirth.
    Returns True when the person lives.
    """
    rules = dynasty_rules(ctx.rules)
    age = ctx.age(person.born)
    needed = rules.difficulty(max(age, rules.survival_min_age))
    assert needed is not None
    roll = ctx.dice.two_d6(f"survival ({purpose})", person.id)
    total = roll.total + person.constitution
    if roll.total == rules.natural_death:
        kill(ctx, person.id, purpose, "natural 2", roll=roll.total)
        return False
    if total - penalty < needed:
        cause = "childbirth" if penalty and total >= needed else purpose
        kill(ctx, person.id, cause, f"rolled {total - penalty}, needed {needed}",
             roll=total - penalty, needed=needed)
        return False
    return True


def run_survival(ctx: TurnContext, penalties: dict[str, int]) -> None:
    """Everyone aged 15 or more after ageing rolls, in order of appearance."""
    rules = dynasty_rules(ctx.rules)
    ctx.dice.set_phase("survival")
    for person in sorted(ctx.state.living(), key=lambda p: p.seq):
        if ctx.age(person.born) >= rules.survival_min_age:
            survival_roll(ctx, person, "natural", penalties.get(person.id, 0))


THRESHOLD = "epidemic threshold"


def draw_threshold(ctx: TurnContext) -> None:
    """A new secret y, uniform on 0..max (A5.4)."""
    rules = dynasty_rules(ctx.rules)
    ctx.state.epidemic_threshold = ctx.dice.pick(
        rules.epidemic_threshold_max + 1, THRESHOLD, secret=True)


def thresholds_drawn(rolls: Iterable[Roll]) -> list[dict[str, int | None]]:
    """Every threshold y ever drawn, from the recorded dice, in order: its value, the
    turn it was drawn (0: at the start) and the turn it was replaced (None: never).

    A5.4 keeps y secret while the campaign runs; once it is over every one may
    be told, and each checked against its die (``pick`` throws a d(max+1)).
    """
    drawn = sorted((r for r in rolls if r.purpose == THRESHOLD), key=lambda r: (r.turn, r.seq))
    return [{"threshold": roll.total - 1, "drawn_turn": roll.turn,
             "replaced_turn": drawn[i + 1].turn if i + 1 < len(drawn) else None}
            for i, roll in enumerate(drawn)]


def run_epidemic(ctx: TurnContext) -> None:
    """An epidemic strikes when the living exceed 20·N + y; doubles kill."""
    rules = dynasty_rules(ctx.rules)
    state = ctx.state
    ctx.dice.set_phase("epidemic")
    if state.epidemic_threshold is None:
        draw_threshold(ctx)
    assert state.epidemic_threshold is not None
    living = sorted(state.living(), key=lambda p: p.seq)
    dynasties = len(state.active_houses())
    if len(living) <= rules.epidemic_per_dynasty * dynasties + state.epidemic_threshold:
        return
    dead: list[str] = []
    for person in living:
        roll = ctx.dice.two_d6("epidemic", person.id)
        if roll.faces[0] == roll.faces[1]:
            kill(ctx, person.id, "epidemic", f"rolled a double {roll.faces[0]}",
                 roll=roll.total)
            dead.append(person.id)
    ctx.emit(Epidemic(phase="epidemic", population=len(living), dead=tuple(dead)))
    draw_threshold(ctx)
