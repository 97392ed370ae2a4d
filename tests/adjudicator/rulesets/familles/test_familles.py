"""Les familles nobles (RULES.md Part D): deck, deal, moves, generations, end."""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from itertools import combinations

import pytest
from dynasty_helpers import shared_mutables
from repo_paths import REPO

from adjudicator import AdjudicationError, RulesDataError, SeededDice
from adjudicator.errors import SetupError
from adjudicator.orders import OrderSheet, parse_orders
from adjudicator.rulesets.base import TurnResult
from adjudicator.rulesets.familles import (
    Descendant,
    Familles,
    FamillesDescendant,
    FamillesDrew,
    FamillesGameEnded,
    FamillesGenerationFull,
    FamillesHandDealt,
    FamillesMarried,
    FamillesPassed,
    FamillesRules,
    FamillesRuleset,
    FinalScore,
    Placement,
    Role,
    export_familles,
    final_scores,
    hand_penalty,
    legal_moves,
    points_from_tree,
    setup_familles,
    winners,
)
from adjudicator.state import GameState, House
from chronicle.rulesets import descriptor
from chronicle.rulesets.familles.player import familles_orders

ROOT = REPO
RULES = tomllib.loads((ROOT / "content" / "rulesets" / "familles" / "familles.toml").read_text("utf-8"))
RULESET = FamillesRuleset(RULES)
SEATS = ("alice", "bob", "carol", "dave", "erin", "frank")
T = {"E": "blue-ears", "G": "yellow-glasses", "N": "green-nose", "L": "red-lips",
     "O": "orange-lock"}


def houses_state(players: int) -> GameState:
    state = GameState(ruleset="familles", start_year=1, years_per_turn=5)
    for i, seat in enumerate(SEATS[:players]):
        state.houses[seat] = House(id=seat, letter=chr(65 + i), name=seat.title(), player=seat)
    return state


def dealt(players: int = 3, seed: str = "familles") -> TurnResult:
    return setup_familles(houses_state(players), RULES, SeededDice(seed, 0))


def face(code: str) -> tuple[str, tuple[str, ...]]:
    """``"M:EGN"`` → (``M``, traits in the data file's order)."""
    sex, letters = code.split(":")
    wanted = {T[c] for c in letters}
    return sex, tuple(t for t in T.values() if t in wanted)


def sheet(seat: str, *lines: str, filename: str | None = None) -> dict[str, OrderSheet]:
    text = "\n".join([f"house {seat}", *lines]) + "\n"
    return {seat: parse_orders(text, RULESET.grammar, filename=filename or f"{seat}.orders",
                               expected_house=seat)}


class Table:
    """A scripted game: chosen founders, cards handed to a seat just before it moves."""

    def __init__(self, founders: list[str], players: int = 2) -> None:
        self.state = dealt(players, "table").state
        game = Familles.from_state(self.state)
        game.pile = sorted(game.deck, reverse=True)
        for seat in game.seats:
            seat.hand = []
        game.table = []
        game.store(self.state)
        self.founders = [self.take(code) for code in founders]
        game = self.game
        game.table = [Placement(card=c, generation=1, role=Role.FOUNDER) for c in self.founders]
        game.store(self.state)

    @property
    def game(self) -> Familles:
        return Familles.from_state(self.state)

    def take(self, code: str | None = None, *, seat: str | None = None) -> int:
        """A card of the face ``code`` (any card if None) from the pile or a hand."""
        game = self.game
        sources = [game.pile, *(s.hand for s in game.seats)]
        for source in sources:
            for card in source:
                if code is None or (game.deck[card].sex, game.deck[card].traits) == face(code):
                    source.remove(card)
                    if seat is not None:
                        holder = game.seat(seat)
                        assert holder is not None
                        holder.hand = sorted([*holder.hand, card])
                    game.store(self.state)
                    return card
        raise LookupError(f"no card {code} left")

    def give(self, seat: str, code: str | None = None) -> int:
        return self.take(code, seat=seat)

    def spouse_for(self, card: int, seat: str) -> int:
        """A card of the other sex that, with ``card``, carries all five traits."""
        game = self.game
        sex = "F" if game.deck[card].sex == "M" else "M"
        missing = [k for k, t in T.items() if t not in game.deck[card].traits]
        for extra in "EGNLO":
            if extra in missing:
                continue
            try:
                return self.give(seat, f"{sex}:{''.join(missing)}{extra}")
            except LookupError:
                continue
        raise LookupError("no spouse left")

    def to_move(self, seat: str) -> None:
        game = self.game
        game.current = [s.id for s in game.seats].index(seat)
        game.store(self.state)

    def move(self, seat: str, *lines: str) -> TurnResult:
        self.to_move(seat)
        result = RULESET.resolve(self.state, sheet(seat, *lines), SeededDice("t", 1))
        self.state = result.state
        return result

    def marry(self, seat: str, card: int, on: int) -> TurnResult:
        result = self.move(seat, f"marry {card} on {on}")
        assert not result.rejections, result.rejections
        return result

    def descend(self, seat: str, parents: tuple[int, int], code: str | None = None) -> int:
        card = self.give(seat, code)
        result = self.move(seat, f"descendant {card} under {parents[0]}+{parents[1]}")
        assert not result.rejections, result.rejections
        return card

    def couple(self, seat: str, card: int) -> tuple[int, int]:
        spouse = self.spouse_for(card, seat)
        self.marry(seat, spouse, card)
        return card, spouse

    def fill(self, parents: tuple[int, int], count: int) -> list[int]:
        return [self.descend("alice", parents) for _ in range(count)]


