"""``dynasty``: RULES.md Part A alone, for a campaign whose war is played elsewhere."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from chronicle.rulesets.base import RunStatistics
from chronicle.rulesets.dynastic.descriptor import DynasticDescriptor

if TYPE_CHECKING:
    from adjudicator.state import GameState
    from chronicle.i18n.localnames import LocalNames

#: The example houses of a new campaign: id, letter, name, king, queen.
EXAMPLE_HOUSES: tuple[tuple[str, str, str, str, str], ...] = (
    ("england", "E", "House Plantagenet", "Edward", "Margaret"),
    ("france", "F", "House Capet", "Philippe", "Jeanne"),
    ("castile", "C", "House of Castile", "Fernando", "Constanza"),
)
#: Their names on a French campaign's site, as Blood Royale's pack gives its
#: houses' (the store and the exports keep the English names).
EXAMPLE_NAMES_FR = {"england": "La Maison Plantagenêt", "france": "La Maison Capet",
                    "castile": "La Maison de Castille"}


class DynastyDescriptor(DynasticDescriptor):
    id = "dynasty"
    summary = "RULES.md Part A alone: families, marriages, births and successions"
    engine_class = "adjudicator.rulesets.dynasty:DynastyRuleset"
    demo_turns = 20

    # -- its site ---------------------------------------------------------------------
    # Its war is played elsewhere, and its site has always had Blood Royale's war
    # pages beside the dynastic ones: the battles and the wealth standings (empty
    # unless such events are recorded), so that its published pages stay as they
    # were. Blood Royale's plug-in shows a map only of a campaign with a board.
    site = "chronicle.rulesets.blood_royale.site:PLUGIN"
    views = "chronicle.rulesets.blood_royale.views:VIEWS"
    theme_layers: ClassVar[tuple[str, ...]] = ("chronicle.rulesets.blood_royale",)

    def campaign_spec(self, world: str | None) -> dict[str, Any]:
        houses, persons, units = [], [], []
        for hid, letter, name, king, queen in EXAMPLE_HOUSES:
            houses.append({"id": hid, "letter": letter, "name": name,
                           "law": "male-preference", "player": ""})
            persons += [
                {"id": f"{hid}-king", "name": king, "sex": "M", "born": 1275, "dynasty": hid,
                 "founder": True, "spouse": f"{hid}-queen"},
                {"id": f"{hid}-queen", "name": queen, "sex": "F", "born": 1280},
            ]
            units += [{"id": f"{letter}-{n}", "house": hid, "type": "army"} for n in (1, 2)]
        return {"house": houses, "person": persons, "unit": units}

    def demo_title(self, world: str | None) -> str:
        return "Three Crowns: a dynastic chronicle"

    def local_names(self, spec: Mapping[str, Any], language: str) -> LocalNames:
        from adjudicator.messages import HOUSE
        from chronicle.i18n.localnames import NO_NAMES, LocalNames

        if language != "fr":
            return NO_NAMES
        # An example house the arbiter named otherwise keeps that name.
        english = {hid: name for hid, _letter, name, _king, _queen in EXAMPLE_HOUSES}
        kept = {str(h.get("id")) for h in spec.get("house", [])
                if isinstance(h, dict) and h.get("name") == english.get(str(h.get("id")))}
        return LocalNames(by_kind={HOUSE: {hid: name for hid, name in EXAMPLE_NAMES_FR.items()
                                           if hid in kept}},
                          catalogued=self.name_contexts)

    def orders(self, state: GameState, house: str, rules: Mapping[str, Any],
               personality: str, rng_seed: str) -> str:
        from chronicle.rulesets.dynastic.player import dynasty_order_file

        return dynasty_order_file(state, house, rules, personality, rng_seed)

    def statistics(self) -> RunStatistics | None:
        """A war game's figures, as ``chronicle simulate`` has always reported them for
        a dynasty campaign too: its war is fought elsewhere, so the war's are zeros."""
        from chronicle.rulesets.blood_royale.statistics import WarGameStatistics

        return WarGameStatistics()


DESCRIPTOR = DynastyDescriptor()
