"""The command line's messages in a campaign's language, from the site's catalogue.

Loaded by every command that speaks: it imports nothing itself, and the
catalogue only for a language other than English, the catalogue's own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: A message and its values, filled in (``words``).
Say = Callable[..., str]


def as_written(message: str, **values: Any) -> str:
    """A message in English, the language the messages are written in, filled in."""
    return message % values if values else message


def words(language: str) -> Say:
    """``_(message, **values)``: the translation filled in, with the language's
    elisions made ("d’Edward"); English gets the message as written."""
    if language == "en":
        return as_written

    from chronicle.narration.grammar import FINISHING
    from chronicle.publish.i18n import translations

    gettext = translations(language).gettext
    finish = FINISHING.get(language)

    def say(message: str, **values: Any) -> str:
        text = gettext(message) % values if values else gettext(message)
        return finish(text) if finish is not None else text

    return say
