"""The dynasty orders (DESIGN.md "Orders") and the arbiter's directives."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.dynastic.names import name_key
from adjudicator.errors import OrderSyntaxError
from adjudicator.messages import msg
from adjudicator.orders import Cursor, Grammar
from adjudicator.orders import Order as _Order

MINOR = "minor-nobility"


@dataclass(frozen=True, kw_only=True)
class BirthOrder(_Order):
    person: str
    attempts: int | None = None  # None: the rules' default; the bounds are data (A5.1)


@dataclass(frozen=True, kw_only=True)
class MarryOrder(_Order):
    first: str
    second: str | None  # None: the minor nobility
    children: str | None = None  # "father" | "mother"
    renounce: tuple[tuple[str, str], ...] = ()

    def key(self, resolve: dict[str, str], dynasty: dict[str, str]) -> tuple[object, ...]:
        """What both houses' lines must agree on, with people and dynasties resolved."""
        pair = frozenset(resolve.get(p, p) for p in (self.first, self.second) if p)
        clauses = frozenset((resolve.get(p, p), dynasty.get(d.lower(), d.lower()))
                            for p, d in self.renounce)
        return (pair, self.children or "father", clauses)


@dataclass(frozen=True, kw_only=True)
class RenounceOrder(_Order):
    person: str
    dynasty: str


@dataclass(frozen=True, kw_only=True)
class AssignOrder(_Order):
    person: str
    unit: str


@dataclass(frozen=True, kw_only=True)
class LendOrder(_Order):
    person: str
    unit: str


@dataclass(frozen=True, kw_only=True)
class PrisonerOrder(_Order):
    person: str
    action: str  # release | execute | keep
    ransom: int = 0


@dataclass(frozen=True, kw_only=True)
class PayRansomOrder(_Order):
    person: str
    amount: int


@dataclass(frozen=True, kw_only=True)
class NameOrder(_Order):
    """Names for this turn's newborns of a couple: ``son``/``daughter`` name the
    boys or girls in birth order; ``newborn`` names the boys, then the girls."""

    parent: str
    which: str  # newborn | son | daughter
    names: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class KillOrder(_Order):
    person: str
    cause: str


@dataclass(frozen=True, kw_only=True)
class RetreatOrder(_Order):
    unit: str
    captor: str


DYNASTY_GRAMMAR = Grammar()
ARBITER_GRAMMAR = Grammar()


@DYNASTY_GRAMMAR.rule("birth", "births")
def _birth(c: Cursor) -> BirthOrder:
    person = c.person()
    attempts = None
    if c.accept("attempts", "attempt"):
        attempts = c.integer(msg("the number of attempts"))
    return BirthOrder(line=c.line, text=c.text, person=person, attempts=attempts)


@DYNASTY_GRAMMAR.rule("marry")
def _marry(c: Cursor) -> MarryOrder:
    first = c.person()
    c.expect("to", "with")
    tok = c.next(msg("the spouse (reference number, quoted name or minor-nobility)"))
    second: str | None = tok.text
    if not tok.quoted and tok.word in (MINOR, "minor"):
        second = None
        c.accept("nobility")
    children: str | None = None
    renounce: list[tuple[str, str]] = []
    while not c.at_end():
        word = c.word(msg("a clause ('children mother|father' or 'renounce <person> in "
                          "<dynasty>')"))
        if word == "children":
            if children is not None:
                raise OrderSyntaxError(msg("the children's dynasty is given twice"))
            children = c.expect("mother", "father")
        elif word == "renounce":
            who = c.person()
            c.expect("in")
            renounce.append((who, c.ident(msg("a dynasty letter"))))
        else:
            raise OrderSyntaxError(
                msg("unknown clause %(word)s: use 'children mother|father' or 'renounce "
                    "<person> in <dynasty>'", word=repr(word)))
    return MarryOrder(line=c.line, text=c.text, first=first, second=second,
                      children=children, renounce=tuple(renounce))


@DYNASTY_GRAMMAR.rule("renounce")
def _renounce(c: Cursor) -> RenounceOrder:
    person = c.person()
    c.expect("in")
    return RenounceOrder(line=c.line, text=c.text, person=person,
                         dynasty=c.ident(msg("a dynasty letter")))


@DYNASTY_GRAMMAR.rule("assign")
def _assign(c: Cursor) -> AssignOrder:
    person = c.person()
    c.expect("to")
    return AssignOrder(line=c.line, text=c.text, person=person,
                       unit=c.ident(msg("a unit id")).upper())


@DYNASTY_GRAMMAR.rule("lend")
def _lend(c: Cursor) -> LendOrder:
    person = c.person()
    c.expect("to")
    return LendOrder(line=c.line, text=c.text, person=person,
                     unit=c.ident(msg("a unit id")).upper())


@DYNASTY_GRAMMAR.rule("prisoner")
def _prisoner(c: Cursor) -> PrisonerOrder:
    person = c.person()
    action = c.expect("release", "execute", "keep")
    ransom = 0
    if action == "release" and c.accept("ransom"):
        ransom = c.integer(msg("the ransom"), 1, 100000)
    return PrisonerOrder(line=c.line, text=c.text, person=person, action=action, ransom=ransom)


@DYNASTY_GRAMMAR.rule("pay")
def _pay(c: Cursor) -> PayRansomOrder:
    c.expect("ransom")
    person = c.person()
    amount = c.integer(msg("the ransom"), 1, 100000)
    return PayRansomOrder(line=c.line, text=c.text, person=person, amount=amount)


@DYNASTY_GRAMMAR.rule("name")
def _name(c: Cursor) -> NameOrder:
    which = c.expect("newborn", "son", "daughter")
    c.expect("of")
    parent = c.person()
    names = [c.name(msg("the name"))]
    while not c.at_end():
        names.append(c.name(msg("another name")))
    for name in names:
        if len(name) > 40:
            raise OrderSyntaxError(msg("a name may have at most 40 characters"))
        if not all(ch.isalpha() or ch in " '-." for ch in name):
            raise OrderSyntaxError(
                msg("a name may hold only letters, spaces, apostrophes, hyphens and dots"))
    if len({name_key(n) for n in names}) < len(names):
        raise OrderSyntaxError(msg("the same name is given twice"))
    return NameOrder(line=c.line, text=c.text, parent=parent, which=which, names=tuple(names))


@ARBITER_GRAMMAR.rule("kill")
def _kill(c: Cursor) -> KillOrder:
    person = c.person()
    cause = "arbiter"
    if c.accept("cause"):
        cause = c.name(msg("the cause"))[:200]
    return KillOrder(line=c.line, text=c.text, person=person, cause=cause)


@ARBITER_GRAMMAR.rule("retreat")
def _retreat(c: Cursor) -> RetreatOrder:
    unit = c.ident(msg("a unit id")).upper()
    c.expect("by")
    return RetreatOrder(line=c.line, text=c.text, unit=unit, captor=c.ident(msg("the captor "
                                                                                "house")))
