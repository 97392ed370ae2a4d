"""What Blood Royale's sentences name besides people and houses, for a turn told
in a report or on the terminal: the provinces (in the reader's language, with
their articles) and the turn's battles, titled and linked as the site's pages."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from adjudicator.events import Event
from adjudicator.rulesets.blood_royale.battle import BattleFought
from adjudicator.rulesets.blood_royale.board import PROVINCE, board
from adjudicator.state import GameState
from chronicle.i18n.localnames import LocalNames
from chronicle.narration.narrator import Glossary
from chronicle.site.incremental.inputs import slugify


def turn_glossary(state: GameState, events: list[Event], gettext: Any,
                  names: LocalNames) -> Glossary:
    """The provinces of ``state`` and the battles among ``events``, in the language
    of ``gettext`` and ``names`` (the pack's names in that language)."""
    provinces = {p.id: names.named(PROVINCE, p.id, p.name)
                 for p in board(state).provinces.values()}
    return Glossary(provinces=provinces, battles=battle_pages(events, provinces, gettext),
                    articles=names.articles)


def battle_pages(events: Iterable[Event], provinces: Mapping[str, str],
                 gettext: Any) -> dict[str, tuple[str, str]]:
    """The turn's battles: id -> (the slug of its page, its title), as the site names
    them (``chronicle.views.data``: a page per battle id, its slug the id's; two
    battles of a turn in one province are told apart by round, else by number)."""
    fought = [e.payload() for e in events if e.kind == BattleFought.kind]
    places: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for pl in fought:
        places[str(pl.get("province"))].append(pl)
    pages = {}
    for where, same in places.items():
        values = {"province": provinces.get(where, where)}
        rounds = [pl.get("round") for pl in same]
        by_round = None not in rounds and len(set(rounds)) == len(rounds)
        for number, pl in enumerate(same, start=1):
            if len(same) < 2:
                title = gettext("Battle of %(province)s") % values
            elif by_round:
                title = gettext("Battle of %(province)s, round %(round)s") % {
                    **values, "round": pl.get("round")}
            else:
                title = gettext("Battle of %(province)s (%(number)s)") % {
                    **values, "number": number}
            pages[str(pl.get("id"))] = (slugify(str(pl.get("id")), "battle"), title)
    return pages
