"""Applying one move to the table (RULES.md D, A player's turn).

``play_move`` trusts its move: ``FamillesRuleset.validate`` has checked it.
It places the card, draws, scores, turns generations over, passes the turn
to the next seat, and ends the game when the last generation is full or
when play has stalled.
"""

from __future__ import annotations

from adjudicator.errors import AdjudicationError
from adjudicator.events import Event
from adjudicator.rulesets.familles.events import (
    FamillesDescendant,
    FamillesDrew,
    FamillesGameEnded,
    FamillesGenerationFull,
    FamillesMarried,
    FamillesPassed,
)
from adjudicator.rulesets.familles.model import Familles, Placement, Role, Seat
from adjudicator.rulesets.familles.moves import Descendant, Marry, Move
from adjudicator.rulesets.familles.scoring import descendant_points, final_scores, winners

PHASE = "move"


def play_move(game: Familles, move: Move, *, turn: int,
              defaulted: bool = False) -> list[Event]:
    """Apply ``move`` for the seat whose turn it is, in place; return the events."""
    seat = game.to_move
    if isinstance(move, Marry):
        events = _marry(game, seat, move, turn)
    elif isinstance(move, Descendant):
        events = _descend(game, seat, move, turn)
    else:
        events = _pass(game, seat, defaulted)
    if not game.finished:
        game.current = (game.current + 1) % len(game.seats)
    return events


def _table_card(game: Familles, card: int) -> Placement:
    placement = game.placed(card)
    if placement is None:
        raise AdjudicationError(f"card {card} is not on the table: the move was not validated")
    return placement


def _draw(game: Familles, seat: Seat) -> FamillesDrew | None:
    if not game.pile:
        return None
    card = game.pile.pop(0)
    seat.hand = sorted([*seat.hand, card])
    return FamillesDrew(phase=PHASE, house=seat.id, card=game.deck[card].to_dict(),
                        hand=len(seat.hand))


def _marry(game: Familles, seat: Seat, move: Marry, turn: int) -> list[Event]:
    target = _table_card(game, move.on)
    seat.hand.remove(move.card)
    target.spouse = move.card
    game.table.append(Placement(card=move.card, generation=target.generation,
                                role=Role.SPOUSE, spouse=move.on,
                                placed_turn=turn, placed_by=seat.id))
    game.idle_passes = 0
    drew = _draw(game, seat)
    card = game.deck[move.card]
    events: list[Event] = [FamillesMarried(
        phase=PHASE, house=seat.id, card=card.id, sex=card.sex, traits=card.traits,
        on=move.on, generation=target.generation, drew=drew is not None)]
    if drew is not None:
        events.append(drew)
    return events


def _descend(game: Familles, seat: Seat, move: Descendant, turn: int) -> list[Event]:
    parent = _table_card(game, move.parents[0])
    generation = parent.generation + 1
    current_before = game.current_generation
    seat.hand.remove(move.card)
    game.table.append(Placement(card=move.card, generation=generation,
                                role=Role.DESCENDANT, parents=move.parents,
                                placed_turn=turn, placed_by=seat.id))
    game.idle_passes = 0
    card = game.deck[move.card]
    points = descendant_points(generation, card.traits)
    for trait, gained in points.items():
        game.trait_points[trait] = game.trait_points.get(trait, 0) + gained
    events: list[Event] = [FamillesDescendant(
        phase=PHASE, house=seat.id, card=card.id, sex=card.sex, traits=card.traits,
        parents=move.parents, generation=generation, points=points,
        trait_points=dict(game.trait_points))]
    cap = game.rules.caps[generation]
    if game.count(generation) == cap:
        turned = tuple(range(current_before, game.current_generation))
        events.append(FamillesGenerationFull(
            phase=PHASE, generation=generation, cap=cap, turned_over=turned,
            cards=tuple(p.card for p in game.table if p.generation in turned)))
        if generation == game.rules.last_generation:
            events.append(end_game(game, "complete"))
    return events


def _pass(game: Familles, seat: Seat, defaulted: bool) -> list[Event]:
    drew = _draw(game, seat)
    game.idle_passes = 0 if drew is not None else game.idle_passes + 1
    events: list[Event] = [FamillesPassed(phase=PHASE, house=seat.id,
                                          drew=drew is not None, defaulted=defaulted)]
    if drew is not None:
        events.append(drew)
    elif game.idle_passes >= len(game.seats):
        events.append(end_game(game, "stalled"))
    return events


def end_game(game: Familles, reason: str) -> FamillesGameEnded:
    """Reveal the traits, charge the hands, name the winners ([D] ties: scoring)."""
    game.finished = True
    game.end = reason
    game.scores = final_scores(game)
    game.winners = winners(game.scores)
    return FamillesGameEnded(phase=PHASE, reason=reason,
                             scores=tuple(s.to_dict() for s in game.scores),
                             trait_points=dict(game.trait_points),
                             winners=tuple(game.winners))
