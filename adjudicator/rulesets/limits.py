"""Reading the numbers of a ruleset's tables, each within what the rules can play.

A campaign may override any number of its ruleset's tables (``[rules]`` in
``campaign.toml``). A value the rules cannot play with (a die of no faces,
a table with no row for a total the dice can make) must be refused when the
tables are read, naming the value, and never surface halfway through a turn
as an arithmetic error.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.errors import RulesDataError

Where = tuple[str, ...]


def name_of(where: Where) -> str:
    return ".".join(where)


def entry(table: Any, keys: Where, at: Where = ()) -> Any:
    """The value under ``keys`` in ``table``, which lies at ``at`` in the rules tables;
    or RulesDataError naming what is missing."""
    value = table
    for depth, key in enumerate(keys):
        if not isinstance(value, Mapping) or key not in value:
            where = at + keys[:depth + 1]
            raise RulesDataError(f"{name_of(where)} is missing", where)
        value = value[key]
    return value


def whole(value: Any, where: Where, low: int | None = None, high: int | None = None) -> int:
    """``value``, a whole number from ``low`` to ``high`` (either may be open)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesDataError(f"{name_of(where)} must be a whole number, not {value!r}", where)
    if (low is not None and value < low) or (high is not None and value > high):
        span = (f"from {low} to {high}" if low is not None and high is not None
                else f"at least {low}" if low is not None else f"at most {high}")
        raise RulesDataError(f"{name_of(where)} must be {span}, not {value}", where)
    return value


def rows(value: Any, where: Where, width: int, *, low: int | None = None
         ) -> tuple[tuple[int, ...], ...]:
    """A table of at least one row of ``width`` whole numbers (each at least ``low``)."""
    shape = f"a list of rows of {width} whole numbers"
    if not isinstance(value, list) or not value:
        raise RulesDataError(f"{name_of(where)} must be {shape}, not {value!r}", where)
    found = []
    for row in value:
        if not isinstance(row, list) or len(row) != width:
            raise RulesDataError(f"{name_of(where)} must be {shape}; {row!r} is not", where)
        found.append(tuple(whole(n, where, low) for n in row))
    return tuple(found)
