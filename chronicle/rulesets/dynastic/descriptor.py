"""What the dynastic rulesets share (RULES.md Part A): tables, calendar, family report."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from chronicle.campaign.resources import ruleset_table
from chronicle.rulesets.base import Calendar, Descriptor, Gettext, Years
from chronicle.turn.escape import md_escape

if TYPE_CHECKING:
    from adjudicator.dice import Roll
    from adjudicator.state import GameState

#: The content pack of Part A that every dynastic ruleset loads (``content/rulesets/dynastic/``).
PACK = "dynastic"


class DynasticDescriptor(Descriptor):
    """A ruleset whose houses are families: Part A's tables, turns of years."""

    calendar: ClassVar[Calendar] = Years()
    site = "chronicle.rulesets.dynastic.site:PLUGIN"
    simulates = True
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
