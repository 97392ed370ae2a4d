"""Lines that order one thing twice (DESIGN.md "Orders").

A couple's births, a man's command, a spouse's marriage, a renunciation, a
prisoner's fate and a death by ruling are each ordered once a turn. Left to
the turn, the first line would act and the later ones fail for reasons that
no longer make sense ("nobody is called E1a00" once the number is renounced),
and ``check`` would accept them all. Both refuse the later lines here, naming
the line that came first.
"""

from __future__ import annotations

from adjudicator.dynastic.lookup import find, find_dynasty
from adjudicator.dynastic.orders import (
    AssignOrder,
    BirthOrder,
    KillOrder,
    LendOrder,
    MarryOrder,
    PrisonerOrder,
    RenounceOrder,
)
from adjudicator.messages import house_name, msg
from adjudicator.orders import Order, OrderSheet
from adjudicator.state import GameState

Subject = tuple[str, ...]


def _renunciation(state: GameState, house: str, who: str, dynasty: str
                  ) -> list[tuple[Subject, str]]:
    person, found = find(state, who), find_dynasty(state, dynasty)
    if person is None or found is None:
        return []
    return [(("renounce", house, person.id, found.id),
             msg("%(person)s's renunciation in %(found)s is already ordered", person=person.name,
                 found=house_name(found)))]


def _subjects(state: GameState, house: str, order: Order) -> list[tuple[Subject, str]]:
    """What ``order`` decides, each with how to say it is decided already.

    A couple's births are one subject whichever spouse's house orders them;
    the rest are each house's own (both houses declare a marriage or a loan).
    """
    if isinstance(order, MarryOrder):
        found = [find(state, who) for who in (order.first, order.second) if who is not None]
        subjects: list[tuple[Subject, str]] = [
            (("marry", house, p.id), msg("a marriage of %(person)s is already declared",
                                         person=p.name))
            for p in found if p is not None]
        for who, dynasty in order.renounce:
            subjects += _renunciation(state, house, who, dynasty)
        return subjects
    if isinstance(order, RenounceOrder):
        return _renunciation(state, house, order.person, order.dynasty)
    if not isinstance(order, BirthOrder | AssignOrder | LendOrder | PrisonerOrder | KillOrder):
        return []
    person = find(state, order.person)
    if person is None:
        return []
    if isinstance(order, BirthOrder):
        marriage = state.current_marriage(person.id)
        return [] if marriage is None else [
            (("birth", marriage.id), msg("this couple's attempts are already ordered"))]
    if isinstance(order, AssignOrder | LendOrder):
        return [(("command", house, person.id), msg("%(person)s's command is already ordered",
                                                    person=person.name))]
    if isinstance(order, PrisonerOrder):
        return [(("prisoner", house, person.id), msg("%(person)s's fate is already ordered",
                                                     person=person.name))]
    return [(("kill", person.id), msg("%(person)s's death is already ordered", person=person.name))]


def refuse_repeats(state: GameState, sheets: dict[str, OrderSheet]) -> None:
    """Refuse every line that orders again what an earlier line ordered.

    Files are read in house order, as the turn reads them, so the line kept is
    the one the turn would have acted on (for a couple ordered by both spouses'
    houses, the house whose id sorts first, as docs/orders.md says).
    """
    first: dict[Subject, tuple[OrderSheet, Order]] = {}
    for _, sheet in sorted(sheets.items()):
        if sheet.refused:
            continue
        for order in list(sheet.orders):
            subjects = _subjects(state, sheet.house, order)
            repeated = next(((s, why) for s, why in subjects if s in first), None)
            if repeated is None:
                first.update((s, (sheet, order)) for s, _ in subjects)
                continue
            earlier_sheet, earlier = first[repeated[0]]
            # Another house's file is its own business: only that it came first is told.
            where = (msg("on line %(line)s", line=earlier.line) if earlier_sheet is sheet
                     else msg("by another house"))
            sheet.orders.remove(order)
            sheet.reject(order, msg("%(repeated)s %(where)s", repeated=repeated[1], where=where))
