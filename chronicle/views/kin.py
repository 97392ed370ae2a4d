"""Who is whose kin: the indexes person and house pages read their families from.

Built once per campaign from the people, houses and marriages (``Kin.of``),
so that a page asks only about its own relatives: a campaign has thousands
of pages, and a scan of everyone per page would cost more than all of them.

Reference numbers are explained from RULES.md A3: the dynasty's letter, ``1``
for the founder, then one character per generation (sons ``1``-``9`` then
``A``-``Z``, daughters ``a``-``z``; every child ``1``-``9`` then ``A``-``Z``
under absolute primogeniture), padded with ``0`` to four characters.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from chronicle.i18n.catalogue import feminine
from chronicle.i18n.grammar import as_name
from chronicle.views.data import HouseView, MarriageView, PersonView

Gettext = Callable[[str], str]
#: A language's finishing of a filled-in text (``chronicle.i18n.grammar``).
Finish = Callable[[str], str]

#: How many generations up the relationship search looks (kinship further off is not named).
SEARCH_DEPTH = 12


@dataclass(frozen=True)
class Family:
    """One marriage (or unknown other parent) of a person and its children."""

    spouse: str | None
    marriage: MarriageView | None
    children: tuple[str, ...]


@dataclass(frozen=True)
class Claim:
    """A person's number in one dynasty, explained (RULES.md A3, A6)."""

    dynasty: str
    ref: str
    renounced: bool
    #: Place among the living claimants at the last turn (1: the ruler), or None.
    rank: int | None
    #: The claimant just before them, or None.
    before: str | None


def ref_digits(ref: str) -> str:
    """The characters of ``ref`` after the letter, without the padding zeros."""
    return ref[1:].rstrip("0")


def ref_prefixes(ref: str) -> list[str]:
    """The numbers from the founder's down to ``ref`` (RULES.md A3: ``E1000``, ``E1a00``...)."""
    letter, digits = ref[:1], ref_digits(ref)
    return [letter + digits[:i].ljust(4, "0") for i in range(1, len(digits) + 1)] or [ref]


def N_(text: str) -> str:
    """Marks a word for translation where it is defined (translated where it is shown)."""
    return text


ORDINALS = (N_("first"), N_("second"), N_("third"), N_("fourth"), N_("fifth"), N_("sixth"),
            N_("seventh"), N_("eighth"), N_("ninth"), N_("tenth"), N_("eleventh"),
            N_("twelfth"))


def birth_place(char: str, absolute: bool) -> tuple[int, str]:
    """(place in birth order, ``son``/``daughter``/``child``) of one character of a number."""
    if char.isdigit():
        return int(char), "child" if absolute else "son"
    if "A" <= char <= "Z":
        return 10 + ord(char) - ord("A"), "child" if absolute else "son"
    return 1 + ord(char) - ord("a"), "daughter"


def ordinal(_: Gettext, n: int) -> str:
    return _(ORDINALS[n - 1]) if 0 < n <= len(ORDINALS) else _("%(n)sth") % {"n": n}


def explain_ref(_: Gettext, ref: str, absolute: bool, founder: str | None,
                finish: Finish | None = None) -> str:
    """``ref`` in words: "the second son of the first daughter of Edward, E1000"
    (``finish``: the language's contractions and elisions, "du premier fils d’Edward")."""
    digits = ref_digits(ref)
    base = ref[:1] + "1000"
    head = founder + ", " + base if founder else _("the founder, %(ref)s") % {"ref": base}
    if len(digits) <= 1:
        return head
    text = head
    for char in digits[1:]:
        place, kind = birth_place(char, absolute)
        text = step_words(_, place, kind, text, finish)
    return text


def step_words(_: Gettext, place: int, kind: str, rest: str,
               finish: Finish | None = None) -> str:
    """One step of a number in words: "the second son of <rest>".

    The first of each kind has its own words (French: "la première fille").
    ``rest`` goes in as a name with its own article, so that ``finish`` joins
    that article to the "of" before it as it does a name's ("du premier fils",
    not "de le premier fils"), and elides before a name ("d’Edward").
    """
    if place == 1:
        words = {"son": _("the first son of %(rest)s"),
                 "daughter": _("the first daughter of %(rest)s"),
                 "child": _("the first child of %(rest)s")}[kind]
        values = {"rest": rest}
    else:
        words = {"son": _("the %(nth)s son of %(rest)s"),
                 "daughter": _("the %(nth)s daughter of %(rest)s"),
                 "child": _("the %(nth)s child of %(rest)s")}[kind]
        values = {"nth": ordinal(_, place), "rest": rest}
    if finish is None:
        return words % values
    return finish(words % {**values, "rest": as_name(rest)})


