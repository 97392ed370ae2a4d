"""The Blood Royale orders of war and economy (RULES.md B2, B4).

Syntax (keywords are case-insensitive; a province is its id or its name,
quoted when the name has spaces; a unit is its id such as ``E-2``)::

    tax normal | tax extraordinary            # B2.2.1, default normal
    pay revolt <province>                     # B2.2.4: 15 crowns end a revolt
    raise <N> [<type>] in <province> [as <unit>]
                                              # B2.2.6: type defaults to army; the
                                              # armies join the house's unit of that
                                              # type there, or form a new unit (named
                                              # by 'as', else the next free number)
    split <N> from <unit> [as <unit>]         # a new unit of N armies, same province
    merge <unit> into <unit>                  # same province, type and house
    move <unit> to <p1> <p2> ... [then <p> ...]
                                              # B4: the path of the whole turn. The unit
                                              # goes as far as each round allows; 'then'
                                              # makes it stop and start the next round
    carry <counter> to <p1> ... [then ...]    # B4: a resource counter's route
    carry <good> from <province> to <p1> ...  #     (the lowest-numbered such counter)
    allow passage <house>                     # B4: standing until refused
    refuse passage <house>
    intervene <unit> for <house>              # B4 foreign intervention: both the unit's
                                              # house and <house> send the same line
    give <counter> to <house>                 # trade [D]: the counter changes owner
    give <good> from <province> to <house>
    pay <N> crowns to <house>                 # trade [D]: crowns from your treasury
    ally <house>                              # B6: standing; an alliance holds while
    end alliance <house>                      #     both houses declare it
    exchange <lot> for <lot> with <house>     # B7a: binding, all or nothing; a lot is
                                              # items joined by 'and', each '<N> crowns',
                                              # a counter id, or '<good> from <province>';
                                              # first what the sender gives, then what
                                              # it gets
    disband <unit>                            # the unit's armies return to the pool

Gifts and payments happen in the interphase after resources appear and
before revolts are bought off; splits and merges after raising, before the
first movement round. Counters without a ``carry`` order move on their own
towards their owner's capital.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from adjudicator.errors import OrderSyntaxError
from adjudicator.messages import Message, msg
from adjudicator.orders import Cursor, Grammar, Order


@dataclass(frozen=True, kw_only=True)
class TaxOrder(Order):
    extraordinary: bool


@dataclass(frozen=True, kw_only=True)
class PayRevoltOrder(Order):
    province: str


@dataclass(frozen=True, kw_only=True)
class RaiseOrder(Order):
    armies: int
    unit_type: str
    province: str
    as_unit: str | None = None


@dataclass(frozen=True, kw_only=True)
class SplitOrder(Order):
    unit: str
    armies: int
    as_unit: str | None = None


@dataclass(frozen=True, kw_only=True)
class MergeOrder(Order):
    unit: str
    into: str


@dataclass(frozen=True, kw_only=True)
class MoveOrder(Order):
    """A path for the whole turn, in legs; one leg means "as far as each round allows"."""

    unit: str
    legs: tuple[tuple[str, ...], ...]

    @property
    def path(self) -> tuple[str, ...]:
        return tuple(p for leg in self.legs for p in leg)


@dataclass(frozen=True, kw_only=True)
class CarryOrder(Order):
    """``counter`` is a counter id (``wine-7``) or a good with ``source`` set."""

    counter: str
    source: str | None
    legs: tuple[tuple[str, ...], ...]

    @property
    def path(self) -> tuple[str, ...]:
        return tuple(p for leg in self.legs for p in leg)


@dataclass(frozen=True, kw_only=True)
class PassageOrder(Order):
    house: str
    allowed: bool


@dataclass(frozen=True, kw_only=True)
class InterveneOrder(Order):
    unit: str
    under: str


@dataclass(frozen=True, kw_only=True)
class GiveOrder(Order):
    """``counter`` is a counter id (``wine-7``) or a good with ``source`` set."""

    counter: str
    source: str | None
    to: str


@dataclass(frozen=True, kw_only=True)
class PayCrownsOrder(Order):
    amount: int
    to: str


@dataclass(frozen=True, kw_only=True)
class AllyOrder(Order):
    house: str
    allied: bool


@dataclass(frozen=True)
class CounterRef:
    """A counter as an order names it: an id (``wine-7``), or a good with ``source``."""

    token: str
    source: str | None = None


@dataclass(frozen=True)
class Lot:
    """One side's part of an exchange: crowns and counters."""

    crowns: int
    counters: tuple[CounterRef, ...]


