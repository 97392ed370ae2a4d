"""Les familles nobles, a card game played by mail (RULES.md Part D).

Players breed five generations of portraits and score their secret family
trait. The game is the ruleset's typed part of the state (``model.Familles``); each
adjudicated turn is one move by the seat whose turn it is.

Design decisions where the seed is silent ([D]):

* **Deck.** For each sex the 10 combinations of three traits appear 3 times
  each, and 5 combinations drawn by dice appear a fourth time (35 cards).
  Cards are numbered 1-35 for men and 36-70 for women, by combination; the
  pile is then shuffled by dice. A card's number is seen only once its face
  is: on the table, or in its holder's hand.
* **Deal.** The houses' order in the campaign file is the seat order. The
  top 3 cards of the pile form generation 1, whatever their sexes; hands are
  dealt one card at a time; each player then draws a trait tile. All of it
  is thrown with secret dice.
* **Members.** A card married in (placed on a single card) joins its
  partner's generation but is not a descendant: it scores nothing and does
  not count against the generation's cap. Generation 1's founders and every
  descendant are the generation's members.
* **Turning over.** A generation is full when it holds its cap of
  descendants. Then it and every younger generation stay live, and every
  older generation is turned over: its cards, single or married, may no
  longer marry or have children. A cap is a maximum: a generation whose
  parents were turned over before it filled keeps fewer members.
* **The current generation** is the youngest full generation, or 1 while
  none is full. Its cards and those of the generation below it (the next
  one) may marry; the last generation never marries. So descendants are
  born into the two generations after the current one, and a descendant may
  marry and have children as soon as it is played, within those bounds.
* **Descendants.** Any live married couple may have more descendants while
  the children's generation is not full. Each of the descendant's 3 traits
  must appear on one of the two parents.
* **Empty pile.** A player who marries or passes draws nothing when the pile
  is empty. Once it is empty, a whole round of passes in a row ends the game
  ("stalled"), scored as a normal end.
* **Turns.** A move sent out of turn is refused; a seat that sends no legal
  move passes. A sheet's first legal move is played; later moves are
  refused.
* **Winner.** Highest score; then fewest cards in hand; then shared (see
  ``scoring``).
"""

from adjudicator.rulesets.familles.config import FamillesRules, Style
from adjudicator.rulesets.familles.deck import build_deck, seat_houses, setup_familles
from adjudicator.rulesets.familles.events import (
    FamillesDealt,
    FamillesDescendant,
    FamillesDrew,
    FamillesGameEnded,
    FamillesGenerationFull,
    FamillesHandDealt,
    FamillesMarried,
    FamillesPassed,
)
from adjudicator.rulesets.familles.export import export_familles
from adjudicator.rulesets.familles.model import Card, Familles, FinalScore, Placement, Role, Seat
from adjudicator.rulesets.familles.moves import (
    GRAMMAR,
    Descendant,
    Marry,
    Move,
    Pass,
    descendant_problem,
    legal_moves,
    marry_problem,
    render,
)
from adjudicator.rulesets.familles.play import play_move
from adjudicator.rulesets.familles.ruleset import FamillesRuleset, order_problem
from adjudicator.rulesets.familles.scoring import (
    descendant_points,
    final_scores,
    hand_penalty,
    points_from_tree,
    winners,
)
from adjudicator.rulesets.familles.template import describe_card, order_template

__all__ = [
    "GRAMMAR",
    "Card",
    "Descendant",
    "Familles",
    "FamillesDealt",
    "FamillesDescendant",
    "FamillesDrew",
    "FamillesGameEnded",
    "FamillesGenerationFull",
    "FamillesHandDealt",
    "FamillesMarried",
    "FamillesPassed",
    "FamillesRules",
    "FamillesRuleset",
    "FinalScore",
    "Marry",
    "Move",
    "Pass",
    "Placement",
    "Role",
    "Seat",
    "Style",
    "build_deck",
    "descendant_points",
    "descendant_problem",
    "describe_card",
    "export_familles",
    "final_scores",
    "hand_penalty",
    "legal_moves",
    "marry_problem",
    "order_problem",
    "order_template",
    "play_move",
    "points_from_tree",
    "render",
    "seat_houses",
    "setup_familles",
    "winners",
]
