"""Typed view of the dynasty tables (``content/rulesets/dynastic/dynasty.toml``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.errors import RulesDataError
from adjudicator.rulesets.limits import Where, entry, name_of, rows, whole
from adjudicator.state import Sex

D6 = 6  # the faces of the die of births, captures and the like (A5.1, A9)
TWO_D6 = range(2, 13)  # every total of 2d6 (A2)
MOST_ATTEMPTS = 20  # births a couple may try in one turn: each is a die per couple


def _bounds(pair: Any, where: Where) -> tuple[int, int]:
    ((low, high),) = rows([pair], where, 2, low=0)
    if low > high:
        raise RulesDataError(f"{name_of(where)}: the bounds {pair!r} are the wrong way round",
                             where)
    return low, high


def _characteristics(value: Any, where: Where) -> tuple[tuple[int, int, int], ...]:
    table = rows(value, where, 3)
    for total in TWO_D6:
        giving = [row for row in table if row[0] <= total <= row[1]]
        if len(giving) != 1:
            raise RulesDataError(f"{name_of(where)} must give one value for every total of "
                                 f"2d6, 2 to 12; it gives {len(giving)} for {total}", where)
    return tuple((lo, hi, v) for lo, hi, v in table)


def _survival(value: Any, where: Where) -> tuple[tuple[int, int], ...]:
    table = rows(value, where, 2, low=0)
    ages = [age for age, _roll in table]
    if ages != sorted(set(ages)):
        raise RulesDataError(f"{name_of(where)}: the ages must rise from row to row", where)
    return tuple((age, roll) for age, roll in table)


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
        def at(*keys: str, low: int | None = 0, high: int | None = None) -> int:
            return whole(entry(data, keys, ("dynasty",)), ("dynasty", *keys), low, high)

        def table(*keys: str) -> tuple[Any, Where]:
            return entry(data, keys, ("dynasty",)), ("dynasty", *keys)

        rules = cls(
            years_per_turn=at("years_per_turn", low=1, high=100),
            max_mother_age=at("births", "max_mother_age"),
            min_attempts=at("births", "min_attempts", low=1, high=MOST_ATTEMPTS),
            max_attempts=at("births", "max_attempts", low=1, high=MOST_ATTEMPTS),
            default_attempts=at("births", "default_attempts", low=1, high=MOST_ATTEMPTS),
            success_faces=at("births", "success_faces", high=D6),
            boy_faces=at("births", "boy_faces", high=D6),
            extra_attempt_penalty=at("births", "extra_attempt_penalty"),
            characteristic_table=_characteristics(*table("characteristics", "table")),
            survival_min_age=at("survival", "min_age"),
            natural_death=at("survival", "natural_death", high=max(TWO_D6)),
            survival_table=_survival(*table("survival", "table")),
            epidemic_per_dynasty=at("epidemic", "per_dynasty"),
            epidemic_threshold_max=at("epidemic", "threshold_max"),
            marriage_min_age=at("marriage", "min_age"),
            minor_nobility=bool(entry(data, ("marriage", "minor_nobility"), ("dynasty",))),
            minor_bride_age=_bounds(*table("marriage", "minor_bride_age")),
            minor_groom_age=_bounds(*table("marriage", "minor_groom_age")),
            compulsory_age=at("command", "compulsory_age"),
            voluntary_age=at("command", "voluntary_age"),
            command_limit=at("command", "limit"),
            capture_faces=at("capture", "faces", high=D6),
        )
        first_age = rules.survival_table[0][0]
        if first_age > rules.survival_min_age:
            # Everyone from min_age on rolls, so the table needs a row for them (A5.3).
            raise RulesDataError(f"dynasty.survival.min_age must be at least the table's first "
                                 f"age, {first_age}, not {rules.survival_min_age}",
                                 ("dynasty", "survival", "min_age"))
        if not 1 <= rules.min_attempts <= rules.default_attempts <= rules.max_attempts:
            raise RulesDataError(
                "dynasty.births: min_attempts, default_attempts and max_attempts must "
                f"rise (or stay), not {rules.min_attempts}, {rules.default_attempts} and "
                f"{rules.max_attempts}", ("dynasty", "births", "default_attempts"))
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