@dataclass(frozen=True, kw_only=True)
class ExchangeOrder(Order):
    gives: Lot
    gets: Lot
    house: str


@dataclass(frozen=True, kw_only=True)
class DisbandOrder(Order):
    unit: str


def _unit_id(c: Cursor, what: str | None = None) -> str:
    return c.ident(what or msg("a unit id (such as E-2)")).upper()


def _legs(c: Cursor, short: Callable[[str], Message]) -> tuple[tuple[str, ...], ...]:
    """The provinces of a path by leg; ``short`` says why one with no province after
    its last word (``to`` or ``then``) is refused."""
    legs: list[list[str]] = [[]]
    while not c.at_end():
        if c.accept("then"):
            if not legs[-1]:
                raise OrderSyntaxError(msg("'then' must follow at least one province"))
            legs.append([])
            continue
        legs[-1].append(c.next(msg("a province")).text)
    if not legs[-1]:
        raise OrderSyntaxError(short("then" if len(legs) > 1 else "to"))
    return tuple(tuple(leg) for leg in legs)


def _move_short(word: str) -> Message:
    return msg("the move needs at least one province after %(word)s", word=word)


def _route_short(word: str) -> Message:
    return msg("the route needs at least one province after %(word)s", word=word)


def _lot(c: Cursor, until: str) -> Lot:
    crowns = 0
    counters: list[CounterRef] = []
    while True:
        word = c.peek()
        if word is not None and word.isdigit():
            crowns += c.integer(msg("the number of crowns"), 1, 100000)
            c.expect("crowns", "crown")
        else:
            token = c.ident(msg("crowns, a counter id (such as wine-7) or a good")).lower()
            source = c.next(msg("a province")).text if c.accept("from") else None
            counters.append(CounterRef(token, source))
        if not c.accept("and"):
            break
    c.expect(until)
    return Lot(crowns=crowns, counters=tuple(counters))


def _singular(word: str) -> str:
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith("s"):
        return word[:-1]
    return word


