"""The arbiter's file in *Les familles nobles*: the directives it cannot rule on.

DESIGN.md "Arbiter directives" lists what ``arbiter.orders`` may hold; every
ruleset reads that file with the arbiter's grammar, not the players'. The
directives rule on a dynasty's people, units, treasuries and provinces, and
this card game has none of them (its cards are not persons): each directive
is known here, and refused with why, as a ruleset without provinces refuses
``control``. A line that is no directive at all is an unknown order.
"""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.errors import OrderSyntaxError
from adjudicator.messages import Message, msg
from adjudicator.orders import Cursor, Grammar, Order

ARBITER = "arbiter"

#: The directives of DESIGN.md, by what they would rule on.
_ON_PEOPLE = ("kill", "marry", "annul", "capture", "release", "abdicate", "renounce", "set")


def _refusal(reason: Message) -> Callable[[Cursor], Order]:
    def refuse(c: Cursor) -> Order:
        raise OrderSyntaxError(reason)
    return refuse


ARBITER_GRAMMAR = Grammar()
for _directive in _ON_PEOPLE:
    ARBITER_GRAMMAR.rules[_directive] = _refusal(msg(
        "'%(directive)s' rules on a person, and Les familles nobles has none: its cards "
        "are not people", directive=_directive))
ARBITER_GRAMMAR.rules["retreat"] = _refusal(msg(
    "Les familles nobles has no units: there is no retreat to rule"))
for _directive in ("grant", "fine"):
    ARBITER_GRAMMAR.rules[_directive] = _refusal(msg(
        "Les familles nobles has no treasuries: there are no crowns to grant or fine"))
ARBITER_GRAMMAR.rules["control"] = _refusal(msg(
    "Les familles nobles has no provinces: there is no control to rule"))
