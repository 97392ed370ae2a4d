"""A7 marriages and contracts, and A3 renunciations."""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.dynastic.events import MinorNobleCreated, Renunciation, Wedding
from adjudicator.dynastic.lookup import controls, find, find_dynasty, unknown_person
from adjudicator.dynastic.orders import MarryOrder, RenounceOrder
from adjudicator.dynastic.people import (
    add_person,
    dynasty_rules,
    new_person_id,
    next_name,
    roll_characteristics,
)
from adjudicator.dynastic.refs import renounce
from adjudicator.messages import house_id, house_name, msg
from adjudicator.orders import OrderSheet
from adjudicator.rulesets.base import TurnContext
from adjudicator.state import GameState, Marriage, Person, Sex


def can_marry(state: GameState, person: Person, age: int, min_age: int) -> str | None:
    """Why ``person`` cannot marry now, or None (A7)."""
    if person.died is not None:
        return msg("%(person)s is dead", person=person.name)
    if age < min_age:
        return msg("%(person)s is %(age)s: spouses must be %(min_age)s or older (A7)",
                   person=person.name, age=age, min_age=min_age)
    if person.spouse is not None:
        return msg("%(person)s is already married (A7: one spouse at a time)", person=person.name)
    if person.widowed_queen:
        return msg("%(person)s is a widowed queen and cannot remarry (A3)", person=person.name)
    if person.king_consort:
        return msg("%(person)s was King Consort and cannot remarry (A6)", person=person.name)
    return None


def check_marriage(state: GameState, house: str, order: MarryOrder, age_year: int,
                   min_age: int, minor_allowed: bool) -> str | None:
    """Checks one side's line can stand on its own; agreement is checked later."""
    first = find(state, order.first)
    if first is None:
        return unknown_person(state, order.first)
    people = [first]
    if order.second is None:
        if not minor_allowed:
            return msg("this campaign does not allow marriages to the minor nobility")
    else:
        second = find(state, order.second)
        if second is None:
            return unknown_person(state, order.second)
        if second.id == first.id:
            return msg("a person cannot marry themselves")
        people.append(second)
        if first.sex == second.sex:
            return msg("%(first)s and %(second)s are of the same sex", first=first.name,
                       second=second.name)
        if first.dynasty is not None and first.dynasty == second.dynasty:
            return (msg("%(first)s and %(second)s are both of the %(dynasty)s dynasty: nobody "
                        "may marry within their own dynasty (A7)", first=first.name,
                        second=second.name, dynasty=house_id(first.dynasty)))
    if not any(controls(house, p) for p in people):
        return msg("neither spouse belongs to this house")
    for person in people:
        reason = can_marry(state, person, person.age(age_year), min_age)
        if reason:
            return reason
    for who, dyn in order.renounce:
        renouncer = find(state, who)
        if renouncer is None or renouncer.id not in {p.id for p in people}:
            return msg("only a spouse can renounce in a marriage contract, not %(who)s",
                       who=repr(who))
        dynasty = find_dynasty(state, dyn)
        if dynasty is None:
            return msg("there is no dynasty %(dyn)s", dyn=repr(dyn))
        if dynasty.id not in renouncer.refs:
            return msg("%(renouncer)s holds no number in %(dynasty)s to renounce",
                       renouncer=renouncer.name, dynasty=house_name(dynasty))
    if order.children == "mother":
        wife = next((p for p in people if p.sex == Sex.FEMALE), None)
        if wife is not None and wife.dynasty is None:
            return msg("the mother belongs to no dynasty to give the children to")
    return None


@dataclass
class _Declared:
    house: str
    order: MarryOrder


def run_marriages(ctx: TurnContext) -> None:
    """Both houses must declare the same marriage with the same clauses (A7)."""
    state = ctx.state
    rules = dynasty_rules(ctx.rules)
    age_year = ctx.age_year
    ctx.dice.set_phase("marriages")
    accepted: list[_Declared] = []
    minors: list[_Declared] = []
    for house in sorted(ctx.sheets):
        for order in ctx.orders(house):
            if not isinstance(order, MarryOrder):
                continue
            reason = check_marriage(state, house, order, age_year, rules.marriage_min_age,
                                    rules.minor_nobility)
            if reason:
                ctx.reject(house, order, reason)
                continue
            (minors if order.second is None else accepted).append(_Declared(house, order))
    declared = declared_pairs(state, accepted)
    for pair in sorted(declared, key=sorted):
        _settle_pair(ctx, pair, declared[pair], age_year)
    for item in minors:
        _marry_minor(ctx, item, age_year)


