"""The command line's messages in a campaign's language, from the site's catalogue.

Loaded by every command that speaks: it imports nothing itself, and the
catalogue only for a language other than English, the catalogue's own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

#: A message and its values, filled in (``words``).
Say = Callable[..., str]


def as_written(message: str, /, **values: Any) -> str:
    """A message in English, the language the messages are written in, filled in."""
    return message % values if values else message


def words(language: str) -> Say:
    """``_(message, **values)``: the translation filled in, with the language's
    elisions made ("d’Edward"); English gets the message as written."""
    if language == "en":
        return as_written

    from chronicle.i18n.catalogue import translations
    from chronicle.i18n.grammar import FINISHING

    gettext = translations(language).gettext
    finish = FINISHING.get(language)

    def say(message: str, /, **values: Any) -> str:
        text = gettext(message) % values if values else gettext(message)
        return finish(text) if finish is not None else text

    return say


class Phrase:
    """Words to be said later, in the language of whoever says them: a value of
    an error raised before its words are known (``CampaignError``).

    A plain class: this module is loaded by ``chronicle --version``, which must
    start at once (tests/test_cli_imports.py).
    """

    __slots__ = ("message", "values")

    def __init__(self, message: str, values: Mapping[str, Any] | None = None) -> None:
        self.message = message
        self.values: Mapping[str, Any] = values or {}

    def said(self, say: Say) -> str:
        return say(self.message, **{key: value.said(say) if isinstance(value, Phrase) else value
                                    for key, value in self.values.items()})

    def __str__(self) -> str:
        return self.said(as_written)
