"""The ``blood-royale`` ruleset: RULES.md Part A, then Part B, every turn.

A turn (B2): the dynasty phase (Part A, inherited), then standing passage
permissions and this turn's interventions, the interphase (taxes, resources,
famine, trade, revolts, upkeep, raising), splits and merges, the movement
rounds with their event dice and battles, the thrones left empty by deaths
in battle or plague (A6, at once, so an extinct house does not cash in), the
cash-in and the victory check, and last one wealth row per house.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.dice import Dice
from adjudicator.dynastic.orders import DYNASTY_GRAMMAR
from adjudicator.dynastic.phase import ARBITER
from adjudicator.dynastic.ruleset import DynasticRuleset
from adjudicator.dynastic.succession import settle_successions
from adjudicator.orders import Grammar, Order, OrderSheet
from adjudicator.rulesets.base import Gettext, TurnContext
from adjudicator.rulesets.blood_royale import battle
from adjudicator.rulesets.blood_royale.battle_orders import (
    record_standing_orders,
    register_battle_orders,
)
from adjudicator.rulesets.blood_royale.board import board
from adjudicator.rulesets.blood_royale.diplomacy import (
    apply_passage_and_interventions,
    end_interventions,
)
from adjudicator.rulesets.blood_royale.economy import run_interphase
from adjudicator.rulesets.blood_royale.forces import reorganise
from adjudicator.rulesets.blood_royale.movement import ContactResolver, run_movement
from adjudicator.rulesets.blood_royale.orders import register_br_orders
from adjudicator.rulesets.blood_royale.rulings import (
    BR_ARBITER_GRAMMAR,
    ControlOrder,
    apply_control,
    check_control,
    foresee_control,
)
from adjudicator.rulesets.blood_royale.scoring import emit_wealth_rows, run_cash_in_and_victory
from adjudicator.rulesets.blood_royale.setup import RULESET_ID, build_blood_royale_state
from adjudicator.rulesets.blood_royale.tables import br_rules
from adjudicator.rulesets.blood_royale.template import blood_royale_template
from adjudicator.rulesets.blood_royale.turnstate import br_turn
from adjudicator.rulesets.blood_royale.validation import validate_blood_royale
from adjudicator.rulesets.blood_royale.wealth import wealth_rules
from adjudicator.state import GameState


def build_grammar() -> Grammar:
    """The dynasty orders, the war and economy orders, and the battle orders."""
    grammar = DYNASTY_GRAMMAR.extended()
    register_br_orders(grammar)
    register_battle_orders(grammar)
    return grammar


BLOOD_ROYALE_GRAMMAR = build_grammar()


class BloodRoyaleRuleset(DynasticRuleset):
    id = RULESET_ID
    grammar: Grammar = BLOOD_ROYALE_GRAMMAR
    arbiter_grammar: Grammar = BR_ARBITER_GRAMMAR
    defaults = ("one birth attempt per eligible couple, automatic assignment of commanders, "
                "prisoners kept, normal taxes, no armies raised, units hold, standing orders "
                "and passage unchanged")

    def __init__(self, rules: Mapping[str, Any],
                 resolve_contacts: ContactResolver | None = None) -> None:
        """``resolve_contacts`` replaces the battle rules, for tests of movement alone."""
        super().__init__(rules)
        self.resolve_contacts: ContactResolver = resolve_contacts or battle.resolve_contacts

    def check_rules(self) -> None:
        super().check_rules()
        br_rules(self.rules)
        wealth_rules(self.rules)
        battle.battle_rules(self.rules)

    def setup(self, spec: Mapping[str, Any], dice: Dice) -> GameState:
        return build_blood_royale_state(spec, self.rules, dice)

    def validate_lines(self, state: GameState, sheets: dict[str, OrderSheet]) -> None:
        super().validate_lines(state, sheets)
        validate_blood_royale(state, sheets, self.rules)

    def check_directive(self, state: GameState, order: Order, turn: int) -> str | None:
        if isinstance(order, ControlOrder):
            return check_control(state, order)
        return super().check_directive(state, order, turn)

    def foresee_directive(self, state: GameState, order: Order) -> None:
        if isinstance(order, ControlOrder):
            foresee_control(state, order)
        else:
            super().foresee_directive(state, order)

    def apply_directive(self, ctx: TurnContext, order: Order) -> None:
        if isinstance(order, ControlOrder):
            apply_control(ctx, order, ARBITER)
        else:
            super().apply_directive(ctx, order)

    def house_eliminated(self, ctx: TurnContext, house: str) -> None:
        """A6 on the board: the house's provinces uncontrolled, its counters gone."""
        found = board(ctx.state)
        for province in found.provinces.values():
            if province.controller == house:
                province.controller = None
        found.counters = [c for c in found.counters if c.owner != house]

    def play_turn(self, ctx: TurnContext) -> None:
        super().play_turn(ctx)
        state = ctx.state
        turn = br_turn(ctx)
        ctx.dice.set_phase("interphase")
        apply_passage_and_interventions(ctx)
        record_standing_orders(ctx)
        run_interphase(ctx, turn)
        reorganise(ctx)
        run_movement(ctx, turn, self.resolve_contacts)
        ctx.dice.set_phase("succession")
        settle_successions(ctx)
        run_cash_in_and_victory(ctx, turn)
        end_interventions(state)
        ctx.dice.set_phase("wealth")
        emit_wealth_rows(ctx, turn)

    def template(self, state: GameState, house: str) -> str:
        return blood_royale_template(state, house, self.rules)

    def template_in(self, state: GameState, house: str, gettext: Gettext) -> str:
        return blood_royale_template(state, house, self.rules, gettext)