def _owner(person: Person) -> str | None:
    return person.dynasty or person.court


def disagreement(state: GameState, pair: frozenset[str],
                 lines: list[_Declared]) -> tuple[str, list[str]] | None:
    """Why both houses' lines do not make this marriage, and who did not declare it.

    A7: "A marriage is legal only if both houses declare it, identically, in the
    same turn's orders." Knowable from the order files alone, so ``check`` uses
    it as well as the turn.
    """
    a, b = (state.persons[pid] for pid in sorted(pair))
    houses_needed = {h for h in (_owner(a), _owner(b)) if h}
    missing = sorted(houses_needed - {d.house for d in lines})
    if missing:
        names = tuple(house_name(state.houses[h]) if h in state.houses else house_id(h)
                      for h in missing)
        return msg("%(names)s did not declare this marriage", names=names), missing
    ids = {p: p for p in pair}
    for person in (a, b):
        for ref in person.refs.values():
            ids[ref] = person.id
        ids[person.name] = person.id
    dynasties = {h.letter.lower(): h.id for h in state.houses.values()}
    if len({d.order.key(ids, dynasties) for d in lines}) > 1:
        return msg("the two houses' lines differ in their clauses"), []
    return None


def declared_pairs(state: GameState,
                   lines: list[_Declared]) -> dict[frozenset[str], list[_Declared]]:
    """Marriage lines between two named people, grouped by couple."""
    pairs: dict[frozenset[str], list[_Declared]] = {}
    for line in lines:
        if line.order.second is None:
            continue
        a, b = find(state, line.order.first), find(state, line.order.second)
        if a is not None and b is not None:
            pairs.setdefault(frozenset((a.id, b.id)), []).append(line)
    return pairs


def check_agreements(state: GameState, sheets: dict[str, OrderSheet]) -> None:
    """Refuse, in ``check``, the marriage lines the other house did not match."""
    lines = [_Declared(house, order) for house, sheet in sorted(sheets.items())
             if not sheet.refused for order in sheet.of_type(MarryOrder)]
    for pair, declared in sorted(declared_pairs(state, lines).items(), key=lambda i: sorted(i[0])):
        problem = disagreement(state, pair, declared)
        if problem is None:
            continue
        for line in declared:
            sheets[line.house].orders.remove(line.order)
            sheets[line.house].reject(line.order, problem[0])


def _settle_pair(ctx: TurnContext, pair: frozenset[str], lines: list[_Declared],
                 age_year: int) -> None:
    state = ctx.state
    a, b = (state.persons[pid] for pid in sorted(pair))
    problem = disagreement(state, pair, lines)
    if problem is not None:
        reason, missing = problem
        for d in lines:
            ctx.reject(d.house, d.order, reason)
        for h in missing:
            ctx.notify(h, msg("%(house)s declared a marriage of %(a)s and %(b)s that this "
                              "house did not declare; it was refused",
                              house=house_id(lines[0].house), a=a.name, b=b.name))
        return
    for person in (a, b):
        unable = can_marry(state, person, person.age(age_year), 0)
        if unable:
            for d in lines:
                ctx.reject(d.house, d.order, unable)
            return
    husband, wife = (a, b) if a.sex == Sex.MALE else (b, a)
    wed(ctx, husband, wife, lines[0].order, minor=False)


