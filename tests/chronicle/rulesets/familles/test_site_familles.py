"""The site of a game of Les familles nobles (RULES.md D, Play by mail).

RULES.md D: "Hands and secret traits are private until the end. The chronicle
shows the growing family tree, every descendant's traits and the public
score of each trait." One game is played by the demo's players; the same
seed stopped after a dozen moves gives the same game in progress, so what the
finished site shows is a control for what the mid-game site must hide.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import sqlite3
import zlib
from pathlib import Path
from typing import Any

import pytest
from site_fixture import broken_links, site_files, unsafe_markup

from adjudicator.rulesets.familles import Familles
from adjudicator.state import GameState
from chronicle.play.demo import run_demo
from chronicle.rulesets.familles.cardtree import (
    GenerationFill,
    Look,
    TableCard,
    TreeWords,
    tree_dot,
)
from chronicle.site import build_site
from chronicle.site.genealogy import render_svg

SEED = "familles-site-test"
MID = 12


def _play(folder: Path, turns: int | None) -> Path:
    return run_demo(ruleset="familles", turns=turns, seed=SEED, out=folder, site=None,
                    quiet=True)


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _play(tmp_path_factory.mktemp("finished") / "game", None)


@pytest.fixture(scope="module")
def midgame(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _play(tmp_path_factory.mktemp("midgame") / "game", MID)


def _site(campaign: Path, out: Path) -> Path:
    """Build ``campaign`` alone into ``out``; its pages are in the one campaign folder."""
    build_site([campaign], out)
    (folder,) = [p for p in out.iterdir() if p.is_dir() and p.name != "static"]
    return folder


@pytest.fixture(scope="module")
def finished_site(finished: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _site(finished, tmp_path_factory.mktemp("finished-site"))


@pytest.fixture(scope="module")
def midgame_site(midgame: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _site(midgame, tmp_path_factory.mktemp("midgame-site"))


def _db(campaign: Path) -> sqlite3.Connection:
    return sqlite3.connect(campaign / "chronicle.sqlite")


def _game(campaign: Path) -> Familles:
    """The true game at the end of the last stored move, secrets included."""
    with _db(campaign) as db:
        blob = db.execute("SELECT snapshot FROM turns ORDER BY number DESC").fetchone()[0]
    return Familles.from_state(GameState.from_dict(json.loads(zlib.decompress(blob))))


def _public_events(campaign: Path) -> list[tuple[int, str, dict[str, Any]]]:
    with _db(campaign) as db:
        rows = db.execute("SELECT turn, kind, payload FROM events WHERE public = 1 "
                          "ORDER BY turn, seq").fetchall()
    return [(t, k, json.loads(p)) for t, k, p in rows]


def _read(site: Path, rel: str) -> str:
    return (site / rel).read_text(encoding="utf-8")


# -- the pages -------------------------------------------------------------------
def test_d_home_lists_seats_in_order_with_the_seat_to_move(midgame: Path,
                                                            midgame_site: Path) -> None:
    """RULES.md D: "One move per player in seat order." """
    game = _game(midgame)
    home = _read(midgame_site, "index.html")
    seats = re.findall(r'<tr data-seat="([^"]+)"', home)
    assert seats == [s.id for s in game.seats]
    row = re.search(r'<tr data-seat="([^"]+)" class="to-move"', home)
    assert row is not None and row.group(1) == game.to_move.id


def test_d_home_shows_public_trait_points_and_generation_fill(midgame: Path,
                                                              midgame_site: Path) -> None:
    """RULES.md D: "the public score of each trait"; generations hold at most 4, 5, 6, 7."""
    game = _game(midgame)
    home = _read(midgame_site, "index.html")
    points = re.search(r'<table class="points">(.*?)</table>', home, re.DOTALL)
    assert points is not None
    for trait in game.rules.traits:
        assert re.search(re.escape(trait.name("en")) + r'</span></th><td class="num">'
                         + str(game.trait_points[trait.id]) + "<", points.group(1))
    for generation, cap in game.rules.caps.items():
        assert f"generation {generation}: {game.count(generation)} of {cap}" in home
    assert 'data="tree/current.svg"' in home and (midgame_site / "tree/current.svg").is_file()


def test_d_each_move_has_a_page_telling_who_did_what(finished: Path, finished_site: Path) -> None:
    """RULES.md D, A player's turn: marry, descendant (scoring its generation), or pass."""
    told = 0
    for turn, kind, pl in _public_events(finished):
        page = _read(finished_site, f"turns/turn-{turn:03d}/index.html")
        player = pl.get("house", "").title()
        if kind == "familles-married":
            assert re.search(rf">{player}</a> married <a [^>]*>card {pl['card']}</a> to "
                             rf"<[^>]*>card {pl['on']}<", page)
        elif kind == "familles-descendant":
            first, second = pl["parents"]
            assert re.search(
                rf">{player}</a> placed <a [^>]*>card {pl['card']}</a> under <[^>]*>{first}<"
                rf".*?>{second}<.*? in generation {pl['generation']}, scoring "
                rf"{pl['generation']} points each for ", page)
        elif kind == "familles-passed":
            assert re.search(rf">{player}</a> (sent no valid move, so )?passed", page)
        elif kind == "familles-generation-full":
            assert f"Generation {pl['generation']} is full ({pl['cap']} descendants)" in page
        else:
            continue
        told += 1
    assert told >= 20


