"""Arbiter directives that correct the state (DESIGN.md "Arbiter directives").

``set E1200 constitution 1``, ``grant 50 crowns to england``,
``fine 50 crowns from england``, ``capture E1300 by F``, ``release E1300`` and
``annul E1200`` (the marriage ends; neither spouse is widowed)
take effect at the start of the turn, in file order, each recorded as a
public ``Ruling`` event. A directive that no longer applies when its turn
comes (the prisoner freed by an earlier line, a treasury too small) is
rejected then, like any order.
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.events import PrisonerReleased, Ruling
from adjudicator.orders import Cursor, Order
from adjudicator.rulesets.base import TurnContext
from adjudicator.rulesets.dynasty.capture import take_prisoner
from adjudicator.rulesets.dynasty.lookup import find, unknown_person
from adjudicator.rulesets.dynasty.orders import ARBITER_GRAMMAR
from adjudicator.state import GameState, Person

CHARACTERISTICS = ("constitution", "command", "ruse")
#: The characteristics' range (as campaign.toml's, RULES.md A1).
LOW, HIGH = -3, 3
MAX_CROWNS = 10**6


@dataclass(frozen=True, kw_only=True)
class SetOrder(Order):
    person: str
    field: str
    value: int


@dataclass(frozen=True, kw_only=True)
class CrownsOrder(Order):
    house: str
    amount: int
    fine: bool


@dataclass(frozen=True, kw_only=True)
class CaptureOrder(Order):
    person: str
    captor: str


@dataclass(frozen=True, kw_only=True)
class ReleaseOrder(Order):
    person: str


@dataclass(frozen=True, kw_only=True)
class AnnulOrder(Order):
    person: str


RULINGS = (SetOrder, CrownsOrder, CaptureOrder, ReleaseOrder, AnnulOrder)
PERSONAL = SetOrder | CaptureOrder | ReleaseOrder | AnnulOrder


@ARBITER_GRAMMAR.rule("set")
def _set(c: Cursor) -> SetOrder:
    person = c.person()
    field = c.expect(*CHARACTERISTICS)
    return SetOrder(line=c.line, text=c.text, person=person, field=field,
                    value=c.integer(field, LOW, HIGH))


@ARBITER_GRAMMAR.rule("grant")
def _grant(c: Cursor) -> CrownsOrder:
    amount = c.integer("the crowns", 1, MAX_CROWNS)
    c.expect("crowns")
    c.expect("to")
    return CrownsOrder(line=c.line, text=c.text, house=c.ident("the house"), amount=amount,
                       fine=False)


@ARBITER_GRAMMAR.rule("fine")
def _fine(c: Cursor) -> CrownsOrder:
    amount = c.integer("the crowns", 1, MAX_CROWNS)
    c.expect("crowns")
    c.expect("from")
    return CrownsOrder(line=c.line, text=c.text, house=c.ident("the house"), amount=amount,
                       fine=True)


@ARBITER_GRAMMAR.rule("capture")
def _capture(c: Cursor) -> CaptureOrder:
    person = c.person()
    c.expect("by")
    return CaptureOrder(line=c.line, text=c.text, person=person, captor=c.ident("the captor"))


@ARBITER_GRAMMAR.rule("annul")
def _annul(c: Cursor) -> AnnulOrder:
    return AnnulOrder(line=c.line, text=c.text, person=c.person())


def _annul_marriage(state: GameState, person: Person, year: int) -> str:
    """End ``person``'s marriage without widowing anyone; returns the other spouse."""
    marriage = state.current_marriage(person.id)
    assert marriage is not None
    marriage.ended = year
    marriage.end_cause = "annulled"
    other = marriage.wife if marriage.husband == person.id else marriage.husband
    for pid in (marriage.husband, marriage.wife):
        state.persons[pid].spouse = None
    return other


@ARBITER_GRAMMAR.rule("release")
def _release(c: Cursor) -> ReleaseOrder:
    return ReleaseOrder(line=c.line, text=c.text, person=c.person())