def hand(game: Familles, seat: str) -> list[int]:
    player = game.seat(seat)
    assert player is not None
    return player.hand


def generation_of(game: Familles, card: int) -> int:
    placement = game.placed(card)
    assert placement is not None
    return placement.generation


def rejections(state: GameState, seat: str, *lines: str) -> list[str]:
    sheets = sheet(seat, *lines)
    RULESET.validate(state, sheets)
    return [str(r) for s in sheets.values() for r in s.rejections]


# -- deck and deal ---------------------------------------------------------------


@pytest.mark.parametrize("seed", ["a", "b", "c", "d"])
def test_d_deck_composition(seed: str) -> None:
    """D Deck: 70 portrait cards, 35 men and 35 women, each showing 3 of the 5
    traits; for each sex the 10 combinations appear 3 or 4 times each [D]."""
    game = Familles.from_state(dealt(3, seed).state)
    assert sorted(game.deck) == list(range(1, 71))
    sexes = Counter(c.sex for c in game.deck.values())
    assert sexes == {"M": 35, "F": 35}
    for card in game.deck.values():
        assert len(set(card.traits)) == 3 and set(card.traits) <= set(T.values())
    for sex in "MF":
        counts = Counter(c.traits for c in game.deck.values() if c.sex == sex)
        assert set(counts) == set(combinations(T.values(), 3))
        assert sorted(counts.values()) == [3] * 5 + [4] * 5


def test_d_deck_extra_copies_follow_the_seed() -> None:
    """D Deck [D]: which combinations get a fourth copy is dealt from the campaign seed."""
    def fourths(seed: str) -> frozenset[tuple[str, tuple[str, ...]]]:
        game = Familles.from_state(dealt(3, seed).state)
        counts = Counter((c.sex, c.traits) for c in game.deck.values())
        return frozenset(k for k, n in counts.items() if n == 4)
    assert fourths("x") == fourths("x")
    assert len({fourths(str(i)) for i in range(8)}) > 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_d_setup_deal(players: int) -> None:
    """D Setup: 3 cards face up form generation 1; each player receives 5 cards;
    the rest is the draw pile. Each player secretly draws one trait tile."""
    result = dealt(players, f"deal{players}")
    game = Familles.from_state(result.state)
    assert [p.role for p in game.table] == [Role.FOUNDER] * 3
    assert all(p.generation == 1 and p.spouse is None for p in game.table)
    assert [len(s.hand) for s in game.seats] == [5] * players
    assert len(game.pile) == 70 - 3 - 5 * players
    everywhere = [p.card for p in game.table] + game.pile + [c for s in game.seats for c in s.hand]
    assert sorted(everywhere) == list(range(1, 71))
    assert len({s.trait for s in game.seats}) == players
    assert [s.id for s in game.seats] == list(SEATS[:players])
    assert result.state.turn == 0 and game.to_move.id == "alice"
    assert all(r.secret and r.phase == "setup" for r in result.rolls)
    private = [e for e in result.events if isinstance(e, FamillesHandDealt)]
    assert len(private) == players and not any(e.public for e in private)


