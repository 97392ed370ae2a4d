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
    UNIT_FIELDS,
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
    ruleset = campaign.engine()
    players = player_names(campaign.spec)
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
