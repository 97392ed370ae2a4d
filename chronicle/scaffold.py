"""``chronicle new``: a ready-to-play campaign folder."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import tomli_w

from chronicle.campaign import CampaignError, seed_commitment
from chronicle.rulesets import RulesetError, descriptor


def campaign_spec(ruleset: str, *, world: str | None, title: str | None,
                  seed: str) -> dict[str, Any]:
    """The ``campaign.toml`` of a new campaign: the common keys, then the ruleset's own."""
    kind = descriptor(ruleset)
    try:
        world = kind.world({} if world is None else {"world": world})
    except RulesetError as err:
        raise CampaignError(f"--world: {err}") from None
    spec: dict[str, Any] = {"title": title or "A new chronicle", "ruleset": ruleset,
                            "start_year": 1300, "language": "en",
                            "seed_commitment": seed_commitment(seed)}
    spec.update(kind.campaign_spec(world))
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
    (directory / ".gitignore").write_text(
        "secrets.toml\nchronicle.sqlite\nreports/\n.cache/\n.chronicle.lock\n"
        ".chronicle.sqlite.new\n", encoding="utf-8")
    for sub in ("orders/turn-001", "commentary", "reports"):
        (directory / sub).mkdir(parents=True, exist_ok=True)
    return directory
