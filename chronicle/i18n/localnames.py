"""Names a content pack gives its things in other languages.

The entries of a pack's lists of tables (Blood Royale's ``[[house]]`` and
``[[province]]``) may carry, beside the English ``name``, one
``name_<language>`` per published language (``name_fr = "Normandie"``). The
store, the exports and the engine keep the English names (the JSON export does
not change with the site's language); only what a reader reads in that
language uses them: the site, and the terminal's sentences. A ruleset's
descriptor gathers them (``Descriptor.local_names``) by the kind of thing each
names, as the engine's ``Name`` says it (``house``, ``province``...).

An entry may also say which article its name takes in a sentence of that
language, ``article_fr = "la"`` ("la famine frappa la Normandie", "en
Normandie", "du Kent"); ``""`` for a town's name, which takes none ("à York").
A name that begins with its own article ("La Manche") needs none of this.

The packs ship with the program, but a bad name still gets
``file:line: what and why`` (``check_names``), like every file Chronicle reads.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from adjudicator.messages import HOUSE
from chronicle.errors import ContentError

#: The languages a campaign may be published in (``campaign.toml``'s ``language``).
LANGUAGES = ("en", "fr")
_KEY = re.compile(r"name_(\w+)$")
_ARTICLE_KEY = re.compile(r"article_(\w+)$")
#: The articles a name may take, by language ("" for none: a town's name).
ARTICLES: dict[str, tuple[str, ...]] = {"fr": ("le", "la", "l’", "les", "")}
#: Longer than any real name, short enough for a map's label box.
MAX_NAME = 60


def _line_of(text: str, key: str, ident: str) -> int | None:
    """The line of ``key = ...`` in the entry whose ``id`` is ``ident``."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines)
                  if re.match(rf'\s*id\s*=\s*"{re.escape(ident)}"', line)), None)
    if start is None:
        return None
    setting = re.compile(rf"^\s*{re.escape(key)}\s*=")
    for index in range(start, len(lines)):
        if index > start and lines[index].lstrip().startswith("[["):
            break
        if setting.match(lines[index]):
            return index + 1
    return None


def check_names(table: Mapping[str, Any], text: str, shown: str) -> None:
    """Refuse a ``name_<language>`` that a page could not use, naming its line.

    It must be for a language Chronicle publishes in (not English: that is
    ``name``), stand beside a ``name``, and be one line of text without
    markup characters, at most ``MAX_NAME`` characters long. Every list of tables
    is read: a pack names a thing a reader sees wherever it gives it a name.
    """
    for kind, entries in table.items():
        if not isinstance(entries, list):
            continue
        for entry in entries:
            if not isinstance(entry, dict):
                continue
            ident = str(entry.get("id", "?"))
            for key, value in entry.items():
                match = _KEY.match(str(key))
                article = _ARTICLE_KEY.match(str(key))
                if match is not None:
                    why = _wrong(match.group(1), entry, value)
                elif article is not None:
                    why = _wrong_article(article.group(1), entry, value)
                else:
                    continue
                if why is not None:
                    # Looked for only now: every command reads the packs.
                    line = _line_of(text, key, ident)
                    where = f"{shown}:{line}" if line else shown
                    raise ContentError(f"{where}: [[{kind}]] {ident!r}: {key}{why}")


def _wrong(language: str, entry: Mapping[str, Any], value: Any) -> str | None:
    """What is wrong with an entry's ``name_<language> = value``, or None."""
    if language not in LANGUAGES or language == "en":
        others = ", ".join(f"name_{lang}" for lang in LANGUAGES if lang != "en")
        return f": no such language (the English name is 'name'; others are {others})"
    if "name" not in entry:
        return ": the entry has no English 'name'"
    if not isinstance(value, str):
        return f" must be text, not {value!r}"
    if not value.strip() or value != value.strip():
        return " must be a name, without spaces around it"
    if len(value) > MAX_NAME:
        return f" is longer than {MAX_NAME} characters"
    if re.search(r"[\x00-\x1f\x7f<>&\"]", value):
        return " holds a control or markup character (one of < > & \")"
    return None


def _wrong_article(language: str, entry: Mapping[str, Any], value: Any) -> str | None:
    """What is wrong with an entry's ``article_<language> = value``, or None."""
    if language not in ARTICLES:
        return f": no such language (articles are given for {', '.join(sorted(ARTICLES))})"
    if f"name_{language}" not in entry:
        return f": the entry has no name_{language} for it to go with"
    if value not in ARTICLES[language]:
        shown = ", ".join(f'"{a}"' for a in ARTICLES[language])
        return f" must be one of {shown}, not {value!r}"
    return None


@dataclass(frozen=True)
class LocalNames:
    """The names of a campaign's things in one language: by the kind of thing (a
    ``Name``'s: ``house``, or a ruleset's own such as Blood Royale's
    ``province``), then by id. What is missing keeps the name it has."""

    by_kind: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    #: Id -> the article its name takes in a sentence ("" for none).
    articles: Mapping[str, str] = field(default_factory=dict)
    #: The kinds of names the catalogue translates rather than the pack (the
    #: ruleset's unit types, its goods), with the catalogue's context for each
    #: ("": none).
    catalogued: Mapping[str, str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return any(self.by_kind.values())

    def named(self, kind: str, ident: str, name: str) -> str:
        """The name of the ``kind`` thing ``ident`` in this language, else ``name``."""
        return self.by_kind.get(kind, {}).get(ident, name)

    def house(self, hid: str, name: str) -> str:
        return self.named(HOUSE, hid, name)

    @property
    def houses(self) -> Mapping[str, str]:
        return self.by_kind.get(HOUSE, {})

    # Deprecated: the site's views ask for provinces by these names until they
    # ask the ruleset's site plug-in; nothing else may.
    def province(self, pid: str, name: str) -> str:
        return self.named("province", pid, name)

    @property
    def provinces(self) -> Mapping[str, str]:
        return self.by_kind.get("province", {})


NO_NAMES = LocalNames()


def pack_articles(entries: Any, language: str) -> dict[str, str]:
    """``id -> article_<language>`` of a pack's entry list (checked by ``check_names``)."""
    if language not in ARTICLES or not isinstance(entries, list):
        return {}
    key = f"article_{language}"
    return {str(e["id"]): str(e[key]) for e in entries
            if isinstance(e, dict) and "id" in e and isinstance(e.get(key), str)}


def pack_names(entries: Any, language: str) -> dict[str, str]:
    """``id -> name_<language>`` of a pack's entry list (checked by ``check_names``)."""
    if language == "en" or not isinstance(entries, list):
        return {}
    key = f"name_{language}"
    return {str(e["id"]): str(e[key]) for e in entries
            if isinstance(e, dict) and "id" in e and isinstance(e.get(key), str)}
