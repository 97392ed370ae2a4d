"""Machine-readable exports: JSON (DESIGN.md contract) and GEDCOM 5.5.1."""

from __future__ import annotations

import json
from typing import Any

from adjudicator.state import GameState
from chronicle.campaign import Campaign
from chronicle.models import (
    HOUSE_FIELDS,
    MARRIAGE_FIELDS,
    PERSON_FIELDS,
    UNIT_FIELDS,
    CampaignRow,
    EventRow,
    values,
)


def export_json(campaign: Campaign, state: GameState, events: list[EventRow],
                *, row: CampaignRow | None = None) -> dict[str, Any]:
    """The whole public state, lists in a stable order.

    ``row`` is the store's campaign row: once the campaign has ended (``chronicle
    end``) the export is finished, and holds the seed and what the end revealed.
    """
    ended = row is not None and row.seed_revealed is not None
    ruleset = campaign.engine()
    data: dict[str, Any] = {
        "campaign": {
            "slug": campaign.slug, "title": campaign.title, "ruleset": campaign.ruleset,
            "start_year": state.start_year, "end_year": state.end_year,
            "target": state.target, "seed_commitment": campaign.spec["seed_commitment"],
            "finished": state.finished or ended, "winner": state.winner,
        },
        "turn": state.turn,
        "year": state.year,
        # The fields the store keeps (``chronicle.models``), as the contract names them.
        "houses": [values(h, HOUSE_FIELDS)
                   for h in sorted(state.houses.values(), key=lambda h: h.id)],
        "persons": [
            {**values(p, PERSON_FIELDS),
             "refs": dict(sorted(p.refs.items())),
             "renounced": dict(sorted(p.renounced.items()))}
            for p in sorted(state.persons.values(), key=lambda p: p.seq)],
        "marriages": [values(m, MARRIAGE_FIELDS) for m in state.marriages],
        "units": [
            {**values(u, UNIT_FIELDS), "commanders": list(u.commanders),
             "command_value": ruleset.command_value(state, u)}
            for u in sorted(state.units.values(), key=lambda u: u.id)],
        "provinces": [],
        "events": [
            {"turn": e.turn, "seq": e.seq, "phase": e.phase, "kind": e.kind,
             **json.loads(e.payload)}
            for e in events if e.public],
        "battles": [],
        "wealth": [],
    }
    if row is not None and row.seed_revealed is not None:
        data["campaign"]["seed"] = row.seed_revealed
        data["campaign"].update(json.loads(row.revealed or "{}"))
    if (state.finished or ended) and state.epidemic_threshold is not None:
        data["campaign"]["epidemic_threshold"] = state.epidemic_threshold
    data.update(campaign.descriptor.export_sections(
        state, [(e.turn, e.kind, json.loads(e.payload)) for e in events if e.public]))
    return data


def _gedcom_name(name: str) -> str:
    return name.replace("@", "").replace("/", "").replace("\n", " ")


def export_gedcom(campaign: Campaign, state: GameState) -> str:
    """GEDCOM 5.5.1: individuals and families, reference numbers as REFN."""
    persons = sorted(state.persons.values(), key=lambda p: p.seq)
    index = {p.id: f"@I{i}@" for i, p in enumerate(persons, start=1)}
    lines = ["0 HEAD", "1 SOUR CHRONICLE", "1 GEDC", "2 VERS 5.5.1", "2 FORM LINEAGE-LINKED",
             "1 CHAR UTF-8", f"1 NOTE {_gedcom_name(campaign.title)}"]
    families: dict[tuple[str | None, str | None], str] = {}
    for m in state.marriages:
        families.setdefault((m.husband, m.wife), f"@F{len(families) + 1}@")
    for p in persons:
        if p.father or p.mother:
            families.setdefault((p.father, p.mother), f"@F{len(families) + 1}@")
    for p in persons:
        lines += [f"0 {index[p.id]} INDI", f"1 NAME {_gedcom_name(p.name)}",
                  f"1 SEX {p.sex}", "1 BIRT", f"2 DATE {p.born}"]
        if p.died is not None:
            lines += ["1 DEAT", f"2 DATE {p.died}", f"2 CAUS {_gedcom_name(p.death_cause or '')}"]
        for dynasty, ref in sorted(p.refs.items()):
            lines += [f"1 REFN {ref}", f"2 TYPE {dynasty}"]
        for (husband, wife), fid in families.items():
            if p.id in (husband, wife):
                lines.append(f"1 FAMS {fid}")
            if (p.father, p.mother) == (husband, wife):
                lines.append(f"1 FAMC {fid}")
    for (husband, wife), fid in families.items():
        lines.append(f"0 {fid} FAM")
        if husband:
            lines.append(f"1 HUSB {index[husband]}")
        if wife:
            lines.append(f"1 WIFE {index[wife]}")
        for p in persons:
            if (p.father, p.mother) == (husband, wife):
                lines.append(f"1 CHIL {index[p.id]}")
    lines.append("0 TRLR")
    return "\n".join(lines) + "\n"
