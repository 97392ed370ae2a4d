"""The narrator: an event's payload in, a sentence of escaped HTML out.

Each event class has one entry in ``SENTENCES``: the function that tells it,
or ``None`` for a class told elsewhere (the wealth tables, the dice page) or
redundant with another event. The rulesets' modules fill it with ``@says``;
``missing`` names the public event classes it lacks, and the narrator refuses
an event it has no entry for. Nothing is told by guessing: a broken sentence
raises, for a test to catch.

Every sentence is a translated format string filled with escaped values:
names and causes come from players and the arbiter, so they are never
trusted. A sentence links the people and houses it names; the site keeps the
links, a report strips them (``plain``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from markupsafe import Markup, escape

from adjudicator.events import EVENT_KINDS, Event
from chronicle.errors import NarrationError
from chronicle.i18n.grammar import finishing
from chronicle.rulesets import death_causes, ruleset_ids, sentences_for, sentences_for_ruleset

Gettext = Callable[[str], str]
NGettext = Callable[[str, str, int], str]
PGettext = Callable[[str, str], str]

Payload = Mapping[str, Any]


class Tellable(Protocol):
    """What the narrator reads of an event (``chronicle.views.data.EventView`` fits)."""

    @property
    def turn(self) -> int: ...
    @property
    def seq(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def payload(self) -> Payload: ...


class PersonLike(Protocol):
    """What a sentence shows of a person: the name, the number beside it, the page."""

    @property
    def name(self) -> str: ...
    @property
    def slug(self) -> str: ...
    @property
    def label_ref(self) -> str | None: ...


class HouseLike(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def slug(self) -> str: ...


def label_ref(dynasty: str | None, refs: Mapping[str, str]) -> str | None:
    """The reference number shown beside a name: in the own dynasty first."""
    if dynasty and dynasty in refs:
        return refs[dynasty]
    return min(refs.values()) if refs else None


@dataclass(frozen=True)
class CardNote:
    """What a sentence shows of a card on the table: its look, and the move that placed it."""

    title: str
    turn: int | None


@dataclass(frozen=True)
class Glossary:
    """The public names a ruleset's sentences use besides people and houses."""

    provinces: Mapping[str, str] = field(default_factory=dict)
    cards: Mapping[int, CardNote] = field(default_factory=dict)
    traits: Mapping[str, str] = field(default_factory=dict)
    #: Battle id -> (the slug of its page, its title), for sentences that link it.
    battles: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    #: Province id -> the article its name takes in a sentence (``LocalNames.articles``).
    articles: Mapping[str, str] = field(default_factory=dict)


Sentence = Callable[["Narrator", Payload], Markup | None]

#: Event class -> the function telling it (None: told elsewhere, or not at all).
SENTENCES: dict[type[Event], Sentence | None] = {}


@dataclass(frozen=True)
class Reader:
    """The house a private report is for, and the people it counts as its own
    (its dynasty and its court, the dead of the turn included)."""

    house: str
    people: frozenset[str]


#: What an event did to one house, told to that house ("You paid..."): a list of
#: sentences, empty when the event is none of its business.
HouseSentence = Callable[["Narrator", Payload, Reader], list[Markup]]

#: Event class -> its sentences for a house's report (``for_house``). An event
#: without one is told to the houses it names in its public sentence.
FOR_HOUSE: dict[type[Event], HouseSentence] = {}


def for_house(*classes: type[Event]) -> Callable[[HouseSentence], HouseSentence]:
    """Register the decorated function as the house's-eye sentences of ``classes``."""
    def register(sentences: HouseSentence) -> HouseSentence:
        for cls in classes:
            if cls in FOR_HOUSE:
                raise TypeError(f"event class {cls.__name__} has two sentences for a house")
            FOR_HOUSE[cls] = sentences
        return sentences
    return register


#: Event class -> how the page of one of its people tells it, for events
#: many people share. A life tells its own part in such an event and links
#: to the event on its turn's page instead of copying it: an epidemic's
#: victim's page does not list every victim (that would make each page grow
#: with the epidemic, and the site with the square of its victims).
IN_A_LIFE: dict[type[Event], Sentence] = {}


