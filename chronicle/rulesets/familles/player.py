"""A built-in player for Les familles nobles (RULES.md D).

It looks only at what its seat may know: its own hand and secret trait, and
the public table. Its habits, in order:

1. play a descendant that carries its trait, in the youngest generation it
   can (the most points), giving the fewest points to other traits;
2. marry to make a couple that carries its trait, best of all one under
   which a card of its hand carrying its trait could be played next;
3. shed a card when holding it costs more than it gives (the hand is over
   its dealt size, or the pile is empty): the descendant that gives other
   traits the fewest points, or else, with the pile empty, any marriage;
4. pass.

It is deterministic: equal choices go to the lowest card numbers.
"""

from __future__ import annotations

from adjudicator.rulesets.familles import (
    Descendant,
    Familles,
    Marry,
    Move,
    Pass,
    legal_moves,
    render,
)
from adjudicator.state import GameState


def familles_orders(state: GameState, seat: str) -> str:
    """The order file of ``seat`` for the next move: a header, and a move if on turn."""
    game = Familles.from_state(state)
    lines = [f"house {seat}"]
    if not game.finished and game.to_move.id == seat:
        lines.append(render(choose_move(game, seat)))
    return "\n".join(lines) + "\n"


def choose_move(game: Familles, seat: str) -> Move:
    """The move this player makes now (see the module's habits)."""
    player = game.seat(seat)
    if player is None:
        return Pass(line=0, text="pass")
    own = player.trait
    moves = legal_moves(game, seat)
    births = [m for m in moves if isinstance(m, Descendant)]
    mine = [m for m in births if own in game.card_traits(m.card)]
    if mine:
        return max(mine, key=lambda m: (_generation(game, m), -_gift(game, m, own),
                                        -m.card, _neg(m.parents)))
    marriages = [m for m in moves if isinstance(m, Marry)]
    hopeful = [m for m in marriages if _marriage_value(game, seat, m) > 0]
    if hopeful:
        return max(hopeful, key=lambda m: (_marriage_value(game, seat, m), -m.card, -m.on))
    shedding = not game.pile or len(player.hand) > game.rules.hand
    if shedding and births:
        return min(births, key=lambda m: (_gift(game, m, own), m.card, m.parents))
    if shedding and marriages and not game.pile:
        return min(marriages, key=lambda m: (m.card, m.on))
    return Pass(line=0, text="pass")


def _neg(pair: tuple[int, int]) -> tuple[int, int]:
    return (-pair[0], -pair[1])


def _generation(game: Familles, move: Descendant) -> int:
    parent = game.placed(move.parents[0])
    return parent.generation + 1 if parent else 0


def _gift(game: Familles, move: Descendant, own: str) -> int:
    """Points this descendant would give to traits other than ``own``."""
    others = sum(1 for t in game.card_traits(move.card) if t != own)
    return others * _generation(game, move)


def _marriage_value(game: Familles, seat: str, move: Marry) -> int:
    """2: a card in hand could then score ``own``; 1: the couple carries it; 0: neither."""
    player = game.seat(seat)
    if player is None:
        return 0
    own = player.trait
    couple = game.card_traits(move.card) + game.card_traits(move.on)
    if own not in couple:
        return 0
    for card in player.hand:
        if card != move.card and own in game.card_traits(card) \
                and set(game.card_traits(card)) <= set(couple):
            return 2
    return 1


__all__ = ["choose_move", "familles_orders"]
