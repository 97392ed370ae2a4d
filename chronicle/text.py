"""Plain-text sentences for events, for reports and the terminal.

The published site has its own localised narrative; this is the arbiter's and
the players' mail, in English.
"""

from __future__ import annotations

from typing import Any

from adjudicator.state import GameState


def person_label(state: GameState, pid: str | None) -> str:
    if not pid:
        return "nobody"
    person = state.persons.get(pid)
    if person is None:
        return pid
    refs = sorted(person.refs.values())
    return f"{person.name} ({refs[0]})" if refs else person.name


def house_name(state: GameState, hid: str | None) -> str:
    if not hid:
        return "the minor nobility"
    house = state.houses.get(hid)
    return house.name if house else hid


def describe_event(state: GameState, kind: str, data: dict[str, Any]) -> str:
    """One sentence for an event payload; unknown kinds get a generic line."""
    p = lambda key: person_label(state, data.get(key))  # noqa: E731
    h = lambda key: house_name(state, data.get(key))  # noqa: E731
    match kind:
        case "birth":
            return f"{p('person')} was born to {p('father')} and {p('mother')}."
        case "birth-attempts":
            return ""
        case "death":
            detail = f", {data['detail']}" if data.get("detail") else ""
            return f"{p('person')} died aged {data.get('age')} ({data.get('cause')}{detail})."
        case "epidemic":
            return f"An epidemic struck: {len(data.get('dead', []))} died."
        case "succession":
            return f"{p('ruler')} now rules {h('house')}."
        case "extinction":
            return f"{h('house')} is extinct."
        case "marriage":
            return f"{p('husband')} married {p('wife')}."
        case "minor-noble":
            return ""
        case "renunciation":
            return f"{p('person')} renounced {data.get('ref')} in {h('dynasty')}."
        case "assignment":
            how = " (automatically)" if data.get("automatic") else ""
            return f"{p('person')} took command of {data.get('unit')}{how}."
        case "capture":
            return f"{p('person')} was captured by {h('captor')}."
        case "capture-escaped":
            return f"{p('person')} escaped capture."
        case "prisoner-released":
            ransom = f" for {data['ransom']} crowns" if data.get("ransom") else ""
            return f"{h('captor')} released {p('person')}{ransom}."
        case "prisoner-kept":
            return f"{h('captor')} keeps {p('person')} prisoner."
        case "widow-returns":
            return f"{p('person')}, widowed, returned to {h('court')}."
        case "units-disbanded":
            return f"{h('house')} lost its units: {', '.join(data.get('units', []))}."
    return f"{kind.replace('-', ' ')}: " + ", ".join(
        f"{k} {v}" for k, v in sorted(data.items()) if isinstance(v, str | int) and v != "")
