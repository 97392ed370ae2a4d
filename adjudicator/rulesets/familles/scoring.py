"""Points, hand penalties and the winner (RULES.md D).

A descendant of generation *g* scores *g* points for each of its traits.
At the end a player holding *k* cards loses 1 + 2 + … + *k* points from
their trait's total. The highest total wins.

[D] Ties: among the players with the highest total, the one holding fewer
cards wins (they shed their hand more thoroughly); players still tied share
the victory, and every one of them is listed among the winners.
"""

from __future__ import annotations

from adjudicator.rulesets.familles.model import Familles, FinalScore, Role


def descendant_points(generation: int, traits: tuple[str, ...]) -> dict[str, int]:
    """What one descendant adds to each of its traits."""
    return {trait: generation for trait in traits}


def points_from_tree(game: Familles) -> dict[str, int]:
    """Every trait's points, summed afresh over the descendants on the table."""
    totals = {trait: 0 for trait in game.rules.trait_ids}
    for placement in game.table:
        if placement.role is Role.DESCENDANT:
            for trait, points in descendant_points(
                    placement.generation, game.card_traits(placement.card)).items():
                totals[trait] += points
    return totals


def hand_penalty(cards: int) -> int:
    """1 point for the first card held, 2 for the second, and so on."""
    return cards * (cards + 1) // 2


def final_scores(game: Familles) -> list[FinalScore]:
    """Each seat's trait total, hand penalty and score, in seat order."""
    scores = []
    for seat in game.seats:
        points = game.trait_points.get(seat.trait, 0)
        penalty = hand_penalty(len(seat.hand))
        scores.append(FinalScore(seat=seat.id, trait=seat.trait, trait_points=points,
                                 hand=len(seat.hand), penalty=penalty,
                                 score=points - penalty))
    return scores


def winners(scores: list[FinalScore]) -> list[str]:
    """The best score; then the fewest cards in hand; a remaining tie is shared."""
    if not scores:
        return []
    best = max(scores, key=lambda s: (s.score, -s.hand))
    return [s.seat for s in scores if (s.score, s.hand) == (best.score, best.hand)]
