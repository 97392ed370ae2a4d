"""What a house page shows beyond the house itself: its order of succession, read
as players need it, and how a ruler of another dynasty came to rule it.

The page's order (issue 16, item 5): the line of rulers drawn near the top,
then the succession with age, sex, relationship to the ruler and this
dynasty's own number (the first rows shown, the rest folded away), then the
genealogy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from markupsafe import Markup, escape

from chronicle.views.data import HouseView
from chronicle.views.kin import Kin

if TYPE_CHECKING:
    from chronicle.site.pages import SiteContext

SHOWN_ROWS = 20


@dataclass(frozen=True)
class SuccessionRow:
    rank: int
    ref: str
    person: str
    age: int
    sex: str
    relationship: str


@dataclass(frozen=True)
class PersonalUnion:
    """The ruler is of another dynasty: by which number, explained, they rule here."""

    ruler: str
    dynasty: str | None
    ref: str
    explained: str
    path: Markup


def succession_rows(ctx: SiteContext, kin: Kin, house: HouseView) -> list[SuccessionRow]:
    _ = ctx._
    people, year = ctx.data.people, ctx.data.campaign.year
    ruler = house.ruler if house.ruler in people and not house.eliminated else None
    rows = []
    for rank, (pid, ref) in enumerate(house.succession, start=1):
        p = people[pid]
        if ruler is None:
            relation = "—"
        elif pid == ruler:
            relation = _("the ruler")
        else:
            relation = kin.line_kinship(_, pid, ruler, house.id)
        rows.append(SuccessionRow(rank, ref, pid, year - p.born,
                                  _("male") if p.sex == "M" else _("female"), relation))
    return rows


def personal_union(ctx: SiteContext, kin: Kin, house: HouseView, root: str,
                   ) -> PersonalUnion | None:
    ruler = ctx.data.people.get(house.ruler or "")
    if ruler is None or house.eliminated or ruler.dynasty == house.id:
        return None
    claim = next((c for c in kin.claims(ruler.id) if c.dynasty == house.id), None)
    if claim is None:
        return None
    link = ctx.narrator.person_html
    path = Markup(" → ".join(
        f"<code>{escape(ref)}</code>" + (f" {link(holder, root)}" if holder else "")
        for ref, holder in kin.path(house.id, claim.ref)))
    return PersonalUnion(ruler.id, ruler.dynasty, claim.ref,
                         kin.explain(ctx._, claim, ctx.narrator.finish), path)


def house_values(ctx: SiteContext, house: HouseView, root: str) -> dict[str, Any]:
    kin = ctx.kin if ctx.kin is not None else Kin(ctx.data.people, ctx.data.houses,
                                                   ctx.data.marriages)
    rows = succession_rows(ctx, kin, house)
    return {"shown_rows": rows[:SHOWN_ROWS], "more_rows": rows[SHOWN_ROWS:],
            "union": personal_union(ctx, kin, house, root)}
