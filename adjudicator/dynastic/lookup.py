"""Resolving the people and dynasties named in orders."""

from __future__ import annotations

from adjudicator.messages import msg
from adjudicator.state import GameState, House, Person


def find(state: GameState, token: str) -> Person | None:
    return state.find_person(token)


def controls(house: str, person: Person) -> bool:
    """A house gives orders for its dynasty's members and the minor nobles at its court."""
    return person.dynasty == house or (person.dynasty is None and person.court == house)


def find_dynasty(state: GameState, token: str) -> House | None:
    """A dynasty by letter (``E``) or house id (``england``)."""
    lowered = token.lower()
    for house in state.houses.values():
        if house.id == lowered or house.letter.lower() == lowered:
            return house
    return None


def label(person: Person) -> str:
    """How the reports name a person: reference number and name."""
    refs = sorted(person.refs.values())
    return f"{refs[0]} {person.name}" if refs else person.name


def unknown_person(state: GameState, token: str) -> str:
    """The reason for a person not found, with the number meant if only its case is wrong."""
    meant = state.ref_like(token)
    if meant:
        return msg("nobody is called %(token)s; did you mean %(meant)s?", token=repr(token),
                   meant=meant)
    return msg("nobody is called %(token)s", token=repr(token))
