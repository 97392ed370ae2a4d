"""Dice: the only source of chance in the engine.

``SeededDice`` derives an independent generator for every (turn, phase) pair
from the campaign seed, so adding a roll to one phase never shifts the rolls
of another, and a turn replayed with the same orders gives the same faces.
``ScriptedDice`` replays given faces, for tests. Both record every roll.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from adjudicator.errors import DiceExhausted


@dataclass(frozen=True, slots=True)
class Roll:
    """One recorded throw: who rolled what, for which purpose."""

    turn: int
    phase: str
    seq: int
    purpose: str
    subject: str | None
    dice: str
    faces: tuple[int, ...]
    total: int
    secret: bool = False


@dataclass
class Dice:
    """Base class: subclasses supply ``_face(sides)``; this records the rolls."""

    turn: int = 0
    phase: str = "setup"
    log: list[Roll] = field(default_factory=list)

    def _face(self, sides: int) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def set_phase(self, phase: str) -> None:
        """Start drawing from the generator of ``phase``."""
        self.phase = phase

    def roll(
        self,
        count: int,
        sides: int,
        purpose: str,
        subject: str | None = None,
        *,
        secret: bool = False,
    ) -> Roll:
        """Throw ``count`` dice of ``sides`` faces and record the throw."""
        faces = tuple(self._face(sides) for _ in range(count))
        roll = Roll(
            turn=self.turn,
            phase=self.phase,
            seq=len(self.log) + 1,
            purpose=purpose,
            subject=subject,
            dice=f"{count}d{sides}",
            faces=faces,
            total=sum(faces),
            secret=secret,
        )
        self.log.append(roll)
        return roll

    def relabel(self, subject: str, new: str, since: int = 0) -> None:
        """Name the real subject of rolls made under a stand-in (a child not yet named),
        looking only at the rolls from ``since`` on."""
        for i in range(since, len(self.log)):
            if self.log[i].subject == subject:
                self.log[i] = replace(self.log[i], subject=new)

    def d6(self, purpose: str, subject: str | None = None) -> int:
        return self.roll(1, 6, purpose, subject).total

    def two_d6(self, purpose: str, subject: str | None = None) -> Roll:
        return self.roll(2, 6, purpose, subject)

    def pick(self, options: int, purpose: str, subject: str | None = None,
             *, secret: bool = False) -> int:
        """A uniform index in ``range(options)``, thrown as a d``options``."""
        if options <= 0:
            raise ValueError("cannot pick among no options")
        return self.roll(1, options, purpose, subject, secret=secret).total - 1

    def shuffled(self, items: Iterable[str], purpose: str) -> list[str]:
        """Draw the items one by one, as counters drawn from a cup."""
        pool = list(items)
        drawn: list[str] = []
        while pool:
            drawn.append(pool.pop(self.pick(len(pool), purpose)))
        return drawn


class SeededDice(Dice):
    """Dice derived from the campaign seed, the turn and the phase."""

    def __init__(self, seed: str, turn: int, phase: str = "setup") -> None:
        super().__init__(turn=turn, phase=phase)
        self._seed = seed
        self._generators: dict[str, random.Random] = {}

    def _generator(self) -> random.Random:
        gen = self._generators.get(self.phase)
        if gen is None:
            digest = hashlib.sha256(
                f"{self._seed}\x1f{self.turn}\x1f{self.phase}".encode()
            ).digest()
            gen = random.Random(int.from_bytes(digest, "big"))
            self._generators[self.phase] = gen
        return gen

    def _face(self, sides: int) -> int:
        return self._generator().randint(1, sides)


class ScriptedDice(Dice):
    """Dice that return the given faces in order, for tests.

    A face larger than the die thrown is a scripting mistake and raises.
    """

    def __init__(self, faces: Iterable[int], turn: int = 1) -> None:
        super().__init__(turn=turn)
        self._faces = list(faces)
        self._next = 0

    @property
    def remaining(self) -> int:
        return len(self._faces) - self._next

    def _face(self, sides: int) -> int:
        if self._next >= len(self._faces):
            raise DiceExhausted(f"scripted dice exhausted after {self._next} faces")
        face = self._faces[self._next]
        self._next += 1
        if not 1 <= face <= sides:
            raise ValueError(f"scripted face {face} does not fit a d{sides}")
        return face