def test_d_campaign_setup_seats_the_declared_houses() -> None:
    """D Play by mail: one move per player in seat order. [D] The order of the
    campaign's [[house]] tables is the seat order."""
    ruleset = descriptor("familles").engine({"familles": RULES, "names": {}})
    spec = {"title": "t", "ruleset": "familles", "start_year": 1,
            "house": [{"id": "zoe", "letter": "Z", "name": "Zoé"}, {"id": "adam"},
                      {"id": "mia"}]}
    dice = SeededDice("spec", 0)
    state = ruleset.setup(spec, dice)
    game = Familles.from_state(state)
    assert [s.id for s in game.seats] == ["zoe", "adam", "mia"]
    assert state.houses["adam"].letter == "B" and state.houses["zoe"].name == "Zoé"
    assert dice.log and all(r.secret for r in dice.log)
    assert ruleset.ordering_houses(state) == ["zoe"]
    with pytest.raises(SetupError):
        ruleset.setup({"house": [{"id": "ann"}, {"id": "ann"}]}, SeededDice("x", 0))


def test_d_setup_refuses_more_players_than_trait_tiles() -> None:
    """D Traits: each player draws one of the five trait tiles, so at most five play."""
    with pytest.raises(AdjudicationError, match="2 to 5 players"):
        setup_familles(houses_state(6), RULES, SeededDice("six", 0))


def test_d_rules_data_is_checked() -> None:
    """D Generations: caps are listed for generations 2, 3, … in turn."""
    broken = dict(RULES, generations={"2": 4, "4": 6})
    with pytest.raises(RulesDataError):
        FamillesRules.from_mapping(broken)
    rules = FamillesRules.from_mapping(RULES)
    assert rules.caps == {2: 4, 3: 5, 4: 6, 5: 7} and rules.last_generation == 5
    assert FamillesRules.from_mapping(rules.to_mapping()) == rules


def test_d_state_round_trips_through_json() -> None:
    """Hands and secret traits are private; the state itself stays plain JSON."""
    state = dealt(4, "json").state
    again = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert Familles.from_state(again) == Familles.from_state(state)


def test_d_a_move_leaves_the_previous_state_alone_and_copies_share_nothing_mutable() -> None:
    """D Play by mail: "one move per player in seat order": each move is adjudicated on a
    copy, so the state before it is unchanged, and no copy shares a mutable object with it."""
    state = dealt(3, "copy").state
    before = state.to_dict()
    after = RULESET.resolve(state, {}, SeededDice("copy", 1)).state
    assert state.to_dict() == before and after.to_dict() != before
    assert shared_mutables(state, state.copy()) == []
    assert shared_mutables(state, after) == []


def test_d_the_calendar_of_the_moves_is_the_data_s() -> None:
    """A4 (the campaign calendar): "One turn is 5 years", read from the data; Les
    familles nobles dates its moves by its own ``years_per_turn``."""
    spec = {"title": "t", "ruleset": "familles", "start_year": 1300,
            "house": [{"id": "ann"}, {"id": "bob"}]}
    for years, second in ((5, 1305), (1, 1301)):
        ruleset = descriptor("familles").engine({"familles": dict(RULES, years_per_turn=years)})
        assert ruleset.setup(spec, SeededDice("calendar", 0)).year_of(2) == second


# -- marrying ------------------------------------------------------------------------


def test_d_marry_places_a_card_and_draws() -> None:
    """D1 Marry: place a card from hand on a single card of the opposite sex already
    on the table. Draw a card. Scores nothing."""
    table = Table(["M:EGN", "F:LOE", "F:EGL"])
    man = table.founders[0]
    woman = table.give("alice", "F:NLO")
    pile = len(table.game.pile)
    result = table.marry("alice", woman, man)
    game = table.game
    spouse = game.placed(woman)
    assert spouse is not None and spouse.role is Role.SPOUSE and spouse.generation == 1
    husband = game.placed(man)
    assert husband is not None and spouse.spouse == man and husband.spouse == woman
    assert len(game.pile) == pile - 1 and len(hand(game, "alice")) == 1
    assert set(game.trait_points.values()) == {0}
    married = [e for e in result.events if isinstance(e, FamillesMarried)]
    assert married[0].on == man and married[0].drew
    drew = [e for e in result.events if isinstance(e, FamillesDrew)]
    assert len(drew) == 1 and not drew[0].public


