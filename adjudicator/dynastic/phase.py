"""The dynasty phase, step by step in the order of RULES.md A5."""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.dynastic.births import run_births
from adjudicator.dynastic.capture import run_prisoners, run_retreats
from adjudicator.dynastic.command import run_assignments
from adjudicator.dynastic.events import WidowReturns
from adjudicator.dynastic.lookup import find, unknown_person
from adjudicator.dynastic.marriage import run_marriages, run_renunciations
from adjudicator.dynastic.orders import KillOrder, RetreatOrder
from adjudicator.dynastic.people import kill
from adjudicator.dynastic.rulings import RULINGS, apply_ruling
from adjudicator.dynastic.succession import settle_successions
from adjudicator.dynastic.survival import run_epidemic, run_survival
from adjudicator.messages import msg
from adjudicator.orders import Order
from adjudicator.rulesets.base import TurnContext
from adjudicator.state import Sex

ARBITER = "arbiter"
#: Applies one ruling directive (a ruleset's own, or ``apply_ruling``).
Apply = Callable[[TurnContext, Order], None]


def _apply_ruling(ctx: TurnContext, order: Order) -> None:
    if isinstance(order, RULINGS):
        apply_ruling(ctx, order, ARBITER)


def run_arbiter(ctx: TurnContext, apply: Apply = _apply_ruling) -> None:
    """Directives take effect at the start of the turn, in file order."""
    ctx.dice.set_phase("arbiter")
    retreats: list[RetreatOrder] = []
    for order in ctx.orders(ARBITER):
        if isinstance(order, KillOrder):
            person = find(ctx.state, order.person)
            if person is None:
                ctx.reject(ARBITER, order, unknown_person(ctx.state, order.person))
            elif person.died is not None:
                ctx.reject(ARBITER, order, msg("%(person)s is already dead", person=person.name))
            else:
                # The arbiter's words are the cause of death, as the players read it.
                kill(ctx, person.id, order.cause, "arbiter")
        elif isinstance(order, RetreatOrder):
            retreats.append(order)
        else:
            apply(ctx, order)
    run_retreats(ctx, retreats, ARBITER)


def run_widows(ctx: TurnContext) -> None:
    """A1: every widow but a queen returns to the court of her birth dynasty;
    A5.7: one whose birth dynasty is extinct, or who has none, stays."""
    state = ctx.state
    ctx.dice.set_phase("widows")
    widowed = {m.wife for m in state.marriages if m.end_cause == "death"}
    for person in sorted(state.living(), key=lambda p: p.seq):
        if person.sex != Sex.FEMALE or person.spouse is not None or person.widowed_queen:
            continue
        birth_house = state.houses.get(person.dynasty) if person.dynasty else None
        if birth_house is None or birth_house.eliminated:
            continue
        if any(h.ruler == person.id for h in state.houses.values()):
            continue
        if person.id not in widowed or person.court == person.dynasty:
            continue
        previous = person.court
        person.court = person.dynasty
        ctx.emit(WidowReturns(phase="widows", person=person.id, court=person.dynasty,
                              previous_court=previous))


def run_dynasty_phase(ctx: TurnContext, apply: Apply = _apply_ruling) -> None:
    """A5, in order: births, ageing, survival, epidemic, succession, contracts, widows;
    first the arbiter's directives, each ruling applied by ``apply``."""
    run_arbiter(ctx, apply)
    settle_successions(ctx)
    penalties = run_births(ctx)
    ctx.aged = True
    run_survival(ctx, penalties)
    run_epidemic(ctx)
    ctx.dice.set_phase("succession")
    settle_successions(ctx)
    run_marriages(ctx)
    run_renunciations(ctx)
    run_prisoners(ctx)
    ctx.dice.set_phase("succession")
    settle_successions(ctx)
    run_assignments(ctx)
    run_widows(ctx)
