"""The application's registry of rulesets: one line each.

A ruleset is a plug-in on both sides: the engine adjudicates it
(``adjudicator.rulesets``), and its ``Descriptor`` (``chronicle.rulesets.base``)
tells the rest of the application everything else. Adding a ruleset means its
own new files plus one line in ``_REGISTRY``; ``register`` adds one at run time
(the tests' own ruleset does).
"""

from __future__ import annotations

import importlib

from chronicle.errors import RulesetError
from chronicle.rulesets.base import (
    Calendar,
    DeathCause,
    Descriptor,
    Moves,
    RunStatistics,
    Triple,
    Years,
    load_object,
)

# Ruleset id -> the module defining its ``DESCRIPTOR``, imported on first use.
_REGISTRY: dict[str, str] = {
    "dynasty": "chronicle.rulesets.dynasty.descriptor",
    "blood-royale": "chronicle.rulesets.blood_royale.descriptor",
    "familles": "chronicle.rulesets.familles.descriptor",
}
_LOADED: dict[str, Descriptor] = {}
#: What ``chronicle new`` and ``chronicle demo`` play when not told.
DEFAULT = "blood-royale"


def ruleset_ids() -> tuple[str, ...]:
    """Every registered ruleset, in registration order."""
    return tuple(_REGISTRY) + tuple(k for k in _LOADED if k not in _REGISTRY)


def descriptor(ruleset_id: str) -> Descriptor:
    """The descriptor of ``ruleset_id``; ``KeyError`` if there is none."""
    found = _LOADED.get(ruleset_id)
    if found is None:
        found = importlib.import_module(_REGISTRY[ruleset_id]).DESCRIPTOR
        if not isinstance(found, Descriptor) or found.id != ruleset_id:
            raise TypeError(f"{_REGISTRY[ruleset_id]}.DESCRIPTOR is not the {ruleset_id} "
                            "ruleset's descriptor")
        _LOADED[ruleset_id] = found
    return found


def register(found: Descriptor) -> None:
    """Add a ruleset at run time (the registry above is the usual way)."""
    if found.id in _REGISTRY or found.id in _LOADED:
        raise ValueError(f"a ruleset {found.id!r} is already registered")
    _LOADED[found.id] = found


def unregister(ruleset_id: str) -> None:
    """Remove a ruleset added with ``register``."""
    if ruleset_id in _REGISTRY:
        raise ValueError(f"{ruleset_id!r} is a built-in ruleset")
    _LOADED.pop(ruleset_id, None)


def sentences_for(event_module: str) -> tuple[str, ...]:
    """The modules that tell the events defined in ``event_module``, as the
    registered rulesets' descriptors name them (``Descriptor.sentences``)."""
    found: dict[str, None] = {}
    for rid in ruleset_ids():
        for package, module in descriptor(rid).sentences.items():
            if event_module == package or event_module.startswith(package + "."):
                found[module] = None
    return tuple(found)


def sentences_for_ruleset(ruleset_id: str) -> tuple[str, ...]:
    """The modules of sentences ``ruleset_id``'s descriptor names, each once."""
    return tuple(dict.fromkeys(descriptor(ruleset_id).sentences.values()))


def death_causes() -> dict[str, DeathCause]:
    """Every cause of death the registered rulesets record, in words (a cause two
    rulesets both name has the first one's words)."""
    found: dict[str, DeathCause] = {}
    for rid in ruleset_ids():
        for cause, words in descriptor(rid).death_causes.items():
            found.setdefault(cause, words)
    return found


def all_personalities() -> tuple[str, ...]:
    """Every built-in player's personalities, each once, in order."""
    return tuple(dict.fromkeys(p for rid in ruleset_ids() for p in descriptor(rid).personalities))


def all_worlds() -> tuple[str, ...]:
    """Every content pack of every ruleset, each once, in order."""
    return tuple(dict.fromkeys(w for rid in ruleset_ids() for w in descriptor(rid).worlds))


__all__ = ["DEFAULT", "Calendar", "DeathCause", "Descriptor", "Moves", "RulesetError", "RunStatistics",
           "Triple",
           "Years", "all_personalities", "all_worlds", "death_causes", "descriptor",
           "load_object", "register", "ruleset_ids", "sentences_for", "sentences_for_ruleset",
           "unregister"]
