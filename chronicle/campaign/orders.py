"""Reading a turn's order folder: one ``<house-id>.orders`` file per house.

Files are untrusted: each is read as UTF-8 text within a size limit, never
followed outside the campaign folder, and parsed into an ``OrderSheet``. A file
that cannot be read at all refuses that house's orders, with the reason.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from adjudicator.orders import OrderSheet, parse_orders
from adjudicator.rulesets.base import Ruleset
from adjudicator.state import GameState
from chronicle.campaign.folder import read_input
from chronicle.errors import CampaignError

MAX_BYTES = 256 * 1024
ARBITER = "arbiter"


@dataclass
class TurnOrders:
    """A turn's orders: each house's sheet, and the files as the store keeps them."""

    sheets: dict[str, OrderSheet] = field(default_factory=dict)
    #: House -> (the file's text, why it was refused or None).
    texts: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    #: House -> the file's name in the turn folder.
    files: dict[str, str] = field(default_factory=dict)
    #: What was wrong with the folder's other files (the arbiter's report lists it).
    problems: list[str] = field(default_factory=list)
    digest: str = ""

    def refused(self) -> list[str]:
        return [s.refused for _, s in sorted(self.sheets.items()) if s.refused]


def _read(path: Path, root: Path, shown: str) -> tuple[str | None, str | None]:
    """The file's text, or the reason it cannot be used."""
    try:
        raw = read_input(root, path, shown, limit=MAX_BYTES)
    except CampaignError as err:
        return None, str(err)
    if raw is None:
        return None, f"{shown}: has vanished"
    if b"\x00" in raw:
        return None, f"{shown}: a binary file, not an order file"
    try:
        return raw.decode("utf-8-sig"), None
    except UnicodeDecodeError as err:
        return None, f"{shown}: not UTF-8 text (bad byte at offset {err.start})"


def read_turn(folder: Path, root: Path, ruleset: Ruleset, state: GameState) -> TurnOrders:
    """Parse every order file of a turn folder."""
    found = TurnOrders()
    root = root.resolve()
    houses = set(state.houses)
    hasher = hashlib.sha256()
    entries = sorted(folder.iterdir(), key=lambda p: p.name) if folder.is_dir() else []
    for path in entries:
        shown = f"{folder.name}/{path.name}"
        if path.suffix != ".orders":
            if not path.name.startswith("."):
                found.problems.append(f"{shown}: not an .orders file; ignored")
            continue
        house = path.stem.lower()
        if house not in houses and house != ARBITER:
            found.problems.append(f"{shown}: there is no house {path.stem!r} in this campaign; "
                                  f"ignored (houses: {', '.join(sorted(houses))})")
            continue
        text, problem = _read(path, root, shown)
        found.files[house] = path.name
        if text is None:
            sheet = OrderSheet(house=house, file=path.name, refused=problem)
            found.sheets[house] = sheet
            found.texts[house] = ("", problem)
            continue
        hasher.update(path.name.encode() + b"\0" + text.encode() + b"\0")
        sheet = parse_orders(text, ruleset.grammar_for(house), filename=path.name,
                             expected_house=house)
        found.sheets[house] = sheet
        found.texts[house] = (text, sheet.refused)
    found.digest = hasher.hexdigest()
    return found


def stored_turn(ruleset: Ruleset, files: list[tuple[str, str, str, str | None]],
                problems: list[str], digest: str) -> TurnOrders:
    """A turn's orders again, from the files the store kept: (house, file, text, refused).

    Parsing is deterministic, so these are the sheets the turn was resolved
    with, whatever has become of the order folder since.
    """
    found = TurnOrders(problems=list(problems), digest=digest)
    for house, name, text, refused in sorted(files):
        found.files[house] = name
        found.texts[house] = (text, refused)
        if refused and not text:  # the file could not be read at all
            found.sheets[house] = OrderSheet(house=house, file=name, refused=refused)
        else:
            found.sheets[house] = parse_orders(text, ruleset.grammar_for(house), filename=name,
                                               expected_house=house)
    return found
