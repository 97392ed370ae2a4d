"""Arbiter directives that correct the state (DESIGN.md "Arbiter directives").

``set E1200 constitution 1``, ``grant 50 crowns to england``,
``fine 50 crowns from england``, ``capture E1300 by F``, ``release E1300``,
``annul E1200`` (the marriage ends; neither spouse is widowed),
``marry E1200 to F1a00`` (no declarations, but A7's conditions hold),
``abdicate E1000`` and ``renounce E1100 in E``
take effect at the start of the turn, in file order, each recorded as a
public ``Ruling`` event. A directive that no longer applies when its turn
comes (the prisoner freed by an earlier line, a treasury too small) is
rejected then, like any order.

An abdication is the ruler's renunciation of the number of each dynasty
they rule: A3's invariant ("after every step, a dynasty's ruler holds its
smallest living number") leaves no other way off the throne, and the
succession runs at once, as for a ruler who renounces. A ruling that would
leave a throne without an heir is refused: the arbiter has ``kill`` for that.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.dynastic.capture import take_prisoner
from adjudicator.dynastic.events import PrisonerReleased, Renunciation
from adjudicator.dynastic.lookup import find, find_dynasty, unknown_person
from adjudicator.dynastic.marriage import can_marry, renounceable, wed
from adjudicator.dynastic.orders import ARBITER_GRAMMAR, MarryOrder
from adjudicator.dynastic.people import dynasty_rules
from adjudicator.dynastic.refs import claimants, renounce, ruler_of
from adjudicator.dynastic.succession import settle_successions
from adjudicator.errors import OrderSyntaxError
from adjudicator.events import Ruling
from adjudicator.messages import house_id, house_name, msg
from adjudicator.orders import Cursor, Order
from adjudicator.rulesets.base import TurnContext
from adjudicator.state import GameState, Person, Sex

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


@dataclass(frozen=True, kw_only=True)
class WedOrder(Order):
    """``marry A to B`` by ruling (not a ``MarryOrder``: no house declares it)."""

    person: str
    spouse: str


@dataclass(frozen=True, kw_only=True)
class AbdicateOrder(Order):
    person: str


@dataclass(frozen=True, kw_only=True)
class RenounceRuling(Order):
    person: str
    dynasty: str


RULINGS = (SetOrder, CrownsOrder, CaptureOrder, ReleaseOrder, AnnulOrder, WedOrder,
           AbdicateOrder, RenounceRuling)
PERSONAL = (SetOrder | CaptureOrder | ReleaseOrder | AnnulOrder | WedOrder | AbdicateOrder
            | RenounceRuling)


@ARBITER_GRAMMAR.rule("set")
def _set(c: Cursor) -> SetOrder:
    person = c.person()
    field = c.expect(*CHARACTERISTICS)
    return SetOrder(line=c.line, text=c.text, person=person, field=field,
                    value=c.integer(field, LOW, HIGH))


@ARBITER_GRAMMAR.rule("grant")
def _grant(c: Cursor) -> CrownsOrder:
    amount = c.integer(msg("the crowns"), 1, MAX_CROWNS)
    c.expect("crowns")
    c.expect("to")
    return CrownsOrder(line=c.line, text=c.text, house=c.ident(msg("the house")), amount=amount,
                       fine=False)


@ARBITER_GRAMMAR.rule("fine")
def _fine(c: Cursor) -> CrownsOrder:
    amount = c.integer(msg("the crowns"), 1, MAX_CROWNS)
    c.expect("crowns")
    c.expect("from")
    return CrownsOrder(line=c.line, text=c.text, house=c.ident(msg("the house")), amount=amount,
                       fine=True)


@ARBITER_GRAMMAR.rule("capture")
def _capture(c: Cursor) -> CaptureOrder:
    person = c.person()
    c.expect("by")
    return CaptureOrder(line=c.line, text=c.text, person=person, captor=c.ident(msg("the captor")))


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


@ARBITER_GRAMMAR.rule("marry")
def _marry(c: Cursor) -> WedOrder:
    person = c.person()
    c.expect("to")
    return WedOrder(line=c.line, text=c.text, person=person, spouse=c.person())


@ARBITER_GRAMMAR.rule("abdicate")
def _abdicate(c: Cursor) -> AbdicateOrder:
    return AbdicateOrder(line=c.line, text=c.text, person=c.person())


@ARBITER_GRAMMAR.rule("renounce")
def _renounce(c: Cursor) -> RenounceRuling:
    person = c.person()
    c.expect("in")
    return RenounceRuling(line=c.line, text=c.text, person=person,
                          dynasty=c.ident(msg("the dynasty")))


@ARBITER_GRAMMAR.rule("control")
def _control(c: Cursor) -> Order:
    # A ruleset with provinces replaces this rule in its own arbiter grammar.
    raise OrderSyntaxError(msg("this campaign's ruleset has no provinces: there is no control "
                               "to rule"))


@ARBITER_GRAMMAR.rule("release")
def _release(c: Cursor) -> ReleaseOrder:
    return ReleaseOrder(line=c.line, text=c.text, person=c.person())


def _house(state: GameState, named: str) -> str | None:
    """A house by id or by letter."""
    for house in state.houses.values():
        if named.lower() in (house.id.lower(), house.letter.lower()):
            return house.id
    return None


def thrones(state: GameState, person: Person) -> list[str]:
    """The houses ``person`` rules, by id."""
    return sorted(h.id for h in state.active_houses() if h.ruler == person.id)


def _check_wedding(state: GameState, person: Person, order: WedOrder,
                   rules: Mapping[str, Any], turn: int) -> str | None:
    """A7's conditions, save the declarations (the ruling stands for them)."""
    spouse = find(state, order.spouse)
    if spouse is None:
        return unknown_person(state, order.spouse)
    if spouse.id == person.id:
        return msg("a person cannot marry themselves")
    if person.sex == spouse.sex:
        return msg("%(person)s and %(spouse)s are of the same sex", person=person.name,
                   spouse=spouse.name)
    if person.dynasty is not None and person.dynasty == spouse.dynasty:
        return (msg("%(person)s and %(spouse)s are both of the %(dynasty)s dynasty: nobody may "
                    "marry within their own dynasty (A7)", person=person.name, spouse=spouse.name,
                    dynasty=house_id(person.dynasty)))
    # Marriage uses the age reached at the end of the turn (A4).
    year, min_age = state.year_ending(turn), dynasty_rules(rules).marriage_min_age
    for who in (person, spouse):
        reason = can_marry(state, who, who.age(year), min_age)
        if reason:
            return reason
    return None


