"""The sentences of Les familles nobles (RULES.md Part D).

Players are the narrator's houses. A card is named by its number; where the
glossary knows it (the site's table), it shows its look in a tooltip and
links to the move that placed it.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape

from adjudicator.rulesets.familles.events import (
    FamillesDealt,
    FamillesDescendant,
    FamillesGameEnded,
    FamillesGenerationFull,
    FamillesMarried,
    FamillesPassed,
)
from chronicle.narration.narrator import ROOT, Narrator, Payload, says


def card(n: Narrator, number: Any, *, bare: bool = False) -> Markup:
    """``card 17`` (or ``17``), linked to the move that placed it, its look in its title."""
    number = int(number)
    note = n.glossary.cards.get(number)
    text = str(number) if bare else n._("card %(card)s") % {"card": number}
    if note is None:
        return Markup('<span class="card-ref" data-card="%s">%s</span>') % (number, text)
    if note.turn is None:
        return Markup('<span class="card-ref" data-card="%s" title="%s">%s</span>') % (
            number, note.title, text)
    return Markup('<a class="card-ref" data-card="%s" title="%s" '
                  'href="%sturns/turn-%03d/index.html">%s</a>') % (
        number, note.title, Markup(ROOT), note.turn, text)


def traits(n: Narrator, ids: Any) -> str:
    return ", ".join(n.glossary.traits.get(str(t), str(t)) for t in ids or [])


@says(FamillesDealt)
def dealt(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("The cards were dealt to %(players)s, %(hand)s each; %(pile)s are left "
                 "in the pile.", players=n.joined(n.house(s) for s in pl.get("seats") or []),
                 hand=int(pl.get("hand", 0)), pile=int(pl.get("pile", 0)))


@says(FamillesMarried)
def married(n: Narrator, pl: Payload) -> Markup:
    values = {"player": n.house(pl["house"]), "card": card(n, pl["card"]),
              "on": card(n, pl["on"]), "generation": int(pl["generation"])}
    if pl.get("drew"):
        return n.fmt("%(player)s married %(card)s to %(on)s in generation "
                     "%(generation)s and drew a card.", **values)
    return n.fmt("%(player)s married %(card)s to %(on)s in generation "
                 "%(generation)s; the pile was empty.", **values)


@says(FamillesDescendant)
def descendant(n: Narrator, pl: Payload) -> Markup:
    first, second = pl["parents"]
    points = {int(v) for v in (pl.get("points") or {}).values()}
    return n.fmt(
        "%(player)s placed %(card)s under %(couple)s in generation %(generation)s, "
        "scoring %(points)s points each for %(traits)s.",
        player=n.house(pl["house"]), card=card(n, pl["card"]),
        couple=Markup(" + ").join([card(n, first, bare=True), card(n, second, bare=True)]),
        generation=int(pl["generation"]),
        points=min(points) if points else int(pl["generation"]),
        traits=traits(n, pl.get("traits")))


@says(FamillesPassed)
def passed(n: Narrator, pl: Payload) -> Markup:
    player = n.house(pl["house"])
    if pl.get("defaulted"):
        if pl.get("drew"):
            return n.fmt("%(player)s sent no valid move, so passed and drew a card.",
                         player=player)
        return n.fmt("%(player)s sent no valid move, so passed; the pile is empty.",
                     player=player)
    if pl.get("drew"):
        return n.fmt("%(player)s passed and drew a card.", player=player)
    return n.fmt("%(player)s passed; the pile is empty.", player=player)


@says(FamillesGenerationFull)
def generation_full(n: Narrator, pl: Payload) -> Markup:
    turned = [int(g) for g in pl.get("turned_over") or []]
    values = {"generation": int(pl["generation"]), "cap": int(pl["cap"])}
    if not turned:
        return n.fmt("Generation %(generation)s is full (%(cap)s descendants).", **values)
    return n.n_fmt(
        "Generation %(generation)s is full (%(cap)s descendants): generation "
        "%(turned)s is turned over.",
        "Generation %(generation)s is full (%(cap)s descendants): generations "
        "%(turned)s are turned over.", len(turned),
        turned=n._(" and ").join(str(g) for g in turned), **values)


@says(FamillesGameEnded)
def game_ended(n: Narrator, pl: Payload) -> Markup:
    why = (n.fmt("The last generation is full: the game is over.")
           if pl.get("reason") == "complete" else
           n.fmt("The pile ran out and a whole round passed: the game is over."))
    winners = [str(w) for w in pl.get("winners") or []]
    best = {str(s.get("seat")): int(s.get("score", 0)) for s in pl.get("scores") or []}
    score = best.get(winners[0], 0) if winners else 0
    names = Markup(escape(n._(" and "))).join(n.house(w) for w in winners)
    if len(winners) == 1:
        who = n.fmt("%(player)s wins with %(score)s points.", player=names, score=score)
    else:
        who = n.fmt("%(players)s share the victory with %(score)s points.",
                    players=names, score=score)
    return why + Markup(" ") + who
