"""The engine's reasons and notices in a campaign's language.

The rules engine gives why it refused an order, and what it tells one house
alone, as a ``Message``: a template (the catalogue's msgid) and its values
(adjudicator/messages.py). Here they are translated for a reader: the
template through the catalogue, the names it holds by the content pack's
names in that language, or by the catalogue's for the kinds of names the
ruleset says it translates (``LocalNames.catalogued``: Blood Royale's unit
types and goods), and the sentence finished as the language writes it ("du
Nord", "d’Édouard"). What is not a ``Message`` (a chronicle-side text) is left as it
is, and English gets every text exactly as the engine wrote it.

The store and the exports keep the English text: only what a reader reads
is translated, when it is shown.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.messages import Message, Name
from adjudicator.orders import Rejection
from chronicle.i18n.localnames import NO_NAMES, LocalNames

#: A text from the engine, in the reader's language.
Say = Callable[[str], str]


def as_written(text: str) -> str:
    """English: the engine's text as it is."""
    return str(text)


def engine_words(language: str, names: LocalNames = NO_NAMES) -> Say:
    """``say(text)``: an engine ``Message`` in ``language``, with ``names`` (the
    content pack's names in that language); any other text unchanged."""
    if language == "en":
        return as_written

    from chronicle.i18n.catalogue import translations
    from chronicle.i18n.grammar import finish

    catalogue = translations(language)

    def name(value: Name) -> str:
        local = names.by_kind.get(value.kind, {}).get(value.ident)
        if local is not None:
            return local
        context = names.catalogued.get(value.kind)
        if context is not None:
            return str(catalogue.pgettext(context, value.ident) if context
                       else catalogue.gettext(value.ident))
        return value.local.get(language, str(value))

    def shown(value: Any) -> str:
        if isinstance(value, Message):
            return filled(value)
        if isinstance(value, Name):
            return name(value)
        if isinstance(value, tuple):
            return ", ".join(shown(v) for v in value)
        return str(value)

    def filled(message: Message) -> str:
        template = str(catalogue.pgettext(message.context, message.template)
                       if message.context else catalogue.gettext(message.template))
        if not message.values:
            return template
        return template % {key: shown(value) for key, value in message.values.items()}

    def say(text: str) -> str:
        if not isinstance(text, Message):
            return str(text)
        return finish(language, filled(text))

    return say


def rejected_line(rejection: Rejection, say: Say) -> str:
    """``file:line: text: reason`` (DESIGN.md "Errors"), the reason in the reader's language."""
    reason = say(rejection.reason)
    if rejection.line:
        return f"{rejection.file}:{rejection.line}: {rejection.text}: {reason}"
    return f"{rejection.file}: {reason}"
