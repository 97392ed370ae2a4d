"""Building the deck and dealing a game (RULES.md D, Deck and Setup).

Every throw here is secret while the game runs: the shuffle decides every
hand and the order of the pile, and the trait draw decides who plays for
which family. The seed, revealed at the end, lets anyone re-check them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from adjudicator.dice import Dice
from adjudicator.errors import AdjudicationError, SetupError
from adjudicator.events import Event
from adjudicator.rulesets.base import TurnResult
from adjudicator.rulesets.familles.config import SEXES, FamillesRules
from adjudicator.rulesets.familles.events import FamillesDealt, FamillesHandDealt
from adjudicator.rulesets.familles.model import Card, Familles, Placement, Role, Seat
from adjudicator.state import GameState, House

T = TypeVar("T")


def draw_secretly(dice: Dice, pool: Sequence[T], count: int, purpose: str,
                  subject: str | None = None) -> list[T]:
    """Draw ``count`` items from ``pool`` one by one, as tiles from a bag."""
    left = list(pool)
    drawn: list[T] = []
    for _ in range(count):
        drawn.append(left.pop(dice.pick(len(left), purpose, subject, secret=True)))
    return drawn


def build_deck(rules: FamillesRules, dice: Dice) -> list[Card]:
    """The portraits, numbered men first, then women, by trait combination.

    [D] For each sex every combination of traits appears ``count // combos``
    times, and ``count % combos`` combinations drawn by dice appear once more
    (35 cards over 10 combinations: five appear 3 times, five 4 times).
    """
    cards: list[Card] = []
    combos = rules.combinations()
    for sex in SEXES:
        base, extra = divmod(rules.count(sex), len(combos))
        more = set(draw_secretly(dice, combos, extra, "familles-deck-extra-copy", sex))
        for combo in combos:
            for _ in range(base + (combo in more)):
                cards.append(Card(id=len(cards) + 1, sex=sex, traits=combo))
    return cards


def seat_houses(spec: Mapping[str, Any], years_per_turn: int) -> GameState:
    """An undealt state holding the players a campaign declares as ``[[house]]``.

    Only ``id`` is required; ``name`` defaults to the id, ``letter`` to the
    seat's letter (A, B, …). The declaration order is the seat order.
    """
    start = spec.get("start_year", 1)
    if not isinstance(start, int) or isinstance(start, bool):
        raise SetupError("start_year must be a whole number")
    state = GameState(ruleset="familles", start_year=start, years_per_turn=years_per_turn)
    entries = spec.get("house", [])
    if not isinstance(entries, list) or not entries:
        raise SetupError("the campaign declares no [[house]] (one per player)")
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, Mapping):
            raise SetupError(f"[[house]] number {number} is not a table")
        ident = entry.get("id")
        if not isinstance(ident, str) or not ident or ident in state.houses \
                or ident == "arbiter" or ident != ident.lower() or " " in ident:
            raise SetupError(f"[[house]] number {number}: the id must be unique, lowercase, "
                             f"without spaces, and not 'arbiter', not {ident!r}")
        state.houses[ident] = House(
            id=ident,
            letter=str(entry.get("letter", chr(64 + number))),
            name=str(entry.get("name", ident)),
            player=str(entry.get("player", "")),
            color=str(entry.get("color", "#555555")),
        )
    return state


def setup_familles(state: GameState, rules: Mapping[str, Any] | FamillesRules,
                   dice: Dice) -> TurnResult:
    """Deal a new game to the houses of ``state``, in their order of declaration.

    The houses' order in the campaign file is the seat order. The shuffled
    pile's top cards form generation 1, then each player is dealt a hand one
    card at a time, and draws a secret trait tile. Returns the dealt state
    (a copy), the deal's events and the recorded rolls.
    """
    if not isinstance(rules, FamillesRules):
        rules = FamillesRules.from_mapping(rules)
    if state.data_of(Familles) is not None:
        raise AdjudicationError("this game of Les familles nobles is already dealt")
    houses = list(state.houses)
    if not rules.min_players <= len(houses) <= rules.max_players:
        raise AdjudicationError(f"Les familles nobles needs {rules.min_players} to "
                                f"{rules.max_players} players, not {len(houses)}")
    new = state.copy()
    dice.set_phase("setup")
    deck = build_deck(rules, dice)
    pile = draw_secretly(dice, [c.id for c in deck], len(deck), "familles-shuffle")
    founders, pile = pile[: rules.first_generation], pile[rules.first_generation :]
    hands: list[list[int]] = [[] for _ in houses]
    for i in range(rules.hand * len(houses)):
        hands[i % len(houses)].append(pile[i])
    pile = pile[rules.hand * len(houses) :]
    seats = []
    tiles = list(rules.trait_ids)
    for number, (house, hand) in enumerate(zip(houses, hands, strict=True), start=1):
        trait = draw_secretly(dice, tiles, 1, "familles-trait-tile", house)[0]
        tiles.remove(trait)
        seats.append(Seat(id=house, seat=number, hand=sorted(hand), trait=trait))
    game = Familles(
        rules=rules,
        deck={c.id: c for c in deck},
        pile=pile,
        seats=seats,
        table=[Placement(card=c, generation=1, role=Role.FOUNDER) for c in founders],
        trait_points={t: 0 for t in rules.trait_ids},
    )
    game.store(new)
    events: list[Event] = [FamillesDealt(
        phase="setup",
        seats=tuple(s.id for s in seats),
        founders=tuple(game.deck[c].to_dict() for c in founders),
        hand=rules.hand,
        pile=len(pile),
    )]
    events.extend(
        FamillesHandDealt(phase="setup", house=s.id, trait=s.trait,
                          cards=tuple(game.deck[c].to_dict() for c in s.hand))
        for s in seats)
    return TurnResult(state=new, events=events, rolls=list(dice.log), rejections=[])
