"""``FamillesRuleset``: one move per adjudicated turn, in seat order (RULES.md D).

Only the seat whose turn it is may move. Its first legal move line is
played; further move lines are refused, and so is every line from another
seat. A seat that sent no legal move passes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from adjudicator.dice import Dice
from adjudicator.errors import AdjudicationError
from adjudicator.messages import msg
from adjudicator.orders import Grammar, Order, OrderSheet
from adjudicator.rulesets.base import Gettext, Ruleset, TurnResult
from adjudicator.rulesets.familles.arbiter import ARBITER, ARBITER_GRAMMAR
from adjudicator.rulesets.familles.config import FamillesRules, years_per_turn
from adjudicator.rulesets.familles.deck import seat_houses, setup_familles
from adjudicator.rulesets.familles.model import Familles
from adjudicator.rulesets.familles.moves import (
    GRAMMAR,
    Descendant,
    Marry,
    Pass,
    descendant_problem,
    marry_problem,
)
from adjudicator.rulesets.familles.play import play_move
from adjudicator.rulesets.familles.template import order_template
from adjudicator.state import GameState


def order_problem(game: Familles, seat: str, order: Order) -> str | None:
    """Why ``seat`` may not play ``order`` now, if it may not."""
    if game.finished:
        return msg("the game is over")
    if game.seat(seat) is None:
        return msg("%(seat)s has no seat at this table", seat=seat)
    if game.to_move.id != seat:
        return msg("it is %(to_move)s's turn, not %(seat)s's", to_move=game.to_move.id, seat=seat)
    if isinstance(order, Marry):
        return marry_problem(game, seat, order.card, order.on)
    if isinstance(order, Descendant):
        return descendant_problem(game, seat, order.card, order.parents)
    if isinstance(order, Pass):
        return None
    return msg("this is not an order of Les familles nobles")


class FamillesRuleset(Ruleset):
    """Les familles nobles.

    ``rules`` is the parsed ``familles.toml``, either alone or under the key
    ``familles`` beside other tables. The numbers are read at ``setup``; a
    dealt game then follows the copy kept in its state.
    """

    id = "familles"
    grammar = GRAMMAR
    defaults = "a pass: you draw a card"
    spec_fields: ClassVar[Mapping[str, Mapping[str, type]]] = {
        "house": {"id": str, "letter": str, "name": str, "player": str, "color": str}}

    @property
    def numbers(self) -> Mapping[str, Any]:
        """The ``familles.toml`` tables within ``rules``."""
        inner = self.rules.get("familles")
        return inner if isinstance(inner, Mapping) else self.rules

    def check_rules(self) -> None:
        FamillesRules.from_mapping(self.numbers)

    def grammar_for(self, house: str) -> Grammar:
        """The arbiter's file is read with the arbiter's grammar (DESIGN.md "Arbiter
        directives"), whose every directive this game refuses with its reason."""
        return ARBITER_GRAMMAR if house == ARBITER else self.grammar

    def setup(self, spec: Mapping[str, Any], dice: Dice) -> GameState:
        """The dealt state before move 1, for the ``[[house]]`` players of ``spec``."""
        return self.deal(seat_houses(spec, years_per_turn(self.numbers)), dice).state

    def deal(self, state: GameState, dice: Dice) -> TurnResult:
        """Deal to the houses of ``state``, keeping the deal's events (``setup_familles``)."""
        return setup_familles(state, self.numbers, dice)

    def ordering_houses(self, state: GameState) -> list[str]:
        game = Familles.from_state(state)
        return [] if game.finished else [game.to_move.id]

    def validate(self, state: GameState, sheets: dict[str, OrderSheet]) -> None:
        game = Familles.from_state(state)
        for seat in sorted(sheets):
            sheet = sheets[seat]
            kept: list[Order] = []
            for order in sheet.orders:
                reason = order_problem(game, seat, order)
                if reason is None and kept:
                    reason = msg("one move per turn: line %(line)s already holds your move",
                                 line=kept[0].line)
                if reason is None:
                    kept.append(order)
                else:
                    sheet.reject(order, reason)
            sheet.orders = kept

    def resolve(self, state: GameState, sheets: dict[str, OrderSheet], dice: Dice) -> TurnResult:
        new = state.copy()
        game = Familles.from_state(new)
        if game.finished:
            raise AdjudicationError("the game of Les familles nobles is over")
        self.validate(new, sheets)
        seat = game.to_move.id
        sheet = sheets.get(seat)
        move = sheet.orders[0] if sheet is not None and sheet.orders else None
        new.turn += 1
        if isinstance(move, Marry | Descendant | Pass):
            events = play_move(game, move, turn=new.turn)
        else:
            events = play_move(game, Pass(line=0, text="pass"), turn=new.turn, defaulted=True)
        game.store(new)
        rejections = [r for house in sorted(sheets) for r in sheets[house].rejections]
        return TurnResult(state=new, events=events, rolls=list(dice.log),
                          rejections=rejections, defaulted=[] if move else [seat])

    def template(self, state: GameState, house: str) -> str:
        return order_template(Familles.from_state(state), house, state.turn + 1)

    def template_in(self, state: GameState, house: str, gettext: Gettext) -> str:
        return order_template(Familles.from_state(state), house, state.turn + 1, gettext)
