"""Resource counters (RULES.md B2.2.2, B4, B7): creating them and naming them in orders.

A counter's id is its good and a campaign-wide number (``wine-7``), so a
player can name it in ``carry`` and ``give`` orders; an order may instead
name a good and a province, meaning the lowest-numbered such counter.
"""

from __future__ import annotations

from adjudicator.messages import msg
from adjudicator.rulesets.blood_royale.board import Counter, board, province_name
from adjudicator.rulesets.blood_royale.world import br_data, find_province, productive
from adjudicator.state import GameState


def new_counter(state: GameState, good: str, owner: str, province: str) -> Counter:
    """A resource counter with a campaign-unique id such as ``wine-7``."""
    data = br_data(state)
    number = data.next_counter
    data.next_counter = number + 1
    counter = Counter(id=f"{good}-{number}", good=good, owner=owner, province=province)
    board(state).counters.append(counter)
    return counter


def counter_number(counter: Counter) -> int:
    tail = counter.id.rpartition("-")[2]
    return int(tail) if tail.isdigit() else 0


def find_counter(state: GameState, house: str, token: str, source: str | None,
                 claimed: set[str]) -> Counter | None:
    """A counter of ``house`` named by id, or the lowest-numbered free one of a good
    in ``source``."""
    if source is None:
        return next((c for c in board(state).counters if c.id == token and c.owner == house), None)
    province = find_province(state, source)
    if province is None:
        return None
    matches = [c for c in board(state).counters if c.owner == house and c.good == token
               and c.province == province.id and c.id not in claimed]
    return min(matches, key=counter_number, default=None)


def check_counter(state: GameState, house: str, token: str, source: str | None) -> str | None:
    """Static check of a counter named in an order. A good that the source province
    will produce for the house at this interphase is accepted."""
    if source is None:
        if find_counter(state, house, token, None, set()) is None:
            return msg("you have no counter %(token)s", token=token)
        return None
    province = find_province(state, source)
    if province is None:
        return msg("there is no province %(source)s", source=repr(source))
    if find_counter(state, house, token, source, set()) is not None:
        return None
    if province.resource == token and province.controller == house and productive(province):
        return None
    return msg("you have no %(token)s counter in %(province)s", token=token,
               province=province_name(province))
