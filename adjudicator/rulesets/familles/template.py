"""A ready-to-edit order file for one player (DESIGN.md, Templates).

It shows what only that player may see (their hand and secret trait), the
public table, and every legal move as a comment to uncomment. A file that
holds no move passes.
"""

from __future__ import annotations

from adjudicator.rulesets.base import Gettext, same
from adjudicator.rulesets.familles.model import Familles
from adjudicator.rulesets.familles.moves import Descendant, Marry, legal_moves, render
from adjudicator.rulesets.familles.scoring import descendant_points, hand_penalty


def describe_card(game: Familles, card: int) -> str:
    """``17 (woman: blue ears, green nose, red lips)``."""
    face = game.deck[card]
    traits = ", ".join(game.rules.trait_name(t) for t in face.traits)
    return f"{card} ({game.rules.sex_name(face.sex)}: {traits})"


def _generations(game: Familles, _: Gettext) -> str:
    parts = [_("generation %(generation)s: %(count)s of %(cap)s")
             % {"generation": g, "count": game.count(g), "cap": cap}
             for g, cap in sorted(game.rules.caps.items())]
    return "; ".join(parts)


def _move_note(game: Familles, move: Marry | Descendant, _: Gettext) -> str:
    if isinstance(move, Marry):
        target = game.placed(move.on)
        generation = target.generation if target else 0
        return _("generation %(generation)s: %(card)s") % {
            "generation": generation, "card": describe_card(game, move.on)}
    parent = game.placed(move.parents[0])
    generation = parent.generation + 1 if parent else 0
    points = descendant_points(generation, game.card_traits(move.card))
    gains = ", ".join(f"+{p} {game.rules.trait_name(t)}" for t, p in points.items())
    return _("generation %(generation)s: %(card)s") % {"generation": generation, "card": gains}


def order_template(game: Familles, seat_id: str, move_number: int, _: Gettext = same) -> str:
    """The order file for ``seat_id`` before move ``move_number``; its comments in the
    language of ``_``."""
    lines = [f"house {seat_id}",
             "# " + _("Les familles nobles, move %(move)s.") % {"move": move_number}]
    seat = game.seat(seat_id)
    if seat is None:
        return "\n".join([*lines, "# " + _("You have no seat at this table."), ""])
    if game.finished:
        return "\n".join([*lines, "# " + _("The game is over."), ""])
    waiting = game.to_move.id != seat_id
    lines.append("# " + (_("It is %(seat)s's turn: orders from you are rejected until yours.")
                         % {"seat": game.to_move.id} if waiting else _("It is your turn.")))
    points = ", ".join(f"{game.rules.trait_name(t)} {game.trait_points.get(t, 0)}"
                       for t in game.rules.trait_ids)
    lines += [
        "# " + _("Your secret trait: %(trait)s (tell no one).")
        % {"trait": game.rules.trait_name(seat.trait)},
        "# " + _("Trait points: %(points)s.") % {"points": points},
        "# " + _("Current generation: %(generation)s (%(generations)s).")
        % {"generation": game.current_generation, "generations": _generations(game, _)},
        "# " + _("Draw pile: %(count)s cards.") % {"count": len(game.pile)},
        "# " + _("Your hand (%(count)s cards, worth -%(penalty)s if the game ended now):")
        % {"count": len(seat.hand), "penalty": hand_penalty(len(seat.hand))},
        *(f"#   {describe_card(game, c)}" for c in seat.hand),
    ]
    if waiting:
        return "\n".join([*lines, ""])
    lines += ["#", "# " + _("Uncomment one move. A file without a move passes (and draws a "
                            "card)."),
              "# " + _("Legal moves now:")]
    for move in legal_moves(game, seat_id):
        if isinstance(move, Marry | Descendant):
            lines.append(f"# {render(move):<28} # {_move_note(game, move, _)}")
        else:
            lines.append(f"# {render(move)}")
    return "\n".join([*lines, ""])
