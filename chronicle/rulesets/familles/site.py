"""The site of a game of Les familles nobles (RULES.md D, Play by mail).

A card game needs other pages than a dynasty: the home shows the seats in
order, whose move it is, the public trait points, how full each generation
is and the family tree of cards; each move has its page (who did what, the
points after it, the tree as it stood); each player has a page of their
moves. The URLs follow the dynasty pages', so the feed, the sitemap and the
narrator's links to players (``houses/<player>/``) hold::

    <campaign>/index.html                  the table now, and the reveal once over
    <campaign>/turns/turn-007/index.html   move 7
    <campaign>/houses/index.html           the players
    <campaign>/houses/<player>/index.html  one player's moves
    <campaign>/tree/current.svg            the tree now
    <campaign>/tree/move-007.svg           the tree after move 7

Secrecy: every fact shown comes from ``export_familles`` of a stored state
(``public_table``, the plug-in's ``TableReader``, run as the store is
loaded), the engine's public view, which holds only the cards on the table,
the number of cards in each hand and, once the game is over, the secret
traits and scores. Hands and traits never leave that function, and private
events (draws, the deal) are never loaded (``data``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from markupsafe import Markup

from adjudicator.rulesets.familles import Familles, export_familles
from adjudicator.state import GameState
from chronicle.narration import CardNote, Glossary
from chronicle.rulesets.familles import traitmarks
from chronicle.rulesets.familles.cardtree import (
    NEUTRAL,
    GenerationFill,
    Look,
    TableCard,
    TreeWords,
    render_tree,
    tree_dot,
)
from chronicle.site.drawings import cache_dir
from chronicle.site.genealogy import DrawnBefore, PendingGenealogies, safe_colour
from chronicle.site.pages import (
    SiteContext,
    Write,
    _root,
    build_svgs,
    render,
    sanitise_markdown,
    sentences,
)
from chronicle.site.plugin import SitePlugin
from chronicle.views.data import Lineage, TurnView

CURRENT_TREE = "tree/current.svg"
PLACING = frozenset({"familles-married", "familles-descendant"})  # kinds that put a card down


# -- the public table -----------------------------------------------------------
@dataclass(frozen=True)
class PlayerRow:
    """A seat as the site shows it; the last four fields stay None until the end."""

    id: str
    seat: int
    hand: int
    trait: str | None = None
    trait_points: int | None = None
    penalty: int | None = None
    score: int | None = None


@dataclass(frozen=True)
class TableView:
    """The public table at the end of one move (move 0: the deal)."""

    move: int
    cards: tuple[TableCard, ...]
    generations: tuple[GenerationFill, ...]
    trait_points: dict[str, int]
    players: tuple[PlayerRow, ...]
    to_move: str | None
    draw_pile: int
    current_generation: int
    finished: bool
    end: str | None
    winners: tuple[str, ...]
    #: Traits and sexes as the game's rules show them (``looks``).
    traits: Mapping[str, Look]
    sexes: Mapping[str, Look]

    def card(self, card: int) -> TableCard | None:
        for placed in self.cards:
            if placed.id == card:
                return placed
        return None


def public_table(state: GameState, move: int, language: str) -> TableView:
    """The table of ``state`` through the engine's public export: no hand, no secret."""
    export = export_familles(state)
    cards = tuple(TableCard(
        id=int(c["id"]), sex=str(c["sex"]), traits=tuple(str(t) for t in c["traits"]),
        generation=int(c["generation"]), role=str(c["role"]),
        parents=(int(c["parents"][0]), int(c["parents"][1])) if c["parents"] else None,
        spouse=None if c["spouse"] is None else int(c["spouse"]),
        placed_turn=int(c["placed_turn"]), placed_by=c["placed_by"],
        turned_over=bool(c["turned_over"])) for c in export["cards"]
        if c["generation"] is not None)  # the end's revealed hands and pile are not on the table
    current = int(export["current_generation"])
    founders = sum(1 for c in cards if c.generation == 1 and c.role == "founder")
    generations = (GenerationFill(1, founders, None, current > 1), *(
        GenerationFill(int(g["generation"]), int(g["members"]), int(g["cap"]),
                       int(g["generation"]) < current) for g in export["generations"]))
    points = {str(t): int(p) for t, p in export["trait_points"].items()}
    finished = bool(export["finished"])
    players = tuple(PlayerRow(
        id=str(p["id"]), seat=int(p["seat"]), hand=int(p["hand"]),
        trait=p["trait"] if finished else None,
        trait_points=points.get(str(p["trait"]), 0) if finished else None,
        penalty=p["penalty"] if finished else None,
        score=p["score"] if finished else None) for p in export["players"])
    traits, sexes = looks(state, language)
    return TableView(move=move, cards=cards, generations=generations, trait_points=points,
                     players=players, to_move=export["to_move"],
                     draw_pile=int(export["draw_pile"]), current_generation=current,
                     finished=finished, end=export["end"],
                     winners=tuple(str(w) for w in export["winners"]),
                     traits=traits, sexes=sexes)


