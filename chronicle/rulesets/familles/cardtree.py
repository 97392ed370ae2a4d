"""The family tree of Les familles nobles (RULES.md D), drawn with Graphviz.

The table of a card game is a small genealogy of portraits, so this module
borrows the dynasty genealogies' escaping, rendering and cache
(``genealogy.render_svg``, ``cache.RenderCache``) and only decides what the
cards look like:

- a card is a small table bordered in its sex's colour (the game's blue and
  pink borders), headed ``♂ 17`` or ``♀ 17``, over three cells holding the
  marks of its traits (``traitmarks``: drawn strokes, no emoji font needed)
  on the traits' colours (the names are in tooltips and the marks' titles);
- a couple is a small point between the two cards, on their rank, and the
  descendants hang from it;
- each generation is one rank, labelled on the left with its fill
  ("4 of 5"), and a turned-over generation says so; its cards are greyed and
  dashed, so the mark survives printing in black and white;
- the card a move placed can be highlighted (thick gold border and a ★).

The drawing depends on the public table alone (cards on the table and the
generations' counts): nothing held in a hand can reach it. The DOT text is
a pure function of its inputs, emitted in a fixed depth-first family order,
so an unchanged table gives the same DOT, hence the same cached SVG.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from chronicle.rulesets.familles import traitmarks
from chronicle.site.genealogy import (
    dot_string,
    graphviz_cache,
    html_text,
    render_svg,
    safe_colour,
    tint,
)
from chronicle.site.incremental.cache import render_cached

NEUTRAL = "#777777"
HIGHLIGHT = "#e0a100"
TURNED_FILL = "#e4e4e4"
SEX_MARK = {"M": "♂", "F": "♀"}


@dataclass(frozen=True)
class Look:
    """How a trait or a sex is shown: localised name, symbol, colour."""

    name: str
    colour: str
    symbol: str = ""


@dataclass(frozen=True)
class TableCard:
    """A card on the table, as every player sees it."""

    id: int
    sex: str
    traits: tuple[str, ...]
    generation: int
    role: str
    parents: tuple[int, int] | None
    spouse: int | None
    placed_turn: int
    placed_by: str | None
    turned_over: bool


@dataclass(frozen=True)
class GenerationFill:
    """A generation's members against its cap (no cap: the founders)."""

    number: int
    members: int
    cap: int | None
    turned_over: bool


@dataclass(frozen=True)
class TreeWords:
    """The localised words of the drawing (format strings with named fields)."""

    title: str
    generation: str      # "Generation %(number)s"
    fill: str            # "%(members)s of %(cap)s"
    founders: str        # "founders: %(members)s"
    turned_over: str     # "turned over"
    card: str            # "card %(card)s"
    placed: str          # "placed by %(player)s on move %(move)s"
    founder: str         # "face up at the deal"


LinkFor = Callable[[TableCard], str | None]


def _node(card: int) -> str:
    return f"c{card}"


def _card_label(card: TableCard, traits: Mapping[str, Look], sexes: Mapping[str, Look],
                new: bool) -> str:
    sex = sexes.get(card.sex)
    border = (safe_colour(sex.colour) if sex else None) or NEUTRAL
    mark = SEX_MARK.get(card.sex, "?")
    head = f"{'★ ' if new else ''}{mark} {card.id}"
    cells = []
    for trait_id in card.traits:
        look = traits.get(trait_id)
        colour = (safe_colour(look.colour) if look else None) or NEUTRAL
        fill = tint(colour, 0.55) if card.turned_over else colour
        symbol = html_text(traitmarks.placeholder(trait_id))
        cells.append(f'<TD BGCOLOR="{fill}" WIDTH="24" HEIGHT="22" FIXEDSIZE="TRUE">'
                     f"{symbol}</TD>")
    style = "rounded,dashed" if card.turned_over else "rounded"
    colour = HIGHLIGHT if new else (tint(border, 0.35) if card.turned_over else border)
    background = TURNED_FILL if card.turned_over else "#ffffff"
    font = '<FONT COLOR="#666666">' if card.turned_over else "<FONT>"
    return (f'<<TABLE BORDER="{4 if new else 2}" COLOR="{colour}" BGCOLOR="{background}" '
            f'STYLE="{style}" CELLBORDER="0" CELLSPACING="2" CELLPADDING="1">'
            f'<TR><TD COLSPAN="{max(len(cells), 1)}">{font}<B>{html_text(head)}</B></FONT></TD>'
            f"</TR><TR>{''.join(cells)}</TR></TABLE>>")


def _card_tooltip(card: TableCard, traits: Mapping[str, Look], sexes: Mapping[str, Look],
                  words: TreeWords, players: Mapping[str, str]) -> str:
    names = ", ".join(traits[t].name if t in traits else t for t in card.traits)
    sex = sexes.get(card.sex)
    text = f"{words.card % {'card': card.id}} ({sex.name if sex else card.sex}): {names}"
    if card.placed_by is not None:
        player = players.get(card.placed_by, card.placed_by)
        text += "; " + words.placed % {"player": player, "move": card.placed_turn}
    else:
        text += "; " + words.founder
    if card.turned_over:
        text += f"; {words.turned_over}"
    return text


