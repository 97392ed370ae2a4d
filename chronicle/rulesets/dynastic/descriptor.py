"""What the dynastic rulesets share (RULES.md Part A): tables, calendar, family report."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from chronicle.campaign.resources import ruleset_table
from chronicle.rulesets.base import (
    Calendar,
    DeathCause,
    Descriptor,
    Gettext,
    LifeNotes,
    Years,
)
from chronicle.turn.escape import md_escape

if TYPE_CHECKING:
    from adjudicator.dice import Roll
    from adjudicator.state import GameState
    from chronicle.store.file import StoredEvent

#: The content pack of Part A that every dynastic ruleset loads (``content/rulesets/dynastic/``).
PACK = "dynastic"


class DynasticDescriptor(Descriptor):
    """A ruleset whose houses are families: Part A's tables, turns of years."""

    calendar: ClassVar[Calendar] = Years()
    site = "chronicle.rulesets.dynastic.site:PLUGIN"
    #: The common events and Part A's are told by the dynastic sentences.
    sentences: ClassVar[Mapping[str, str]] = {
        "adjudicator.events": "chronicle.rulesets.dynastic.narration",
        "adjudicator.dynastic": "chronicle.rulesets.dynastic.narration"}

    def rules(self, spec: Mapping[str, Any]) -> dict[str, Any]:
        return {"dynasty": ruleset_table(PACK, "dynasty.toml"),
                "unit_types": ruleset_table(PACK, "unit-types.toml")}

    def revealed(self, secret_rolls: list[Roll]) -> dict[str, Any]:
        from adjudicator.dynastic.survival import thresholds_drawn

        return {"epidemic_thresholds": thresholds_drawn(secret_rolls)}

    def report_sections(self, state: GameState, house: str,
                        gettext: Gettext = str) -> list[str]:
        return ["", gettext("## Your family"), *family_lines(state, house, gettext)]

    # -- what generic code asks of a dynastic ruleset -----------------------------------
    #: A campaign's units (A8) and the crowns it is won with (B8; built by Part A's setup).
    campaign_fields: ClassVar[Mapping[str, type]] = {"target": int, "unit": list}
    #: The built-in players' moods: how many children they try for, when they
    #: marry, whether they keep prisoners (and, in a war, money against war).
    personalities: ClassVar[tuple[str, ...]] = ("cautious", "ambitious", "mercantile")
    #: The kinds of the engine's names the catalogue translates, with its context:
    #: the unit types (``unit-types.toml``), named in the reasons of A8's orders.
    name_contexts: ClassVar[Mapping[str, str]] = {"unit-type": "unit type"}
    #: Part A's causes of death (A5.3, A5.4, A9 and the arbiter's ``kill``).
    death_causes: ClassVar[Mapping[str, DeathCause]] = {
        "natural": DeathCause("natural causes", "natural causes"),
        "childbirth": DeathCause("in childbirth", "childbirth"),
        "epidemic": DeathCause("the epidemic", "epidemic"),
        "executed": DeathCause("executed", "executed"),
    }

    def store_tables(self, state: GameState,
                     rules: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
        import json

        from adjudicator.dynastic.command import unit_command_value
        from chronicle.store.file import UNIT_FIELDS, values

        return {"units": [{**values(u, UNIT_FIELDS), "commanders": json.dumps(list(u.commanders)),
                           "command_value": unit_command_value(state, u, rules)}
                          for u in state.units.values()]}

    def export_records(self, state: GameState, rules: Mapping[str, Any]) -> dict[str, Any]:
        from adjudicator.dynastic.command import unit_command_value
        from chronicle.store.file import UNIT_FIELDS, values

        return {"units": [{**values(u, UNIT_FIELDS), "commanders": list(u.commanders),
                           "command_value": unit_command_value(state, u, rules)}
                          for u in sorted(state.units.values(), key=lambda u: u.id)]}

    def export_campaign(self, state: GameState, finished: bool) -> dict[str, Any]:
        """The epidemic threshold (A5.4), a secret until the campaign is over."""
        if finished and state.epidemic_threshold is not None:
            return {"epidemic_threshold": state.epidemic_threshold}
        return {}

    def name_lists(self, spec: Mapping[str, Any], rules: Mapping[str, Any]) -> dict[str, Any]:
        """A1: the minor nobility's names, then each house's own lists (the pack's
        houses first, then those ``campaign.toml`` gives its own)."""
        houses = [*self.pack_houses(rules), *spec.get("house", [])]
        return name_lists([h for h in houses if isinstance(h, dict) and "id" in h])

    def pack_houses(self, rules: Mapping[str, Any]) -> list[Any]:
        """The houses the content pack declares (entries of its tables), if any."""
        return []

    def life_notes(self, events: Iterable[StoredEvent]) -> LifeNotes:
        """The arbiter's words for a death (``kill ... cause``), and the numbers
        given up by renunciations (A3)."""
        import json

        from adjudicator.dynastic.events import Death, Renunciation

        details: dict[str, str] = {}
        renounced: dict[tuple[str, str], tuple[str, int]] = {}
        for e in events:
            if not e.public or e.kind not in (Death.kind, Renunciation.kind):
                continue
            payload = json.loads(e.payload)
            if e.kind == Death.kind:
                details[str(payload.get("person"))] = str(payload.get("detail") or "")
            else:
                renounced[(str(payload.get("person")), str(payload.get("dynasty")))] = (
                    str(payload.get("ref") or ""), e.turn)
        return LifeNotes(death_details=details, renunciations=renounced)


def name_lists(houses: list[dict[str, Any]]) -> dict[str, Any]:
    """The rules' ``names``: the minor nobility's (``minor-nobility.toml``) and the
    lists of the houses that give their own."""
    minor = ruleset_table("dynastic", "minor-nobility.toml")
    names: dict[str, Any] = {
        "minor-nobility": {"male": minor.get("minor_nobility_male_names", []),
                           "female": minor.get("minor_nobility_female_names", [])}}
    for house in houses:
        if house.get("male_names") or house.get("female_names"):
            names[house["id"]] = {"male": list(house.get("male_names", [])),
                                  "female": list(house.get("female_names", []))}
    return names


def person_label(state: GameState, pid: str | None) -> str:
    """A person as a report names them: the name and the lowest reference number."""
    if not pid:
        return "nobody"
    person = state.persons.get(pid)
    if person is None:
        return pid
    refs = sorted(person.refs.values())
    return f"{person.name} ({refs[0]})" if refs else person.name


def family_lines(state: GameState, house: str, gettext: Gettext = str) -> list[str]:
    """The living of a house's dynasty and court, as its report lists them."""
    _ = gettext
    # Ages as they will be when the next turn's orders are carried out.
    year = state.year_of(state.turn + 1)
    members = sorted((p for p in state.living() if p.dynasty == house or p.court == house),
                     key=lambda p: min(p.refs.values(), default="~" + p.name))
    out = []
    for p in members:
        notes = []
        if state.houses.get(house) and state.houses[house].ruler == p.id:
            notes.append(_("ruler"))
        if p.spouse:
            notes.append(_("married to %(spouse)s") % {"spouse": person_label(state, p.spouse)})
        if p.unit:
            notes.append(_("commands %(unit)s") % {"unit": p.unit})
        if p.prisoner_of:
            notes.append(_("prisoner of %(house)s") % {"house": p.prisoner_of})
        values = {"constitution": f"{p.constitution:+d}", "command": f"{p.command:+d}",
                  "ruse": f"{p.ruse:+d}"}
        char = (_("Con %(constitution)s, Command %(command)s") if p.sex == "M"
                else _("Con %(constitution)s, Ruse %(ruse)s")) % values
        extra = f"; {', '.join(notes)}" if notes else ""
        age = _("age %(age)s") % {"age": year - p.born}
        out.append(f"- {md_escape(person_label(state, p.id))}, {p.sex}, {age} "
                   f"({char}){md_escape(extra)}")
    return out or [_("- Nobody is left.")]