def _marry_minor(ctx: TurnContext, item: _Declared, age_year: int) -> None:
    state = ctx.state
    person = find(state, item.order.first)
    assert person is not None
    if person.spouse is not None:
        ctx.reject(item.house, item.order, msg("%(person)s married earlier this turn",
                                               person=person.name))
        return
    sex = Sex.FEMALE if person.sex == Sex.MALE else Sex.MALE
    age = dynasty_rules(ctx.rules).minor_spouse_age(sex, person.age(age_year))
    name = next_name(state, ctx.rules, None, sex)
    spouse = Person(id=new_person_id(state, name), name=name, sex=sex, born=age_year - age,
                    dynasty=None, court=person.court)
    add_person(state, spouse)
    roll_characteristics(ctx, spouse)
    ctx.emit(MinorNobleCreated(phase="marriages", person=spouse.id, for_person=person.id))
    husband, wife = (person, spouse) if person.sex == Sex.MALE else (spouse, person)
    wed(ctx, husband, wife, item.order, minor=True)


def wed(ctx: TurnContext, husband: Person, wife: Person, order: MarryOrder, *,
         minor: bool) -> None:
    state = ctx.state
    children = None
    if order.children == "mother":
        children = wife.dynasty
    marriage = Marriage(id=f"m{len(state.marriages) + 1}", husband=husband.id, wife=wife.id,
                        turn=ctx.turn, year=ctx.year, children_dynasty=children)
    state.marriages.append(marriage)
    husband.spouse, wife.spouse = wife.id, husband.id
    reigning_queen = any(h.ruler == wife.id for h in state.active_houses())
    if reigning_queen:
        husband.king_consort = True
        husband.court = wife.court
    elif husband.dynasty is None and wife.dynasty is not None:
        husband.court = wife.court  # [D] a minor noble joins the princess's court
    else:
        wife.court = husband.court
    ctx.emit(Wedding(phase="marriages", marriage=marriage.id, husband=husband.id,
                     wife=wife.id, children_dynasty=children,
                     husband_house=husband.dynasty, wife_house=wife.dynasty,
                     minor_nobility=minor))
    for who, dyn in order.renounce:
        person = find(state, who)
        dynasty = find_dynasty(state, dyn)
        if person is not None and dynasty is not None:
            _renounce(ctx, person, dynasty.id)


def _renounce(ctx: TurnContext, person: Person, dynasty: str) -> None:
    ref = renounce(person, dynasty, ctx.turn)
    if ref is not None:
        ctx.emit(Renunciation(phase=ctx.dice.phase, person=person.id, dynasty=dynasty, ref=ref))


def check_renounce(state: GameState, house: str, order: RenounceOrder) -> str | None:
    person = find(state, order.person)
    if person is None:
        return unknown_person(state, order.person)
    if not controls(house, person):
        return msg("%(person)s does not belong to this house", person=person.name)
    if person.died is not None:
        return msg("%(person)s is dead", person=person.name)
    return renounceable(state, person, order.dynasty)


def renounceable(state: GameState, person: Person, named: str) -> str | None:
    """Why ``person`` cannot renounce their number in the dynasty ``named``, or None
    (a house's order and the arbiter's ruling alike)."""
    dynasty = find_dynasty(state, named)
    if dynasty is None:
        return msg("there is no dynasty %(named)s", named=repr(named))
    if dynasty.id not in person.refs:
        return msg("%(person)s holds no number in %(dynasty)s", person=person.name,
                   dynasty=house_name(dynasty))
    return None


def run_renunciations(ctx: TurnContext) -> None:
    for house in sorted(ctx.sheets):
        for order in ctx.orders(house):
            if not isinstance(order, RenounceOrder):
                continue
            reason = check_renounce(ctx.state, house, order)
            if reason:
                ctx.reject(house, order, reason)
                continue
            person = find(ctx.state, order.person)
            dynasty = find_dynasty(ctx.state, order.dynasty)
            assert person is not None and dynasty is not None
            _renounce(ctx, person, dynasty.id)


def validate_sheet_marriages(state: GameState, sheet: OrderSheet, age_year: int,
                             min_age: int, minor_allowed: bool) -> None:
    """Static checks for ``chronicle check``: each line on its own."""
    for order in list(sheet.orders):
        if isinstance(order, MarryOrder):
            reason = check_marriage(state, sheet.house, order, age_year, min_age, minor_allowed)
        elif isinstance(order, RenounceOrder):
            reason = check_renounce(state, sheet.house, order)
        else:
            continue
        if reason:
            sheet.orders.remove(order)
            sheet.reject(order, reason)
