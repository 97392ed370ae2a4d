"""The Blood Royale sections of the JSON export (DESIGN.md "JSON export").

``export_blood_royale(state, events, rules=None)`` returns ``provinces``,
``battles`` and ``wealth`` (and ``units`` when ``rules`` is given, since a
unit's command value needs the rules). ``events`` is every stored public
event of the campaign as ``(turn, kind, payload)`` tuples, in the order they
happened; battles come from the ``battle`` payloads and wealth rows from the
``wealth`` payloads. Lists are in a stable order: provinces in map order,
units by id, battles as fought, wealth rows by turn then house.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from adjudicator.dynastic.command import unit_command_value
from adjudicator.rulesets.blood_royale.board import board
from adjudicator.state import GameState

BATTLE_KIND = "battle"
WEALTH_KIND = "wealth"
WEALTH_FIELDS = ("turn", "year", "house", "treasury", "goods", "best_cash_in", "taxes",
                 "upkeep", "raised", "cash_in", "revolts", "paid", "received", "ransom_paid",
                 "ransom_received")

Triple = tuple[int, str, Mapping[str, Any]]


def export_provinces(state: GameState) -> list[dict[str, Any]]:
    return [{"id": p.id, "name": p.name, "kingdom": p.kingdom, "kind": p.kind,
             "capital": p.capital, "resource": p.resource, "controller": p.controller,
             "neighbours": list(p.neighbours), "revolt": p.revolt, "famine": p.famine,
             "x": p.x, "y": p.y}
            for p in board(state).provinces.values()]


def export_units(state: GameState, rules: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [{"id": u.id, "house": u.house, "type": u.type, "armies": u.armies,
             "province": u.province, "commanders": list(u.commanders),
             "command_value": unit_command_value(state, u, rules)}
            for u in sorted(state.units.values(), key=lambda u: u.id)]


def export_battles(events: Iterable[Triple]) -> list[dict[str, Any]]:
    """Every battle payload, with its turn, as fought."""
    battles: list[dict[str, Any]] = []
    for turn, kind, payload in events:
        if kind == BATTLE_KIND:
            battles.append({**payload, "turn": payload.get("turn", turn)})
    return battles


def export_wealth(events: Iterable[Triple]) -> list[dict[str, Any]]:
    """One row per house per turn: the last wealth row emitted for it that turn."""
    rows: dict[tuple[int, str], dict[str, Any]] = {}
    for turn, kind, payload in events:
        if kind == WEALTH_KIND:
            row = {key: payload.get(key) for key in WEALTH_FIELDS}
            row["turn"] = payload.get("turn", turn)
            rows[(int(row["turn"] or turn), str(row["house"]))] = row
    return [rows[key] for key in sorted(rows)]


def export_blood_royale(state: GameState, events: Iterable[Triple],
                        rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
    listed = list(events)
    data: dict[str, Any] = {
        "provinces": export_provinces(state),
        "battles": export_battles(listed),
        "wealth": export_wealth(listed),
    }
    if rules is not None:
        data["units"] = export_units(state, rules)
    return data
