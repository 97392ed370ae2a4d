"""The templates' gettext: translations as markup, each looked up once.

Beside the Jinja environment it serves (``themes``); plain gettext for the
reports and sentences is ``i18n``, which loads no templating.
"""

from __future__ import annotations

from collections.abc import Callable

from babel.support import NullTranslations
from markupsafe import Markup

from chronicle.i18n.catalogue import feminine


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


def markup_said_of(trans: NullTranslations,
                   finish: Callable[[str], str] | None = None) -> Callable[..., Markup]:
    """The templates' ``said_of(sex, text, **values)``: ``_`` for a sentence about
    one person, which some languages word by their sex (French "Née en 1300").

    A woman's takes the catalogue's entry in the context "female" where there
    is one (``i18n.feminine``), so English and every sentence a language says
    alike of both need no second entry.
    """
    plain = markup_gettext(trans, finish)
    formats: dict[str, Markup] = {}

    def said_of(__sex: str, __string: str, **variables: object) -> Markup:
        if __sex != "F":
            return plain(__string, **variables)
        template = formats.get(__string)
        if template is None:
            template = formats[__string] = Markup(feminine(trans.gettext, __string))
        if finish is None or not variables:
            return template % variables
        return Markup(finish(str(template % variables)))

    return said_of
