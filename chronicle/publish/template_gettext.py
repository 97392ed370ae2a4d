"""The templates' gettext: translations as markup, each looked up once.

Beside the Jinja environment it serves (``themes``); plain gettext for the
reports and sentences is ``i18n``, which loads no templating.
"""

from __future__ import annotations

from collections.abc import Callable

from babel.support import NullTranslations
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