def test_d_each_move_page_shows_the_tree_as_it_stood(finished: Path, finished_site: Path) -> None:
    """The tree after move N holds exactly the cards on the table after move N."""
    game = _game(finished)
    for move in (1, MID, game.table[-1].placed_turn):
        svg = _read(finished_site, f"tree/move-{move:03d}.svg")
        drawn = {int(c) for c in re.findall(r"<title>c(\d+)</title>", svg)}
        assert drawn == {p.card for p in game.table if p.placed_turn <= move}
        assert f'data="../../tree/move-{move:03d}.svg"' in _read(
            finished_site, f"turns/turn-{move:03d}/index.html")


def test_d_turned_over_generations_are_marked(finished: Path, finished_site: Path) -> None:
    """RULES.md D: "When a generation is full, the previous generation's cards are turned over"."""
    game = _game(finished)
    svg = _read(finished_site, "tree/current.svg")
    for placement in game.table:
        node = re.search(rf'<g id="[^"]+" class="([^"]*)">\s*<title>c{placement.card}</title>',
                         svg)
        assert node is not None
        assert ("turned-over" in html.unescape(node.group(1))) == game.is_turned_over(placement)


def test_d_the_reveal_appears_once_the_game_is_over(finished: Path, finished_site: Path) -> None:
    """RULES.md D: "The highest total wins, and all secret traits are revealed." """
    game = _game(finished)
    assert game.finished
    home = _read(finished_site, "index.html")
    for score in game.scores:
        row = re.search(rf'<tr data-seat="{score.seat}".*?</tr>', home, re.DOTALL)
        assert row is not None
        cells = row.group(0)
        assert game.rules.trait_name(score.trait) in cells
        penalty = f"−{score.penalty}" if score.penalty else "0"  # never "−0"
        assert f">{penalty}<" in cells and f"<strong>{score.score}</strong>" in cells
        assert ("winner" in cells) == (score.seat in game.winners)


# -- secrecy ----------------------------------------------------------------------
def _seat_blocks(site: Path, seat: str) -> list[str]:
    """The markup that describes one seat: its row at home and its player page's facts."""
    home = _read(site, "index.html")
    player = _read(site, f"houses/{seat}/index.html")
    blocks = re.findall(rf'<tr data-seat="{seat}".*?</tr>', home, re.DOTALL)
    blocks += re.findall(rf'<dl class="facts seat-facts" data-seat="{seat}">.*?</dl>', player,
                         re.DOTALL)
    assert len(blocks) == 2
    return blocks