class Kin:
    """The family indexes of one campaign (see the module's docstring)."""

    def __init__(self, people: Mapping[str, PersonView], houses: Mapping[str, HouseView],
                 marriages: Iterable[MarriageView]) -> None:
        self.people = people
        self.houses = houses
        self.marriages: dict[str, list[MarriageView]] = {}
        for m in sorted(marriages, key=lambda m: (m.year, m.husband, m.wife)):
            for pid in (m.husband, m.wife):
                self.marriages.setdefault(pid, []).append(m)
        self.holders: dict[tuple[str, str], str] = {}
        for p in people.values():
            for dynasty, ref in (*p.renounced.items(), *p.refs.items()):
                self.holders[dynasty, ref] = p.id
        self.ranks: dict[tuple[str, str], int] = {}
        self._words: dict[tuple[str, str], str] = {}
        #: Bits of HTML the pages build per number (``personpage``), kept here with the indexes.
        self.paths: dict[tuple[str, ...], str] = {}
        for house in houses.values():
            for index, (pid, _ref) in enumerate(house.succession, start=1):
                self.ranks[house.id, pid] = index

    def parents(self, pid: str) -> list[str]:
        p = self.people[pid]
        return [q for q in (p.father, p.mother) if q is not None and q in self.people]

    def siblings(self, pid: str) -> list[tuple[str, bool]]:
        """(sibling, full) for each child of either parent but ``pid``, eldest first."""
        p = self.people[pid]
        found: dict[str, bool] = {}
        for parent in self.parents(pid):
            for child in self.people[parent].children:
                if child != pid:
                    c = self.people[child]
                    found[child] = (p.father is not None and p.mother is not None
                                    and c.father == p.father and c.mother == p.mother)
        return sorted(found.items(), key=lambda kv: (self.people[kv[0]].born,
                                                     self.people[kv[0]].seq, kv[0]))

    def families(self, pid: str) -> list[Family]:
        """Each marriage of ``pid`` in date order with its children, then any other children."""
        p = self.people[pid]
        by_other: dict[str | None, list[str]] = {}
        for child in p.children:
            c = self.people[child]
            other = c.mother if c.father == pid else c.father
            by_other.setdefault(other if other in self.people else None, []).append(child)
        families = []
        for m in self.marriages.get(pid, []):
            spouse = m.wife if m.husband == pid else m.husband
            families.append(Family(spouse, m, tuple(by_other.pop(spouse, []))))
        for other in sorted(by_other, key=lambda o: (o is None, o or "")):
            families.append(Family(other, None, tuple(by_other[other])))
        return families

    def claims(self, pid: str) -> list[Claim]:
        p = self.people[pid]
        claims = []
        for dynasty, ref, gone in p.all_refs:
            rank = None if gone else self.ranks.get((dynasty, pid))
            house = self.houses.get(dynasty)
            before = (house.succession[rank - 2][0]
                      if house is not None and rank is not None and rank > 1 else None)
            claims.append(Claim(dynasty, ref, gone, rank, before))
        return claims

    def path(self, dynasty: str, ref: str) -> list[tuple[str, str | None]]:
        """(number, holder or None) from the founder's number down to ``ref``."""
        return [(r, self.holders.get((dynasty, r))) for r in ref_prefixes(ref)]

    def line_kinship(self, _: Gettext, who: str, to: str, dynasty: str) -> str:
        """What ``who`` is to ``to`` along their lines of claim in ``dynasty``.

        Both numbers extend the numbers of the ancestors they came through
        (RULES.md A3), so the longest prefix they share is held by their
        nearest common ancestor on those lines: no search through the family.
        """
        a, b = ref_digits(self.people[who].refs[dynasty]), ref_digits(
            self.people[to].refs[dynasty])
        shared = 0
        while shared < min(len(a), len(b)) and a[shared] == b[shared]:
            shared += 1
        up_who, up_to = len(a) - shared, len(b) - shared
        p, q = self.people[who], self.people[to]
        half = up_who == up_to == 1 and (p.father, p.mother) != (q.father, q.mother)
        return kinship_words(_, up_who, up_to, p.sex == "M", half)

    def explain(self, _: Gettext, claim: Claim, finish: Finish) -> str:
        """The claim's number in words (see ``explain_ref``), each prefix worded once.

        A number extends its parent's, and thousands of people share the
        first characters of theirs: kept per number, each costs one step.
        A campaign is in one language, so one ``finish`` serves all its pages.
        """
        return self._explained(_, claim.dynasty, claim.ref, finish)

    def _explained(self, _: Gettext, dynasty: str, ref: str, finish: Finish) -> str:
        key = (dynasty, ref)
        text = self._words.get(key)
        if text is None:
            digits = ref_digits(ref)
            if len(digits) <= 1:
                founder = self.holders.get((dynasty, ref[:1] + "1000"))
                holder = self.people.get(founder) if founder is not None else None
                text = explain_ref(_, ref, False, holder.name if holder is not None else None,
                                   finish)
            else:
                house = self.houses.get(dynasty)
                place, kind = birth_place(digits[-1], house is not None
                                          and house.law == "absolute")
                parent = ref[:1] + digits[:-1].ljust(4, "0")
                text = step_words(_, place, kind, self._explained(_, dynasty, parent, finish),
                                  finish)
            self._words[key] = text
        return text

    # -- relationships ------------------------------------------------------
    def ancestry(self, pid: str) -> dict[str, int]:
        """``pid`` and their ancestors, each with the fewest generations up to them."""
        depth = {pid: 0}
        level = [pid]
        for up in range(1, SEARCH_DEPTH + 1):
            nxt = []
            for q in level:
                for parent in self.parents(q):
                    if parent not in depth:
                        depth[parent] = up
                        nxt.append(parent)
            if not nxt:
                break
            level = nxt
        return depth

    def common(self, a: str, b: str, ancestry_of_b: Mapping[str, int] | None = None,
               ) -> tuple[int, int, list[str]] | None:
        """(generations from a, from b, nearest common ancestors), or None if unrelated.

        ``a``'s ancestors are visited a generation at a time, and no further
        than the nearest kinship already found could be bettered.
        """
        up_b = ancestry_of_b if ancestry_of_b is not None else self.ancestry(b)
        seen = {a}
        level = [a]
        best: tuple[int, int, list[str]] | None = None
        for up in range(SEARCH_DEPTH + 1):
            hits = sorted((up_b[q], q) for q in level if q in up_b)
            if hits and (best is None or up + hits[0][0] < best[0] + best[1]):
                best = (up, hits[0][0], [q for d, q in hits if d == hits[0][0]])
            if best is not None and up + 1 >= best[0] + best[1]:
                break
            nxt = []
            for q in level:
                for parent in self.parents(q):
                    if parent not in seen:
                        seen.add(parent)
                        nxt.append(parent)
            if not nxt:
                break
            level = nxt
        return best

    def relationship(self, _: Gettext, who: str, to: str,
                     ancestry_of_to: Mapping[str, int] | None = None) -> str:
        """What ``who`` is to ``to``, in words ("nephew", "first cousin once removed")."""
        if who == to:
            return _("the same person")
        found = self.common(who, to, ancestry_of_to)
        male = self.people[who].sex == "M"
        if found is None:
            if to in self.people[who].spouses:
                return _("husband") if male else _("wife")
            return _("no blood relation")
        up_who, up_to, ancestors = found
        half = (up_who == 1 and up_to == 1 and len(ancestors) == 1)
        return kinship_words(_, up_who, up_to, male, half)


