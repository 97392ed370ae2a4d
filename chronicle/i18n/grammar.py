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
from collections.abc import Callable, Mapping

# A name's link or span, between a word of the sentence and the name.
_TAG = r"((?:<a [^>]*>|<span>)?)"

# Not a pronoun after its verb's hyphen ("Corrigez-le et renvoyez-le").
_ELISION = re.compile(
    rf"(?<![\w’-])([DdLl]|[Qq]u)e {_TAG}(?=[AEIOUYÀÂÉÈÊËÎÏÔÛaeiouyàâéèêëîïôû])")

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


_OWN_ARTICLE = re.compile(r"(?:les |le |la |l’)(?=\w)")


def as_name(phrase: str) -> str:
    """A phrase that begins with its article ("le premier fils d’Edward"), put in a
    blank as a name that carries its own is ("Le Nord"): the finishing then
    joins the article to the word before it ("du premier fils") and lowers it
    again. Anything else is left as it is."""
    if _OWN_ARTICLE.match(phrase):
        return phrase[:1].upper() + phrase[1:]
    return phrase


def finish_french(text: str) -> str:
    """A filled-in French text, with its contractions and elisions made."""
    return elide_french(contract_french(text))


#: Language -> what finishes a filled sentence there.
FINISHING: dict[str, Callable[[str], str]] = {"fr": finish_french}

#: The articles that "en" drops before a region's name ("en Normandie", "en Anjou");
#: before "le" and "les" it is "dans" ("dans le Kent"), before a town "à" ("à York").
_EN_DROPS = ("la", "l’")


def in_sentence(article: str, name: str) -> str:
    """A name with the article it takes (a content pack's ``article_fr``), as a
    sentence's blank is filled with it: "La Normandie", "L’Anjou", "York"; the
    finishing joins and lowers it as it does a name that carries its own."""
    if not article:
        return name
    if article.endswith("’"):
        return article.capitalize() + name
    return f"{article.capitalize()} {name}"


def _named(names: list[str]) -> str:
    # The longest first, so that no name stops at a shorter one it begins with.
    return "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))


def finishing(language: str, articles: Mapping[str, str]) -> Callable[[str], str] | None:
    """What finishes a filled sentence in ``language`` whose places are the names of
    ``articles`` (name -> the article it takes, "" for none): the language's own
    finishing, with "en" said as each place needs it first."""
    done = FINISHING.get(language)
    if language != "fr" or done is None or not articles:
        return done
    finish_done: Callable[[str], str] = done
    regions = [n for n, a in articles.items() if a in _EN_DROPS]
    towns = [n for n, a in articles.items() if not a]
    after = r"(?![\w’-])"
    dropping = (re.compile(rf"(?<![\w’])(en|En) {_TAG}(?:La |L’)(?=(?:{_named(regions)}){after})")
                if regions else None)
    at = (re.compile(rf"(?<![\w’])(en|En) {_TAG}(?=(?:{_named(towns)}){after})")
          if towns else None)

    def finish_places(text: str) -> str:
        if dropping is not None:
            text = dropping.sub(lambda m: f"{m.group(1)} {m.group(2)}", text)
        if at is not None:
            text = at.sub(lambda m: ("À" if m.group(1)[0] == "E" else "à") + f" {m.group(2)}",
                          text)
        return finish_done(text)

    return finish_places


def finish(language: str, text: str) -> str:
    """``text``, filled in, as ``language`` says it (unchanged where nothing needs doing)."""
    finishing = FINISHING.get(language)
    return finishing(text) if finishing is not None else text