def test_d_marry_rejections_name_the_reason() -> None:
    """D1 Marry: only a single card, of the opposite sex, with a card from your hand."""
    table = Table(["M:EGN", "F:LOE", "M:EGL"])
    man, woman, other = table.founders
    wife = table.give("alice", "F:NLO")
    table.marry("alice", wife, man)
    table.to_move("bob")
    mine = table.give("bob", "F:EGN")
    his = table.give("bob", "M:GNO")
    found = rejections(table.state, "bob",
                       f"marry {mine} on {man}",
                       f"marry {his} on {other}",
                       f"marry {mine} on 999",
                       f"marry {table.founders[1]} on {other}")
    assert found == [
        f"bob.orders:2: marry {mine} on {man}: card {man} is already married",
        f"bob.orders:3: marry {his} on {other}: cards {his} and {other} are both a man: "
        "a marriage joins a man and a woman",
        f"bob.orders:4: marry {mine} on 999: card 999 is not on the table",
        f"bob.orders:5: marry {woman} on {other}: card {woman} is not in your hand",
    ]


def test_d_marry_only_current_generation_or_the_one_below() -> None:
    """D1 Marry: a card of the current generation or the one below [D]: while
    generation 1 is current, generation 3 cards must wait."""
    table = Table(["M:EGN", "F:LOE"])
    parents = table.couple("alice", table.founders[0])
    child = table.descend("alice", parents, "M:EGN")
    grandparents = table.couple("alice", child)
    grandchild = table.descend("alice", grandparents, "F:EGN")
    table.to_move("alice")
    groom = table.give("alice", "M:LOE")
    assert table.game.current_generation == 1
    assert rejections(table.state, "alice", f"marry {groom} on {grandchild}") == [
        f"alice.orders:2: marry {groom} on {grandchild}: card {grandchild} is in "
        "generation 3; only generations 1 and 2 can marry now"]
    assert rejections(table.state, "alice", f"marry {groom} on {table.founders[1]}") == []


# -- descendants ---------------------------------------------------------------------


def test_d_descendant_traits_must_come_from_the_parents() -> None:
    """D2 Descendant: every one of the card's 3 traits must appear among the parents'
    6 traits."""
    table = Table(["M:EGL", "F:EGN"])
    man, _ = table.founders
    wife = table.give("alice", "F:EGL")
    table.marry("alice", wife, man)
    table.to_move("bob")
    good = table.give("bob", "F:GLN")
    bad = table.give("bob", "M:ENO")
    assert rejections(table.state, "bob", f"descendant {bad} under {man}+{wife}") == [
        f"bob.orders:2: descendant {bad} under {man}+{wife}: card {bad} has green nose and "
        f"orange lock, which neither {man} nor {wife} carries"]
    assert rejections(table.state, "bob", f"descendant {good} under {man} + {wife}") == [
        f"bob.orders:2: descendant {good} under {man} + {wife}: card {good} has green nose, "
        f"which neither {man} nor {wife} carries"]
    fits = table.give("bob", "F:EGL")
    assert rejections(table.state, "bob", f"descendant {fits} under {wife}+{man}") == []
    assert rejections(table.state, "bob", f"descendant {fits} under {man}+{table.founders[1]}"
                      ) == [f"bob.orders:2: descendant {fits} under {man}+{table.founders[1]}: "
                            f"cards {man} and {table.founders[1]} are not married to each other"]


