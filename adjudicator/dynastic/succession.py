"""A6 succession and extinction."""

from __future__ import annotations

from adjudicator.dynastic.events import Extinction, Succession, UnitsDisbanded
from adjudicator.dynastic.refs import rulers_of
from adjudicator.rulesets.base import TurnContext
from adjudicator.state import GameState, House, Person, Sex


def crown(state: GameState, house: House, person: Person, year: int) -> None:
    """Make ``person`` ruler; a queen regnant's husband becomes King Consort."""
    house.begin_reign(person.id, year)
    person.court = house.id
    if person.sex == Sex.FEMALE and person.spouse:
        consort = state.persons[person.spouse]
        consort.king_consort = True
        consort.court = house.id


def _still_rules(house: House, current: Person | None, heir: Person | None) -> bool:
    """Whether the ruler keeps the throne: alive and holding the smallest number.

    A3 has no exception, so a ruler who renounced is succeeded at once. The
    comparison is with the numbers, not with ``heir`` itself: a queen regnant
    widowed of another house's king may no longer inherit, yet she reigns on.
    """
    if current is None or current.died is not None or house.id not in current.refs:
        return False
    return heir is None or current.refs[house.id] <= heir.refs[house.id]


def settle_successions(ctx: TurnContext) -> None:
    """Fill every throne whose ruler is dead, missing or no longer holds the
    dynasty's smallest number (A3, A5.5); end extinct dynasties."""
    state = ctx.state
    # Crowning changes no one's numbers: every heir can be found before the first.
    heirs = rulers_of(state)
    for house in sorted(state.houses.values(), key=lambda h: h.id):
        if house.eliminated:
            continue
        current = state.persons.get(house.ruler) if house.ruler else None
        heir = heirs.get(house.id)
        if _still_rules(house, current, heir):
            continue
        if heir is None:
            _extinguish(ctx, house)
            continue
        crown(state, house, heir, ctx.year)
        ctx.emit(Succession(phase=ctx.dice.phase, house=house.id,
                            previous=current.id if current else None,
                            ruler=heir.id, ref=heir.refs[house.id]))


def _extinguish(ctx: TurnContext, house: House) -> None:
    """A6: units disbanded, treasury lost, and whatever else the ruleset takes
    from a house out of the game (Blood Royale: its provinces and counters)."""
    state = ctx.state
    house.end_reign(ctx.year)
    house.eliminated = True
    house.eliminated_turn = ctx.turn
    house.ruler = None
    house.treasury = 0
    units = sorted(uid for uid, unit in state.units.items() if unit.house == house.id)
    for uid in units:
        for pid in state.units[uid].commanders:
            state.persons[pid].unit = None
        del state.units[uid]
    if ctx.ruleset is not None:
        ctx.ruleset.house_eliminated(ctx, house.id)
    ctx.emit(Extinction(phase=ctx.dice.phase, house=house.id))
    if units:
        ctx.emit(UnitsDisbanded(phase=ctx.dice.phase, house=house.id, units=tuple(units),
                                reason="extinction"))