def _heirless(state: GameState, person: Person, dynasties: list[str]) -> str | None:
    """Why giving up ``person``'s numbers in ``dynasties`` would empty a throne they hold."""
    for dynasty in dynasties:
        house = state.houses[dynasty]
        if house.ruler == person.id and not any(
                p.id != person.id for p in claimants(state, dynasty)):
            return msg("nobody else holds a number in %(house)s to succeed (A6)",
                       house=house_name(house))
    return None


def _check_personal(state: GameState, person: Person, order: Order,
                    rules: Mapping[str, Any], turn: int) -> str | None:
    if isinstance(order, WedOrder):
        return _check_wedding(state, person, order, rules, turn)
    if isinstance(order, AbdicateOrder):
        ruled = thrones(state, person)
        if not ruled:
            return msg("%(person)s rules no house", person=person.name)
        return _heirless(state, person, ruled)
    if isinstance(order, RenounceRuling):
        return renounceable(state, person, order.dynasty)
    return None


def check_ruling(state: GameState, order: Order, rules: Mapping[str, Any],
                 turn: int) -> str | None:
    """Why the directive cannot apply to ``state`` in ``turn``, or None."""
    if isinstance(order, CrownsOrder):
        house = _house(state, order.house)
        if house is None:
            return msg("there is no house %(house)s", house=repr(order.house))
        if order.fine and state.houses[house].treasury < order.amount:
            return (msg("%(house)s holds %(treasury)s crowns, fewer than the fine",
                        house=house_name(state.houses[house]),
                        treasury=state.houses[house].treasury))
        return None
    assert isinstance(order, PERSONAL)
    person = find(state, order.person)
    if person is None:
        return unknown_person(state, order.person)
    if person.died is not None:
        return msg("%(person)s is dead", person=person.name)
    if isinstance(order, CaptureOrder):
        captor = _house(state, order.captor)
        if captor is None:
            return msg("there is no house %(captor)s", captor=repr(order.captor))
        if person.prisoner_of is not None:
            return msg("%(person)s is a prisoner already", person=person.name)
        if captor == person.court:
            return msg("%(person)s cannot be the prisoner of the house at whose court they live",
                       person=person.name)
    if isinstance(order, ReleaseOrder) and person.prisoner_of is None:
        return msg("%(person)s is no prisoner", person=person.name)
    if isinstance(order, AnnulOrder) and state.current_marriage(person.id) is None:
        return msg("%(person)s is not married", person=person.name)
    return _check_personal(state, person, order, rules, turn)