def _house(state: GameState, named: str) -> str | None:
    """A house by id or by letter."""
    for house in state.houses.values():
        if named.lower() in (house.id.lower(), house.letter.lower()):
            return house.id
    return None


def check_ruling(state: GameState, order: Order) -> str | None:
    """Why the directive cannot apply to ``state``, or None."""
    if isinstance(order, CrownsOrder):
        house = _house(state, order.house)
        if house is None:
            return f"there is no house {order.house!r}"
        if order.fine and state.houses[house].treasury < order.amount:
            return (f"{state.houses[house].name} holds {state.houses[house].treasury} crowns, "
                    f"fewer than the fine")
        return None
    assert isinstance(order, PERSONAL)
    person = find(state, order.person)
    if person is None:
        return unknown_person(state, order.person)
    if person.died is not None:
        return f"{person.name} is dead"
    if isinstance(order, CaptureOrder):
        captor = _house(state, order.captor)
        if captor is None:
            return f"there is no house {order.captor!r}"
        if person.prisoner_of is not None:
            return f"{person.name} is a prisoner already"
        if captor == person.court:
            return f"{person.name} cannot be the prisoner of the house at whose court they live"
    if isinstance(order, ReleaseOrder) and person.prisoner_of is None:
        return f"{person.name} is no prisoner"
    if isinstance(order, AnnulOrder) and state.current_marriage(person.id) is None:
        return f"{person.name} is not married"
    return None


def foresee(state: GameState, order: Order) -> None:
    """What ``order`` does to ``state``, for checking the lines after it (a scratch
    copy: the fine after a grant is checked against the granted treasury)."""
    if isinstance(order, CrownsOrder):
        house = _house(state, order.house)
        if house is not None:
            state.houses[house].treasury += -order.amount if order.fine else order.amount
        return
    assert isinstance(order, PERSONAL)
    person = find(state, order.person)
    if person is None:
        return
    if isinstance(order, SetOrder):
        setattr(person, order.field, order.value)
    elif isinstance(order, CaptureOrder):
        person.prisoner_of = _house(state, order.captor)
    elif isinstance(order, AnnulOrder):
        if state.current_marriage(person.id) is not None:
            _annul_marriage(state, person, 0)
    else:
        person.prisoner_of = None


def apply_ruling(ctx: TurnContext, order: Order, file_house: str) -> None:
    """Apply one directive at the start of the turn, or reject it if it no longer applies."""
    state = ctx.state
    reason = check_ruling(state, order)
    if reason is not None:
        ctx.reject(file_house, order, reason)
        return
    phase = ctx.dice.phase
    if isinstance(order, CrownsOrder):
        house = _house(state, order.house)
        assert house is not None
        state.houses[house].treasury += -order.amount if order.fine else order.amount
        ctx.emit(Ruling(phase=phase, directive="fine" if order.fine else "grant", house=house,
                        amount=order.amount))
        return
    assert isinstance(order, PERSONAL)
    person = find(state, order.person)
    assert person is not None
    if isinstance(order, SetOrder):
        setattr(person, order.field, order.value)
        ctx.emit(Ruling(phase=phase, directive="set", person=person.id, field=order.field,
                        amount=order.value))
    elif isinstance(order, CaptureOrder):
        captor = _house(state, order.captor)
        assert captor is not None
        ctx.emit(Ruling(phase=phase, directive="capture", person=person.id, house=captor))
        take_prisoner(ctx, person.id, captor)
    elif isinstance(order, AnnulOrder):
        other = _annul_marriage(state, person, ctx.year)
        ctx.emit(Ruling(phase=phase, directive="annul", person=person.id, other=other))
    else:
        captor = person.prisoner_of
        person.prisoner_of = None
        person.captured_turn = None
        ctx.emit(Ruling(phase=phase, directive="release", person=person.id, house=captor))
        ctx.emit(PrisonerReleased(phase=phase, person=person.id, captor=str(captor), ransom=0))