def kinship_words(_: Gettext, up_who: int, up_to: int, male: bool, half: bool = False) -> str:
    """The name of a relationship from the generations up to the nearest common ancestor.

    Whole words per sex and distance (French, for one, does not build
    "grandson" from "son"), then "2nd great-..." beyond.
    """
    if up_who == 0 or up_to == 0:
        n = up_to or up_who
        names: tuple[str, ...]
        if up_who == 0:  # an ancestor of the other
            names = ((_("father"), _("grandfather"), _("great-grandfather"),
                      _("%(nth)s great-grandfather")) if male else
                     (_("mother"), _("grandmother"), _("great-grandmother"),
                      _("%(nth)s great-grandmother")))
        else:
            names = ((_("son"), _("grandson"), _("great-grandson"), _("%(nth)s great-grandson"))
                     if male else (_("daughter"), _("granddaughter"), _("great-granddaughter"),
                                   _("%(nth)s great-granddaughter")))
        return names[n - 1] if n <= 3 else names[3] % {"nth": ordinal_short(n - 2)}
    if up_who == 1 and up_to == 1:
        if half:
            return _("half-brother") if male else _("half-sister")
        return _("brother") if male else _("sister")
    if up_who == 1 or up_to == 1:
        n = max(up_who, up_to) - 1
        near: tuple[str, ...]
        if up_who == 1:
            near = ((_("uncle"), _("great-uncle"), _("%(nth)s great-uncle")) if male
                    else (_("aunt"), _("great-aunt"), _("%(nth)s great-aunt")))
        else:
            near = ((_("nephew"), _("great-nephew"), _("%(nth)s great-nephew")) if male
                    else (_("niece"), _("great-niece"), _("%(nth)s great-niece")))
        return near[n - 1] if n <= 2 else near[2] % {"nth": ordinal_short(n - 1)}
    degree, removed = min(up_who, up_to) - 1, abs(up_who - up_to)
    cousin = (_("%(nth)s cousin") if male else feminine(_, "%(nth)s cousin")) % {
        "nth": ordinal(_, degree)}
    if removed == 0:
        return cousin
    if removed == 1:
        return _("%(cousin)s once removed") % {"cousin": cousin}
    if removed == 2:
        return _("%(cousin)s twice removed") % {"cousin": cousin}
    return _("%(cousin)s %(n)s times removed") % {"cousin": cousin, "n": removed}