def _trait_shown(game: Familles, trait: str, blocks: list[str]) -> bool:
    look = game.rules.trait(trait)
    return any(mark in block for block in blocks
               for mark in (trait, look.name("en"), look.symbol))


def test_d_secret_traits_stay_out_of_the_seats_until_the_end(
        midgame: Path, midgame_site: Path, finished: Path, finished_site: Path) -> None:
    """RULES.md D: "Hands and secret traits are private until the end." """
    over = _game(finished)
    assert all(_trait_shown(over, s.trait, _seat_blocks(finished_site, s.id))
               for s in over.seats)
    running = _game(midgame)
    assert not running.finished
    for seat in running.seats:
        assert not _trait_shown(running, seat.trait, _seat_blocks(midgame_site, seat.id))


def _cards_named(site: Path) -> set[int]:
    """Every card the site names: card markup, card links and tree nodes."""
    found: set[int] = set()
    for rel, raw in site_files(site).items():
        if rel.endswith((".html", ".svg", ".atom", ".json")):
            text = raw.decode("utf-8")
            found |= {int(c) for c in re.findall(r'data-card="(\d+)"', text)}
            found |= {int(c) for c in re.findall(r"<title>c(\d+)</title>", text)}
            found |= {int(c) for c in re.findall(r"\b(?:card|carte) (\d+)\b", text)}
    return found


def test_d_hands_stay_off_the_site(midgame: Path, midgame_site: Path,
                                   finished_site: Path) -> None:
    """RULES.md D: hands are private; only cards on the table are shown."""
    running = _game(midgame)
    hands = {c for s in running.seats for c in s.hand}
    named = _cards_named(midgame_site)
    assert named == {p.card for p in running.table}
    assert not named & hands
    later = _cards_named(finished_site) & hands
    assert later, "control: the same detector finds hand cards once they are played"


def _scramble(campaign: Path) -> None:
    """Change every secret of the store, and nothing public.

    Secret traits rotate among the seats, each hand swaps with cards of the
    pile, and the private events get other cards and traits.
    """
    def shuffle(data: dict[str, Any]) -> dict[str, Any]:
        game = data.get("extra", {}).get("familles")
        if game:
            seats = game["seats"]
            traits = [s["trait"] for s in seats]
            for seat, trait in zip(seats, traits[1:] + traits[:1], strict=True):
                seat["trait"] = trait
            pile = game["pile"]
            for seat in seats:
                size = len(seat["hand"])
                if size <= len(pile):
                    seat["hand"], pile[:size] = sorted(pile[:size]), seat["hand"]
        return data

    def repack(blob: bytes) -> bytes:
        return zlib.compress(json.dumps(shuffle(json.loads(zlib.decompress(blob))),
                                        sort_keys=True).encode())

    with _db(campaign) as db:
        for number, blob in db.execute("SELECT number, snapshot FROM turns").fetchall():
            db.execute("UPDATE turns SET snapshot = ? WHERE number = ?", (repack(blob), number))
        for row_id, blob in db.execute("SELECT id, initial FROM campaign").fetchall():
            db.execute("UPDATE campaign SET initial = ? WHERE id = ?", (repack(blob), row_id))
        for row_id, payload in db.execute("SELECT id, payload FROM events WHERE public = 0"):
            pl = json.loads(payload)
            pl.update(card={"id": 70, "sex": "F", "traits": ["x"]}, trait="scrambled")
            db.execute("UPDATE events SET payload = ? WHERE id = ?", (json.dumps(pl), row_id))


def _published(campaign: Path, out: Path) -> dict[str, bytes]:
    build_site([campaign], out)
    return {k: v for k, v in site_files(out).items() if not k.rsplit("/", 1)[-1].startswith(".")}


