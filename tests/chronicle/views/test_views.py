"""The views the pages are built from hold only what may be published.

DESIGN.md "Determinism and secrecy": "What never reaches the site: the seed,
the epidemic threshold, unpublished orders and private reports, while the
campaign runs." RULES.md A5.4: "The arbiter holds a **secret** number y";
RULES.md D: "Hands and secret traits are private until the end."

These tests look at the views themselves, not at the pages: everything a
template can reach from what it is given, attribute by public attribute.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import jinja2
import pytest
from markupsafe import Markup

from adjudicator.events import EVENT_KINDS
from adjudicator.state import GameState
from chronicle.play.demo import run_demo
from chronicle.rulesets.blood_royale.views import MapSource
from chronicle.site.build import prepare, summarise
from chronicle.site.pages import SiteContext, campaign_wide
from chronicle.site.plugin import plugin_for
from chronicle.store.file import load_snapshot
from chronicle.views.data import EventView, SiteData, load_campaign

LEAVES = (str, bytes, int, float, bool, type(None), Markup)


def _load(folder: Path) -> SiteContext:
    """The context a build prepares for ``folder`` (its plug-in's tables included)."""
    data = load_campaign(folder, table=plugin_for(summarise(folder).ruleset).table)
    return prepare(data)


@pytest.fixture(scope="module")
def running_royale(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Blood Royale after three turns: the threshold is drawn, the campaign runs."""
    return run_demo(ruleset="blood-royale", turns=3, seed="views", quiet=True, site=None,
                    out=tmp_path_factory.mktemp("royale") / "royale")


@pytest.fixture(scope="module")
def running_familles(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The card game after ten moves: every hand and secret trait is still private."""
    return run_demo(ruleset="familles", turns=10, seed="views", quiet=True, site=None,
                    out=tmp_path_factory.mktemp("familles") / "familles")


def _final_state(folder: Path) -> GameState:
    with sqlite3.connect(folder / "chronicle.sqlite") as db:
        (blob,) = db.execute("SELECT snapshot FROM turns ORDER BY number DESC").fetchone()
    return load_snapshot(blob)


def reachable(root: object) -> Iterator[tuple[str, object]]:
    """Every (attribute name, value) a template can reach from ``root``.

    Public attributes only (properties included, methods not called), as the
    sandboxed template environment allows; a turn's map is followed through
    ``view()``, the one way to it.
    """
    seen: set[int] = set()
    stack: list[tuple[str, object]] = [("root", root)]
    while stack:
        name, obj = stack.pop()
        yield name, obj
        if isinstance(obj, (*LEAVES, type)) or id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, Mapping):
            stack += [(str(k), v) for k, v in obj.items()] + [(name, k) for k in obj]
        elif isinstance(obj, list | tuple | set | frozenset):
            stack += [(name, v) for v in obj]
        elif isinstance(obj, MapSource):
            stack.append(("map", obj.view()))
        elif not isinstance(obj, jinja2.Environment):
            for attribute in dir(obj):
                if not attribute.startswith("_"):
                    value = getattr(obj, attribute)
                    if not callable(value) or isinstance(value, Mapping):
                        stack.append((attribute, value))


@pytest.mark.parametrize("campaign", ["running_royale", "running_familles"])
def test_a_running_campaign_s_views_hold_no_state_no_snapshot_and_no_private_event(
        campaign: str, request: pytest.FixtureRequest) -> None:
    folder: Path = request.getfixturevalue(campaign)
    with sqlite3.connect(folder / "chronicle.sqlite") as db:
        private = db.execute("SELECT count(*) FROM events WHERE public = 0").fetchone()[0]
    ctx = _load(folder)
    found = list(reachable(campaign_wide(ctx, "")))
    assert len(found) > 1000  # the walk went through the views, not around them
    assert not [name for name, value in found if isinstance(value, GameState | bytes)]
    kinds = {value.kind for _name, value in found if isinstance(value, EventView)}
    assert kinds and all(EVENT_KINDS[kind].public for kind in kinds)
    # A control: the store does hold private events (a notice, a card drawn).
    assert private > 0 or campaign == "running_royale"


def test_a5_4_the_epidemic_threshold_is_nowhere_in_the_views_while_the_campaign_runs(
        running_royale: Path) -> None:
    """RULES.md A5.4: "The arbiter holds a **secret** number y"."""
    assert _final_state(running_royale).epidemic_threshold is not None  # there is one to hide
    found = reachable(campaign_wide(_load(running_royale), ""))
    assert [(name, value) for name, value in found
            if "threshold" in name and value not in (None, ())] == []


def test_d_no_hand_and_no_secret_trait_is_in_the_views_before_the_end(
        running_familles: Path) -> None:
    """RULES.md D: "Hands and secret traits are private until the end."."""
    state = _final_state(running_familles)
    assert not state.finished and state.ruleset_data  # the hands and traits are in the state
    found = list(reachable(campaign_wide(_load(running_familles), "")))
    assert [value for name, value in found if name in {"trait", "score", "penalty"}
            and value is not None] == []
    hands = [value for name, value in found if name == "hand"]
    assert hands and all(isinstance(size, int) for size in hands)  # a count, not the cards


SECRET_PATHS = [
    "data.final.extra",                                  # the state, as pages once had it
    "data.turns[-1].state()",
    "data.turns[-1].snapshot",
    "data.turns[-1].map._snapshot",                      # private: refused by the sandbox
    "data.turns[-1].map.__class__",
    "data.__class__.__init__.__globals__",               # the way out to the whole program
    "say.__closure__",
    "campaign.folder._path",                             # secrets.toml lies there
    "campaign.folder.joinpath('secrets.toml').read_text()",
    "ctx.data",
]


@pytest.mark.parametrize("path", SECRET_PATHS)
def test_a_theme_template_reaching_for_a_secret_finds_nothing_to_print(
        running_royale: Path, path: str) -> None:
    ctx = _load(running_royale)
    env = ctx.env
    values: dict[str, Any] = {**campaign_wide(ctx, ""),
                              "say": lambda event: ctx.narrator.sentence(event, "")}
    with pytest.raises(jinja2.TemplateRuntimeError):
        env.from_string("{{ " + path + " }}").render(values)


def test_a_theme_template_reaches_every_public_view(running_royale: Path) -> None:
    """The control of the test above: the same template prints what is public."""
    ctx = _load(running_royale)
    source = ("{{ campaign.title }}|{{ data.turns[-1].map.view().provinces | length }}|"
              "{{ data.people | length }}|{{ campaign.epidemic_threshold }}")
    title, provinces, people, threshold = ctx.env.from_string(source).render(
        campaign_wide(ctx, "")).split("|")
    assert title == ctx.data.campaign.title and int(provinces) > 10 and int(people) > 10
    assert threshold == "None"


def test_the_views_of_a_load_are_frozen_where_pages_share_them(running_royale: Path) -> None:
    """A page cannot change the board another page draws."""
    import dataclasses

    data: SiteData = _load(running_royale).data
    assert data.turns[-1].map is not None
    board = data.turns[-1].map.view()
    with pytest.raises(dataclasses.FrozenInstanceError):
        board.provinces[0].controller = "someone"  # type: ignore[misc]