@dataclass(frozen=True)
class LedgerEntry:
    """One house's part of an event in the turn's ledger (the economy table).

    ``column`` is a key of ``LEDGER_COLUMNS``; ``amount`` adds up in a
    number column, ``note`` is listed in a column of notes.
    """

    house: str
    column: str
    amount: int = 0
    note: Markup | None = None


Ledger = Callable[["Narrator", Payload], list[LedgerEntry]]

#: Event class -> its entries in the turn's ledger, for the events a table
#: tells better than a sentence each (taxes, upkeep...). The sentence stays
#: the report's; the turn's page shows the table instead.
LEDGER: dict[type[Event], Ledger] = {}

#: Ledger column key -> (its heading, untranslated; whether it adds up numbers),
#: in the order the table shows them.
LEDGER_COLUMNS: dict[str, tuple[str, bool]] = {}


def ledger(*classes: type[Event]) -> Callable[[Ledger], Ledger]:
    """Register the decorated function as the ledger entries of ``classes``."""
    def register(entries: Ledger) -> Ledger:
        for cls in classes:
            if cls in LEDGER:
                raise TypeError(f"event class {cls.__name__} has two ledger entries")
            LEDGER[cls] = entries
        return entries
    return register


def N_(text: str) -> str:
    """Mark ``text`` for the catalogue; it is translated where it is shown."""
    return text


def ledger_column(key: str, heading: str, *, adds_up: bool) -> None:
    """Declare a ledger column (see ``LEDGER_COLUMNS``)."""
    LEDGER_COLUMNS[key] = (heading, adds_up)


def says(*classes: type[Event]) -> Callable[[Sentence], Sentence]:
    """Register the decorated function as the sentence of ``classes``."""
    def register(sentence: Sentence) -> Sentence:
        for cls in classes:
            _enter(cls, sentence)
        return sentence
    return register


def in_a_life(*classes: type[Event]) -> Callable[[Sentence], Sentence]:
    """Register the decorated function as the sentence of ``classes`` in a life (``IN_A_LIFE``)."""
    def register(sentence: Sentence) -> Sentence:
        for cls in classes:
            if cls in IN_A_LIFE:
                raise TypeError(f"event class {cls.__name__} has two sentences in a life")
            IN_A_LIFE[cls] = sentence
        return sentence
    return register


def told_elsewhere(*classes: type[Event]) -> None:
    """Register ``classes`` as events the chronicle does not tell in words."""
    for cls in classes:
        _enter(cls, None)


def _enter(cls: type[Event], sentence: Sentence | None) -> None:
    if cls in SENTENCES:
        raise TypeError(f"event class {cls.__name__} has two sentences")
    SENTENCES[cls] = sentence


def event_class(kind: str) -> type[Event] | None:
    """The class of events of ``kind``, its ruleset's sentences loaded.

    A ruleset's sentences are imported the first time one of its events is
    told (its descriptor names them: ``Descriptor.sentences``): importing
    them imports its engine, which a command telling another ruleset's
    campaign does without (a fifth of ``adjudicate``'s start-up).
    """
    cls = EVENT_KINDS.get(kind)
    if cls is None:
        # A kind whose engine module nothing has imported yet (a campaign's engine
        # is, when it is loaded): every registered ruleset's sentences import theirs.
        for rid in ruleset_ids():
            for package in sentences_for_ruleset(rid):
                importlib.import_module(package)
        cls = EVENT_KINDS.get(kind)
    if cls is not None and cls not in SENTENCES:
        for module in sentences_for(cls.__module__):
            importlib.import_module(module)
    return cls


def load_all() -> None:
    """Import the sentences of every ruleset whose engine is loaded (``missing``)."""
    for cls in list(EVENT_KINDS.values()):
        event_class(cls.kind)


def missing() -> list[type[Event]]:
    """The public event classes with no entry in ``SENTENCES``, once every
    loaded ruleset's sentences are (``load_all``).

    A class whose name starts with ``_`` is a base other events share (Blood
    Royale's ``_HouseEvent``), never an event itself.
    """
    load_all()
    return sorted((cls for cls in EVENT_KINDS.values()
                   if cls.public and cls not in SENTENCES),
                  key=lambda cls: cls.kind)


# Links are built once with this mark where the page's way back to the
# campaign's folder goes, then specialised per page by ``str.replace``. No
# user text can contain it: ``_clean`` strips NUL from every value.
ROOT = "\x00"


