"""A5.1 births and A2 characteristics."""

from __future__ import annotations

from adjudicator.dynastic.events import Birth, BirthAttempts
from adjudicator.dynastic.lookup import controls, find, unknown_person
from adjudicator.dynastic.orders import BirthOrder, NameOrder
from adjudicator.dynastic.people import (
    add_person,
    dynasty_rules,
    give_traits,
    name_taken,
    new_person_id,
    next_name,
    roll_traits,
)
from adjudicator.dynastic.refs import alphabet_spent, number_child
from adjudicator.dynastic.rules import DynastyRules
from adjudicator.messages import house_id, msg
from adjudicator.rulesets.base import TurnContext
from adjudicator.state import GameState, Marriage, Person, Sex


def eligible_couples(state: GameState, year: int, max_mother_age: int) -> list[Marriage]:
    """Married couples whose mother is young enough and neither is a prisoner (A5.1)."""
    couples = []
    for marriage in state.open_marriages():
        husband, wife = state.persons[marriage.husband], state.persons[marriage.wife]
        if husband.died is not None or wife.died is not None:
            continue
        if wife.age(year) > max_mother_age:
            continue
        if husband.prisoner_of or wife.prisoner_of:
            continue
        couples.append(marriage)
    return couples


def couple_house(state: GameState, marriage: Marriage) -> str | None:
    """The house whose order file holds a couple's births (A5.1).

    Any house that gives orders for one of the spouses may order them
    (``check_birth``); the one whose dynasty the children join is offered
    them, then the husband's, then the wife's, and for two minor nobles the
    court they live at. Not simply the court: a prince living at a foreign
    court (his father was King Consort there) is still his dynasty's to order.
    """
    husband = state.persons[marriage.husband]
    wife = state.persons[marriage.wife]
    for house in (marriage.children_dynasty, husband.dynasty, wife.dynasty):
        if house is not None and house in state.houses and \
                (controls(house, husband) or controls(house, wife)):
            return house
    return husband.court or wife.court


def check_birth(state: GameState, house: str, order: BirthOrder, year: int,
                rules: DynastyRules) -> str | None:
    if order.attempts is not None and not \
            rules.min_attempts <= order.attempts <= rules.max_attempts:
        return (msg("the number of attempts must be %(min_attempts)s to %(max_attempts)s, not "
                    "%(attempts)s", min_attempts=rules.min_attempts,
                    max_attempts=rules.max_attempts, attempts=order.attempts))
    person = find(state, order.person)
    if person is None:
        return unknown_person(state, order.person)
    marriage = state.current_marriage(person.id)
    if marriage is None:
        return msg("%(person)s is not married", person=person.name)
    husband, wife = state.persons[marriage.husband], state.persons[marriage.wife]
    if not (controls(house, husband) or controls(house, wife)):
        return msg("%(person)s belongs to no family of this house", person=person.name)
    if wife.age(year) > rules.max_mother_age:
        return (msg("%(wife)s is %(value)s: a mother must be %(max_mother_age)s or younger (A5)",
                    wife=wife.name, value=wife.age(year), max_mother_age=rules.max_mother_age))
    if husband.prisoner_of or wife.prisoner_of:
        return msg("a prisoner cannot have children (A9)")
    return None