def test_d_descendant_scores_its_generation_and_draws_nothing() -> None:
    """D2 Descendant: the player draws nothing. Each of the card's traits scores points
    equal to its generation number: 2 for generation 2, 3 for generation 3."""
    table = Table(["M:EGN", "F:LOE"])
    parents = table.couple("alice", table.founders[0])
    child = table.give("alice", "M:EGN")
    before = table.game
    result = table.move("alice", f"descendant {child} under {parents[0]}+{parents[1]}")
    game = table.game
    assert game.pile == before.pile and not any(isinstance(e, FamillesDrew) for e in result.events)
    assert hand(game, "alice") == [
        c for c in hand(before, "alice") if c != child]
    assert game.trait_points == {T["E"]: 2, T["G"]: 2, T["N"]: 2, T["L"]: 0, T["O"]: 0}
    second = table.couple("alice", child)
    table.descend("alice", second, "F:NLO")
    game = table.game
    assert generation_of(game, child) == 2
    assert game.trait_points == {T["E"]: 2, T["G"]: 2, T["N"]: 5, T["L"]: 3, T["O"]: 3}
    assert game.trait_points == points_from_tree(game)


def test_d_several_descendants_per_couple() -> None:
    """D Generations: a couple may have several descendants."""
    table = Table(["M:EGN", "F:LOE"])
    parents = table.couple("alice", table.founders[0])
    kids = table.fill(parents, 3)
    placed = [table.game.placed(k) for k in kids]
    assert [p.parents if p else None for p in placed] == [parents] * 3


# -- generations -----------------------------------------------------------------------


def test_d_full_generation_turns_the_previous_one_over() -> None:
    """D Generations: generation 2 holds at most 4 descendants. When a generation is
    full, the previous generation's cards are turned over: they can no longer marry
    or have children."""
    table = Table(["M:EGN", "F:LOE", "M:GLO"])
    parents = table.couple("alice", table.founders[0])
    table.fill(parents, 3)
    last = table.give("alice")
    result = table.move("alice", f"descendant {last} under {parents[0]}+{parents[1]}")
    full = [e for e in result.events if isinstance(e, FamillesGenerationFull)]
    assert len(full) == 1 and full[0].generation == 2 and full[0].turned_over == (1,)
    assert set(full[0].cards) == {*table.founders, parents[1]}
    game = table.game
    assert game.current_generation == 2
    assert all(game.is_turned_over(p) for p in game.members(1))
    table.to_move("bob")
    bride = table.give("bob", "F:EGN")
    child = table.give("bob")
    single = table.founders[2]
    assert rejections(table.state, "bob", f"marry {bride} on {single}",
                      f"descendant {child} under {parents[0]}+{parents[1]}") == [
        f"bob.orders:2: marry {bride} on {single}: card {single} is turned over: "
        "generation 2 is full",
        f"bob.orders:3: descendant {child} under {parents[0]}+{parents[1]}: "
        "generation 2 is full (4 of 4)"]


def test_d_turning_over_reaches_every_older_generation() -> None:
    """D Generations [D]: when generation 3 fills before generation 2, generations 1
    and 2 are both turned over; generation 2 keeps fewer than its cap."""
    table = Table(["M:EGN", "F:LOE"])
    parents = table.couple("alice", table.founders[0])
    child = table.descend("alice", parents, "M:EGN")
    second = table.couple("alice", child)
    table.fill(second, 5)
    game = table.game
    assert game.count(2) == 1 and game.current_generation == 3
    assert not any(game.is_turned_over(p) for p in game.members(3))
    late = table.give("bob")
    table.to_move("bob")
    assert rejections(table.state, "bob", f"descendant {late} under {parents[0]}+{parents[1]}"
                      ) == [f"bob.orders:2: descendant {late} under {parents[0]}+{parents[1]}: "
                            f"card {parents[0]} is turned over: generation 3 is full"]


def chain_to_last_generation(table: Table, last_count: int) -> tuple[int, int]:
    """Fill generations 2 to 4 and place ``last_count`` cards in generation 5."""
    parents = table.couple("alice", table.founders[0])
    for generation in (2, 3, 4):
        kids = table.fill(parents, table.game.rules.caps[generation])
        assert table.game.current_generation == generation
        parents = table.couple("alice", kids[0])
    table.fill(parents, last_count)
    return parents


