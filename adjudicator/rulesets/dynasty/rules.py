"""Typed view of the dynasty tables (``content/rulesets/dynasty.toml``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.errors import RulesDataError
from adjudicator.state import Sex


def _bounds(pair: Any) -> tuple[int, int]:
    low, high = (int(n) for n in pair)
    if low > high:
        raise ValueError(f"the bounds {pair!r} are the wrong way round")
    return low, high


@dataclass(frozen=True)
class DynastyRules:
    years_per_turn: int
    max_mother_age: int
    min_attempts: int
    max_attempts: int
    default_attempts: int
    success_faces: int
    boy_faces: int
    extra_attempt_penalty: int
    characteristic_table: tuple[tuple[int, int, int], ...]
    survival_min_age: int
    natural_death: int
    survival_table: tuple[tuple[int, int], ...]
    epidemic_per_dynasty: int
    epidemic_threshold_max: int
    marriage_min_age: int
    minor_nobility: bool
    minor_bride_age: tuple[int, int]
    minor_groom_age: tuple[int, int]
    compulsory_age: int
    voluntary_age: int
    command_limit: int
    capture_faces: int

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> DynastyRules:
        try:
            b, c, s = data["births"], data["characteristics"], data["survival"]
            e, m, k = data["epidemic"], data["marriage"], data["command"]
            rules = cls(
                years_per_turn=int(data["years_per_turn"]),
                max_mother_age=int(b["max_mother_age"]),
                min_attempts=int(b["min_attempts"]),
                max_attempts=int(b["max_attempts"]),
                default_attempts=int(b["default_attempts"]),
                success_faces=int(b["success_faces"]),
                boy_faces=int(b["boy_faces"]),
                extra_attempt_penalty=int(b["extra_attempt_penalty"]),
                characteristic_table=tuple(
                    (int(lo), int(hi), int(v)) for lo, hi, v in c["table"]),
                survival_min_age=int(s["min_age"]),
                natural_death=int(s["natural_death"]),
                survival_table=tuple((int(a), int(n)) for a, n in s["table"]),
                epidemic_per_dynasty=int(e["per_dynasty"]),
                epidemic_threshold_max=int(e["threshold_max"]),
                marriage_min_age=int(m["min_age"]),
                minor_nobility=bool(m["minor_nobility"]),
                minor_bride_age=_bounds(m["minor_bride_age"]),
                minor_groom_age=_bounds(m["minor_groom_age"]),
                compulsory_age=int(k["compulsory_age"]),
                voluntary_age=int(k["voluntary_age"]),
                command_limit=int(k["limit"]),
                capture_faces=int(data["capture"]["faces"]),
            )
        except (KeyError, TypeError, ValueError) as err:
            raise RulesDataError(f"dynasty rules: missing or bad entry {err}") from err
        if rules.years_per_turn < 1:
            raise RulesDataError("dynasty rules: years_per_turn must be at least 1")
        if not 1 <= rules.min_attempts <= rules.default_attempts <= rules.max_attempts:
            raise RulesDataError("dynasty rules: births need 1 <= min_attempts <= "
                                 "default_attempts <= max_attempts")
        return rules

    def minor_spouse_age(self, sex: Sex, partner_age: int) -> int:
        """The age of a spouse created from the minor nobility (A7 [D])."""
        low, high = self.minor_bride_age if sex == Sex.FEMALE else self.minor_groom_age
        return max(low, min(high, partner_age))

    def difficulty(self, age: int) -> int | None:
        """The survival roll needed at ``age`` (A5.3), or None below the minimum age."""
        needed = None
        for lowest, roll in self.survival_table:
            if age >= lowest:
                needed = roll
        return needed

    def characteristic(self, total: int) -> int:
        for low, high, value in self.characteristic_table:
            if low <= total <= high:
                return value
        raise RulesDataError(f"no characteristic for a roll of {total}")