def run_births(ctx: TurnContext) -> dict[str, int]:
    """Roll every eligible couple's attempts; returns each mother's survival penalty."""
    state, rules = ctx.state, dynasty_rules(ctx.rules)
    ctx.dice.set_phase("births")
    ordered: dict[str, tuple[int, str]] = {}
    names: dict[str, list[NameOrder]] = {}
    for house in sorted(ctx.sheets):
        for order in ctx.orders(house):
            if isinstance(order, BirthOrder):
                person = find(state, order.person)
                marriage = state.current_marriage(person.id) if person else None
                if marriage is not None:
                    ordered[marriage.id] = (rules.default_attempts if order.attempts is None
                                          else order.attempts, house)
            elif isinstance(order, NameOrder):
                parent = find(state, order.parent)
                if parent is not None:
                    names.setdefault(parent.id, []).append(order)
    penalties: dict[str, int] = {}
    couples = eligible_couples(state, ctx.year, rules.max_mother_age)
    couples.sort(key=lambda m: (state.persons[m.husband].seq, state.persons[m.wife].seq))
    for marriage in couples:
        attempts, _ = ordered.get(marriage.id, (rules.default_attempts, ""))
        born: list[tuple[int, Sex, str, tuple[int, int]]] = []
        first_roll = len(ctx.dice.log)
        for attempt in range(1, attempts + 1):
            roll = ctx.dice.roll(1, 6, "birth attempt", marriage.wife)
            if roll.total > rules.success_faces:
                continue
            sex = Sex.MALE if ctx.dice.d6("sex", marriage.wife) <= rules.boy_faces else Sex.FEMALE
            # The child is named only once every sex is known (boys, then girls),
            # so its traits are rolled under a stand-in, relabelled at its birth.
            stand_in = f"{marriage.wife}:newborn-{attempt}"
            born.append((attempt, sex, stand_in, roll_traits(ctx, sex, stand_in)))
        chosen = _chosen_names(ctx, marriage, [sex for _, sex, _, _ in born], names)
        children = []
        for (attempt, sex, stand_in, traits), name in zip(born, chosen, strict=True):
            child = _bear(ctx, marriage, sex, name, attempt, traits)
            ctx.dice.relabel(stand_in, child.id, since=first_roll)
            children.append(child.id)
        if attempts > 1:
            penalties[marriage.wife] = rules.extra_attempt_penalty * (attempts - 1)
        ctx.emit(BirthAttempts(phase="births", father=marriage.husband, mother=marriage.wife,
                               house=couple_house(state, marriage), attempts=attempts,
                               children=tuple(children), ordered=marriage.id in ordered))
    return penalties


def _chosen_names(ctx: TurnContext, marriage: Marriage, sexes: list[Sex],
                  names: dict[str, list[NameOrder]]) -> list[str | None]:
    """The ordered names of this turn's newborns, in birth order (None: from the list).

    ``son`` and ``daughter`` names go to the boys and the girls in birth order;
    ``newborn`` names then go to the boys still unnamed, then the girls
    (DESIGN.md: "names for this turn's births, boys then girls"). A name taken
    meanwhile is refused and the child takes the next name of the list.
    """
    queues: dict[str, list[tuple[str, str, NameOrder]]] = {"son": [], "daughter": [],
                                                           "newborn": []}
    for parent in (marriage.husband, marriage.wife):
        house = ctx.state.persons[parent].dynasty or ctx.state.persons[parent].court or ""
        for order in names.get(parent, []):
            queues[order.which] += [(name, house, order) for name in order.names]
    chosen: list[str | None] = [None] * len(sexes)
    boys = [i for i, sex in enumerate(sexes) if sex == Sex.MALE]
    girls = [i for i, sex in enumerate(sexes) if sex != Sex.MALE]
    plan = [(boys, "son"), (girls, "daughter"), (boys, "newborn"), (girls, "newborn")]
    for children, kind in plan:
        for index in children:
            queue = queues[kind]
            while chosen[index] is None and queue:
                name, house, order = queue.pop(0)
                taken = name_taken(ctx.state, name, chosen)
                if taken:
                    ctx.reject(house, order, taken)
                else:
                    chosen[index] = name
    return chosen


def _bear(ctx: TurnContext, marriage: Marriage, sex: Sex, chosen: str | None,
          attempt: int, traits: tuple[int, int]) -> Person:
    state = ctx.state
    father, mother = state.persons[marriage.husband], state.persons[marriage.wife]
    dynasty = father.dynasty
    if marriage.children_dynasty is not None or dynasty is None:
        # [D] a father of the minor nobility gives his children to the mother's dynasty.
        dynasty = marriage.children_dynasty or mother.dynasty
    name = chosen or next_name(state, ctx.rules, dynasty, sex)
    child = Person(id=new_person_id(state, name), name=name, sex=sex, born=ctx.year,
                   dynasty=dynasty, father=father.id, mother=mother.id,
                   court=father.court or mother.court)
    add_person(state, child)
    give_traits(child, traits)
    spent = number_child(state, child)
    for dynasty_id in spent:
        ctx.notify(dynasty_id, msg("%(name)s could take no reference number in %(dynasty_id)s: "
                                   "%(value)s", name=name, dynasty_id=house_id(dynasty_id),
                                   value=alphabet_spent(state.houses[dynasty_id].law, sex)))
    ctx.emit(Birth(phase="births", person=child.id, father=father.id, mother=mother.id,
                   dynasty=dynasty, court=child.court, attempt=attempt))
    return child
