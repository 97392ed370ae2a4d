"""Events of Les familles nobles (RULES.md D).

Public events show what the table shows: cards once they are played, the
generation counts and the trait points. What a player holds or draws, and
their secret trait, travel only in events marked ``public = False`` and
addressed to that player's ``house``, until the end reveals everything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from adjudicator.events import Event

CardFace = dict[str, Any]
"""``{"id": 17, "sex": "F", "traits": [...]}``, as in the export."""


@dataclass(frozen=True, kw_only=True)
class FamillesDealt(Event):
    """The deal: seat order, the face-up generation 1 and the pile's size."""

    kind: ClassVar[str] = "familles-dealt"
    seats: tuple[str, ...]
    founders: tuple[CardFace, ...]
    hand: int
    pile: int


@dataclass(frozen=True, kw_only=True)
class FamillesHandDealt(Event):
    """A player's own hand and secret trait tile: for that player only."""

    kind: ClassVar[str] = "familles-hand-dealt"
    public: ClassVar[bool] = False
    house: str
    cards: tuple[CardFace, ...]
    trait: str

    def houses(self) -> list[str]:
        return [self.house]


@dataclass(frozen=True, kw_only=True)
class FamillesMarried(Event):
    """Card ``card`` was placed on the single card ``on`` (scores nothing)."""

    kind: ClassVar[str] = "familles-married"
    house: str
    card: int
    sex: str
    traits: tuple[str, ...]
    on: int
    generation: int
    drew: bool

    def houses(self) -> list[str]:
        return [self.house]


@dataclass(frozen=True, kw_only=True)
class FamillesDescendant(Event):
    """A descendant was played under a couple and scored for its traits."""

    kind: ClassVar[str] = "familles-descendant"
    house: str
    card: int
    sex: str
    traits: tuple[str, ...]
    parents: tuple[int, int]
    generation: int
    points: dict[str, int] = field(default_factory=dict)
    trait_points: dict[str, int] = field(default_factory=dict)

    def houses(self) -> list[str]:
        return [self.house]


@dataclass(frozen=True, kw_only=True)
class FamillesPassed(Event):
    """A player passed, by choice or because no valid move arrived in time."""

    kind: ClassVar[str] = "familles-passed"
    house: str
    drew: bool
    defaulted: bool = False

    def houses(self) -> list[str]:
        return [self.house]


@dataclass(frozen=True, kw_only=True)
class FamillesDrew(Event):
    """The card a player drew: for that player only."""

    kind: ClassVar[str] = "familles-drew"
    public: ClassVar[bool] = False
    house: str
    card: CardFace
    hand: int

    def houses(self) -> list[str]:
        return [self.house]


@dataclass(frozen=True, kw_only=True)
class FamillesGenerationFull(Event):
    """A generation reached its cap; the older generations were turned over."""

    kind: ClassVar[str] = "familles-generation-full"
    generation: int
    cap: int
    turned_over: tuple[int, ...]
    cards: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class FamillesGameEnded(Event):
    """The end: every secret trait revealed, hands counted, the winner named.

    ``reason`` is ``complete`` (the last generation is full) or ``stalled``
    (the pile ran out and a whole round passed). ``scores`` holds one entry
    per seat, in seat order, as in ``FinalScore.to_dict``.
    """

    kind: ClassVar[str] = "familles-game-ended"
    reason: str
    scores: tuple[dict[str, Any], ...]
    trait_points: dict[str, int] = field(default_factory=dict)
    winners: tuple[str, ...] = ()

    def houses(self) -> list[str]:
        return [s["seat"] for s in self.scores]