def register_br_orders(grammar: Grammar) -> None:
    """Add the war and economy orders to ``grammar`` (a dynasty grammar's extension).

    ``pay`` is shared with the dynasty's ``pay ransom``: the rule reads
    ``pay revolt`` itself and hands anything else to the rule it replaces.
    """
    previous_pay = grammar.rules.get("pay")

    @grammar.rule("tax")
    def _tax(c: Cursor) -> TaxOrder:
        kind = c.expect("normal", "extraordinary")
        return TaxOrder(line=c.line, text=c.text, extraordinary=kind == "extraordinary")

    @grammar.rule("pay")
    def _pay(c: Cursor) -> Order:
        if c.accept("revolt"):
            return PayRevoltOrder(line=c.line, text=c.text, province=c.next(msg("a province")).text)
        word = c.peek()
        if word is not None and word.isdigit():
            amount = c.integer(msg("the number of crowns"), 1, 100000)
            c.accept("crowns", "crown")
            c.expect("to")
            return PayCrownsOrder(line=c.line, text=c.text, amount=amount,
                                  to=c.ident(msg("a house (id or letter)")))
        if previous_pay is None or word != "ransom":
            raise OrderSyntaxError(msg("expected 'pay revolt <province>', 'pay <N> crowns to "
                                       "<house>' or 'pay ransom <person> <N>'"))
        return previous_pay(c)

    @grammar.rule("raise")
    def _raise(c: Cursor) -> RaiseOrder:
        armies = c.integer(msg("the number of armies"), 1, 99)
        unit_type = "army"
        if c.peek() != "in":
            unit_type = _singular(c.word(msg("a unit type or 'in'")))
        c.expect("in")
        province = c.next(msg("a province")).text
        as_unit = _unit_id(c) if c.accept("as") else None
        return RaiseOrder(line=c.line, text=c.text, armies=armies, unit_type=unit_type,
                          province=province, as_unit=as_unit)

    @grammar.rule("split")
    def _split(c: Cursor) -> SplitOrder:
        armies = c.integer(msg("the number of armies"), 1, 99)
        c.accept("armies", "army")
        c.expect("from")
        unit = _unit_id(c)
        as_unit = _unit_id(c) if c.accept("as") else None
        return SplitOrder(line=c.line, text=c.text, unit=unit, armies=armies, as_unit=as_unit)

    @grammar.rule("merge")
    def _merge(c: Cursor) -> MergeOrder:
        unit = _unit_id(c)
        c.expect("into")
        return MergeOrder(line=c.line, text=c.text, unit=unit, into=_unit_id(c))

    @grammar.rule("move")
    def _move(c: Cursor) -> MoveOrder:
        unit = _unit_id(c)
        c.expect("to")
        return MoveOrder(line=c.line, text=c.text, unit=unit, legs=_legs(c, _move_short))

    @grammar.rule("carry")
    def _carry(c: Cursor) -> CarryOrder:
        counter = c.ident(msg("a counter id (such as wine-7) or a good")).lower()
        source = c.next(msg("a province")).text if c.accept("from") else None
        c.expect("to")
        return CarryOrder(line=c.line, text=c.text, counter=counter, source=source,
                          legs=_legs(c, _route_short))

    @grammar.rule("give")
    def _give(c: Cursor) -> GiveOrder:
        counter = c.ident(msg("a counter id (such as wine-7) or a good")).lower()
        source = c.next(msg("a province")).text if c.accept("from") else None
        c.expect("to")
        return GiveOrder(line=c.line, text=c.text, counter=counter, source=source,
                         to=c.ident(msg("a house (id or letter)")))

    @grammar.rule("allow", "refuse")
    def _passage(c: Cursor) -> PassageOrder:
        allowed = c.tokens[0].word == "allow"
        c.expect("passage")
        c.accept("to")
        return PassageOrder(line=c.line, text=c.text, allowed=allowed,
                            house=c.ident(msg("a house (id or letter)")))

    @grammar.rule("intervene")
    def _intervene(c: Cursor) -> InterveneOrder:
        unit = _unit_id(c)
        c.expect("for")
        return InterveneOrder(line=c.line, text=c.text, unit=unit,
                              under=c.ident(msg("the house the unit will serve")))

    @grammar.rule("ally")
    def _ally(c: Cursor) -> AllyOrder:
        return AllyOrder(line=c.line, text=c.text, allied=True,
                         house=c.ident(msg("a house (id or letter)")))

    @grammar.rule("end")
    def _end_alliance(c: Cursor) -> AllyOrder:
        c.expect("alliance")
        c.accept("with")
        return AllyOrder(line=c.line, text=c.text, allied=False,
                         house=c.ident(msg("a house (id or letter)")))

    @grammar.rule("exchange")
    def _exchange(c: Cursor) -> ExchangeOrder:
        gives = _lot(c, "for")
        gets = _lot(c, "with")
        return ExchangeOrder(line=c.line, text=c.text, gives=gives, gets=gets,
                             house=c.ident(msg("a house (id or letter)")))

    @grammar.rule("disband")
    def _disband(c: Cursor) -> DisbandOrder:
        return DisbandOrder(line=c.line, text=c.text, unit=_unit_id(c))
