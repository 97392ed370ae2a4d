"""Deadlines (``chronicle status``): a ``deadline`` per turn, or a ``cadence``.

In ``campaign.toml``::

    cadence = "7 days"            # optional: one turn every 7 days
    [deadline]                    # the deadline of a turn, by its number
    1 = 2026-12-08T18:00:00Z
    5 = 2027-01-10T18:00:00Z      # a later one restarts the count (a holiday)

A turn's deadline is its own, if given; otherwise, with a cadence, the latest
given deadline of an earlier turn plus one cadence per turn since. Times are
written with their time zone (``Z`` or ``+01:00``), so every reader of the
schedule agrees on the moment.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from chronicle.campaign.spec import locate
from chronicle.errors import ShapeError

_CADENCE = re.compile(r"^\s*(\d{1,4})\s*(h|hours?|d|days?|w|weeks?)\s*$", re.IGNORECASE)
_UNITS = {"h": timedelta(hours=1), "d": timedelta(days=1), "w": timedelta(weeks=1)}


def cadence_of(text: str) -> timedelta | None:
    match = _CADENCE.match(text)
    if match is None:
        return None
    return int(match.group(1)) * _UNITS[match.group(2)[0].lower()]


def check_schedule(spec: Mapping[str, Any], text: str) -> None:
    """Refuse a ``deadline`` or ``cadence`` that cannot be used, by line."""
    table = spec.get("deadline", {})
    if not isinstance(table, dict):
        raise ShapeError("deadline must be a table of turn numbers: [deadline] 1 = "
                         "2026-12-08T18:00:00Z", locate(text, "deadline"))
    for key, value in table.items():
        if not key.isdigit() or int(key) < 1:
            raise ShapeError(f"[deadline] {key!r}: the keys are turn numbers (1, 2, ...)",
                             locate(text, key, "[deadline]"))
        if not isinstance(value, datetime) or value.tzinfo is None:
            raise ShapeError(f"[deadline] {key} must be a date and time with its time zone, "
                             f"e.g. 2026-12-08T18:00:00Z, not {value!r}",
                             locate(text, key, "[deadline]"))
    cadence = spec.get("cadence")
    if cadence is not None:
        step = cadence_of(str(cadence))
        if step is None or not step:
            raise ShapeError(f"cadence must be a number of hours, days or weeks, e.g. "
                             f"\"7 days\", not {cadence!r}", locate(text, "cadence"))
        if not table:
            raise ShapeError("a cadence needs the deadline of one turn to count from: add "
                             "[deadline] with, say, 1 = 2026-12-08T18:00:00Z",
                             locate(text, "cadence"))


def deadline_of(spec: Mapping[str, Any], turn: int) -> datetime | None:
    """Turn ``turn``'s deadline, or None if the campaign sets none for it."""
    table = {int(k): v for k, v in spec.get("deadline", {}).items()}
    if turn in table:
        return table[turn]  # type: ignore[no-any-return]
    step = cadence_of(str(spec["cadence"])) if "cadence" in spec else None
    earlier = [k for k in table if k < turn]
    if step is None or not earlier:
        return None
    since = max(earlier)
    return table[since] + (turn - since) * step  # type: ignore[no-any-return]
