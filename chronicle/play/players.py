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


def orders_for(ruleset: str, state: GameState, house: str, rules: Mapping[str, Any],
               personality: str, rng_seed: str) -> str:
    """The text of ``house``'s order file for the next turn."""
    return descriptor(ruleset).orders(state, house, rules, personality, rng_seed)


def personalities_of(ruleset: str) -> tuple[str, ...]:
    """The personalities ``ruleset``'s built-in player knows (``""``: it has none)."""
    return descriptor(ruleset).personalities or ("",)


def personality_of(ruleset: str, index: int) -> str:
    """The personality of the ``index``-th house (in order of ids), for the demo and
    ``simulate``: the ruleset's personalities in turn."""
    found = personalities_of(ruleset)
    return found[index % len(found)]


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