def test_d_generation_5_never_marries() -> None:
    """D Generations: members of generation 5 never marry."""
    table = Table(["M:EGN", "F:LOE"])
    chain_to_last_generation(table, 1)
    fifth = table.game.members(5)[0].card
    other = "M" if table.game.deck[fifth].sex == "F" else "F"
    suitor = table.give("bob", f"{other}:EGN")
    table.to_move("bob")
    assert rejections(table.state, "bob", f"marry {suitor} on {fifth}") == [
        f"bob.orders:2: marry {suitor} on {fifth}: card {fifth} is in generation 5, "
        "whose members never marry"]
    assert not any(isinstance(m, Descendant) and m.parents[0] == fifth
                   for m in legal_moves(table.game, "bob"))


def test_d_game_ends_at_the_seventh_card_of_generation_5() -> None:
    """D End: the game ends when the 7th card of generation 5 is placed; all secret
    traits are revealed."""
    table = Table(["M:EGN", "F:LOE"])
    parents = chain_to_last_generation(table, 6)
    assert not table.game.finished
    table.give("bob", "M:EGN")
    table.give("bob", "F:EGN")
    last = table.give("alice")
    result = table.move("alice", f"descendant {last} under {parents[0]}+{parents[1]}")
    game = table.game
    assert game.finished and game.end == "complete" and result.state.finished
    assert [game.count(g) for g in (2, 3, 4, 5)] == [4, 5, 6, 7]
    ended = [e for e in result.events if isinstance(e, FamillesGameEnded)]
    assert len(ended) == 1 and ended[0].public
    assert [s["trait"] for s in ended[0].scores] == [s.trait for s in game.seats]
    bob = next(s for s in ended[0].scores if s["seat"] == "bob")
    assert bob["hand"] == 2 and bob["penalty"] == 3
    assert bob["score"] == game.trait_points[bob["trait"]] - 3
    assert rejections(result.state, "bob", "pass") == ["bob.orders:2: pass: the game is over"]
    assert RULESET.ordering_houses(result.state) == []
    with pytest.raises(AdjudicationError):
        RULESET.resolve(result.state, {}, SeededDice("t", 99))


# -- the end -----------------------------------------------------------------------------


def test_d_hand_penalty_is_a_triangle() -> None:
    """D End: each player subtracts 1 + 2 + … + k, where k is the number of cards in
    their hand."""
    assert [hand_penalty(k) for k in range(7)] == [0, 1, 3, 6, 10, 15, 21]


def test_d_final_scores_charge_each_hand() -> None:
    """D End: each player subtracts 1 + 2 + … + k from their trait's total."""
    game = Familles.from_state(dealt(3, "score").state)
    game.trait_points = {T["E"]: 30, T["G"]: 12, T["N"]: 25, T["L"]: 9, T["O"]: 40}
    for seat, trait, hand in zip(game.seats, "EOG", ([1, 2, 3], [], [4]), strict=True):
        seat.trait, seat.hand = T[trait], hand
    assert [(s.trait_points, s.penalty, s.score) for s in final_scores(game)] == [
        (30, 6, 24), (40, 0, 40), (12, 1, 11)]


def test_d_highest_total_wins_and_ties_go_to_the_smaller_hand() -> None:
    """D End: the highest total wins. [D] A tie goes to the player holding fewer cards;
    a tie that remains is shared."""
    def score(seat: str, total: int, hand: int) -> FinalScore:
        return FinalScore(seat=seat, trait="x", trait_points=total, hand=hand, penalty=0,
                          score=total)
    assert winners([score("a", 10, 0), score("b", 12, 3)]) == ["b"]
    assert winners([score("a", 12, 1), score("b", 12, 0)]) == ["b"]
    assert winners([score("a", 12, 1), score("b", 12, 1), score("c", 3, 0)]) == ["a", "b"]


def test_d_stalled_game_ends_after_a_round_of_passes_on_an_empty_pile() -> None:
    """D Pass: draw a card. [D] Once the pile is empty, a whole round of passes ends
    the game, scored as a normal end."""
    table = Table(["M:EGN", "F:LOE"], players=3)
    game = table.game
    game.pile = []
    game.store(table.state)
    for seat in ("alice", "bob"):
        result = table.move(seat, "pass")
        assert not table.game.finished
    result = table.move("carol", "pass")
    assert table.game.finished and table.game.end == "stalled"
    assert any(isinstance(e, FamillesGameEnded) for e in result.events)


# -- turns and order files -------------------------------------------------------------


