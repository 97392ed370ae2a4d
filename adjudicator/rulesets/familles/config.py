"""The game's numbers, read from the ruleset data file (RULES.md Part D).

``FamillesRules.from_mapping`` reads the layout of ``familles.toml`` and
``to_mapping`` writes the same layout back, so a dealt game can keep a JSON
copy of the numbers it was dealt with: a later edit of the data file never
changes a game in progress.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from adjudicator.errors import RulesDataError

SEXES = ("M", "F")


@dataclass(frozen=True)
class Style:
    """How a trait or a sex is shown: names by locale, a colour, a symbol."""

    id: str
    names: Mapping[str, str]
    colour: str
    symbol: str = ""

    def name(self, locale: str = "en") -> str:
        return self.names.get(locale) or self.names.get("en") or self.id

    def to_mapping(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "colour": self.colour, "name": dict(self.names)}
        if self.symbol:
            data["symbol"] = self.symbol
        return data


def _int(table: Mapping[str, Any], key: str, where: str, low: int = 0,
         high: int = 10_000) -> int:
    # The cap keeps a deck or a generation from holding a move for minutes.
    value = table.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise RulesDataError(f"familles: {where}.{key} must be a whole number from {low} to "
                             f"{high}, not {value!r}", ("familles", where, key))
    return value


def years_per_turn(data: Mapping[str, Any]) -> int:
    """How many years the campaign's calendar counts for one move.

    The game itself has no calendar; the export and the site still date each
    move the way the dynastic rulesets date a turn. Not part of a dealt game's
    copy of the rules: the state carries its calendar.
    """
    return _int(data, "years_per_turn", "calendar", 1)


def _table(data: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    value = data.get(key)
    if not isinstance(value, Mapping):
        raise RulesDataError(f"familles: the table [{key}] is missing")
    return value


def _style(entry: Any, where: str, ident: str | None = None) -> Style:
    if not isinstance(entry, Mapping):
        raise RulesDataError(f"familles: {where} must be a table")
    names = entry.get("name")
    if not isinstance(names, Mapping) or not isinstance(names.get("en"), str):
        raise RulesDataError(f"familles: {where} needs a name with at least 'en'")
    return Style(
        id=str(ident if ident is not None else entry.get("id", "")),
        names={str(k): str(v) for k, v in names.items()},
        colour=str(entry.get("colour", "#555555")),
        symbol=str(entry.get("symbol", "")),
    )


@dataclass(frozen=True)
class FamillesRules:
    """Players, deck, deal and generation caps of one game (RULES.md D)."""

    traits: tuple[Style, ...]
    sexes: Mapping[str, Style]
    men: int
    women: int
    traits_per_card: int
    hand: int
    first_generation: int
    caps: Mapping[int, int]
    min_players: int
    max_players: int

    @property
    def last_generation(self) -> int:
        """The generation whose members never marry; filling it ends the game."""
        return max(self.caps)

    @property
    def trait_ids(self) -> tuple[str, ...]:
        return tuple(t.id for t in self.traits)

    def trait(self, trait_id: str) -> Style:
        for trait in self.traits:
            if trait.id == trait_id:
                return trait
        raise KeyError(trait_id)

    def trait_name(self, trait_id: str, locale: str = "en") -> str:
        return self.trait(trait_id).name(locale)

    def sex_name(self, sex: str, locale: str = "en") -> str:
        return self.sexes[sex].name(locale)

    def combinations(self) -> list[tuple[str, ...]]:
        """Every set of ``traits_per_card`` traits, in the data file's order."""
        return list(combinations(self.trait_ids, self.traits_per_card))

    def count(self, sex: str) -> int:
        return self.men if sex == "M" else self.women

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> FamillesRules:
        players, deck, deal = _table(data, "players"), _table(data, "deck"), _table(data, "deal")
        raw_traits = data.get("traits")
        if not isinstance(raw_traits, list):
            raise RulesDataError("familles: the [[traits]] list is missing")
        traits = tuple(_style(t, f"traits[{i}]") for i, t in enumerate(raw_traits))
        if len({t.id for t in traits}) != len(traits) or any(not t.id for t in traits):
            raise RulesDataError("familles: every trait needs its own id")
        sexes_table = _table(data, "sexes")
        if set(sexes_table) != set(SEXES):
            raise RulesDataError("familles: [sexes] must define exactly M and F")
        sexes = {s: _style(sexes_table[s], f"sexes.{s}", s) for s in SEXES}
        try:
            caps = {int(k): int(v) for k, v in _table(data, "generations").items()}
        except (TypeError, ValueError):
            raise RulesDataError("familles: [generations] maps numbers to caps") from None
        rules = cls(
            traits=traits,
            sexes=sexes,
            men=_int(deck, "men", "deck"),
            women=_int(deck, "women", "deck"),
            traits_per_card=_int(deck, "traits_per_card", "deck", 1),
            hand=_int(deal, "hand", "deal"),
            first_generation=_int(deal, "first_generation", "deal", 1),
            caps=caps,
            min_players=_int(players, "min", "players", 1),
            max_players=_int(players, "max", "players", 1),
        )
        rules._check()
        return rules

    def _check(self) -> None:
        if sorted(self.caps) != list(range(2, 2 + len(self.caps))) or not self.caps:
            raise RulesDataError("familles: [generations] must list generations 2, 3, … in turn")
        if any(cap < 1 for cap in self.caps.values()):
            raise RulesDataError("familles: every generation cap must be at least 1")
        if self.traits_per_card > len(self.traits):
            raise RulesDataError("familles: a card cannot show more traits than exist")
        if not self.min_players <= self.max_players <= len(self.traits):
            raise RulesDataError("familles: players need min ≤ max ≤ the number of trait tiles")
        if self.first_generation + self.hand * self.max_players > self.men + self.women:
            raise RulesDataError("familles: the deck is too small to deal to every player")

    def to_mapping(self) -> dict[str, Any]:
        """The data-file layout, JSON-friendly (generation numbers as strings)."""
        return {
            "players": {"min": self.min_players, "max": self.max_players},
            "deck": {"men": self.men, "women": self.women,
                     "traits_per_card": self.traits_per_card},
            "deal": {"hand": self.hand, "first_generation": self.first_generation},
            "generations": {str(g): c for g, c in sorted(self.caps.items())},
            "sexes": {s: {k: v for k, v in self.sexes[s].to_mapping().items() if k != "id"}
                      for s in SEXES},
            "traits": [t.to_mapping() for t in self.traits],
        }
