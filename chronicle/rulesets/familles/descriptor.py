"""``familles``: the card game *Les familles nobles* (RULES.md Part D)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from chronicle.campaign.resources import ruleset_table
from chronicle.rulesets.base import Calendar, Descriptor, Moves, Triple

if TYPE_CHECKING:
    from adjudicator.state import GameState

#: The seats of a new game.
PLAYERS = ("alice", "bob", "carol", "dmitri")


class FamillesDescriptor(Descriptor):
    id = "familles"
    summary = "RULES.md Part D: the card game Les familles nobles"
    engine_class = "adjudicator.rulesets.familles:FamillesRuleset"
    site = "chronicle.rulesets.familles.site:PLUGIN"
    calendar: ClassVar[Calendar] = Moves()
    demo_turns = 400
    sentences: ClassVar[Mapping[str, str]] = {
        "adjudicator.events": "chronicle.narration.common",
        "adjudicator.rulesets.familles": "chronicle.rulesets.familles.narration"}

    # -- its site's templates and static files, in its own folder -----------------------
    theme_layers: ClassVar[tuple[str, ...]] = ("chronicle.rulesets.familles",)

    def rules(self, spec: Mapping[str, Any]) -> dict[str, Any]:
        return {"familles": ruleset_table("familles", "familles.toml")}

    def campaign_spec(self, world: str | None) -> dict[str, Any]:
        return {"house": [{"id": p, "letter": p[0].upper(), "name": p.title(), "player": p}
                          for p in PLAYERS]}

    def demo_title(self, world: str | None) -> str:
        return "Les familles nobles"

    def orders(self, state: GameState, house: str, rules: Mapping[str, Any],
               personality: str, rng_seed: str) -> str:
        from chronicle.rulesets.familles.player import familles_orders

        return familles_orders(state, house)

    def export_sections(self, state: GameState, events: list[Triple]) -> dict[str, Any]:
        from adjudicator.rulesets.familles import export_familles

        return export_familles(state)


DESCRIPTOR = FamillesDescriptor()
