"""Genealogical reference numbers (RULES.md A3).

A number is the dynasty's letter, ``1`` for the founder, then one character
per generation, padded with ``0`` to four characters. Because the padding
``0`` sorts before every child character, plain ASCII order of the numbers is
exactly the order of succession: a parent before its heirs, the first branch
before the second, sons' lines before daughters' under male preference.
"""

from __future__ import annotations

from adjudicator.messages import msg
from adjudicator.state import GameState, Law, Person, Sex

SON_CHARS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
DAUGHTER_CHARS = "abcdefghijklmnopqrstuvwxyz"
PAD = 4

# ``issued[dynasty]`` on a parent counts the children who took their number
# in that dynasty from this parent: [sons or all children, daughters].
_ALL, _DAUGHTERS = 0, 1


def format_ref(letter: str, core: str) -> str:
    return letter + core.ljust(PAD, "0")


def core_of(ref: str) -> str:
    """The generation characters of a number, without letter or padding."""
    return ref[1:].rstrip("0")


def founder_ref(letter: str) -> str:
    return format_ref(letter, "1")


def succession_key(ref: str) -> str:
    """Sort key: plain ASCII order, as A3 says."""
    return ref


def child_char(law: Law, sex: Sex, issued: list[int]) -> str | None:
    """The next child character under ``law``, or None when the alphabet is spent."""
    if law == Law.ABSOLUTE or sex == Sex.MALE:
        chars, index = SON_CHARS, issued[_ALL]
    else:
        chars, index = DAUGHTER_CHARS, issued[_DAUGHTERS]
    return chars[index] if index < len(chars) else None


def alphabet_spent(law: Law, sex: Sex) -> str:
    """Why a child has no number: each child takes one character, and the parent's are used."""
    if law == Law.ABSOLUTE:
        whom = msg("%(count)s children", count=len(SON_CHARS))
    elif sex == Sex.MALE:
        whom = msg("%(count)s sons", count=len(SON_CHARS))
    else:
        whom = msg("%(count)s daughters", count=len(DAUGHTER_CHARS))
    return msg("the parent has numbered %(whom)s, every character there is (A3)", whom=whom)


def _count_issue(law: Law, sex: Sex, issued: list[int]) -> None:
    if law == Law.ABSOLUTE or sex == Sex.MALE:
        issued[_ALL] += 1
    else:
        issued[_DAUGHTERS] += 1


def number_child(state: GameState, child: Person) -> list[str]:
    """Give ``child`` a number in every dynasty where a parent holds one.

    Returns the dynasties in which a number could not be issued because the
    parent's alphabet was spent (reported, never silently dropped).
    """
    parents = [state.persons[p] for p in (child.father, child.mother) if p]
    dynasties = sorted({d for parent in parents for d in parent.refs})
    spent: list[str] = []
    for dynasty in dynasties:
        house = state.houses.get(dynasty)
        if house is None:
            continue
        holders = [p for p in parents if dynasty in p.refs]
        source = min(holders, key=lambda p: succession_key(p.refs[dynasty]))
        issued = source.issued.setdefault(dynasty, [0, 0])
        char = child_char(house.law, child.sex, issued)
        if char is None:
            spent.append(dynasty)
            continue
        _count_issue(house.law, child.sex, issued)
        child.refs[dynasty] = format_ref(house.letter, core_of(source.refs[dynasty]) + char)
        child.ref_from[dynasty] = source.id
    return spent


def renounce(person: Person, dynasty: str, turn: int) -> str | None:
    """Drop ``person``'s number in ``dynasty``; returns the number given up."""
    ref = person.refs.pop(dynasty, None)
    if ref is not None:
        person.renounced[dynasty] = turn
    return ref


def claimants(state: GameState, dynasty: str) -> list[Person]:
    """Everyone who may inherit ``dynasty``: living holders of a number in it,
    save a widowed queen (A3)."""
    return [p for p in state.living() if dynasty in p.refs and not p.widowed_queen]


def ruler_of(state: GameState, dynasty: str) -> Person | None:
    """The living holder of the smallest number in ``dynasty`` (A3, A6)."""
    return rulers_of(state).get(dynasty)


def rulers_of(state: GameState) -> dict[str, Person]:
    """``ruler_of`` every dynasty that has a claimant, found in one pass over the living
    (a pass per house was most of settling the successions of a large campaign)."""
    rulers: dict[str, Person] = {}
    keys: dict[str, str] = {}
    for person in state.living():
        if person.widowed_queen:
            continue
        for dynasty, ref in person.refs.items():
            key = succession_key(ref)
            if dynasty not in keys or key < keys[dynasty]:
                rulers[dynasty], keys[dynasty] = person, key
    return rulers


def line_of_succession(state: GameState, dynasty: str, limit: int = 10) -> list[Person]:
    """The claimants of ``dynasty`` in order, the ruler first."""
    return sorted(claimants(state, dynasty),
                  key=lambda p: succession_key(p.refs[dynasty]))[:limit]
