"""Events told as sentences, for the chronicle pages and the life timelines.

Every sentence is a translated format string filled with escaped values: names
and causes come from players and the arbiter, so they are never trusted. The
result is ``Markup`` with links to the people and houses it names. An unknown
kind gets a plain generic sentence; a malformed payload never stops a build.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from markupsafe import Markup, escape

from chronicle.publish.data import EventView, HouseView, PersonView

Gettext = Callable[[str], str]
NGettext = Callable[[str, str, int], str]
Teller = Callable[[dict[str, Any], str], Markup | None]

# Kinds that are bookkeeping, told elsewhere (wealth tables, battle pages) or
# redundant with another event of the same turn.
SILENT = frozenset({"wealth", "kingdom-order", "notice", "counter-moved"})


# Links are built once with this mark where the page's way back to the
# campaign's folder goes, then specialised per page by ``str.replace``. No
# user text can contain it: ``_clean`` strips NUL from every value.
ROOT = "\x00"


def _clean(value: Any) -> Any:
    if isinstance(value, Markup) or not isinstance(value, str):
        return value
    return value.replace(ROOT, "")


class Narrator:
    """Turns events into sentences for one campaign and one language.

    Each event is told once, with ``ROOT`` marks for its links; a page asks
    for the sentence with its own ``root`` (``"../../"``), which is a string
    replacement. A 10,000-person campaign tells each birth on three pages.
    """

    def __init__(self, people: Mapping[str, PersonView], houses: Mapping[str, HouseView],
                 gettext: Gettext, ngettext: NGettext,
                 provinces: Mapping[str, str] | None = None) -> None:
        self.people = people
        self.houses = houses
        self.provinces = provinces or {}
        self._ = gettext
        self.n_ = ngettext
        self.causes: dict[str, str] = {
            "natural": gettext("natural causes"),
            "childbirth": gettext("in childbirth"),
            "epidemic": gettext("the epidemic"),
            "executed": gettext("executed"),
            "battle": gettext("killed in battle"),
            "plague": gettext("the plague"),
        }
        self.goods: dict[str, str] = {
            "metal": gettext("metal"), "cloth": gettext("cloth"), "food": gettext("food"),
            "wine": gettext("wine"), "gold": gettext("gold"),
        }
        self._people_links: dict[str, str] = {}
        self._house_links: dict[str, str] = {}
        self._told: dict[tuple[int, int, str], str | None] = {}
        # The same, with links for pages of one depth (``root``): the turn's
        # page and its people's pages are told the same events.
        self._told_at: dict[tuple[tuple[int, int, str], str], str | None] = {}
        self._people_at: dict[tuple[Any, str], str] = {}
        self._formats: dict[str, str] = {}
        # Sentences of a ruleset's own kinds, plugged in by its pages (``familles``).
        self.tellers: dict[str, Teller] = {}

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

    def person(self, pid: Any, root: str) -> Markup:
        return Markup(self.person_html(pid, root))

    def people_list(self, pids: Any, root: str) -> Markup:
        names = [self.person_html(p, root) for p in (pids or [])]
        return Markup(", ".join(names)) if names else escape(self._("nobody"))

    def house(self, hid: Any, root: str) -> Markup:
        return Markup(self._house_link(str(hid) if hid else "").replace(ROOT, root))

    def where(self, province: Any) -> str:
        """A province's name (ids are what events record)."""
        return self.provinces.get(str(province), str(province or ""))

    def cause(self, cause: Any, detail: str) -> str:
        """A cause of death in words; an arbiter's own words are shown as written."""
        if cause == "arbiter":
            return self._("by the arbiter's ruling")
        return self.causes.get(str(cause), str(cause))

    # -- sentences --------------------------------------------------------------
    def sentence(self, event: EventView, root: str) -> Markup | None:
        """The event as a sentence, or None for kinds told elsewhere."""
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

    def _tell(self, event: EventView) -> Markup | None:
        if event.kind in SILENT:
            return None
        method = self.tellers.get(event.kind) or getattr(
            self, "_" + event.kind.replace("-", "_"), None)
        try:
            if method is not None:
                result: Markup | None = method(event.payload, ROOT)
                return result
        except (KeyError, TypeError, ValueError, AttributeError):
            pass
        return escape(self._("Something else happened (%(kind)s).")
                      % {"kind": _clean(event.kind)})

    def _fmt(self, msg: str, **values: Any) -> Markup:
        """Translate ``msg``, escape it, then fill it with escaped ``values``."""
        template = self._formats.get(msg)
        if template is None:
            template = self._formats[msg] = str(escape(self._(msg)))
        return Markup(template % {k: escape(_clean(v)) for k, v in values.items()})

    def n_fmt(self, singular: str, plural: str, num: int, **values: Any) -> Markup:
        """``_fmt`` for a message with a plural form chosen by ``num``."""
        template = str(escape(self.n_(singular, plural, num)))
        return Markup(template % {"num": num, **{k: escape(_clean(v))
                                                 for k, v in values.items()}})

    def good(self, good: Any) -> str:
        return self.goods.get(str(good), str(good))

    def _birth(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("%(child)s was born to %(father)s and %(mother)s.",
                         child=self.person(pl["person"], root),
                         father=self.person(pl["father"], root),
                         mother=self.person(pl["mother"], root))

    def _birth_attempts(self, pl: dict[str, Any], root: str) -> Markup | None:
        if pl.get("children"):
            return None
        return self._fmt("%(father)s and %(mother)s hoped for a child in vain.",
                         father=self.person(pl["father"], root),
                         mother=self.person(pl["mother"], root))

    def _death(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("%(who)s died aged %(age)s (%(cause)s).",
                         who=self.person(pl["person"], root), age=int(pl.get("age", 0)),
                         cause=self.cause(pl.get("cause"), str(pl.get("detail") or "")))

    def _epidemic(self, pl: dict[str, Any], root: str) -> Markup:
        dead = list(pl.get("dead") or [])
        if not dead:
            return self._fmt("An epidemic swept the courts; no one died of it.")
        return self._fmt("An epidemic swept the courts. It took %(dead)s.",
                         dead=self.people_list(dead, root))

    def _succession(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("%(ruler)s succeeded to the throne of %(house)s as %(ref)s.",
                         ruler=self.person(pl["ruler"], root), house=self.house(pl["house"], root),
                         ref=str(pl.get("ref", "")))

    def _extinction(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("The line of %(house)s is extinct.", house=self.house(pl["house"], root))

    def _marriage(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("%(husband)s married %(wife)s.",
                         husband=self.person(pl["husband"], root),
                         wife=self.person(pl["wife"], root))

    def _minor_noble(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("%(who)s of the minor nobility came to court to marry %(other)s.",
                         who=self.person(pl["person"], root),
                         other=self.person(pl["for_person"], root))

    def _renunciation(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("%(who)s renounced the claim %(ref)s in %(house)s.",
                         who=self.person(pl["person"], root), ref=str(pl.get("ref", "")),
                         house=self.house(pl["dynasty"], root))

    def _assignment(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("%(who)s took command of unit %(unit)s of %(house)s.",
                         who=self.person(pl["person"], root), unit=str(pl.get("unit", "")),
                         house=self.house(pl["house"], root))

    def _capture(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("%(who)s was taken prisoner by %(house)s.",
                         who=self.person(pl["person"], root), house=self.house(pl["captor"], root))

    def _capture_escaped(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("%(who)s escaped capture by %(house)s.",
                         who=self.person(pl["person"], root), house=self.house(pl["captor"], root))

    def _prisoner_released(self, pl: dict[str, Any], root: str) -> Markup:
        if int(pl.get("ransom") or 0):
            return self._fmt("%(house)s released %(who)s for a ransom of %(ransom)s crowns.",
                             who=self.person(pl["person"], root),
                             house=self.house(pl["captor"], root), ransom=int(pl["ransom"]))
        return self._fmt("%(house)s released %(who)s.", who=self.person(pl["person"], root),
                         house=self.house(pl["captor"], root))

    def _prisoner_kept(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("%(who)s remains a prisoner of %(house)s.",
                         who=self.person(pl["person"], root), house=self.house(pl["captor"], root))

    def _widow_returns(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("The widowed %(who)s returned to the court of %(house)s.",
                         who=self.person(pl["person"], root), house=self.house(pl.get("court"), root))

    def _units_disbanded(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("The units of %(house)s were disbanded: %(units)s.",
                         house=self.house(pl["house"], root),
                         units=", ".join(str(u) for u in pl.get("units", [])))

    def _battle(self, pl: dict[str, Any], root: str) -> Markup:
        sides = escape(self._(" and ")).join(
            self.house(s.get("house"), root) for s in pl.get("sides", []))
        winner = pl.get("winner")
        if winner:
            return self._fmt("Battle at %(province)s between %(sides)s: %(winner)s prevailed.",
                             province=self.where(pl.get("province")), sides=sides,
                             winner=self.house(winner, root))
        return self._fmt("Battle at %(province)s between %(sides)s: no side prevailed.",
                         province=self.where(pl.get("province")), sides=sides)

    def _cash_in(self, pl: dict[str, Any], root: str) -> Markup:
        return self.n_fmt("%(house)s cashed in %(num)s set of goods for %(value)s crowns.",
                          "%(house)s cashed in %(num)s sets of goods for %(value)s crowns.",
                          len(pl.get("sets") or []), house=self.house(pl["house"], root),
                          value=int(pl.get("value", 0)))

    def _revolt(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("%(province)s rose in revolt against %(house)s.",
                         province=self.where(pl.get("province")), house=self.house(pl["house"], root))

    def _revolt_ended(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("The revolt in %(province)s is over.",
                         province=self.where(pl.get("province")))

    def _plague(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("Plague struck %(province)s.", province=self.where(pl.get("province")))

    def _famine(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("Famine struck %(province)s.", province=self.where(pl.get("province")))

    def _famine_lifted(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("The famine in %(province)s is over.",
                         province=self.where(pl.get("province")))

    def _fleet_lost(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("A fleet of %(house)s sank in a storm off %(province)s.",
                         house=self.house(pl["house"], root), province=self.where(pl.get("province")))

    def _control(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("%(house)s took control of %(province)s.",
                         house=self.house(pl["controller"], root),
                         province=self.where(pl.get("province")))

    def _victory(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("The campaign is over: %(house)s is victorious.",
                         house=self.house(pl["winner"], root))

    def _taxes(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("%(house)s levied %(amount)s crowns in taxes.",
                         house=self.house(pl["house"], root), amount=int(pl.get("amount", 0)))

    def _passage(self, pl: dict[str, Any], root: str) -> Markup:
        if pl.get("allowed"):
            return self._fmt("%(house)s opened its lands to the armies of %(other)s.",
                             house=self.house(pl["house"], root), other=self.house(pl["to"], root))
        return self._fmt("%(house)s closed its lands to the armies of %(other)s.",
                         house=self.house(pl["house"], root), other=self.house(pl["to"], root))

    def _intervention(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("Unit %(unit)s of %(house)s marched under the banner of %(other)s.",
                         unit=str(pl.get("unit", "")), house=self.house(pl["house"], root),
                         other=self.house(pl["under"], root))

    def _resource(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("New %(good)s appeared in %(province)s for %(house)s.",
                         good=self.good(pl.get("good")), province=self.where(pl.get("province")),
                         house=self.house(pl["house"], root))

    def _counter_given(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("%(house)s gave %(good)s in %(province)s to %(other)s.",
                         house=self.house(pl["house"], root), good=self.good(pl.get("good")),
                         province=self.where(pl.get("province")), other=self.house(pl["to"], root))

    def _counter_seized(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("%(house)s seized the %(good)s of %(other)s in %(province)s.",
                         house=self.house(pl["house"], root), good=self.good(pl.get("good")),
                         other=self.house(pl["previous"], root),
                         province=self.where(pl.get("province")))

    def _upkeep(self, pl: dict[str, Any], root: str) -> Markup:
        lost = sum(int(v) for v in (pl.get("disbanded") or {}).values())
        if lost:
            return self._fmt("%(house)s paid %(amount)s crowns of upkeep and had to disband "
                             "%(lost)s armies.", house=self.house(pl["house"], root),
                             amount=int(pl.get("amount", 0)), lost=lost)
        return self._fmt("%(house)s paid %(amount)s crowns of upkeep.",
                         house=self.house(pl["house"], root), amount=int(pl.get("amount", 0)))

    def _armies_returned(self, pl: dict[str, Any], root: str) -> Markup:
        return self.n_fmt("%(num)s army of %(house)s returned to service.",
                          "%(num)s armies of %(house)s returned to service.",
                          int(pl.get("armies", 0)), house=self.house(pl["house"], root))

    def _raise(self, pl: dict[str, Any], root: str) -> Markup:
        return self.n_fmt("%(house)s raised %(num)s army in %(province)s (unit %(unit)s) for "
                          "%(cost)s crowns.",
                          "%(house)s raised %(num)s armies in %(province)s (unit %(unit)s) for "
                          "%(cost)s crowns.", int(pl.get("armies", 0)),
                          house=self.house(pl["house"], root),
                          province=self.where(pl.get("province")),
                          unit=str(pl.get("unit", "")), cost=int(pl.get("cost", 0)))

    def _unit_split(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("%(house)s split unit %(new)s from unit %(unit)s.",
                         house=self.house(pl["house"], root), new=str(pl.get("new_unit", "")),
                         unit=str(pl.get("unit", "")))

    def _units_merged(self, pl: dict[str, Any], root: str) -> Markup:
        return self._fmt("%(house)s merged unit %(unit)s into unit %(into)s.",
                         house=self.house(pl["house"], root), unit=str(pl.get("unit", "")),
                         into=str(pl.get("into", "")))

    def _unit_moved(self, pl: dict[str, Any], root: str) -> Markup | None:
        path = [self.where(p) for p in pl.get("path") or []]
        if not path:
            return None
        start = self.where(pl["start"]) if pl.get("start") else path[0]
        return self._fmt("Unit %(unit)s of %(house)s marched from %(start)s to %(end)s.",
                         unit=str(pl.get("unit", "")), house=self.house(pl.get("owner"), root),
                         start=start, end=path[-1])

    def _event_die(self, pl: dict[str, Any], root: str) -> Markup | None:
        """The die itself is on the dice page; its effects are their own events."""
        return None
