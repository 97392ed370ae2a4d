"""The engine's words to players: a sentence's template and its values.

Why an order is refused, what a house alone is told: the engine writes them
in English, the order language's, and the store and the export keep that
English text. A campaign in another language shows them translated, so a
reason is made as a template (the catalogue's msgid, with ``%(name)s`` blanks)
and the values that fill it, and the application translates both.

A ``Message`` *is* its English sentence (a ``str``): every check that returns
``str | None``, every rejection and the stored text carry it unchanged, and
whatever prints it in English prints what it always printed. A ``Name`` is
likewise the English name of a thing (a house, or a thing of a ruleset's:
a province, a good) that a reader may see under another name.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any

#: What a value of a message may be: a number, player text (shown as it is),
#: a ``Name``, another ``Message`` (translated in turn), or a tuple of them
#: (shown joined by commas).
Value = Any

_FROZEN = "the engine's messages are immutable"


class Name(str):
    """A thing's English name, with what it is (``kind``) and its id.

    ``kind`` is ``house`` (``house_name``), or a kind of thing a ruleset
    names (Blood Royale's provinces, goods, unit types): the application looks
    the thing up by ``ident`` in the reader's language, as the ruleset's
    descriptor says (``Descriptor.name_kinds``). A name the ruleset's own data
    gives in other languages carries them (``local``: language -> name).
    """

    kind: str
    ident: str
    local: Mapping[str, str]

    def __new__(cls, kind: str, ident: str, text: str,
                local: Mapping[str, str] | None = None) -> Name:
        self = super().__new__(cls, text)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "ident", ident)
        object.__setattr__(self, "local", dict(local or {}))
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(_FROZEN)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Name, (self.kind, self.ident, str(self), dict(self.local)))


def _english(value: Value) -> str:
    if isinstance(value, tuple):
        return ", ".join(_english(v) for v in value)
    return str(value)


class Message(str):
    """An English sentence made from ``template`` and ``values``; ``context`` tells
    apart a template whose words another language says differently here."""

    template: str
    values: Mapping[str, Value]
    context: str | None

    def __new__(cls, template: str, values: Mapping[str, Value] | None = None,
                context: str | None = None) -> Message:
        filled = dict(values or {})
        text = template % {k: _english(v) for k, v in filled.items()} if filled else template
        self = super().__new__(cls, text)
        object.__setattr__(self, "template", template)
        object.__setattr__(self, "values", filled)
        object.__setattr__(self, "context", context)
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(_FROZEN)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Message, (self.template, dict(self.values), self.context))

    def mapped(self, plain: Any) -> Message:
        """This message with ``plain`` applied to the player's text among its values
        (not to names or the templates' words)."""
        def each(value: Value) -> Value:
            if isinstance(value, Message):
                return value.mapped(plain)
            if isinstance(value, tuple):
                return tuple(each(v) for v in value)
            if isinstance(value, str) and not isinstance(value, Name):
                return plain(value)
            return value
        values = {k: each(v) for k, v in self.values.items()}
        if all(values[k] is v for k, v in self.values.items()):
            return self
        return Message(self.template, values, self.context)


def msg(template: str, **values: Value) -> Message:
    """A sentence to translate: ``template`` is its catalogue msgid (English)."""
    return Message(template, values) if values else _bare(template)


@functools.lru_cache(maxsize=1024)
def _bare(template: str) -> Message:
    # The grammar rules name what they read ("a province") on every line they
    # parse; a message without values is made once (it is immutable).
    return Message(template)


def msg_in(context: str, template: str, **values: Value) -> Message:
    """``msg`` with the catalogue's context ``context`` (its msgctxt)."""
    return Message(template, values, context)


def either(words: Iterable[str]) -> Message:
    """Order words as alternatives: "'keep' or 'release'" (each shown quoted)."""
    listed = [repr(w) for w in words]
    found = msg("%(word)s", word=listed[0])
    for word in listed[1:]:
        found = msg("%(either)s or %(other)s", either=found, other=word)
    return found


def every(values: Iterable[Value]) -> Message:
    """Values listed with "and": "wisdom and courage"."""
    listed = list(values)
    found = msg("%(word)s", word=listed[0])
    for value in listed[1:]:
        found = msg("%(first)s and %(other)s", first=found, other=value)
    return found


#: The ``Name`` kind of a house, which every ruleset has.
HOUSE = "house"


def house_name(house: Any) -> Name:
    """A house's name (``house``: anything with an ``id`` and a ``name``)."""
    return Name(HOUSE, house.id, house.name)


def house_id(ident: str) -> Name:
    """A house named by its id, as some reasons name it."""
    return Name(HOUSE, ident, ident)


def reason_of(error: Exception) -> str:
    """The reason an exception carries, still a ``Message`` when it was made one
    (``str(error)`` would give only its English text)."""
    first = error.args[0] if len(error.args) == 1 else None
    return first if isinstance(first, Message) else str(error)
