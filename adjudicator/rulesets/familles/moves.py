"""The three moves, their order lines, and what makes each legal (RULES.md D).

``GRAMMAR`` reads ``marry 17 on 4``, ``descendant 23 under 4+17`` (or
``4 + 17``) and ``pass``. ``marry_problem`` and ``descendant_problem`` say
in a player's words why a move is illegal, or return ``None``; validation,
the order template and the built-in player all ask them, so the rules of a
move live in one place. Whose turn it is is the ruleset's question, not
theirs.
"""

from __future__ import annotations

from dataclasses import dataclass

from adjudicator.errors import OrderSyntaxError
from adjudicator.messages import Name, every, msg
from adjudicator.orders import Cursor, Grammar, Order
from adjudicator.rulesets.familles.model import Familles, Placement


@dataclass(frozen=True, kw_only=True)
class Marry(Order):
    """Place ``card`` from hand on the single card ``on``."""

    card: int
    on: int


@dataclass(frozen=True, kw_only=True)
class Descendant(Order):
    """Play ``card`` from hand under the couple ``parents``."""

    card: int
    parents: tuple[int, int]


@dataclass(frozen=True, kw_only=True)
class Pass(Order):
    """Play no card; draw one."""


Move = Marry | Descendant | Pass

GRAMMAR = Grammar()


@GRAMMAR.rule("marry")
def _marry(cursor: Cursor) -> Order:
    card = cursor.integer(msg("the card to place"), 1)
    cursor.expect("on")
    on = cursor.integer(msg("the single card to marry"), 1)
    return Marry(line=cursor.line, text=cursor.text, card=card, on=on)


@GRAMMAR.rule("descendant")
def _descendant(cursor: Cursor) -> Order:
    card = cursor.integer(msg("the descendant's card"), 1)
    cursor.expect("under")
    rest = cursor.rest()
    if not rest or any(t.quoted for t in rest):
        raise OrderSyntaxError(msg("name the couple as two card numbers, e.g. '4+17'"))
    parts = "".join(t.text for t in rest).split("+")
    # isdigit alone admits "²" and "３", which int() then reads or chokes on.
    parents = tuple(int(p) for p in parts if p.isascii() and p.isdigit())
    if len(parts) != 2 or len(parents) != 2:
        raise OrderSyntaxError(
            msg("name the couple as two card numbers joined by '+', e.g. '4+17', not %(value)s",
                value=repr(' '.join(t.text for t in rest))))
    return Descendant(line=cursor.line, text=cursor.text, card=card,
                      parents=(parents[0], parents[1]))


@GRAMMAR.rule("pass")
def _pass(cursor: Cursor) -> Order:
    return Pass(line=cursor.line, text=cursor.text)


def render(move: Move) -> str:
    """The order line for a move, as a player would write it."""
    if isinstance(move, Marry):
        return f"marry {move.card} on {move.on}"
    if isinstance(move, Descendant):
        return f"descendant {move.card} under {move.parents[0]}+{move.parents[1]}"
    return "pass"


def _in_hand(game: Familles, seat: str, card: int) -> str | None:
    player = game.seat(seat)
    if player is None or card not in player.hand:
        return msg("card %(card)s is not in your hand", card=card)
    return None


def _on_table(game: Familles, card: int) -> Placement | str:
    placement = game.placed(card)
    if placement is None:
        return msg("card %(card)s is not on the table", card=card)
    return placement


def _turned_over(game: Familles, placement: Placement) -> str | None:
    if game.is_turned_over(placement):
        return (msg("card %(card)s is turned over: generation %(current_generation)s is full",
                    card=placement.card, current_generation=game.current_generation))
    return None


def marry_problem(game: Familles, seat: str, card: int, on: int) -> str | None:
    """Why ``card`` from ``seat``'s hand may not be placed on ``on``, if it may not."""
    if game.finished:
        return msg("the game is over")
    problem = _in_hand(game, seat, card)
    if problem:
        return problem
    target = _on_table(game, on)
    if isinstance(target, str):
        return target
    if target.spouse is not None:
        return msg("card %(on)s is already married", on=on)
    last = game.rules.last_generation
    if target.generation >= last:
        return msg("card %(on)s is in generation %(last)s, whose members never marry", on=on,
                   last=last)
    problem = _turned_over(game, target)
    if problem:
        return problem
    current = game.current_generation
    if target.generation > current + 1:
        return (msg("card %(on)s is in generation %(generation)s; only generations %(current)s "
                    "and %(value)s can marry now", on=on, generation=target.generation,
                    current=current, value=current + 1))
    sex = game.deck[card].sex
    if sex == game.deck[on].sex:
        kind = Name("sex", sex, game.rules.sex_name(sex), game.rules.sexes[sex].names)
        return msg("cards %(card)s and %(on)s are both a %(kind)s: a marriage joins a man and "
                   "a woman", card=card, on=on, kind=kind)
    return None


def descendant_problem(game: Familles, seat: str, card: int,
                       parents: tuple[int, int]) -> str | None:
    """Why ``card`` may not be played under ``parents``, if it may not."""
    if game.finished:
        return msg("the game is over")
    problem = _in_hand(game, seat, card)
    if problem:
        return problem
    first, second = parents
    if first == second:
        return msg("a couple is two different cards")
    couple = []
    for parent in parents:
        placed = _on_table(game, parent)
        if isinstance(placed, str):
            return placed
        couple.append(placed)
    if couple[0].spouse != second:
        return msg("cards %(first)s and %(second)s are not married to each other", first=first,
                   second=second)
    generation = couple[0].generation + 1
    cap = game.rules.caps.get(generation)
    if cap is None:
        return msg("generation %(generation)s has no descendants", generation=couple[0].generation)
    if game.count(generation) >= cap:
        return msg("generation %(generation)s is full (%(value)s of %(cap)s)",
                   generation=generation, value=game.count(generation), cap=cap)
    problem = _turned_over(game, couple[0])
    if problem:
        return problem
    foreign = [t for t in game.card_traits(card)
               if t not in game.card_traits(first) + game.card_traits(second)]
    if foreign:
        names = every(Name("trait", t, game.rules.trait_name(t), game.rules.trait(t).names)
                      for t in foreign)
        return msg("card %(card)s has %(names)s, which neither %(first)s nor %(second)s "
                   "carries", card=card, names=names, first=first, second=second)
    return None


def legal_moves(game: Familles, seat: str) -> list[Move]:
    """Every legal marriage and descendant for ``seat``'s hand, then ``pass``.

    Whose turn it is is not checked: a player may study their options early.
    """
    player = game.seat(seat)
    if player is None or game.finished:
        return []
    moves: list[Move] = []
    for card in player.hand:
        moves.extend(Marry(line=0, text="", card=card, on=p.card) for p in game.table
                     if marry_problem(game, seat, card, p.card) is None)
        for parent, spouse in game.couples():
            pair = (parent.card, spouse.card)
            if descendant_problem(game, seat, card, pair) is None:
                moves.append(Descendant(line=0, text="", card=card, parents=pair))
    moves.append(Pass(line=0, text="pass"))
    return moves
