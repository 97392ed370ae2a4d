"""``blood-royale``: RULES.md Parts A and B, with its content packs (worlds)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from chronicle.campaign.resources import ruleset_table, rulesets_dir
from chronicle.rulesets.base import DeathCause, Gettext, RunStatistics, Triple
from chronicle.rulesets.dynastic.descriptor import DynasticDescriptor

if TYPE_CHECKING:
    from adjudicator.events import Event
    from adjudicator.state import GameState
    from chronicle.i18n.localnames import LocalNames
    from chronicle.narration.narrator import Glossary

#: The shared tables of every world (the world's map and houses come from its pack).
_SHARED = "blood-royale"


class BloodRoyaleDescriptor(DynasticDescriptor):
    id = "blood-royale"
    summary = "RULES.md Parts A and B: dynasties at war, trading goods for crowns"
    engine_class = "adjudicator.rulesets.blood_royale:BloodRoyaleRuleset"
    worlds = ("blood-royale", "westeros")
    demo_turns = 21
    sentences: ClassVar[Mapping[str, str]] = {
        **DynasticDescriptor.sentences,
        "adjudicator.rulesets.blood_royale": "chronicle.rulesets.blood_royale.narration"}

    # -- its site: the dynastic pages extended, its templates in its own folder -------
    site = "chronicle.rulesets.blood_royale.site:PLUGIN"
    views = "chronicle.rulesets.blood_royale.views:VIEWS"
    theme_layers: ClassVar[tuple[str, ...]] = ("chronicle.rulesets.blood_royale",)

    def rules(self, spec: Mapping[str, Any]) -> dict[str, Any]:
        rules = super().rules(spec)
        pack = self.world(spec)
        assert pack is not None  # a ruleset with worlds always has one
        rules["world"] = ruleset_table(pack, "world.toml")
        rules["houses"] = ruleset_table(pack, "houses.toml")
        if "unit_types" in rules["world"]:
            rules["unit_types"] = rules["world"]["unit_types"]
        for part in sorted((rulesets_dir() / _SHARED).glob("*.toml")):
            if part.stem not in ("world", "houses"):
                rules[part.stem] = ruleset_table(_SHARED, part.name)
        return rules

    def campaign_spec(self, world: str | None) -> dict[str, Any]:
        pack = world or self.worlds[0]
        kingdoms = {k["id"]: k for k in ruleset_table(pack, "world.toml")["kingdom"]}
        houses = [{"id": h["id"], "letter": h["letter"], "name": h["name"],
                   "law": kingdoms.get(h["id"], {}).get("law", "male-preference"),
                   "player": ""}
                  for h in ruleset_table(pack, "houses.toml")["house"]]
        return {"world": pack, "end_year": 1400, "house": houses}

    def local_names(self, spec: Mapping[str, Any], language: str) -> LocalNames:
        from adjudicator.messages import HOUSE
        from adjudicator.rulesets.blood_royale.board import PROVINCE
        from chronicle.i18n.localnames import NO_NAMES, LocalNames, pack_articles, pack_names

        if language == "en":
            return NO_NAMES
        pack = self.world(spec)
        assert pack is not None
        houses = ruleset_table(pack, "houses.toml")["house"]
        english = {str(h["id"]): h.get("name") for h in houses}
        local = pack_names(houses, language)
        # A house the arbiter named otherwise in campaign.toml keeps that name.
        renamed = {str(h.get("id")) for h in spec.get("house", [])
                   if isinstance(h, dict) and h.get("name") != english.get(str(h.get("id")))}
        provinces = ruleset_table(pack, "world.toml").get("province")
        return LocalNames(
            by_kind={HOUSE: {hid: name for hid, name in local.items() if hid not in renamed},
                     PROVINCE: pack_names(provinces, language)},
            articles=pack_articles(provinces, language),
            catalogued=self.name_contexts)

    def demo_title(self, world: str | None) -> str:
        if (world or self.worlds[0]) == "westeros":
            return "A Song of Seven Houses"
        return "Blood Royale: Europe 1300–1400"

    def orders(self, state: GameState, house: str, rules: Mapping[str, Any],
               personality: str, rng_seed: str) -> str:
        from chronicle.rulesets.blood_royale.player import blood_royale_orders

        return blood_royale_orders(state, house, rules, personality, rng_seed)

    def export_sections(self, state: GameState, events: list[Triple]) -> dict[str, Any]:
        from adjudicator.rulesets.blood_royale.export import export_blood_royale

        return export_blood_royale(state, events)

    # -- what generic code asks of Blood Royale --------------------------------------------
    #: Part A's causes of death, and the war's (B6 battles, B5 plague).
    death_causes: ClassVar[Mapping[str, DeathCause]] = {
        **DynasticDescriptor.death_causes,
        "battle": DeathCause("killed in battle", "killed in battle"),
        "plague": DeathCause("the plague", "plague"),
    }
    #: A report links the battles it tells to their pages.
    report_links: ClassVar[tuple[str, ...]] = ("battles/",)
    #: The goods are the catalogue's words too (``wealth.toml``, the world's
    #: resources), their kind ``board.GOOD`` (the descriptor imports no engine).
    name_contexts: ClassVar[Mapping[str, str]] = {
        **DynasticDescriptor.name_contexts, "good": ""}

    def store_tables(self, state: GameState,
                     rules: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
        import json

        from adjudicator.rulesets.blood_royale.board import board

        return {**super().store_tables(state, rules), "provinces": [
            dict(id=p.id, name=p.name, kind=p.kind, kingdom=p.kingdom, capital=p.capital,
                 resource=p.resource, controller=p.controller, revolt=p.revolt,
                 famine=p.famine, x=p.x, y=p.y, neighbours=json.dumps(p.neighbours))
            for p in board(state).provinces.values()]}

    def pack_houses(self, rules: Mapping[str, Any]) -> list[Any]:
        return list(rules.get("houses", {}).get("house", []))

    def glossary(self, state: GameState, events: list[Event], gettext: Gettext,
                 names: LocalNames) -> Glossary:
        from chronicle.rulesets.blood_royale.glossary import turn_glossary

        return turn_glossary(state, events, gettext, names)

    def statistics(self) -> RunStatistics | None:
        from chronicle.rulesets.blood_royale.statistics import WarGameStatistics

        return WarGameStatistics()


DESCRIPTOR = BloodRoyaleDescriptor()