def _give_up(state: GameState, person: Person, dynasties: list[str], turn: int,
             ctx: TurnContext | None, directive: str) -> None:
    """Renounce ``person``'s numbers in ``dynasties``; with ``ctx``, tell it and let
    the succession run at once (A3: a ruler who renounces leaves the throne)."""
    for dynasty in dynasties:
        ref = renounce(person, dynasty, turn)
        assert ref is not None
        if ctx is None:
            house = state.houses[dynasty]
            if house.ruler == person.id:
                heir = ruler_of(state, dynasty)
                house.ruler = heir.id if heir else None
            continue
        phase = ctx.dice.phase
        ctx.emit(Ruling(phase=phase, directive=directive, person=person.id, house=dynasty,
                        ref=ref))
        ctx.emit(Renunciation(phase=phase, person=person.id, dynasty=dynasty, ref=ref))
    if ctx is not None:
        settle_successions(ctx)


def _couple(state: GameState, order: WedOrder) -> tuple[Person, Person]:
    a, b = find(state, order.person), find(state, order.spouse)
    assert a is not None and b is not None
    return (a, b) if a.sex == Sex.MALE else (b, a)


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
    elif isinstance(order, WedOrder):
        husband, wife = _couple(state, order)
        husband.spouse, wife.spouse = wife.id, husband.id
    elif isinstance(order, AbdicateOrder):
        _give_up(state, person, thrones(state, person), state.turn, None, "abdicate")
    elif isinstance(order, RenounceRuling):
        dynasty = find_dynasty(state, order.dynasty)
        if dynasty is not None and dynasty.id in person.refs:
            _give_up(state, person, [dynasty.id], state.turn, None, "renounce")
    else:
        person.prisoner_of = None


def apply_ruling(ctx: TurnContext, order: Order, file_house: str) -> None:
    """Apply one directive at the start of the turn, or reject it if it no longer applies."""
    state = ctx.state
    reason = check_ruling(state, order, ctx.rules, ctx.turn)
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
    elif isinstance(order, WedOrder):
        husband, wife = _couple(state, order)
        ctx.emit(Ruling(phase=phase, directive="marry", person=husband.id, other=wife.id))
        wed(ctx, husband, wife, MarryOrder(line=order.line, text=order.text, first=husband.id,
                                           second=wife.id), minor=False)
    elif isinstance(order, AbdicateOrder):
        _give_up(state, person, thrones(state, person), ctx.turn, ctx, "abdicate")
    elif isinstance(order, RenounceRuling):
        dynasty = find_dynasty(state, order.dynasty)
        assert dynasty is not None
        _give_up(state, person, [dynasty.id], ctx.turn, ctx, "renounce")
    else:
        captor = person.prisoner_of
        person.prisoner_of = None
        person.captured_turn = None
        ctx.emit(Ruling(phase=phase, directive="release", person=person.id, house=captor))
        ctx.emit(PrisonerReleased(phase=phase, person=person.id, captor=str(captor), ransom=0))
