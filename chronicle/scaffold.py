"""``chronicle new``: a ready-to-play campaign folder."""

from __future__ import annotations

import secrets
import tomllib
from pathlib import Path
from typing import Any

import tomli_w

from chronicle.campaign import RULESET_DIR, CampaignError, seed_commitment

DYNASTY_EXAMPLE: list[tuple[str, str, str, str, str]] = [
    ("england", "E", "House Plantagenet", "Edward", "Margaret"),
    ("france", "F", "House Capet", "Philippe", "Jeanne"),
    ("castile", "C", "House of Castile", "Fernando", "Constanza"),
]
FAMILLES_PLAYERS = ("alice", "bob", "carol", "dmitri")


def _dynasty_spec() -> dict[str, Any]:
    houses, persons, units = [], [], []
    for hid, letter, name, king, queen in DYNASTY_EXAMPLE:
        houses.append({"id": hid, "letter": letter, "name": name, "law": "male-preference",
                       "player": ""})
        persons += [
            {"id": f"{hid}-king", "name": king, "sex": "M", "born": 1275, "dynasty": hid,
             "founder": True, "spouse": f"{hid}-queen"},
            {"id": f"{hid}-queen", "name": queen, "sex": "F", "born": 1280},
        ]
        units += [{"id": f"{letter}-{n}", "house": hid, "type": "army"} for n in (1, 2)]
    return {"house": houses, "person": persons, "unit": units}


def _pack_houses(world: str) -> list[dict[str, Any]]:
    data = tomllib.loads((RULESET_DIR / world / "houses.toml").read_text("utf-8"))
    kingdoms = {k["id"]: k for k in
                tomllib.loads((RULESET_DIR / world / "world.toml").read_text("utf-8"))["kingdom"]}
    return [{"id": h["id"], "letter": h["letter"], "name": h["name"],
             "law": kingdoms.get(h["id"], {}).get("law", "male-preference"), "player": ""}
            for h in data["house"]]


def campaign_spec(ruleset: str, *, world: str | None, title: str | None, seed: str,
                  players: int | None = None) -> dict[str, Any]:
    spec: dict[str, Any] = {"title": title or "A new chronicle", "ruleset": ruleset,
                            "start_year": 1300, "language": "en",
                            "seed_commitment": seed_commitment(seed)}
    if ruleset == "dynasty":
        spec.update(_dynasty_spec())
    elif ruleset == "blood-royale":
        pack = world or "blood-royale"
        spec["world"] = pack
        spec["end_year"] = 1400
        spec["house"] = _pack_houses(pack)
    else:
        seats = FAMILLES_PLAYERS[: players or 4]
        spec["house"] = [{"id": p, "letter": p[0].upper(), "name": p.title(), "player": p}
                         for p in seats]
    return spec


def scaffold(directory: Path, ruleset: str, *, world: str | None = None,
             title: str | None = None, seed: str | None = None) -> Path:
    if directory.exists() and any(directory.iterdir()):
        raise CampaignError(f"{directory}: the folder exists and is not empty")
    seed = seed or secrets.token_hex(16)
    spec = campaign_spec(ruleset, world=world, title=title, seed=seed)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "campaign.toml").write_text(
        "# Chronicle campaign. See docs/arbiter.md for every key.\n" + tomli_w.dumps(spec),
        encoding="utf-8")
    (directory / "secrets.toml").write_text(
        "# Never publish this file: the seed decides every die.\n"
        + tomli_w.dumps({"seed": seed}), encoding="utf-8")
    (directory / ".gitignore").write_text("secrets.toml\nchronicle.sqlite\nreports/\n.cache/\n",
                                          encoding="utf-8")
    for sub in ("orders/turn-001", "commentary", "reports"):
        (directory / sub).mkdir(parents=True, exist_ok=True)
    return directory
