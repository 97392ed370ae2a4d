"""A9 capture and the fate of prisoners."""

from __future__ import annotations

from adjudicator.dynastic.events import Capture, CaptureEscaped, PrisonerKept, PrisonerReleased
from adjudicator.dynastic.lookup import find, unknown_person
from adjudicator.dynastic.orders import PayRansomOrder, PrisonerOrder, RetreatOrder
from adjudicator.dynastic.people import dynasty_rules, kill
from adjudicator.messages import msg
from adjudicator.orders import OrderSheet
from adjudicator.rulesets.base import TurnContext
from adjudicator.state import GameState, Person, Unit


def take_prisoner(ctx: TurnContext, person_id: str, captor: str,
                  where: str | None = None) -> None:
    """Capture without a roll: the prisoner leaves his unit and cannot be assigned."""
    person = ctx.state.persons[person_id]
    unit_id = person.unit
    if unit_id and unit_id in ctx.state.units:
        commanders = ctx.state.units[unit_id].commanders
        if person_id in commanders:
            commanders.remove(person_id)
    person.unit = None
    person.prisoner_of = captor
    person.captured_turn = ctx.turn
    ctx.emit(Capture(phase=ctx.dice.phase, person=person_id, captor=captor, unit=unit_id,
                     where=where))


def capture_commanders(ctx: TurnContext, unit: Unit, captor: str,
                       where: str | None = None) -> list[str]:
    """Each commander of a unit forced to retreat is captured at 1/2 (A9)."""
    faces = dynasty_rules(ctx.rules).capture_faces
    taken: list[str] = []
    for pid in sorted(unit.commanders, key=lambda p: ctx.state.persons[p].seq):
        if ctx.dice.d6("capture", pid) <= faces:
            take_prisoner(ctx, pid, captor, where)
            taken.append(pid)
        else:
            ctx.emit(CaptureEscaped(phase=ctx.dice.phase, person=pid, captor=captor,
                                    unit=unit.id))
    return taken


def check_retreat(state: GameState, order: RetreatOrder) -> str | None:
    if order.unit not in state.units:
        return msg("there is no unit %(unit)s", unit=order.unit)
    captor = next((h for h in state.houses.values()
                   if order.captor.lower() in (h.id, h.letter.lower())), None)
    if captor is None:
        return msg("there is no house %(captor)s", captor=repr(order.captor))
    if captor.id == state.units[order.unit].house:
        return msg("a house cannot capture its own commanders")
    return None


def check_prisoner(state: GameState, house: str, order: PrisonerOrder | PayRansomOrder) -> str | None:
    person = find(state, order.person)
    if person is None:
        return unknown_person(state, order.person)
    if person.died is not None:
        return msg("%(person)s is dead", person=person.name)
    if person.prisoner_of is None:
        return msg("%(person)s is nobody's prisoner", person=person.name)
    if isinstance(order, PrisonerOrder) and person.prisoner_of != house:
        return msg("%(person)s is not this house's prisoner", person=person.name)
    if isinstance(order, PayRansomOrder) and person.dynasty != house:
        return msg("%(person)s does not belong to this house", person=person.name)
    return None


def run_prisoners(ctx: TurnContext) -> None:
    """Release (with a ransom paid only if declared), execute, or keep (A9)."""
    state = ctx.state
    ctx.dice.set_phase("prisoners")
    offers: dict[str, int] = {}
    for house in sorted(ctx.sheets):
        for order in ctx.orders(house):
            if isinstance(order, PayRansomOrder):
                reason = check_prisoner(state, house, order)
                if reason:
                    ctx.reject(house, order, reason)
                    continue
                person = find(state, order.person)
                assert person is not None
                offers[person.id] = order.amount
    decided: set[str] = set()
    for house in sorted(ctx.sheets):
        for order in ctx.orders(house):
            if not isinstance(order, PrisonerOrder):
                continue
            reason = check_prisoner(state, house, order)
            if reason:
                ctx.reject(house, order, reason)
                continue
            person = find(state, order.person)
            assert person is not None
            decided.add(person.id)
            if order.action == "execute":
                kill(ctx, person.id, "executed", house)
            elif order.action == "release":
                _release(ctx, house, order, person.id, offers.get(person.id, 0))
            else:
                ctx.emit(PrisonerKept(phase="prisoners", person=person.id, captor=house))
    for person in sorted(state.living(), key=lambda p: p.seq):
        if person.prisoner_of and person.id not in decided:
            ctx.emit(PrisonerKept(phase="prisoners", person=person.id, captor=person.prisoner_of))


def ransom_problem(state: GameState, person: Person, ransom: int, offer: int) -> str | None:
    """Why a release against ``ransom`` cannot happen: the prisoner's house must
    declare at least that much, and have it (A9).

    A house declares what it would pay at most, so only the ransom asked must
    be in its treasury; want of crowns is told first, as the true reason.
    """
    payer = state.houses.get(person.dynasty) if person.dynasty else None
    if payer is not None and payer.treasury < ransom:
        return msg("%(payer)s cannot pay %(ransom)s crowns; the prisoner is kept",
                   payer=payer.name, ransom=ransom)
    if offer < ransom or payer is None:
        if payer is None:
            return msg("nobody did not declare a ransom of %(ransom)s for %(person)s; the "
                       "prisoner is kept", ransom=ransom, person=person.name)
        return msg("%(payer)s did not declare a ransom of %(ransom)s for %(person)s; the "
                   "prisoner is kept", payer=payer.name, ransom=ransom, person=person.name)
    return None


def check_ransoms(state: GameState, sheets: dict[str, OrderSheet]) -> None:
    """Refuse, in ``check``, releases against a ransom that will not be paid."""
    offers: dict[str, int] = {}
    for house, sheet in sheets.items():
        for offer in sheet.of_type(PayRansomOrder):
            person = find(state, offer.person)
            if person is not None and person.dynasty == house:
                offers[person.id] = offer.amount
    for sheet in sheets.values():
        for order in sheet.of_type(PrisonerOrder):
            person = find(state, order.person)
            if person is None or order.action != "release" or not order.ransom:
                continue
            reason = ransom_problem(state, person, order.ransom, offers.get(person.id, 0))
            if reason:
                sheet.orders.remove(order)
                sheet.reject(order, reason)


def _release(ctx: TurnContext, captor: str, order: PrisonerOrder, pid: str, offer: int) -> None:
    state = ctx.state
    person = state.persons[pid]
    if order.ransom:
        reason = ransom_problem(state, person, order.ransom, offer)
        if reason:
            ctx.reject(captor, order, reason)
            ctx.emit(PrisonerKept(phase="prisoners", person=pid, captor=captor))
            return
        payer = state.houses[str(person.dynasty)]
        payer.treasury -= order.ransom
        state.houses[captor].treasury += order.ransom
    person.prisoner_of = None
    person.captured_turn = None
    ctx.emit(PrisonerReleased(phase="prisoners", person=pid, captor=captor,
                              ransom=order.ransom))


def run_retreats(ctx: TurnContext, orders: list[RetreatOrder], file_house: str) -> None:
    """Arbiter directives: capture rolls for a unit forced to retreat elsewhere."""
    ctx.dice.set_phase("arbiter")
    for order in orders:
        reason = check_retreat(ctx.state, order)
        if reason:
            ctx.reject(file_house, order, reason)
            continue
        captor = next(h.id for h in ctx.state.houses.values()
                      if order.captor.lower() in (h.id, h.letter.lower()))
        capture_commanders(ctx, ctx.state.units[order.unit], captor)
