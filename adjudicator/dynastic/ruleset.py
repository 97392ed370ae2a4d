"""The dynastic rules as a ruleset base: Part A's orders, validation and turn, which
every dynastic ruleset plays (RULES.md Part A)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from adjudicator.dice import Dice
from adjudicator.dynastic.births import check_birth
from adjudicator.dynastic.capture import check_prisoner, check_ransoms, check_retreat
from adjudicator.dynastic.command import (
    check_assign,
    check_loans,
    check_prisoner_assignments,
    unit_command_value,
)
from adjudicator.dynastic.lookup import find, unknown_person
from adjudicator.dynastic.marriage import check_agreements, validate_sheet_marriages
from adjudicator.dynastic.orders import (
    ARBITER_GRAMMAR,
    DYNASTY_GRAMMAR,
    AssignOrder,
    BirthOrder,
    KillOrder,
    LendOrder,
    NameOrder,
    PayRansomOrder,
    PrisonerOrder,
    RetreatOrder,
)
from adjudicator.dynastic.people import dynasty_rules, name_taken
from adjudicator.dynastic.phase import ARBITER, run_dynasty_phase
from adjudicator.dynastic.repeats import refuse_repeats
from adjudicator.dynastic.rulings import RULINGS, apply_ruling, check_ruling, foresee
from adjudicator.dynastic.setup import SPEC_FIELDS, build_state
from adjudicator.dynastic.template import dynasty_template
from adjudicator.messages import msg
from adjudicator.orders import Grammar, Order, OrderSheet
from adjudicator.rulesets.base import Gettext, Ruleset, TurnContext, TurnResult
from adjudicator.state import GameState, Unit

#: The fields by which an order names people (a birth's couple, a marriage's two...).
PERSON_FIELDS = ("person", "parent", "first", "second")


def refuse_the_dead(state: GameState, sheet: OrderSheet) -> None:
    """An order naming someone who has died is refused for that reason, first: the
    checks after it would give another ("not married", "not of this house")."""
    for order in list(sheet.orders):
        for field in PERSON_FIELDS:
            token = getattr(order, field, None)
            person = find(state, token) if isinstance(token, str) else None
            if person is not None and person.died is not None:
                sheet.orders.remove(order)
                sheet.reject(order, msg("%(person)s is already dead", person=person.name))
                break


class DynasticRuleset(Ruleset):
    grammar: Grammar = DYNASTY_GRAMMAR
    defaults = ("one birth attempt per eligible couple, automatic assignment of commanders, "
                "prisoners kept")
    arbiter_grammar: Grammar = ARBITER_GRAMMAR
    spec_fields = SPEC_FIELDS

    def check_rules(self) -> None:
        dynasty_rules(self.rules)

    def grammar_for(self, house: str) -> Grammar:
        return self.arbiter_grammar if house == ARBITER else self.grammar

    def setup(self, spec: Mapping[str, Any], dice: Dice) -> GameState:
        return build_state(spec, self.rules, self.id, dice)

    def command_value(self, state: GameState, unit: Unit) -> int:
        return unit_command_value(state, unit, self.rules)

    # -- validation ------------------------------------------------------------
    def validate(self, state: GameState, sheets: dict[str, OrderSheet], *,
                 across_files: bool = True) -> None:
        """Each line against the state; with ``across_files``, also what needs two
        houses' files to agree (marriages, ransoms), which ``check`` must report.

        The turn itself settles those agreements as it resolves, with notices to
        the house that did not declare, so ``resolve`` validates line by line only.
        """
        self.validate_lines(state, sheets)
        if across_files:
            live = {h: s for h, s in sheets.items() if not s.refused}
            check_agreements(state, live)
            check_loans(state, live)
            check_ransoms(state, live)
            check_prisoner_assignments(state, live)

    def validate_lines(self, state: GameState, sheets: dict[str, OrderSheet]) -> None:
        """Each line on its own, against the state; subclasses add their orders."""
        dyn = dynasty_rules(self.rules)
        year = state.year_of(state.turn + 1)
        year_end = state.year_ending(state.turn + 1)
        for house, sheet in sorted(sheets.items()):
            if sheet.refused:
                continue
            if house != ARBITER and (house not in state.houses or state.houses[house].eliminated):
                sheet.refused = msg("%(file)s: house %(house)s is not in play", file=sheet.file,
                                    house=repr(house))
                continue
            if house == ARBITER:
                self._validate_arbiter(state, sheet)
                continue
            refuse_the_dead(state, sheet)
            validate_sheet_marriages(state, sheet, year_end, dyn.marriage_min_age,
                                     dyn.minor_nobility)
            for order in list(sheet.orders):
                reason = self.check_order(state, house, order, year)
                if reason:
                    sheet.orders.remove(order)
                    sheet.reject(order, reason)
        refuse_repeats(state, sheets)

    def check_order(self, state: GameState, house: str, order: object, year: int) -> str | None:
        """Static legality of one order; subclasses extend for their own orders."""
        dyn = dynasty_rules(self.rules)
        if isinstance(order, BirthOrder):
            return check_birth(state, house, order, year, dyn)
        if isinstance(order, AssignOrder | LendOrder):
            person = find(state, order.person)
            age = person.age(state.year_ending(state.turn + 1)) if person else 0
            return check_assign(state, house, order, age, dyn.voluntary_age,
                                before_releases=True)
        if isinstance(order, PrisonerOrder | PayRansomOrder):
            return check_prisoner(state, house, order)
        if isinstance(order, NameOrder):
            parent = find(state, order.parent)
            if parent is None:
                return unknown_person(state, order.parent)
            for name in order.names:
                taken = name_taken(state, name)
                if taken:
                    return taken
        return None

    def _validate_arbiter(self, state: GameState, sheet: OrderSheet) -> None:
        scratch: GameState | None = None  # the rulings' effects so far, in file order
        for order in list(sheet.orders):
            reason = None
            if isinstance(order, KillOrder):
                person = find(state, order.person)
                if person is None:
                    reason = unknown_person(state, order.person)
                elif person.died is not None:
                    reason = msg("%(person)s is already dead", person=person.name)
            elif isinstance(order, RetreatOrder):
                reason = check_retreat(state, order)
            else:
                scratch = scratch or state.copy()
                reason = self.check_directive(scratch, order, state.turn + 1)
                if reason is None:
                    self.foresee_directive(scratch, order)
            if reason:
                sheet.orders.remove(order)
                sheet.reject(order, reason)

    # -- the arbiter's rulings (a ruleset extends these for its own directives) ----
    def check_directive(self, state: GameState, order: Order, turn: int) -> str | None:
        """Why a ruling cannot apply to ``state`` at the start of ``turn``, or None."""
        if isinstance(order, RULINGS):
            return check_ruling(state, order, self.rules, turn)
        return None

    def foresee_directive(self, state: GameState, order: Order) -> None:
        """What a ruling does to ``state``, for checking the lines after it."""
        if isinstance(order, RULINGS):
            foresee(state, order)

    def apply_directive(self, ctx: TurnContext, order: Order) -> None:
        """Apply one ruling at the start of the turn, or reject it if it no longer applies."""
        if isinstance(order, RULINGS):
            apply_ruling(ctx, order, ARBITER)

    # -- resolution --------------------------------------------------------------
    def resolve(self, state: GameState, sheets: dict[str, OrderSheet], dice: Dice) -> TurnResult:
        sheets = copy.deepcopy(sheets)
        self.validate(state, sheets, across_files=False)
        new = state.copy()
        new.turn += 1
        live = {h: s for h, s in sheets.items() if not s.refused}
        ctx = TurnContext(state=new, dice=dice, rules=self.rules, sheets=live, ruleset=self)
        expected = self.ordering_houses(state)
        defaulted = sorted(h for h in expected if h not in live)
        self.play_turn(ctx)
        new.seal_the_dead()
        rejections = ctx.all_rejections()
        return TurnResult(state=new, events=ctx.events, rolls=list(dice.log),
                          rejections=rejections, defaulted=defaulted)

    def play_turn(self, ctx: TurnContext) -> None:
        """The turn's phases; Blood Royale extends this hook."""
        run_dynasty_phase(ctx, self.apply_directive)

    def template(self, state: GameState, house: str) -> str:
        return dynasty_template(state, house, self.rules)

    def template_in(self, state: GameState, house: str, gettext: Gettext) -> str:
        return dynasty_template(state, house, self.rules, gettext)