def test_d_moves_out_of_turn_are_rejected() -> None:
    """D Play by mail: one move per player in seat order."""
    state = dealt(3, "turns").state
    card = hand(Familles.from_state(state), "bob")[0]
    founder = Familles.from_state(state).table[0].card
    assert rejections(state, "bob", f"marry {card} on {founder}") == [
        f"bob.orders:2: marry {card} on {founder}: it is alice's turn, not bob's"]
    result = RULESET.resolve(state, {**sheet("bob", "pass"), **sheet("alice", "pass")},
                             SeededDice("turns", 1))
    assert [str(r) for r in result.rejections] == [
        "bob.orders:2: pass: it is alice's turn, not bob's"]
    assert Familles.from_state(result.state).to_move.id == "bob" and result.state.turn == 1


def test_d_one_move_per_turn() -> None:
    """D Play by mail: one move per player; the sheet's first legal move is played [D]."""
    state = dealt(3, "one").state
    game = Familles.from_state(state)
    card = hand(game, "alice")[0]
    first, second = game.table[0].card, game.table[1].card
    line = f"descendant {card} under {first}+{second}"
    assert rejections(state, "alice", line, "pass", "pass") == [
        f"alice.orders:2: {line}: cards {first} and {second} are not married to each other",
        "alice.orders:4: pass: one move per turn: line 3 already holds your move"]


def test_d_silent_player_passes_and_draws_in_secret() -> None:
    """D A player's turn: Pass. Draw a card. Hands are private until the end."""
    state = dealt(3, "silent").state
    before = Familles.from_state(state)
    top = before.pile[0]
    result = RULESET.resolve(state, {}, SeededDice("silent", 1))
    after = Familles.from_state(result.state)
    assert result.defaulted == ["alice"]
    assert top in hand(after, "alice") and after.pile == before.pile[1:]
    passed = [e for e in result.events if isinstance(e, FamillesPassed)]
    assert passed[0].defaulted and passed[0].drew
    public = json.dumps([e.payload() for e in result.events if e.public])
    assert str(top) not in public
    assert [e.houses() for e in result.events if not e.public] == [["alice"]]


def test_d_grammar_reads_both_couple_spellings() -> None:
    """D2 Descendant: the couple is written ``4+17`` or ``4 + 17``."""
    text = ("house alice\ndescendant 23 under 4+17\ndescendant 23 under 4 + 17\n"
            "DESCENDANT 23 UNDER 4 +17\nmarry 17 on 4\npass\ndescendant 23 under 4\n"
            "marry 17 to 4\n")
    parsed = parse_orders(text, RULESET.grammar, filename="alice.orders",
                          expected_house="alice")
    assert [o.parents for o in parsed.of_type(Descendant)] == [(4, 17)] * 3
    assert [r.line for r in parsed.rejections] == [7, 8]


def test_d_template_lists_hand_and_only_legal_moves() -> None:
    """D Play by mail: each player's file lists their hand and the legal moves."""
    state = dealt(3, "template").state
    game = Familles.from_state(state)
    text = RULESET.template(state, "alice")
    for card in hand(game, "alice"):
        assert f"#   {card} (" in text
    moves = [line[2:].split("#")[0].strip() for line in text.splitlines()
             if line.startswith(("# marry", "# descendant"))]
    assert moves
    assert rejections(state, "alice", moves[0]) == []
    assert all(not rejections(state, "alice", m) for m in moves)
    waiting = RULESET.template(state, "bob")
    assert "It is alice's turn" in waiting and "# marry" not in waiting


def test_d_export_shows_only_the_table_and_hides_traits() -> None:
    """D Play by mail: hands and secret traits are private until the end; the chronicle
    shows the tree, every descendant's traits and the public score of each trait."""
    state = dealt(3, "export").state
    data = export_familles(state)
    assert [c["generation"] for c in data["cards"]] == [1, 1, 1]
    assert set(data["cards"][0]) >= {"id", "sex", "traits", "generation", "parents", "spouse",
                                     "placed_turn"}
    assert [p["hand"] for p in data["players"]] == [5, 5, 5]
    assert all(p["trait"] is None and p["score"] is None for p in data["players"])
    assert data["trait_points"] == dict.fromkeys(T.values(), 0)
    assert data["winner"] is None
    json.dumps(data)


