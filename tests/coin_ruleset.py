"""A fourth ruleset that exists only in the tests: *Coin*, one die a turn.

It is everything a new ruleset brings: an engine (grammar, setup,
validation, resolution, template), an event of its own and its sentence, and
a ``Descriptor``. Registered at run time, it must play, report, export and
publish through the same commands as the built-in rulesets, with nothing
outside these files knowing its name.

Rules of Coin: each turn a house may order ``toss``; it throws one die and
wins a crown on 4 or more. A house that sends nothing tosses by default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from markupsafe import Markup

from adjudicator.dice import Dice
from adjudicator.events import Event
from adjudicator.orders import Cursor, Grammar, Order, OrderSheet
from adjudicator.rulesets.base import Ruleset, TurnResult
from adjudicator.state import GameState, House
from chronicle.narration import Narrator, says
from chronicle.rulesets import Calendar, Descriptor, Triple

GRAMMAR = Grammar()


@dataclass(frozen=True, kw_only=True)
class TossOrder(Order):
    pass


@GRAMMAR.rule("toss")
def _toss(cursor: Cursor) -> Order:
    return TossOrder(line=cursor.line, text=cursor.text)


@dataclass(frozen=True, kw_only=True)
class CoinTossed(Event):
    kind: ClassVar[str] = "coin-tossed"
    house: str
    face: int
    won: bool

    def houses(self) -> list[str]:
        return [self.house]


@says(CoinTossed)
def _tossed(n: Narrator, pl: Mapping[str, Any]) -> Markup:
    won = "won a crown" if pl["won"] else "won nothing"
    return Markup("%s threw a %s and %s.") % (n.house(pl["house"]), int(pl["face"]), won)


class CoinRuleset(Ruleset):
    id = "coin"
    grammar = GRAMMAR
    defaults = "a toss"

    def setup(self, spec: Mapping[str, Any], dice: Dice) -> GameState:
        houses = {h["id"]: House(id=h["id"], letter=h["letter"], name=h["name"])
                  for h in spec["house"]}
        return GameState(ruleset=self.id, start_year=int(spec["start_year"]), years_per_turn=5,
                         houses=houses,
                         end_year=spec.get("end_year"))

    def validate(self, state: GameState, sheets: dict[str, OrderSheet]) -> None:
        for sheet in sheets.values():
            for order in sheet.orders[1:]:
                sheet.reject(order, "one toss a turn")
            del sheet.orders[1:]

    def resolve(self, state: GameState, sheets: dict[str, OrderSheet], dice: Dice) -> TurnResult:
        self.validate(state, sheets)
        new = state.copy()
        new.turn += 1
        events: list[Event] = []
        for hid in sorted(new.houses):
            face = dice.roll(1, 6, f"toss for {hid}", hid).total
            won = face >= 4
            new.houses[hid].treasury += int(won)
            events.append(CoinTossed(phase="toss", house=hid, face=face, won=won))
        new.finished = new.end_year is not None and new.year_of(new.turn) >= new.end_year
        return TurnResult(state=new, events=events, rolls=list(dice.log),
                          rejections=[r for s in sheets.values() for r in s.rejections],
                          defaulted=sorted(set(new.houses) - set(sheets)))

    def template(self, state: GameState, house: str) -> str:
        return f"house {house}\ntoss\n"


class Tosses(Calendar):
    def when(self, turn: int, year: int) -> str:
        return f"toss {turn}"

    def title(self, turn: int, year: int, gettext: Any) -> str:
        return f"Toss {turn}"


class CoinDescriptor(Descriptor):
    id = "coin"
    summary = "a test ruleset: one die a turn"
    engine_class = "coin_ruleset:CoinRuleset"
    site = "chronicle.rulesets.dynastic.site:PLUGIN"
    calendar = Tosses()
    demo_turns = 3
    # Its events and their sentences are both in this module.
    sentences: ClassVar[Mapping[str, str]] = {"coin_ruleset": "coin_ruleset"}

    def rules(self, spec: Mapping[str, Any]) -> dict[str, Any]:
        return {}

    def campaign_spec(self, world: str | None) -> dict[str, Any]:
        return {"end_year": 1320, "house": [
            {"id": "heads", "letter": "H", "name": "House Heads", "player": ""},
            {"id": "tails", "letter": "T", "name": "House Tails", "player": ""}]}

    def demo_title(self, world: str | None) -> str:
        return "Heads or tails"

    def orders(self, state: GameState, house: str, rules: Mapping[str, Any],
               personality: str, rng_seed: str) -> str:
        return f"house {house}\n# built-in player\ntoss\n"

    def export_sections(self, state: GameState, events: list[Triple]) -> dict[str, Any]:
        return {"tosses": [{"turn": turn, **payload} for turn, kind, payload in events
                           if kind == CoinTossed.kind]}


DESCRIPTOR = CoinDescriptor()
