"""Translations of every user-facing string (gettext, one catalog per language).

The catalogs are ``.po`` files under ``locale/<lang>/LC_MESSAGES/chronicle.po``
beside this module. They are compiled in memory with Babel when first needed,
so no compiled ``.mo`` is committed and a build depends on the ``.po`` text
alone (deterministic). English is the source language.

Only gettext here: the reports use it too, and must not load the templating
(the templates' own gettext lives with their environment, in ``themes``).
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from chronicle.i18n.localnames import LANGUAGES

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "chronicle"
__all__ = ["LANGUAGES", "catalog_path", "feminine", "translations"]


def catalog_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def translations(language: str) -> NullTranslations:
    """The gettext object of ``language`` (English, or unknown: the source strings)."""
    path = catalog_path(language)
    if language == "en" or not path.is_file():
        return NullTranslations()
    stat = path.stat()
    return _compiled(path, language, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=8)
def _compiled(path: Path, language: str, _mtime: int, _size: int) -> Translations:
    # A build asks several times (templates, sentences, diagrams); the
    # catalogue's date and size in the key let an edited one be read again.
    with path.open("rb") as fh:
        catalog = read_po(fh, locale=language, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Translations(fp=buffer, domain=DOMAIN)


def feminine(_: Callable[[str], str], message: str) -> str:
    """``message`` said of a woman: its catalogue entry in the context "female",
    where a language has one ("cousine", "Née en 1300"); else as for anyone
    (English "cousin").

    A catalogue keeps a word's entry in a context under "context\x04word" (as
    ``pgettext`` looks it up), so plain ``gettext`` finds it there too.
    """
    key = f"female\x04{message}"
    said = _(key)
    return message if said == key else said
