"""The templates' gettext: translations as markup, and literals translated once.

Beside the Jinja environment it serves (``themes``); plain gettext for the
reports and sentences is ``i18n``, which loads no templating.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from babel.support import NullTranslations
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


def markup_gettext(trans: NullTranslations,
                   finish: Callable[[str], str] | None = None) -> Callable[..., Markup]:
    """The templates' ``_(text, **values)``, as ``jinja2.ext.i18n`` newstyle gives it.

    Same result (the translation taken as markup, then ``%``-filled with
    escaped values), without two context lookups and calls per use, and each
    translation looked up once: pages call it tens of thousands of times.
    Templates here always autoescape, which the newstyle function checks.
    ``finish`` (the language's elisions) is applied to a filled-in text.
    """
    formats: dict[str, Markup] = {}

    def gettext(__string: str, **variables: object) -> Markup:
        template = formats.get(__string)
        if template is None:
            template = formats[__string] = Markup(trans.gettext(__string))
        if finish is None or not variables:
            return template % variables
        # A name filled in may need the article before it elided (French "d’Edward").
        return Markup(finish(str(template % variables)))

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
