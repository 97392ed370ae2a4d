"""The family, titles and claims of a person page, as HTML built in one pass.

Thousands of person pages make up most of a large build, so these sections
are joined here from the campaign's indexes (``kin.Kin``) rather than looped
over in the template: each page costs only its own relatives. Every name is
escaped (the narrator's links are), every word goes through gettext.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from markupsafe import Markup, escape

from chronicle.i18n.grammar import finish
from chronicle.narration import Narrator
from chronicle.views.data import MarriageView, PersonView
from chronicle.views.kin import Kin, ref_digits

Gettext = Callable[[str], str]


@dataclass(frozen=True)
class Title:
    """A title held, in words, with its years (end None: held still)."""

    text: str
    start: int
    end: int | None


def span(_: Gettext, start: int, end: int | None) -> str:
    return (_("%(start)s to %(end)s") % {"start": start, "end": end} if end is not None
            else _("since %(start)s") % {"start": start})


def titles(_: Gettext, kin: Kin, person: PersonView, language: str = "en") -> list[Title]:
    """Reigns, then the consorts' titles (RULES.md A1, A6): king, queen, King Consort,
    queen consort, widowed queen (in ``language``'s grammar: "Reine de la Maison X")."""
    houses, people = kin.houses, kin.people
    found: list[Title] = []
    male = person.sex == "M"
    for hid, start, end in person.reigns:
        house = houses.get(hid)
        name = house.name if house is not None else hid
        found.append(Title(finish(language, (_("King of %(house)s") if male
                                             else _("Queen of %(house)s")) % {"house": name}),
                           start, end))
    for m in kin.marriages.get(person.id, []):
        spouse = people.get(m.wife if m.husband == person.id else m.husband)
        if spouse is None:
            continue
        for hid, start, end in spouse.reigns:
            first = max(start, m.year)
            last = _earliest(end, m.ended)
            if last is not None and last < first:
                continue
            house = houses.get(hid)
            values = {"house": house.name if house is not None else hid}
            if male:
                text = _("King Consort of %(house)s") % values
            elif (person.widowed_queen and m.end_cause == "death" and end is not None
                  and end == m.ended):
                text = _("Queen of %(house)s, then widowed queen") % values
            else:
                text = _("Queen consort of %(house)s") % values
            found.append(Title(finish(language, text), first, last))
    return sorted(found, key=lambda t: (t.start, t.text))


def _earliest(a: int | None, b: int | None) -> int | None:
    if a is None:
        return b
    return a if b is None else min(a, b)


def title_items(_: Gettext, kin: Kin, person: PersonView, language: str = "en") -> Markup:
    return Markup("\n".join(f"<li>{escape(t.text)}, {escape(span(_, t.start, t.end))}</li>"
                            for t in titles(_, kin, person, language)))


def marriage_words(_: Gettext, narrator: Narrator, kin: Kin, m: MarriageView | None,
                   root: str) -> str:
    """"married 1320; ended 1331 by the death of X", or why no marriage is recorded.

    HTML: the dead are linked. Every word and mark is the catalogue's, since
    French puts a space before the semicolon and says "de" before each of two
    names, then the language's elisions are made ("par la mort d’Edward").
    """
    if m is None:
        return str(escape(_("no marriage recorded")))
    text = str(escape(_("married %(year)s"))) % {"year": m.year}
    if m.ended is None:
        return text
    if m.end_cause == "death":
        dead = [narrator.person_html(pid, root) for pid in (m.husband, m.wife)
                if (p := kin.people.get(pid)) is not None and p.died == m.ended]
        if len(dead) == 2:
            ended = str(escape(_("ended %(year)s by the deaths of %(who)s and %(other)s"))) % {
                "year": m.ended, "who": dead[0], "other": dead[1]}
        elif dead:
            ended = str(escape(_("ended %(year)s by the death of %(who)s"))) % {
                "year": m.ended, "who": dead[0]}
        else:
            ended = str(escape(_("ended %(year)s by a death"))) % {"year": m.ended}
    else:
        ended = str(escape(_("ended %(year)s"))) % {"year": m.ended}
    return narrator.finish(str(escape(_("%(married)s; %(ended)s"))) % {
        "married": text, "ended": ended})


def family_html(_: Gettext, narrator: Narrator, kin: Kin, person: PersonView,
                root: str) -> Markup:
    """Parents, siblings, and children grouped by marriage (with its years and end)."""
    link = narrator.person_html
    dash = "—"
    rows = [f"<dt>{escape(_('Father'))}</dt><dd>"
            f"{link(person.father, root) if person.father else dash}</dd>",
            f"<dt>{escape(_('Mother'))}</dt><dd>"
            f"{link(person.mother, root) if person.mother else dash}</dd>"]
    siblings = kin.siblings(person.id)
    half = escape(_("half"))
    items = ", ".join(link(pid, root) + ("" if full else f" <small>({half})</small>")
                      for pid, full in siblings)
    rows.append(f"<dt>{escape(_('Siblings'))}</dt><dd>{items or dash}</dd>")
    html = '<dl class="facts">' + "".join(rows) + "</dl>"
    families = kin.families(person.id)
    if families:
        groups = []
        for f in families:
            spouse = link(f.spouse, root) if f.spouse else escape(_("an unknown parent"))
            words = marriage_words(_, narrator, kin, f.marriage, root)
            kids = ", ".join(link(c, root) for c in f.children) or escape(_("no children"))
            groups.append('<li class="union">' + str(escape(_(
                "%(spouse)s %(marriage)s: %(children)s"))) % {
                    "spouse": f'<span class="spouse">{spouse}</span>',
                    "marriage": f"<small>({words})</small>", "children": kids} + "</li>")
        html += (f'<h3 id="marriages">{escape(_("Marriages and children"))}</h3>'
                 f'<ul class="families">{"".join(groups)}</ul>')
    else:
        html += f"<p>{escape(_('No marriage or child is recorded.'))}</p>"
    return Markup(html)


def _path_html(kin: Kin, dynasty: str, ref: str) -> str:
    """``E1000 → E1a00 → E1a20`` as HTML, built on the parent number's (kept per number)."""
    key = (dynasty, ref)
    html = kin.paths.get(key)
    if html is None:
        digits = ref_digits(ref)
        code = f"<code>{escape(ref)}</code>"
        html = code if len(digits) < 2 else (
            _path_html(kin, dynasty, ref[:1] + digits[:-1].ljust(4, "0")) + " → " + code)
        kin.paths[key] = html
    return html


def claims_html(_: Gettext, narrator: Narrator, kin: Kin, person: PersonView,
                root: str) -> Markup:
    """Each number held, in words, its path from the founder, and the place it gives."""
    words = kin.paths  # the escaped words every page repeats are kept with the paths
    # French sets a space before the colon: the mark is the catalogue's.
    said = _fixed(words, _("%(ref)s %(where)s: %(explained)s."))
    items = []
    for claim in kin.claims(person.id):
        key = ("in", claim.dynasty, root)
        where = words.get(key)
        if where is None:
            where = words[key] = narrator.finish(str(escape(_("in %(house)s")) % {
                "house": narrator.house(claim.dynasty, root)}))
        if claim.renounced:
            place = _fixed(words, _("Renounced: no longer in the succession."))
        elif claim.rank == 1:
            place = _fixed(words, _("First in the succession: the ruler."))
        elif claim.rank is not None and claim.before is not None:
            place = str(escape(_("Number %(rank)s in the succession at the last turn, "
                                 "after %(before)s.")) % {
                "rank": claim.rank, "before": Markup(narrator.person_html(claim.before, root))})
        else:
            place = _fixed(words, _("Not in the succession at the last turn."))
        line = said % {"ref": f'<code class="ref">{escape(claim.ref)}</code>', "where": where,
                       "explained": escape(kin.explain(_, claim, narrator.finish))}
        items.append(
            f'<li class="claim">{line}'
            f'<br><span class="path">{_path_html(kin, claim.dynasty, claim.ref)}</span>'
            f"<br>{place}</li>")
    return Markup('<ul class="claims">' + "".join(items) + "</ul>") if items else Markup()


def _fixed(memo: dict[tuple[str, ...], str], text: str) -> str:
    """``text`` (translated) escaped, once per campaign."""
    key = ("text", text)
    html = memo.get(key)
    if html is None:
        html = memo[key] = str(escape(text))
    return html
