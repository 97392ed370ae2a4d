"""Translations of every user-facing string (gettext, one catalog per language).

The catalogs are ``.po`` files under ``locale/<lang>/LC_MESSAGES/chronicle.po``
beside this module. They are compiled in memory with Babel when first needed,
so no compiled ``.mo`` is committed and a build depends on the ``.po`` text
alone (deterministic). English is the source language.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Iterator
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations
from jinja2.ext import Extension
from jinja2.lexer import (
    TOKEN_DOT,
    TOKEN_LPAREN,
    TOKEN_NAME,
    TOKEN_RPAREN,
    TOKEN_STRING,
    Token,
    TokenStream,
)
from markupsafe import Markup

LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "chronicle"
LANGUAGES = ("en", "fr")


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


def markup_gettext(trans: NullTranslations) -> Callable[..., Markup]:
    """The templates' ``_(text, **values)``, as ``jinja2.ext.i18n`` newstyle gives it.

    Same result (the translation taken as markup, then ``%``-filled with
    escaped values), without two context lookups and calls per use, and each
    translation looked up once: pages call it tens of thousands of times.
    Templates here always autoescape, which the newstyle function checks.
    """
    formats: dict[str, Markup] = {}

    def gettext(__string: str, **variables: object) -> Markup:
        template = formats.get(__string)
        if template is None:
            template = formats[__string] = Markup(trans.gettext(__string))
        return template % variables

    return gettext


class ConstantGettext(Extension):
    """Translate ``_("literal")`` once, when a template compiles.

    An environment serves one language, so a call with a lone literal and no
    variables always gives the same text: the extension swaps it for the
    translated literal, which Jinja then escapes once at compile time instead
    of calling gettext on every page (a tenth of a large build's time).
    Calls with variables keep the ordinary ``jinja2.ext.i18n`` path. The
    template source is untouched, so message extraction still finds them.
    """

    def filter_stream(self, stream: TokenStream) -> Iterator[Token]:
        gettext = self.environment.globals.get("_constant_gettext")
        tokens = list(stream)
        shape = [TOKEN_NAME, TOKEN_LPAREN, TOKEN_STRING, TOKEN_RPAREN]
        i = 0
        while i < len(tokens):
            window = tokens[i:i + 4]
            if (callable(gettext) and [t.type for t in window] == shape
                    and window[0].value == "_" and (i == 0 or tokens[i - 1].type != TOKEN_DOT)):
                try:
                    translated = gettext(window[2].value) % {}
                except (TypeError, ValueError, KeyError):
                    translated = None
                if translated is not None:
                    yield Token(window[0].lineno, TOKEN_STRING, translated)
                    i += 4
                    continue
            yield tokens[i]
            i += 1
