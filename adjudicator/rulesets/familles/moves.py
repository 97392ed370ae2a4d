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

from adjudicator.orders import Cursor, Grammar, Order, OrderSyntaxError
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
    card = cursor.integer("the card to place", 1)
    cursor.expect("on")
    on = cursor.integer("the single card to marry", 1)
    return Marry(line=cursor.line, text=cursor.text, card=card, on=on)


@GRAMMAR.rule("descendant")
def _descendant(cursor: Cursor) -> Order:
    card = cursor.integer("the descendant's card", 1)
    cursor.expect("under")
    rest = cursor.rest()
    if not rest or any(t.quoted for t in rest):
        raise OrderSyntaxError("name the couple as two card numbers, e.g. '4+17'")
    parts = "".join(t.text for t in rest).split("+")
    # isdigit alone admits "²" and "３", which int() then reads or chokes on.
    parents = tuple(int(p) for p in parts if p.isascii() and p.isdigit())
    if len(parts) != 2 or len(parents) != 2:
        raise OrderSyntaxError(
            f"name the couple as two card numbers joined by '+', e.g. '4+17', not "
            f"{' '.join(t.text for t in rest)!r}")
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
        return f"card {card} is not in your hand"
    return None


def _on_table(game: Familles, card: int) -> Placement | str:
    placement = game.placed(card)
    if placement is None:
        return f"card {card} is not on the table"
    return placement


def _turned_over(game: Familles, placement: Placement) -> str | None:
    if game.is_turned_over(placement):
        return (f"card {placement.card} is turned over: "
                f"generation {game.current_generation} is full")
    return None


def marry_problem(game: Familles, seat: str, card: int, on: int) -> str | None:
    """Why ``card`` from ``seat``'s hand may not be placed on ``on``, if it may not."""
    if game.finished:
        return "the game is over"
    problem = _in_hand(game, seat, card)
    if problem:
        return problem
    target = _on_table(game, on)
    if isinstance(target, str):
        return target
    if target.spouse is not None:
        return f"card {on} is already married"
    last = game.rules.last_generation
    if target.generation >= last:
        return f"card {on} is in generation {last}, whose members never marry"
    problem = _turned_over(game, target)
    if problem:
        return problem
    current = game.current_generation
    if target.generation > current + 1:
        return (f"card {on} is in generation {target.generation}; only generations "
                f"{current} and {current + 1} can marry now")
    sex = game.deck[card].sex
    if sex == game.deck[on].sex:
        kind = game.rules.sex_name(sex)
        return f"cards {card} and {on} are both a {kind}: a marriage joins a man and a woman"
    return None


def descendant_problem(game: Familles, seat: str, card: int,
                       parents: tuple[int, int]) -> str | None:
    """Why ``card`` may not be played under ``parents``, if it may not."""
    if game.finished:
        return "the game is over"
    problem = _in_hand(game, seat, card)
    if problem:
        return problem
    first, second = parents
    if first == second:
        return "a couple is two different cards"
    couple = []
    for parent in parents:
        placed = _on_table(game, parent)
        if isinstance(placed, str):
            return placed
        couple.append(placed)
    if couple[0].spouse != second:
        return f"cards {first} and {second} are not married to each other"
    generation = couple[0].generation + 1
    cap = game.rules.caps.get(generation)
    if cap is None:
        return f"generation {couple[0].generation} has no descendants"
    if game.count(generation) >= cap:
        return f"generation {generation} is full ({game.count(generation)} of {cap})"
    problem = _turned_over(game, couple[0])
    if problem:
        return problem
    foreign = [t for t in game.card_traits(card)
               if t not in game.card_traits(first) + game.card_traits(second)]
    if foreign:
        names = " and ".join(game.rules.trait_name(t) for t in foreign)
        return f"card {card} has {names}, which neither {first} nor {second} carries"
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
