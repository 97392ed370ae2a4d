"""Issue 18 item 5: "The state of the realms at every turn. Each turn page shows, as
of that turn: each house's ruler, its first three heirs, its treasury and its living
members. An archivist can then read any turn without replaying it."

The views are read from each turn's stored snapshot; the expected values here
come from the store's state at that turn and the engine's own line of
succession (RULES.md A3: "plain ASCII order of the numbers is exactly the
order of succession").
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from adjudicator.dynastic.refs import line_of_succession
from chronicle.site import build_site
from chronicle.store.turns import Store
from chronicle.views.data import SiteData, load_campaign


@pytest.fixture(scope="module")
def campaign(wars_copy: Path) -> Path:
    return wars_copy


@pytest.fixture(scope="module")
def data(campaign: Path) -> SiteData:
    return load_campaign(campaign)


def test_each_turn_holds_the_realms_as_they_stood_then(campaign: Path,
                                                        data: SiteData) -> None:
    store = Store.open(campaign / "chronicle.sqlite")
    try:
        changed = set()
        for turn in data.turns:
            state = store.state(turn.number)
            assert [r.house for r in turn.realms] == sorted(state.houses)
            for realm in turn.realms:
                house = state.houses[realm.house]
                line = [p.id for p in line_of_succession(state, house.id, limit=100)]
                assert realm.ruler == house.ruler
                assert list(realm.heirs) == [p for p in line if p != house.ruler][:3]
                assert realm.treasury == house.treasury
                assert realm.living == len([p for p in state.living()
                                            if house.id in p.refs or p.dynasty == house.id])
                changed.add((realm.house, realm.living, realm.heirs))
        assert any(len(realm.heirs) >= 2 for t in data.turns for realm in t.realms)
        # The realms change from turn to turn: each turn shows its own, not the last.
        assert len(changed) > len(data.turns[0].realms)
    finally:
        store.close()


def test_the_turn_page_shows_them(campaign: Path, data: SiteData, tmp_path: Path) -> None:
    build_site([campaign], tmp_path)
    turn = data.turns[2]
    page = (tmp_path / "fixture-wars/turns/turn-003/index.html").read_text(encoding="utf-8")
    section = page[page.index('<section aria-labelledby="realms-at-end">'):]
    section = section[:section.index("</section>")]
    rows = re.findall(r"<tr><th scope=\"row\">(.*?)</tr>", section, re.S)
    assert len(rows) == len(turn.realms)
    for row, realm in zip(rows, turn.realms, strict=True):
        text = html.unescape(re.sub(r"<[^>]+>", " ", row))
        assert data.houses[realm.house].name in text
        if realm.ruler:
            assert f"people/{data.people[realm.ruler].slug}/index.html" in row
        for heir in realm.heirs:
            assert f"people/{data.people[heir].slug}/index.html" in row
        assert f"{realm.treasury} crowns" in text
        assert re.search(rf"\b{realm.living}\s*$", text.strip())