def looks(state: GameState, language: str) -> tuple[dict[str, Look], dict[str, Look]]:
    """Traits and sexes as the game's rules show them (from ``familles.toml``)."""
    rules = Familles.from_state(state).rules
    traits = {t.id: Look(t.name(language), safe_colour(t.colour) or NEUTRAL, t.symbol)
              for t in rules.traits}
    sexes = {s: Look(style.name(language), safe_colour(style.colour) or NEUTRAL, style.symbol)
             for s, style in rules.sexes.items()}
    return traits, sexes


# -- the site's view of the whole game ---------------------------------------------
@dataclass
class MoveView:
    """One move's page: its turn, the table after it and the card it placed."""

    turn: TurnView
    table: TableView
    before: TableView | None
    card: TableCard | None
    tree: str

    @property
    def number(self) -> int:
        return self.turn.number

    @property
    def player(self) -> str | None:
        for event in self.turn.events:
            house = event.payload.get("house")
            if event.kind.startswith("familles-") and house:
                return str(house)
        return None

    def gained(self) -> dict[str, int]:
        before = self.before.trait_points if self.before else {}
        return {t: p - before.get(t, 0) for t, p in self.table.trait_points.items()}


@dataclass
class Game:
    """Everything the familles pages show, prepared once per build."""

    traits: dict[str, Look]
    sexes: dict[str, Look]
    table: TableView
    moves: list[MoveView] = field(default_factory=list)
    tree: str = CURRENT_TREE

    @property
    def finished(self) -> bool:
        return self.table.finished

    @property
    def sprite(self) -> Markup:
        """The traits' drawings, defined once in each page (``traitmarks``)."""
        return traitmarks.sprite(self.traits)


@dataclass
class FamillesContext(SiteContext):
    """The ``SiteContext`` of a familles game, with its ``Game``."""

    game: Game | None = None

    @property
    def the_game(self) -> Game:
        if self.game is None:
            raise ValueError("the familles pages were not prepared")
        return self.game


def tree_words(ctx: SiteContext) -> TreeWords:
    _ = ctx._
    return TreeWords(title=_("The family tree"), generation=_("Generation %(number)s"),
                     fill=_("%(members)s of %(cap)s"), founders=_("founders: %(members)s"),
                     turned_over=_("turned over"), card=_("card %(card)s"),
                     placed=_("placed by %(player)s on move %(move)s"),
                     founder=_("face up at the deal"))


def prepare(ctx: SiteContext) -> FamillesContext:
    """The familles context: public tables per move, trees and sentences."""
    data = ctx.data
    values = {f.name: getattr(ctx, f.name) for f in fields(SiteContext)}
    fctx = FamillesContext(**values)
    final = _table(data.table)
    traits, sexes = dict(final.traits), dict(final.sexes)
    game = Game(traits=traits, sexes=sexes, table=final)
    words = tree_words(ctx)
    players = {h.id: h.name for h in data.houses.values()}
    folder = cache_dir(Path(ctx.data.campaign.folder), "graphviz")

    def link(card: TableCard) -> str | None:
        return f"../turns/turn-{card.placed_turn:03d}/index.html" if card.placed_by else None

    def draw(table: TableView, highlight: int | None) -> str:
        return render_tree(tree_dot(table.cards, table.generations, traits, sexes, words,
                                    players, link, highlight=highlight), folder, traits)

    before: TableView | None = None
    for turn in data.turns:
        table = _table(turn.table)
        card = next((table.card(int(e.payload["card"])) for e in turn.events
                     if e.kind in PLACING and "card" in e.payload), None)
        name = f"tree/move-{turn.number:03d}.svg"
        fctx.svgs[name] = draw(table, card.id if card else None)
        game.moves.append(MoveView(turn=turn, table=table, before=before, card=card,
                                   tree=name))
        before = table
    fctx.svgs[CURRENT_TREE] = draw(final, None)
    fctx.game = game
    fctx.narrator = ctx.narrator.with_glossary(glossary(game))
    return fctx


