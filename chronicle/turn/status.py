"""``chronicle status``: who has sent orders for the next turn, and who is late.

A house's orders are ``received`` when its order file is in the next turn's
folder and can be read, ``refused`` when the file cannot be used (misfiled,
not text) or the last message it mailed was refused and nothing is filed,
and ``missing`` otherwise. ``received_at`` is when the filed message was sent
(its ``Date``), or, for a file the arbiter saved by hand, when the file was
last written. ``nmr`` counts the adjudicated turns the house got the
defaults for (no move received).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from chronicle.campaign.folder import Campaign
from chronicle.campaign.orders import read_turn
from chronicle.campaign.schedule import deadline_of
from chronicle.i18n.words import Say, as_written
from chronicle.mail.importing import load_index
from chronicle.turn import runner


@dataclass(frozen=True)
class HouseStatus:
    id: str
    orders: str
    received_at: str | None
    nmr: int
    why: str | None = None


@dataclass(frozen=True)
class Status:
    turn: int
    year: int
    deadline: str | None
    houses: tuple[HouseStatus, ...]
    over: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "year": self.year, "deadline": self.deadline,
                "houses": [{"id": h.id, "orders": h.orders, "received_at": h.received_at,
                            "nmr": h.nmr} for h in self.houses]}


def _stamp(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def campaign_status(campaign: Campaign, say: Say = as_written) -> Status:
    """The next turn's status; ``over`` in the words of ``say`` (the JSON's are English)."""
    ruleset = runner.ruleset_of(campaign)
    nmr: dict[str, int] = {}
    over = None
    if campaign.store_path.exists():
        with runner.read_store(campaign) as reader:
            state = reader.state_to_play()
            nmr = reader.defaulted_counts()
            row = reader.campaign()
            if row is not None and row.seed_revealed is not None:
                over = say("the campaign has ended (chronicle end)")
    else:
        state = runner.initial_state(campaign, ruleset)
    reason = runner.over_phrase(state)
    if over is None and reason is not None:
        over = say("the campaign is over (%(why)s): run 'chronicle end' to reveal the seed",
                   why=runner.over_reason(state, say))
    turn = runner.next_turn(state)
    folder = campaign.orders_dir(turn)
    sheets = read_turn(folder, campaign.root, ruleset, state).sheets
    mailed = load_index(campaign).get(f"turn-{turn:03d}", {})
    houses = []
    for house in ruleset.ordering_houses(state):
        sheet = sheets.get(house)
        record = mailed.get(house, {})
        if sheet is not None:
            path = folder / sheet.file
            at = record.get("sent_at") if record.get("status") == "received" else None
            if at is None and path.is_file():
                at = _stamp(datetime.fromtimestamp(path.stat().st_mtime, UTC))
            status = HouseStatus(house, "refused" if sheet.refused else "received", at,
                                 nmr.get(house, 0), sheet.refused)
        elif record.get("status") == "refused":
            status = HouseStatus(house, "refused", record.get("sent_at"), nmr.get(house, 0),
                                 record.get("reason"))
        else:
            status = HouseStatus(house, "missing", None, nmr.get(house, 0))
        houses.append(status)
    deadline = deadline_of(campaign.spec, turn)
    return Status(turn=turn, year=state.year_of(turn),
                  deadline=None if deadline is None else _stamp(deadline),
                  houses=tuple(houses), over=over)
