"""The JSON export of a game of Les familles nobles (DESIGN.md, JSON export).

While the game runs it holds only what the table shows: the placed cards, hand
sizes and trait points. Once it is over every secret is revealed: the secret
traits and scores, and the whole deck (the cards left in hands and in the pile
come after the placed ones, with ``generation`` and ``placed_turn`` null and
``held_by`` naming the hand, or null for the pile), so the deal can be checked.
Beyond the contract's fields it adds what the site needs to draw the tree:
each card's role, who placed it and whether it is turned over, the traits'
names and colours, the generations' counts, the seat to move and the pile.
"""

from __future__ import annotations

from typing import Any

from adjudicator.rulesets.familles.model import Familles
from adjudicator.state import GameState


def export_familles(state: GameState) -> dict[str, Any]:
    """``cards``, ``players``, ``trait_points`` and ``winner``, plus extras."""
    game = Familles.from_state(state)
    scores = {s.seat: s for s in game.scores}
    cards = []
    for placement in sorted(game.table, key=lambda p: (p.placed_turn, p.card)):
        face = game.deck[placement.card]
        cards.append({
            "id": face.id,
            "sex": face.sex,
            "traits": list(face.traits),
            "generation": placement.generation,
            "parents": list(placement.parents) if placement.parents else None,
            "spouse": placement.spouse,
            "placed_turn": placement.placed_turn,
            "placed_by": placement.placed_by,
            "role": placement.role.value,
            "turned_over": game.is_turned_over(placement),
        })
    if game.finished:
        placed = {p.card for p in game.table}
        holder = {card: seat.id for seat in game.seats for card in seat.hand}
        for card_id in sorted(game.deck):
            if card_id in placed:
                continue
            face = game.deck[card_id]
            cards.append({
                "id": face.id, "sex": face.sex, "traits": list(face.traits),
                "generation": None, "parents": None, "spouse": None, "placed_turn": None,
                "placed_by": None, "role": "hand" if card_id in holder else "pile",
                "turned_over": False, "held_by": holder.get(card_id),
            })
    players = []
    for seat in game.seats:
        final = scores.get(seat.id)
        players.append({
            "id": seat.id,
            "seat": seat.seat,
            "trait": seat.trait if game.finished else None,
            "hand": len(seat.hand),
            "score": final.score if final else None,
            "penalty": final.penalty if final else None,
            "cards": sorted(seat.hand) if game.finished else None,
        })
    return {
        "cards": cards,
        "players": players,
        "trait_points": {t: game.trait_points.get(t, 0) for t in game.rules.trait_ids},
        "winner": game.winners[0] if len(game.winners) == 1 else None,
        "winners": list(game.winners),
        "finished": game.finished,
        "end": game.end,
        "to_move": None if game.finished else game.to_move.id,
        "draw_pile": len(game.pile),
        "current_generation": game.current_generation,
        "generations": [{"generation": g, "members": game.count(g), "cap": cap}
                        for g, cap in sorted(game.rules.caps.items())],
        "traits": [t.to_mapping() for t in game.rules.traits],
    }
