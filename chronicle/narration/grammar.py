"""What a filled-in sentence needs in a language once its names are in it.

A catalogue's sentence is written around blanks (``Bataille de %(province)s``),
and the name that fills a blank may begin with a vowel or carry its own
article. French then elides (``d’Edward``, not ``de Edward``) and contracts
(``du Nord``, not ``de Le Nord``; ``dans le Bief``, not ``en Le Bief``), and
a name's article inside a sentence is in lower case (``et la Maison Capet``). The
texts are escaped HTML, and a name may come inside its link, so an article
may stand before the name's tag.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# A name's link or span, between a word of the sentence and the name.
_TAG = r"((?:<a [^>]*>|<span>)?)"

_ELISION = re.compile(
    rf"\b([DdLl]|[Qq]u)e {_TAG}(?=[AEIOUYÀÂÉÈÊËÎÏÔÛaeiouyàâéèêëîïôû])")

# "de", "à", "en" before a name that begins with its own article.
_CONTRACTION = re.compile(rf"(?<![\w’])(de|De|à|À|en|En) {_TAG}(Les |Le |La |L’)")
_CONTRACTED = {("de", "le"): "du", ("de", "les"): "des", ("à", "le"): "au",
               ("à", "les"): "aux"}


def elide_french(text: str) -> str:
    """``de``, ``le`` and ``que`` elided before a vowel: "le fils d’Edward"."""
    return _ELISION.sub("\\1’\\2", text)


def _contract(match: re.Match[str]) -> str:
    word, tag, article = match.groups()
    lower, art = word.lower(), article.lower()
    bare = art.strip()
    # "en" takes no article: a name with one is "dans" it.
    said = "dans" if lower == "en" else _CONTRACTED.get((lower, bare), "")
    if not said:
        return f"{word} {tag}{art}"
    if word[0].isupper():
        said = said.capitalize()
    if (lower, bare) in _CONTRACTED:
        return f"{said} {tag}"
    return f"{said} {tag}{art}"


# A name's own article after a word or a comma, colon...: not a sentence's first word.
_INSIDE = re.compile(rf"(?<=[\w,;:]) {_TAG}(Les |Le |La |L’)")


def contract_french(text: str) -> str:
    """An article a name begins with, joined to the word before it ("la bataille du
    Nord", "dans les Terres de l’Ouest", "de la Treille"), and in lower case
    inside a sentence ("entre la Maison Capet et la Maison de Castille")."""
    joined = _CONTRACTION.sub(_contract, text)
    return _INSIDE.sub(lambda m: f" {m.group(1)}{m.group(2).lower()}", joined)


def finish_french(text: str) -> str:
    """A filled-in French text, with its contractions and elisions made."""
    return elide_french(contract_french(text))


#: Language -> what finishes a filled sentence there.
FINISHING: dict[str, Callable[[str], str]] = {"fr": finish_french}


def finish(language: str, text: str) -> str:
    """``text``, filled in, as ``language`` says it (unchanged where nothing needs doing)."""
    finishing = FINISHING.get(language)
    return finishing(text) if finishing is not None else text
