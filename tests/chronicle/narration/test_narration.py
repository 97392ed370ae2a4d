"""The narrator: one registry from event class to sentence, in English and French.

Every public event a ruleset can emit is told on the site and in the private
reports by the same sentence; a kind without one, or a sentence that breaks,
fails loudly instead of printing a stand-in.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest
from babel.messages.pofile import read_po

from adjudicator.events import EVENT_KINDS, Event
from chronicle.errors import NarrationError
from chronicle.i18n.catalogue import catalog_path, translations
from chronicle.narration import IN_A_LIFE, SENTENCES, Narrator, says
from chronicle.narration.narrator import load_all, missing
from chronicle.rulesets import descriptor, ruleset_ids

# Every ruleset's engine, and so (``load_all``) every ruleset's sentences:
# a command loads only those of the rulesets it tells.
for _ruleset in ruleset_ids():
    descriptor(_ruleset).engine_type()
load_all()

# Payloads for which the generic sample (see ``_sample``) is told as nothing:
# a birth's attempts are news only when in vain, a move only when it went somewhere.
TOLD_WHEN = {"birth-attempts": {"children": []}, "unit-moved": {"path": ["a", "b"]},
             "ruling": {"directive": "grant"}}


def _value(hint: Any) -> Any:
    """A plain value of type ``hint``, the shape an engine's event field has."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return _value(next(a for a in args if a is not type(None)))
    if origin in (tuple, list):
        return [_value(args[0]), _value(args[0])]
    if origin is dict:
        return {_value(args[0]): _value(args[1])}
    if dataclasses.is_dataclass(hint):
        return _fields(hint)
    return {str: "x1", int: 2, bool: True, float: 1.0}.get(hint, "x1")


def _fields(cls: Any) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {f.name: _value(hints[f.name]) for f in dataclasses.fields(cls) if f.name != "phase"}


def _sample(cls: type[Event]) -> dict[str, Any]:
    """A payload of ``cls`` as the store keeps it (JSON), every field filled."""
    payload = {**_fields(cls), **TOLD_WHEN.get(cls.kind, {})}
    if "good" in payload:  # a good is a word of the content packs (see below)
        payload["good"] = "wine"
    if cls.kind == "familles-descendant":
        payload["parents"] = [1, 2]
    return dict(json.loads(json.dumps(payload)))


@dataclass(frozen=True)
class Entry:
    turn: int
    seq: int
    kind: str
    payload: dict[str, Any]


def _narrator(language: str, asked: list[str] | None = None) -> Narrator:
    trans = translations(language)

    def gettext(text: str) -> str:
        if asked is not None:
            asked.append(text)
        return trans.gettext(text)

    def ngettext(singular: str, plural: str, num: int) -> str:
        if asked is not None:
            asked.append(singular)
        return trans.ngettext(singular, plural, num)

    return Narrator({}, {}, gettext, ngettext)


# The engine's own events (a ruleset registered by the tests brings its own words).
TOLD = sorted((cls for cls, sentence in SENTENCES.items()
               if sentence is not None and cls.__module__.startswith("adjudicator.")),
              key=lambda cls: cls.kind)


def test_every_public_event_class_of_every_ruleset_has_an_entry() -> None:
    assert missing() == []
    public = {cls for cls in EVENT_KINDS.values() if cls.public}
    assert public <= set(SENTENCES)


@pytest.mark.parametrize("cls", TOLD, ids=lambda cls: cls.kind)
def test_every_told_event_has_a_sentence_in_english_and_in_french(cls: type[Event]) -> None:
    with catalog_path("fr").open("rb") as fh:
        french = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(fh) if m.string}
    entry = Entry(turn=1, seq=1, kind=cls.kind, payload=_sample(cls))
    asked: list[str] = []
    english = _narrator("en", asked).sentence(entry, "")
    assert english is not None and str(english).strip()
    sentence_words = [text for text in asked if "%(" in text or text.endswith(".")]
    assert sentence_words and set(asked) <= french, set(asked) - french
    assert str(_narrator("fr").sentence(entry, "")) != str(english)


def test_every_good_of_every_content_pack_has_its_french_word() -> None:
    """The narrator names goods by the packs' ids (RULES.md B4: metal, cloth, food,
    wine, gold, and whatever a pack adds): each must be in the catalogue."""
    from chronicle.rulesets import descriptor

    kind = descriptor("blood-royale")
    goods: set[str] = set()
    for world in kind.worlds:
        rules = kind.rules({"world": world})
        goods |= set(rules["wealth"]["basic"])
        goods |= {str(p["resource"]) for p in rules["world"].get("province", [])
                  if p.get("resource")}
        goods |= {str(g) for s in rules["wealth"].get("set", []) for g in s.get("extra", [])}
    assert {"metal", "cloth", "food", "wine", "gold"} <= goods
    french = translations("fr")
    assert [g for g in sorted(goods) if french.gettext(g) == g] == []


@pytest.mark.parametrize("cls", sorted(IN_A_LIFE, key=lambda cls: cls.kind),
                         ids=lambda cls: cls.kind)
def test_every_event_told_in_a_life_is_told_there_in_english_and_in_french(
        cls: type[Event]) -> None:
    """A life's sentence of a shared event names nobody: it is the same on every page."""
    with catalog_path("fr").open("rb") as fh:
        french = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(fh) if m.string}
    entry = Entry(turn=1, seq=1, kind=cls.kind, payload=_sample(cls))
    asked: list[str] = []
    english = _narrator("en", asked).in_a_life(entry, "")
    assert english is not None and str(english).strip()
    assert asked and set(asked) <= french, set(asked) - french
    assert str(_narrator("fr").in_a_life(entry, "")) != str(english)
    assert "x1" not in str(english)  # the sample names everyone "x1"
    assert str(english) != str(_narrator("en").sentence(entry, ""))


def test_an_event_kind_without_a_sentence_is_refused() -> None:
    with pytest.raises(NarrationError, match="'comet'"):
        _narrator("en").sentence(Entry(turn=1, seq=1, kind="comet", payload={}), "")


def test_a_sentence_that_breaks_raises_instead_of_a_stand_in() -> None:
    """A malformed payload is a bug to see, not a sentence to replace."""
    with pytest.raises(KeyError, match="husband"):
        _narrator("en").sentence(Entry(turn=1, seq=1, kind="marriage", payload={}), "")


def test_a_new_event_class_is_missing_until_its_sentence_is_registered() -> None:
    @dataclass(frozen=True, kw_only=True)
    class CometSeen(Event):
        kind: ClassVar[str] = "test-comet-seen"
        house: str

    try:
        assert missing() == [CometSeen]
        tell: Callable[..., Any] = says(CometSeen)(
            lambda n, pl: n.fmt("A comet was seen over %(house)s.", house=n.house(pl["house"])))
        assert SENTENCES[CometSeen] is tell and missing() == []
        with pytest.raises(TypeError, match="two sentences"):
            says(CometSeen)(tell)
        told = _narrator("en").sentence(
            Entry(turn=1, seq=1, kind=CometSeen.kind, payload={"house": "x<b>"}), "")
        assert str(told) == "A comet was seen over x&lt;b&gt;."
    finally:
        del EVENT_KINDS[CometSeen.kind]
        SENTENCES.pop(CometSeen, None)