def _table(view: object) -> TableView:
    if not isinstance(view, TableView):
        raise TypeError("a familles campaign must be loaded with its plug-in's table reader")
    return view


def glossary(game: Game) -> Glossary:
    """What the sentences show of the cards on the table and of the traits."""
    names = {trait: look.name for trait, look in game.traits.items()}
    cards = {}
    for placed in game.table.cards:
        sex = game.sexes.get(placed.sex)
        title = (f"{sex.name if sex else placed.sex}: "
                 + ", ".join(names.get(t, t) for t in placed.traits))
        cards[placed.id] = CardNote(title, placed.placed_turn if placed.placed_by else None)
    return Glossary(cards=cards, traits=names)


# -- the pages ----------------------------------------------------------------------
def _game(ctx: SiteContext) -> Game:
    if not isinstance(ctx, FamillesContext):
        raise TypeError("the familles pages need a FamillesContext")
    return ctx.the_game


def _values(ctx: SiteContext) -> dict[str, Any]:
    game = _game(ctx)
    players = {h.id: h for h in ctx.data.houses.values()}
    return {"game": game, "traits": game.traits, "sexes": game.sexes, "players": players}


def build_home(ctx: SiteContext, write: Write) -> None:
    game = _game(ctx)
    latest = game.moves[-1] if game.moves else None
    render(ctx, write, "familles_home.html", "index.html", table=game.table, latest=latest,
           latest_told=sentences(ctx, latest.turn.events, "") if latest else [],
           **_values(ctx))


def build_moves(ctx: SiteContext, write: Write) -> None:
    moves = _game(ctx).moves
    for i, move in enumerate(moves):
        rel = f"turns/turn-{move.number:03d}/index.html"
        commentary = move.turn.commentary
        render(ctx, write, "familles_move.html", rel, move=move, table=move.table,
               told=sentences(ctx, move.turn.events, _root(rel)),
               commentary=sanitise_markdown(commentary) if commentary else None,
               previous=moves[i - 1] if i > 0 else None,
               next=moves[i + 1] if i + 1 < len(moves) else None, **_values(ctx))


def build_players(ctx: SiteContext, write: Write) -> None:
    game = _game(ctx)
    render(ctx, write, "familles_players.html", "houses/index.html", table=game.table,
           **_values(ctx))
    for row in game.table.players:
        house = ctx.data.houses[row.id]
        rel = f"houses/{house.slug}/index.html"
        own = [e for m in game.moves for e in m.turn.events
               if e.payload.get("house") == row.id]
        render(ctx, write, "familles_player.html", rel, h=house, row=row, table=game.table,
               told=sentences(ctx, own, _root(rel)), **_values(ctx))


BUILDERS: tuple[Callable[[SiteContext, Write], None], ...] = (
    build_home, build_moves, build_players, build_svgs)


def _prepare(ctx: SiteContext, _genealogies: PendingGenealogies | None) -> SiteContext:
    return prepare(ctx)


def _no_early_drawings(_lineage: Lineage, _before: DrawnBefore | None = None) -> None:
    """The card trees are drawn per move as the context is prepared, not early."""


def progress(moves: int, _year: int) -> tuple[str, dict[str, int]]:
    """A game's line in the archive index: its moves played (there is no year)."""
    return "Les familles nobles: %(moves)s moves played.", {"moves": moves}


PLUGIN = SitePlugin(builders=BUILDERS, prepare=_prepare, start=_no_early_drawings,
                    table=public_table, progress=progress, turn_search_kind=4)