@pytest.mark.parametrize("which", ["midgame", "finished"])
def test_d_no_secret_changes_the_site_before_the_end(which: str, request: pytest.FixtureRequest,
                                                    tmp_path: Path) -> None:
    """RULES.md D: hands and secret traits are private until the end.

    Two stores that differ only in hands, secret traits and private events
    must publish the same bytes while the game runs; once it is over, the
    reveal must make them differ (the control that the scrambling bites).
    """
    original: Path = request.getfixturevalue(which)
    copy = tmp_path / "copy"
    shutil.copytree(original, copy)
    _scramble(copy)
    before = _published(original, tmp_path / "a")
    after = _published(copy, tmp_path / "b")
    if which == "midgame":
        assert before == after
    else:
        assert before != after


def test_d_site_links_resolve_and_rebuild_byte_identical(finished: Path, finished_site: Path,
                                                         tmp_path: Path) -> None:
    """DESIGN.md: building twice gives byte-identical sites; links are relative."""
    root = finished_site.parent
    assert broken_links(root) == []
    shutil.rmtree(finished / ".cache", ignore_errors=True)
    build_site([finished], tmp_path / "again")
    assert site_files(tmp_path / "again") == site_files(root)
    assert [u for rel, raw in site_files(root).items() if rel.endswith(".html")
            for u in unsafe_markup(rel, raw.decode("utf-8"))] == []


def test_d_a_french_game_is_told_in_french(finished: Path, tmp_path: Path) -> None:
    copy = tmp_path / "partie"
    shutil.copytree(finished, copy)
    toml = copy / "campaign.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('language = "en"',
                                                             'language = "fr"'), encoding="utf-8")
    site = _site(copy, tmp_path / "site")
    move = _read(site, "turns/turn-001/index.html")
    assert "Coup 1" in move and re.search(r"(maria|plaça|passa)", move)
    assert "lèvres rouges" in _read(site, "index.html")
    assert "Move 1" not in move


# -- the drawing ------------------------------------------------------------------
def _words() -> TreeWords:
    return TreeWords(title="Tree", generation="Generation %(number)s",
                     fill="%(members)s of %(cap)s", founders="founders: %(members)s",
                     turned_over="turned over", card="card %(card)s",
                     placed="placed by %(player)s on move %(move)s", founder="face up")


def _cards() -> list[TableCard]:
    def card(i: int, sex: str, gen: int, role: str, **kw: Any) -> TableCard:
        return TableCard(id=i, sex=sex, traits=("a", "b", "c"), generation=gen, role=role,
                         parents=kw.get("parents"), spouse=kw.get("spouse"),
                         placed_turn=kw.get("turn", 0), placed_by=kw.get("by"),
                         turned_over=kw.get("over", False))
    return [card(1, "M", 1, "founder", spouse=40, over=True),
            card(40, "F", 1, "spouse", spouse=1, turn=1, by="evil", over=True),
            card(2, "M", 2, "descendant", parents=(1, 40), turn=2, by="evil")]


def test_tree_labels_are_escaped_and_couples_share_a_rank() -> None:
    hostile = '<script>alert("x")</script>&\\N'
    looks = {t: Look(hostile, "#123456", "<b>") for t in ("a", "b", "c")}
    sexes = {"M": Look("man", "#2f6fd0"), "F": Look("woman", "not-a-colour")}
    dot = tree_dot(_cards(), [GenerationFill(1, 1, None, True), GenerationFill(2, 1, 4, False)],
                   looks, sexes, _words(), {"evil": hostile},
                   lambda c: f"../turns/turn-{c.placed_turn:03d}/index.html" if c.placed_by
                   else None, highlight=2)
    assert "{ rank=same; g1; c1; c40; u1_40; }" in dot
    assert "u1_40 -> c2;" in dot and 'class="card new"' in dot
    assert 'class="card turned-over"' in dot and "not-a-colour" not in dot
    svg = render_svg(dot)
    assert "<script" not in svg and "<b>" not in svg
    assert "&lt;script&gt;" in svg