def _clean(value: Any) -> Any:
    if isinstance(value, Markup) or not isinstance(value, str):
        return value
    return value.replace(ROOT, "")


def unmarked(value: Any) -> Any:
    """``value`` without the link mark (``ROOT``), for a text a sentence shows as it is."""
    return _clean(value)



class Narrator:
    """Tells events for one campaign and one language.

    Each event is told once, with ``ROOT`` marks for its links; a page asks
    for the sentence with its own ``root`` (``"../../"``), which is a string
    replacement. A 10,000-person campaign tells each birth on three pages.
    """

    def __init__(self, people: Mapping[str, PersonLike], houses: Mapping[str, HouseLike],
                 gettext: Gettext, ngettext: NGettext,
                 glossary: Glossary | None = None, *, pgettext: PGettext | None = None,
                 language: str = "en") -> None:
        self.people = people
        self.houses = houses
        self.glossary = glossary or Glossary()
        self._ = gettext
        self.n_ = ngettext
        self.p_ = pgettext or (lambda _context, text: text)
        self.language = language
        self._finish = finishing(language, {
            self.glossary.provinces.get(pid, pid): article
            for pid, article in self.glossary.articles.items()})
        #: The causes of death the rulesets' events record, in the catalogue's
        #: words (``Descriptor.death_causes``), and in this language.
        self.cause_words = {cause: words.said for cause, words in death_causes().items()}
        self.causes = {cause: gettext(words) for cause, words in self.cause_words.items()}
        self._people_links: dict[str, str] = {}
        self._house_links: dict[str, str] = {}
        self._told: dict[tuple[int, int, str], str | None] = {}
        # The same, with links for pages of one depth (``root``): the turn's
        # page and its people's pages are told the same events.
        self._told_at: dict[tuple[tuple[int, int, str], str], str | None] = {}
        self._people_at: dict[tuple[Any, str], str] = {}
        self._formats: dict[str, str] = {}

    def with_glossary(self, glossary: Glossary) -> Narrator:
        """The same narrator, with a ruleset's own names (before anything is told)."""
        return Narrator(self.people, self.houses, self._, self.n_, glossary, pgettext=self.p_,
                        language=self.language)

    # -- names ----------------------------------------------------------------
    def _person_link(self, pid: str) -> str:
        link = self._people_links.get(pid)
        if link is None:
            person = self.people.get(pid)
            if person is None:
                link = str(Markup("<span>%s</span>") % _clean(pid or self._("someone")))
            else:
                ref = person.label_ref
                name = _clean(person.name)
                text = Markup("%s (%s)") % (name, ref) if ref else escape(name)
                link = str(Markup('<a href="%speople/%s/index.html">%s</a>')
                           % (Markup(ROOT), person.slug, text))
            self._people_links[pid] = link
        return link

    def _house_link(self, hid: str) -> str:
        link = self._house_links.get(hid)
        if link is None:
            house = self.houses.get(hid)
            if house is None:
                link = str(escape(_clean(hid) if hid else self._("the minor nobility")))
            else:
                link = str(Markup('<a href="%shouses/%s/index.html">%s</a>')
                           % (Markup(ROOT), house.slug, _clean(house.name)))
            self._house_links[hid] = link
        return link

    def person_html(self, pid: Any, root: str) -> str:
        """``person`` as a plain string of HTML, for code that joins many of them.

        Pages of one depth share a ``root``, so the link is kept per depth too.
        """
        key = (pid, root)
        html = self._people_at.get(key)
        if html is None:
            html = self._people_at[key] = self._person_link(
                str(pid) if pid else "").replace(ROOT, root)
        return html

    def person(self, pid: Any, root: str = ROOT) -> Markup:
        """A person's name and number, linked to their page from a page at ``root``."""
        return Markup(self.person_html(pid, root))

    def people_list(self, pids: Any, root: str = ROOT) -> Markup:
        names = [self.person_html(p, root) for p in (pids or [])]
        return Markup(", ".join(names)) if names else escape(self._("nobody"))

    def subject_html(self, subject: str, root: str) -> str:
        """What a roll was thrown for, as plain HTML: a person (name and number), a
        house or a province by its name, anything else (a unit) by its id.

        The engine records only the subject's id, whatever it is; the ids of the
        people, houses and provinces are told apart by who owns them, which asks
        no ruleset what its rolls are about.
        """
        if subject in self.people:
            return self.person_html(subject, root)
        if subject in self.houses:
            return self._house_link(subject).replace(ROOT, root)
        return str(escape(_clean(self.glossary.provinces.get(subject, subject))))

    def house(self, hid: Any, root: str = ROOT) -> Markup:
        """A house's name, linked to its page from a page at ``root``."""
        return Markup(self._house_link(str(hid) if hid else "").replace(ROOT, root))

    def cause(self, cause: Any, detail: str, female: bool = False) -> str:
        """A cause of death in words; an arbiter's own words are shown as written.

        ``female``: said of a woman, the catalogue's word in the context
        "female" where it has one (French "exécutée"), as ``i18n.feminine``.
        """
        if cause == "arbiter":
            return self._("by the arbiter's ruling")
        said = self.causes.get(str(cause), str(cause))
        if female and str(cause) in self.causes:
            english = self.cause_words[str(cause)]
            hers = self.p_("female", english)
            return hers if hers != english else said
        return said

    def good(self, good: Any) -> str:
        """A good by its id, in the site's language: the goods are the content pack's
        (``wealth.toml``, the world's resources), so the catalogue, not this code,
        knows their words; a good it does not know is shown by its id."""
        return self._(str(good))

    # -- sentences --------------------------------------------------------------
    def sentence(self, event: Tellable, root: str) -> Markup | None:
        """The event as a sentence for a page at ``root``, or None for kinds told elsewhere.

        ``NarrationError`` if the event's kind has no entry in ``SENTENCES``.
        """
        key = (event.turn, event.seq, event.kind)
        at = (key, root)
        if at in self._told_at:
            text = self._told_at[at]
        else:
            if key not in self._told:
                told = self._tell(event)
                self._told[key] = None if told is None else str(told)
            text = self._told[key]
            text = self._told_at[at] = None if text is None else text.replace(ROOT, root)
        return None if text is None else Markup(text)

    def in_a_life(self, event: Tellable, root: str) -> Markup | None:
        """The event as the page of one of its people tells it (see ``IN_A_LIFE``).

        Events that only their few own people share are told as everywhere.
        """
        cls = event_class(event.kind)
        life = IN_A_LIFE.get(cls) if cls is not None else None
        if life is None:
            return self.sentence(event, root)
        key = (event.turn, event.seq, f"{event.kind} in a life")
        if key not in self._told:
            self._told[key] = str(life(self, event.payload))
        return Markup(str(self._told[key]).replace(ROOT, root))

    def ledger(self, event: Tellable) -> list[LedgerEntry] | None:
        """The event's ledger entries (links with ``ROOT`` marks), or None if it has none."""
        cls = event_class(event.kind)
        entries = LEDGER.get(cls) if cls is not None else None
        return None if entries is None else entries(self, event.payload)

    def _tell(self, event: Tellable) -> Markup | None:
        cls = event_class(event.kind)
        if cls is None or cls not in SENTENCES:
            raise NarrationError(f"no sentence for events of kind {event.kind!r}")
        sentence = SENTENCES[cls]
        return None if sentence is None else sentence(self, event.payload)

    def fmt(self, msg: str, **values: Any) -> Markup:
        """Translate ``msg``, escape it, then fill it with escaped ``values``."""
        template = self._formats.get(msg)
        if template is None:
            template = self._formats[msg] = str(escape(self._(msg)))
        text = template % {k: escape(_clean(v)) for k, v in values.items()}
        return Markup(self.finish(text))

    def finish(self, text: str) -> str:
        """A filled-in text with the language's contractions and elisions made."""
        return self._finish(text) if self._finish is not None else text

    def n_fmt(self, singular: str, plural: str, num: int, **values: Any) -> Markup:
        """``fmt`` for a message with a plural form chosen by ``num``."""
        template = str(escape(self.n_(singular, plural, num)))
        text = template % {"num": num, **{k: escape(_clean(v)) for k, v in values.items()}}
        return Markup(self.finish(text))

    def joined(self, parts: Iterable[Markup]) -> Markup:
        """``a and b and c``, in the narrator's language."""
        return escape(self._(" and ")).join(parts)