def _family_order(cards: Sequence[TableCard]) -> list[TableCard]:
    """Depth-first: each card, then its spouse, then their descendants by move.

    Graphviz seeds each rank's order with the order of the nodes in the
    source, so emitting families together keeps children under parents.
    """
    by_id = {c.id: c for c in cards}
    children: dict[frozenset[int], list[TableCard]] = {}
    for card in sorted(cards, key=lambda c: (c.placed_turn, c.id)):
        if card.parents is not None:
            children.setdefault(frozenset(card.parents), []).append(card)
    order: list[TableCard] = []
    seen: set[int] = set()
    stack = [c for c in sorted(cards, key=lambda c: (c.generation, c.placed_turn, c.id),
                               reverse=True) if c.role != "spouse"]
    while stack:
        card = stack.pop()
        if card.id in seen:
            continue
        seen.add(card.id)
        order.append(card)
        partner = by_id.get(card.spouse) if card.spouse is not None else None
        if partner is not None and partner.id not in seen:
            seen.add(partner.id)
            order.append(partner)
        if partner is not None:
            stack.extend(reversed(children.get(frozenset((card.id, partner.id)), [])))
    order.extend(c for c in sorted(cards, key=lambda c: c.id) if c.id not in seen)
    return order


def tree_dot(cards: Sequence[TableCard], generations: Sequence[GenerationFill],
             traits: Mapping[str, Look], sexes: Mapping[str, Look], words: TreeWords,
             players: Mapping[str, str], link_for: LinkFor, *,
             highlight: int | None = None) -> str:
    """The DOT source of the tree (pure text: the cache key)."""
    lines = [
        f"/* {traitmarks.VERSION} */",
        f"digraph {dot_string(words.title)} {{",
        "  graph [rankdir=TB, nodesep=0.22, ranksep=0.45, fontname=Helvetica, "
        f'bgcolor="#ffffff", tooltip={dot_string(words.title)}];',
        "  node [fontname=Helvetica, fontsize=11, shape=plain];",
        '  edge [arrowhead=none, color="#555555"];',
    ]
    ranks: dict[int, list[str]] = {}
    for fill in generations:
        text = words.generation % {"number": fill.number}
        detail = (words.founders % {"members": fill.members} if fill.cap is None
                  else words.fill % {"members": fill.members, "cap": fill.cap})
        extra = f'<BR/><I>{html_text(words.turned_over)}</I>' if fill.turned_over else ""
        colour = "#888888" if fill.turned_over else "#222222"
        tip = f"{text}: {detail}" + (f" ({words.turned_over})" if fill.turned_over else "")
        node = f"g{fill.number}"
        lines.append(f'  {node} [shape=plaintext, fontcolor="{colour}", '
                     f"tooltip={dot_string(tip)}, label=<<B>{html_text(text)}</B>"
                     f"<BR/>{html_text(detail)}{extra}>];")
        ranks.setdefault(fill.number, []).append(node)
    numbers = [f"g{fill.number}" for fill in generations]
    if len(numbers) > 1:
        lines.append("  " + " -> ".join(numbers) + " [style=invis];")
    order = _family_order(cards)
    for card in order:
        attrs = [f"label={_card_label(card, traits, sexes, card.id == highlight)}",
                 f"tooltip={dot_string(_card_tooltip(card, traits, sexes, words, players))}",
                 f'class="card{" turned-over" if card.turned_over else ""}'
                 f'{" new" if card.id == highlight else ""}"']
        url = link_for(card)
        if url:
            attrs += [f"URL={dot_string(url)}", 'target="_top"']
        lines.append(f"  {_node(card.id)} [{', '.join(attrs)}];")
        ranks.setdefault(card.generation, []).append(_node(card.id))
    by_id = {c.id: c for c in cards}
    edges: list[str] = []
    for card in order:
        partner = by_id.get(card.spouse) if card.spouse is not None else None
        if card.role == "spouse" or partner is None:
            continue
        union = f"u{card.id}_{partner.id}"
        tip = f"{words.card % {'card': card.id}} ⚭ {words.card % {'card': partner.id}}"
        lines.append(f"  {union} [shape=point, width=0.08, tooltip={dot_string(tip)}];")
        ranks.setdefault(card.generation, []).append(union)
        edges.append(f"  {_node(card.id)} -> {union} [weight=5];")
        edges.append(f"  {union} -> {_node(partner.id)} [weight=5];")
        couple = {card.id, partner.id}
        edges.extend(f"  {union} -> {_node(child.id)};" for child in order
                     if child.parents is not None and set(child.parents) == couple)
    lines.extend(edges)
    for rank in sorted(ranks):
        lines.append("  { rank=same; " + "; ".join(ranks[rank]) + "; }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def render_tree(dot: str, cache_dir: Path | None, traits: Mapping[str, Look]) -> str:
    """The SVG of ``dot`` with its traits drawn in (``traits``: those ``dot`` was made
    with), read from the Graphviz cache when already laid out."""
    return render_cached(dot, lambda text: traitmarks.draw_in_tree(render_svg(text), traits),
                         graphviz_cache(cache_dir) if cache_dir is not None else None)
