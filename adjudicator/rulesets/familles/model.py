"""The game on the table: Les familles nobles' part of the state.

``Familles`` is the ruleset's typed part of the ``GameState`` (snapshots keep
it under ``extra["familles"]``); ``Familles.from_state`` finds it and
``Familles.store`` puts it back with the result of the game. The
questions the rules ask of the table (which generation is current, which
cards are turned over, which couples exist) are answered here, once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from adjudicator.errors import AdjudicationError
from adjudicator.rulesets.familles.config import FamillesRules
from adjudicator.state import GameState, RulesetData


class Role(StrEnum):
    """How a card came to the table."""

    FOUNDER = "founder"        # one of the face-up portraits of generation 1
    DESCENDANT = "descendant"  # played under a couple; scores
    SPOUSE = "spouse"          # placed on a single card: married in, scores nothing


@dataclass(frozen=True)
class Card:
    """A portrait: its number, its sex (``M``/``F``) and its traits."""

    id: int
    sex: str
    traits: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "sex": self.sex, "traits": list(self.traits)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Card:
        return cls(id=int(data["id"]), sex=str(data["sex"]), traits=tuple(data["traits"]))


@dataclass
class Placement:
    """A card on the table: where it sits in the family tree."""

    card: int
    generation: int
    role: Role
    parents: tuple[int, int] | None = None
    spouse: int | None = None
    placed_turn: int = 0
    placed_by: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "generation": self.generation,
            "role": self.role.value,
            "parents": list(self.parents) if self.parents else None,
            "spouse": self.spouse,
            "placed_turn": self.placed_turn,
            "placed_by": self.placed_by,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Placement:
        parents = data.get("parents")
        return cls(
            card=int(data["card"]),
            generation=int(data["generation"]),
            role=Role(data["role"]),
            parents=(int(parents[0]), int(parents[1])) if parents else None,
            spouse=data.get("spouse"),
            placed_turn=int(data.get("placed_turn", 0)),
            placed_by=data.get("placed_by"),
        )


@dataclass
class Seat:
    """A player: seat number, hand (card ids, sorted) and secret trait."""

    id: str
    seat: int
    hand: list[int]
    trait: str

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "seat": self.seat, "hand": list(self.hand), "trait": self.trait}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        return cls(id=str(data["id"]), seat=int(data["seat"]),
                   hand=[int(c) for c in data["hand"]], trait=str(data["trait"]))


@dataclass(frozen=True)
class FinalScore:
    """One player's reckoning at the end (RULES.md D, end of the game)."""

    seat: str
    trait: str
    trait_points: int
    hand: int
    penalty: int
    score: int

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "trait": self.trait, "trait_points": self.trait_points,
                "hand": self.hand, "penalty": self.penalty, "score": self.score}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FinalScore:
        return cls(**{k: data[k] for k in
                      ("seat", "trait", "trait_points", "hand", "penalty", "score")})


@dataclass
class Familles(RulesetData):
    """The whole game: rules snapshot, deck, pile, seats, table and score."""

    key: ClassVar[str] = "familles"

    rules: FamillesRules
    deck: dict[int, Card]
    pile: list[int]
    seats: list[Seat]
    table: list[Placement]
    current: int = 0
    trait_points: dict[str, int] = field(default_factory=dict)
    idle_passes: int = 0
    finished: bool = False
    end: str | None = None
    scores: list[FinalScore] = field(default_factory=list)
    winners: list[str] = field(default_factory=list)

    # -- storage -------------------------------------------------------------
    @classmethod
    def from_state(cls, state: GameState) -> Familles:
        """The game of ``state`` itself (not a copy: the rules change it in place)."""
        game = state.data_of(cls)
        if game is None:
            raise AdjudicationError("this game of Les familles nobles has not been dealt")
        return game

    def store(self, state: GameState) -> None:
        state.put_data(self)
        state.finished = self.finished
        state.winner = self.winners[0] if len(self.winners) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_mapping(),
            "deck": [self.deck[c].to_dict() for c in sorted(self.deck)],
            "pile": list(self.pile),
            "seats": [s.to_dict() for s in self.seats],
            "table": [p.to_dict() for p in self.table],
            "current": self.current,
            "trait_points": dict(self.trait_points),
            "idle_passes": self.idle_passes,
            "finished": self.finished,
            "end": self.end,
            "scores": [s.to_dict() for s in self.scores],
            "winners": list(self.winners),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Familles:
        cards = [Card.from_dict(c) for c in data["deck"]]
        return cls(
            rules=FamillesRules.from_mapping(data["rules"]),
            deck={c.id: c for c in cards},
            pile=[int(c) for c in data["pile"]],
            seats=sorted((Seat.from_dict(s) for s in data["seats"]), key=lambda s: s.seat),
            table=[Placement.from_dict(p) for p in data["table"]],
            current=int(data.get("current", 0)),
            trait_points={str(k): int(v) for k, v in data.get("trait_points", {}).items()},
            idle_passes=int(data.get("idle_passes", 0)),
            finished=bool(data.get("finished", False)),
            end=data.get("end"),
            scores=[FinalScore.from_dict(s) for s in data.get("scores", [])],
            winners=list(data.get("winners", [])),
        )

    # -- seats -----------------------------------------------------------------
    @property
    def to_move(self) -> Seat:
        return self.seats[self.current]

    def seat(self, seat_id: str) -> Seat | None:
        for seat in self.seats:
            if seat.id == seat_id:
                return seat
        return None

    # -- the table ---------------------------------------------------------------
    def placed(self, card: int) -> Placement | None:
        for placement in self.table:
            if placement.card == card:
                return placement
        return None

    def members(self, generation: int) -> list[Placement]:
        return [p for p in self.table if p.generation == generation]

    def count(self, generation: int) -> int:
        """Members of a generation that count against its cap (spouses do not)."""
        return sum(1 for p in self.members(generation) if p.role is not Role.SPOUSE)

    def is_full(self, generation: int) -> bool:
        cap = self.rules.caps.get(generation)
        return cap is not None and self.count(generation) >= cap

    @property
    def current_generation(self) -> int:
        """The youngest full generation, or 1 while none is full ([D], see the package)."""
        return max((g for g in self.rules.caps if self.is_full(g)), default=1)

    def is_turned_over(self, placement: Placement) -> bool:
        return placement.generation < self.current_generation

    def couples(self) -> list[tuple[Placement, Placement]]:
        """Married couples, each once: (the card married onto, its spouse)."""
        found = []
        for placement in self.table:
            if placement.role is not Role.SPOUSE and placement.spouse is not None:
                partner = self.placed(placement.spouse)
                if partner is not None:
                    found.append((placement, partner))
        return found

    def card_traits(self, card: int) -> tuple[str, ...]:
        return self.deck[card].traits