#: Kinship words as a table for the relationship finder's script (themes/default/
#: static/kinship.js), which names what it finds as ``kinship_words`` does.
def kinship_table(_: Gettext, pgettext: Callable[[str, str], str],
                  finishing: bool) -> dict[str, object]:
    """The words of ``kinship_words`` and of the finder's sentences, by sex ("M",
    "F"), with the blanks the script fills (``%(nth)s``...). ``finishing``: the
    language elides before a vowel ("l’oncle", "d’Edward"), as French does."""
    def both(male: tuple[str, ...], female: tuple[str, ...]) -> dict[str, list[str]]:
        return {"M": [_(w) for w in male], "F": [_(w) for w in female]}

    return {
        "up": both(("father", "grandfather", "great-grandfather", "%(nth)s great-grandfather"),
                   ("mother", "grandmother", "great-grandmother",
                    "%(nth)s great-grandmother")),
        "down": both(("son", "grandson", "great-grandson", "%(nth)s great-grandson"),
                     ("daughter", "granddaughter", "great-granddaughter",
                      "%(nth)s great-granddaughter")),
        "sibling": both(("brother", "half-brother"), ("sister", "half-sister")),
        "uncle": both(("uncle", "great-uncle", "%(nth)s great-uncle"),
                      ("aunt", "great-aunt", "%(nth)s great-aunt")),
        "nephew": both(("nephew", "great-nephew", "%(nth)s great-nephew"),
                       ("niece", "great-niece", "%(nth)s great-niece")),
        "cousin": {"M": _("%(nth)s cousin"), "F": feminine(_, "%(nth)s cousin")},
        "removed": [_("%(cousin)s once removed"), _("%(cousin)s twice removed"),
                    _("%(cousin)s %(n)s times removed")],
        "ordinals": [_(w) for w in ORDINALS],
        "nth": _("%(n)sth"),
        # The finder looks up to 40 generations (kinship.js).
        "short": [ordinal_short(n) for n in range(1, 41)],
        "is": {"M": pgettext("male", "%(who)s is the %(kinship)s of %(whom)s."),
               "F": pgettext("female", "%(who)s is the %(kinship)s of %(whom)s.")},
        "same": _("%(who)s is the same person."),
        "none": _("%(who)s and %(whom)s share no known ancestor."),
        "common": [_("Nearest common ancestor: %(people)s."),
                   _("Nearest common ancestors: %(people)s.")],
        "and": _(" and "),
        "unknown": _("No one of that name or number: pick a name from the list."),
        "elide": finishing,
    }


def ordinal_short(n: int) -> str:
    """2nd, 3rd, 4th... (numerals read the same in English and French pages)."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