# -- whole games ---------------------------------------------------------------------------


def play_out(players: int, seed: str) -> tuple[GameState, list[object]]:
    state = dealt(players, seed).state
    events: list[object] = []
    while not state.finished:
        assert state.turn < 400, "the game does not end"
        seat = RULESET.ordering_houses(state)[0]
        sheets = {s: parse_orders(familles_orders(state, s), RULESET.grammar,
                                  filename=f"{s}.orders", expected_house=s)
                  for s in state.houses}
        result = RULESET.resolve(state, sheets, SeededDice(seed, state.turn + 1))
        assert result.rejections == [] and result.defaulted == []
        assert result.state.turn == state.turn + 1
        assert result.state.finished or Familles.from_state(result.state).to_move.id != seat
        events.extend(result.events)
        state = result.state
    return state, events


@pytest.mark.parametrize(("players", "seed"), [(3, "one"), (3, "two"), (4, "three"),
                                               (4, "four"), (5, "five"), (5, "six")])
def test_d_whole_games_with_the_builtin_player(players: int, seed: str) -> None:
    """D, whole games: the built-in player's orders are always legal and every game
    ends with the 7th card of generation 5, with the tree obeying every rule."""
    state, events = play_out(players, seed)
    game = Familles.from_state(state)
    assert game.end == "complete"
    caps = game.rules.caps
    assert game.count(5) == 7 and all(game.count(g) <= caps[g] for g in caps)
    for placement in game.table:
        if placement.role is Role.DESCENDANT:
            assert placement.parents is not None
            a, b = (game.placed(p) for p in placement.parents)
            assert a is not None and b is not None and a.spouse == b.card
            assert placement.generation == a.generation + 1
            assert set(game.card_traits(placement.card)) <= set(
                game.card_traits(a.card) + game.card_traits(b.card))
        if placement.role is Role.SPOUSE:
            partner = game.placed(placement.spouse or 0)
            assert partner is not None and partner.generation == placement.generation
            assert game.deck[partner.card].sex != game.deck[placement.card].sex
    assert all(p.generation < 5 for p in game.table if p.spouse is not None)
    assert game.trait_points == points_from_tree(game)
    scored = Counter[str]()
    for event in events:
        if isinstance(event, FamillesDescendant):
            scored.update(event.points)
    assert {t: scored[t] for t in game.trait_points} == game.trait_points
    everywhere = [p.card for p in game.table] + game.pile + [c for s in game.seats for c in s.hand]
    assert sorted(everywhere) == list(range(1, 71))
    ended = [e for e in events if isinstance(e, FamillesGameEnded)]
    assert len(ended) == 1 and list(ended[0].winners) == game.winners
    best = max(s.score for s in game.scores)
    assert all(s.score == best for s in game.scores if s.seat in game.winners)
    exported = export_familles(state)
    assert exported["winner"] == (game.winners[0] if len(game.winners) == 1 else None)
    assert all(p["trait"] is not None for p in exported["players"])


def test_d_export_reveals_the_whole_deck_at_the_end_only() -> None:
    """D: "all secret traits are revealed" at the end; the export then lists all 70
    cards (35 men, 35 women, three distinct traits each, each combination 3 or 4 times
    per sex), the hands by name, so the deal can be checked. Mid-game it lists only the
    table."""
    mid = dealt(4, "reveal").state
    data = export_familles(mid)
    assert len(data["cards"]) == 3 and all(p["cards"] is None for p in data["players"])
    state, _ = play_out(4, "reveal")
    data = export_familles(state)
    cards = data["cards"]
    assert sorted(c["id"] for c in cards) == list(range(1, 71))
    assert Counter(c["sex"] for c in cards) == {"M": 35, "F": 35}
    assert all(len(set(c["traits"])) == 3 for c in cards)
    combos = Counter((c["sex"], frozenset(c["traits"])) for c in cards)
    assert len(combos) == 20 and set(combos.values()) <= {3, 4}
    held = {c["id"]: c["held_by"] for c in cards if c["generation"] is None}
    for player in data["players"]:
        assert player["cards"] == sorted(k for k, v in held.items() if v == player["id"])
        assert len(player["cards"]) == player["hand"]
