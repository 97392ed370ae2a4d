"""Machine-readable exports: JSON (DESIGN.md contract) here; GEDCOM in ``chronicle.archival.gedcom``."""

from __future__ import annotations

import json
from typing import Any

from adjudicator.state import GameState
from chronicle.archival.gedcom import export_gedcom
from chronicle.campaign.folder import Campaign, player_names
from chronicle.store.file import (
    HOUSE_FIELDS,
    MARRIAGE_FIELDS,
    PERSON_FIELDS,
    StoredCampaign,
    StoredEvent,
    values,
)

__all__ = ["export_gedcom", "export_json"]


def export_json(campaign: Campaign, state: GameState, events: list[StoredEvent],
                *, row: StoredCampaign | None = None) -> dict[str, Any]:
    """The whole public state, lists in a stable order.

    ``row`` is the store's campaign row: once the campaign has ended (``chronicle
    end``) the export is finished, and holds the seed and what the end revealed.
    """
    ended = row is not None and row.seed_revealed is not None
    kind = campaign.descriptor
    players = player_names(campaign.spec)
    public = [e for e in events if e.public]
    data: dict[str, Any] = {
        "campaign": {
            "slug": campaign.slug, "title": campaign.title, "ruleset": campaign.ruleset,
            "start_year": state.start_year, "end_year": state.end_year,
            "target": state.target, "seed_commitment": campaign.spec["seed_commitment"],
            "finished": state.finished or ended, "winner": state.winner,
        },
        "turn": state.turn,
        "year": state.year,
        # The fields the store keeps (``storefile``), as the contract names them.
        "houses": [{**values(h, HOUSE_FIELDS), "player": players.get(h.id, h.player)}
                   for h in sorted(state.houses.values(), key=lambda h: h.id)],
        "persons": [
            {**values(p, PERSON_FIELDS),
             "refs": dict(sorted(p.refs.items())),
             "renounced": dict(sorted(p.renounced.items()))}
            for p in sorted(state.persons.values(), key=lambda p: p.seq)],
        "marriages": [values(m, MARRIAGE_FIELDS) for m in state.marriages],
    }
    # The ruleset's sections, in its order, around the public events; each starts
    # empty, and keeps its place when the ruleset fills it below.
    for section in kind.export_layout:
        data[section] = [] if section != "events" else [
            {"turn": e.turn, "seq": e.seq, "phase": e.phase, "kind": e.kind,
             **json.loads(e.payload)}
            for e in public]
    if row is not None and row.seed_revealed is not None:
        data["campaign"]["seed"] = row.seed_revealed
        data["campaign"].update(json.loads(row.revealed or "{}"))
    data["campaign"].update(kind.export_campaign(state, state.finished or ended))
    data.update(kind.export_records(state, campaign.rules))
    data.update(kind.export_sections(
        state, [(e.turn, e.kind, json.loads(e.payload)) for e in public]))
    return data
