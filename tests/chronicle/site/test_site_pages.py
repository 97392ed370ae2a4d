"""Page builders with a fake writer, and hostile input through every page."""

from __future__ import annotations

import pytest
from site_fixture import build_fixture, unsafe_markup

from chronicle.rulesets.blood_royale.site import build_battles
from chronicle.site.build import prepare
from chronicle.site.pages import (
    build_home,
    build_houses,
    build_people,
    build_turns,
    sanitise_markdown,
)
from chronicle.site.plugin import plugin_of
from chronicle.views.data import SiteData, load_campaign

XSS = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "';alert(1);//",
    "<svg onload=alert(1)>",
    "javascript:alert(1)",
    "<a href='javascript:alert(1)'>x</a>",
    "{{ 7*7 }}{% raw %}",
    "<iframe src=//evil.example>",
    "&lt;script&gt;alert(1)&lt;/script&gt;",
    "<body onload=alert(1)>",
    "]]><script>alert(1)</script>",
    '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
]


class FakeWriter:
    def __init__(self) -> None:
        self.pages: dict[str, str] = {}

    def __call__(self, path: str, text: str) -> None:
        assert path not in self.pages, path
        self.pages[path] = text


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> SiteData:
    return load_campaign(build_fixture(tmp_path_factory.mktemp("c") / "fixture-wars", turns=5))


def test_home_names_every_ruler_and_the_latest_turn(data: SiteData) -> None:
    write = FakeWriter()
    build_home(prepare(data), write)
    page = write.pages["fixture-wars/index.html"]
    for house in data.houses.values():
        if house.ruler:
            assert f"people/{data.people[house.ruler].slug}/index.html" in page
    assert f"turns/turn-{data.turns[-1].number:03d}/index.html" in page


def test_one_chronicle_and_one_dice_page_per_turn(data: SiteData) -> None:
    write = FakeWriter()
    build_turns(prepare(data), write)
    for turn in data.turns:
        assert f"fixture-wars/turns/turn-{turn.number:03d}/index.html" in write.pages
        assert f"fixture-wars/dice/turn-{turn.number:03d}/index.html" in write.pages
    dice = write.pages["fixture-wars/dice/turn-001/index.html"]
    assert dice.count("<tr>") == len(data.turns[0].rolls) + 1


def test_house_page_gives_the_order_of_succession_with_numbers(data: SiteData) -> None:
    write = FakeWriter()
    build_houses(prepare(data), write)
    for house in data.houses.values():
        page = write.pages[f"fixture-wars/houses/{house.slug}/index.html"]
        for _pid, ref in house.succession:
            assert f"<code>{ref}</code>" in page
        diagrams = prepare(data).genealogies.get(house.id, [])
        assert diagrams and f'data="../../{diagrams[0][0]}"' in page


def test_a_large_house_embeds_its_trunk_and_lists_its_branches(data: SiteData) -> None:
    """A dynasty split into many diagrams: one picture on the page, the branches as
    links named by the person each starts from (not dozens of embedded pictures)."""
    ctx = prepare(data)
    ctx.genealogies["england"] = [("genealogy/england.svg", "England"),
                                  ("genealogy/england-2.svg", "England: Edward (E1100)"),
                                  ("genealogy/england-3.svg", "England: <b>Joan</b> (E1200)")]
    write = FakeWriter()
    build_houses(ctx, write)
    page = write.pages["fixture-wars/houses/england/index.html"]
    assert page.count("<object") == 1 and 'data="../../genealogy/england.svg"' in page
    # Issue 16: a branch opens as its own page, the drawing at 100 % in its frame.
    assert '<a href="../../genealogy/england-2.html">England: Edward (E1100)</a>' in page
    assert "England: &lt;b&gt;Joan&lt;/b&gt; (E1200)" in page


def test_character_page_links_parents_spouses_and_children(data: SiteData) -> None:
    write = FakeWriter()
    build_people(prepare(data), write)
    assert len(write.pages) == len(data.people) + 1
    for person in data.people.values():
        page = write.pages[f"fixture-wars/people/{person.slug}/index.html"]
        for other in (person.father, person.mother, *person.spouses, *person.children):
            if other:
                assert f"../../people/{data.people[other].slug}/index.html" in page


def test_battle_page_gives_rounds_dice_and_losses(data: SiteData) -> None:
    write = FakeWriter()
    build_battles(prepare(data), write)
    page = write.pages["fixture-wars/battles/b-2-1/index.html"]
    assert "Round 2" in page and "preliminary bonus +1" in page
    assert "inflicted 2 losses" in page and "fled to guyenne" in page


@pytest.mark.parametrize("payload", XSS)
def test_xss_corpus_through_names_and_commentary(data: SiteData, payload: str) -> None:
    people = list(data.people.values())
    saved = [(p, p.name) for p in people]
    house = next(iter(data.houses.values()))
    saved_house, saved_comment = house.name, data.turns[0].commentary
    battle = next(iter(data.battles.values()))
    saved_province = battle.province
    try:
        for person in people:
            person.name = payload + person.name
        house.name = payload
        battle.province = payload
        data.turns[0].commentary = f"{payload}\n\n[x]({payload}) <{payload}>\n"
        write = FakeWriter()
        ctx = prepare(data)
        for builder in plugin_of(data).builders:
            builder(ctx, write)
        found = [u for name, text in write.pages.items() if name.endswith((".html", ".svg"))
                 for u in unsafe_markup(name, text)]
        assert found == []
    finally:
        for person, name in saved:
            person.name = name
        house.name, data.turns[0].commentary = saved_house, saved_comment
        battle.province = saved_province


@pytest.mark.parametrize("payload", XSS)
def test_commentary_is_sanitised(payload: str) -> None:
    html = str(sanitise_markdown(f"# Title\n\n{payload}\n\n[a]({payload})"))
    assert unsafe_markup("commentary", html) == []
    assert "<h3>Title</h3>" in html


def test_the_feed_holds_the_latest_turns_newest_first(data: SiteData,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A reader polls the feed for news: the latest turns only, the site keeps the rest."""
    from chronicle.site import feeds

    monkeypatch.setattr(feeds, "FEED_TURNS", 3)
    write = FakeWriter()
    feeds.build_feed(prepare(data), write)
    feed = write.pages["fixture-wars/feed.atom"]
    numbers = [t.number for t in data.turns]
    assert len(numbers) > 3
    entries = [f"urn:chronicle:fixture-wars:turn:{n}</id>" for n in reversed(numbers[-3:])]
    assert feed.count("<entry>") == 3
    positions = [feed.index(entry) for entry in entries]
    assert positions == sorted(positions)
    assert f"urn:chronicle:fixture-wars:turn:{numbers[-4]}</id>" not in feed
