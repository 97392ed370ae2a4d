"""Built-in players: they write order files for the demo campaigns.

A built-in player reads only the public state and writes an order file in the
same language as a human; the arbiter can hand any house to one for a turn
with ``chronicle template --auto HOUSE``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from adjudicator.state import GameState
from chronicle.rulesets import descriptor

PERSONALITIES = ("cautious", "ambitious", "mercantile")


def orders_for(ruleset: str, state: GameState, house: str, rules: Mapping[str, Any],
               personality: str, rng_seed: str) -> str:
    """The text of ``house``'s order file for the next turn."""
    return descriptor(ruleset).orders(state, house, rules, personality, rng_seed)


def personality_of(house: str, index: int) -> str:
    return PERSONALITIES[index % len(PERSONALITIES)]


def write_auto_orders(campaign: Any, state: GameState, house: str, personality: str,
                      *, force: bool = False) -> Path:
    from chronicle.campaign.folder import write_inside
    from chronicle.errors import CampaignError

    folder: Path = campaign.orders_dir(state.turn + 1)
    path = folder / f"{house}.orders"
    if (path.exists() or path.is_symlink()) and not force:
        raise CampaignError("%(path)s: already exists (use --force to overwrite it)",
                            path=path.relative_to(campaign.root))
    text = orders_for(campaign.ruleset, state, house, campaign.rules, personality,
                      f"{state.turn}:{house}")
    write_inside(campaign.root, path, text)
    return path
