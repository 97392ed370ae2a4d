"""The sentences of the dynastic events every dynastic ruleset shares (RULES.md Part A)."""

from __future__ import annotations

from markupsafe import Markup

from adjudicator.dynastic.events import (
    Assignment,
    Birth,
    BirthAttempts,
    Capture,
    CaptureEscaped,
    Death,
    Epidemic,
    Extinction,
    MinorNobleCreated,
    PrisonerKept,
    PrisonerReleased,
    Renunciation,
    Succession,
    UnitsDisbanded,
    Wedding,
    WidowReturns,
)
from chronicle.narration.common import directive
from chronicle.narration.narrator import (
    Narrator,
    Payload,
    Reader,
    for_house,
    in_a_life,
    says,
)


@says(Birth)
def birth(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("%(child)s was born to %(father)s and %(mother)s.",
                 child=n.person(pl["person"]), father=n.person(pl["father"]),
                 mother=n.person(pl["mother"]))


@says(BirthAttempts)
def birth_attempts(n: Narrator, pl: Payload) -> Markup | None:
    """Told only when in vain: a child's birth is its own event."""
    if pl.get("children"):
        return None
    return n.fmt("%(father)s and %(mother)s hoped for a child in vain.",
                 father=n.person(pl["father"]), mother=n.person(pl["mother"]))


def death(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("%(who)s died aged %(age)s (%(cause)s).",
                 who=n.person(pl["person"]), age=int(pl.get("age", 0)),
                 cause=n.cause(pl.get("cause"), str(pl.get("detail") or "")))


says(Death)(death)


@for_house(Death)
def death_for_house(n: Narrator, pl: Payload, reader: Reader) -> list[Markup]:
    """Issue 17 item 7: "Each death with its roll and the number needed"."""
    if pl["person"] not in reader.people:
        return []
    told = death(n, pl)
    roll, needed = pl.get("roll"), pl.get("needed")
    if roll is None:
        return [told]
    if needed is not None:
        return [n.fmt("%(death)s The roll was %(roll)s; %(needed)s was needed.", death=told,
                      roll=int(roll), needed=int(needed))]
    if pl.get("cause") == "epidemic":
        return [n.fmt("%(death)s The roll was a double (%(roll)s): in an epidemic, a double "
                      "is fatal.", death=told, roll=int(roll))]
    return [n.fmt("%(death)s The roll was an unmodified 2, always fatal.", death=told)]


@for_house(Epidemic)
def epidemic_for_house(n: Narrator, pl: Payload, reader: Reader) -> list[Markup]:
    """The victims are each told with their own death."""
    return [n.fmt("An epidemic swept the courts: each of your people rolled two dice, and a "
                  "double was fatal.")]


@for_house(PrisonerReleased)
def released_for_house(n: Narrator, pl: Payload, reader: Reader) -> list[Markup]:
    """Issue 17 item 7: the ransoms, paid or received."""
    ransom = int(pl.get("ransom") or 0)
    who = n.person(pl["person"])
    if pl.get("captor") == reader.house:
        if ransom:
            return [n.fmt("You released %(who)s for a ransom of %(ransom)s crowns.", who=who,
                          ransom=ransom)]
        return [n.fmt("You released %(who)s.", who=who)]
    if pl["person"] not in reader.people:
        return []
    captor = n.house(pl.get("captor"))
    if ransom:
        return [n.fmt("%(house)s released %(who)s: you paid a ransom of %(ransom)s crowns.",
                      house=captor, who=who, ransom=ransom)]
    return [n.fmt("%(house)s released %(who)s.", house=captor, who=who)]


@says(Epidemic)
def epidemic(n: Narrator, pl: Payload) -> Markup:
    dead = list(pl.get("dead") or [])
    if not dead:
        return n.fmt("An epidemic swept the courts; no one died of it.")
    return n.fmt("An epidemic swept the courts. It took %(dead)s.", dead=n.people_list(dead))


@in_a_life(Epidemic)
def epidemic_in_a_life(n: Narrator, pl: Payload) -> Markup:
    """A victim's page counts the dead; the turn's page names them."""
    dead = len(pl.get("dead") or [])
    return n.n_fmt("An epidemic swept the courts and took %(num)s life.",
                   "An epidemic swept the courts and took %(num)s lives.", dead)


@says(Succession)
def succession(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("%(ruler)s succeeded to the throne of %(house)s as %(ref)s.",
                 ruler=n.person(pl["ruler"]), house=n.house(pl["house"]),
                 ref=str(pl.get("ref", "")))


@says(Extinction)
def extinction(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("The line of %(house)s is extinct.", house=n.house(pl["house"]))


@says(Wedding)
def marriage(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("%(husband)s married %(wife)s.",
                 husband=n.person(pl["husband"]), wife=n.person(pl["wife"]))


@says(MinorNobleCreated)
def minor_noble(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("%(who)s of the minor nobility came to court to marry %(other)s.",
                 who=n.person(pl["person"]), other=n.person(pl["for_person"]))


@says(Renunciation)
def renunciation(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("%(who)s renounced the claim %(ref)s in %(house)s.",
                 who=n.person(pl["person"]), ref=str(pl.get("ref", "")),
                 house=n.house(pl["dynasty"]))


@says(Assignment)
def assignment(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("%(who)s took command of unit %(unit)s of %(house)s.",
                 who=n.person(pl["person"]), unit=str(pl.get("unit", "")),
                 house=n.house(pl["house"]))


@says(Capture)
def capture(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("%(who)s was taken prisoner by %(house)s.",
                 who=n.person(pl["person"]), house=n.house(pl["captor"]))


@says(CaptureEscaped)
def capture_escaped(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("%(who)s escaped capture by %(house)s.",
                 who=n.person(pl["person"]), house=n.house(pl["captor"]))


@says(PrisonerReleased)
def prisoner_released(n: Narrator, pl: Payload) -> Markup:
    if int(pl.get("ransom") or 0):
        return n.fmt("%(house)s released %(who)s for a ransom of %(ransom)s crowns.",
                     who=n.person(pl["person"]), house=n.house(pl["captor"]),
                     ransom=int(pl["ransom"]))
    return n.fmt("%(house)s released %(who)s.", who=n.person(pl["person"]),
                 house=n.house(pl["captor"]))


@says(PrisonerKept)
def prisoner_kept(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("%(who)s remains a prisoner of %(house)s.",
                 who=n.person(pl["person"]), house=n.house(pl["captor"]))


@says(WidowReturns)
def widow_returns(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("The widowed %(who)s returned to the court of %(house)s.",
                 who=n.person(pl["person"]), house=n.house(pl.get("court")))


@says(UnitsDisbanded)
def units_disbanded(n: Narrator, pl: Payload) -> Markup:
    units = [str(u) for u in pl.get("units", [])]
    return n.n_fmt("The unit of %(house)s was disbanded: %(units)s.",
                   "The units of %(house)s were disbanded: %(units)s.", len(units),
                   house=n.house(pl["house"]), units=", ".join(units))


@directive("grant")
def _grant(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("By the arbiter's ruling, %(house)s received %(amount)s crowns.",
                 house=n.house(pl["house"]), amount=int(pl["amount"]))


@directive("fine")
def _fine(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("By the arbiter's ruling, %(house)s was fined %(amount)s crowns.",
                 house=n.house(pl["house"]), amount=int(pl["amount"]))


@directive("set")
def _set(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("By the arbiter's ruling, the %(field)s of %(who)s is now %(value)s.",
                 who=n.person(pl["person"]), field=n._(str(pl["field"])),
                 value=int(pl["amount"]))


@directive("capture")
def _capture(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("By the arbiter's ruling, %(who)s is a prisoner of %(house)s.",
                 who=n.person(pl["person"]), house=n.house(pl["house"]))


@directive("annul")
def _annul(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("By the arbiter's ruling, the marriage of %(who)s and %(other)s is "
                 "annulled.", who=n.person(pl["person"]), other=n.person(pl["other"]))


@directive("release")
def _release(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("By the arbiter's ruling, %(who)s goes free.", who=n.person(pl["person"]))


@directive("marry")
def _marry(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("By the arbiter's ruling, %(who)s and %(other)s are married.",
                 who=n.person(pl["person"]), other=n.person(pl["other"]))


@directive("abdicate")
def _abdicate(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("By the arbiter's ruling, %(who)s abdicates the throne of %(house)s.",
                 who=n.person(pl["person"]), house=n.house(pl["house"]))


@directive("renounce")
def _renounce(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("By the arbiter's ruling, %(who)s gives up the claim %(ref)s in %(house)s.",
                 who=n.person(pl["person"]), ref=str(pl.get("ref") or ""),
                 house=n.house(pl["house"]))
