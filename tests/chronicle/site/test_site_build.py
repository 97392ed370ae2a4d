"""Whole-site checks on the fixture campaign (DESIGN.md: determinism and secrecy).

The fixture plants secrets (seed, secret rolls, private notices, order files,
rejections) and hostile input (a name and a commentary file); the published
site must show every person and number, and none of the secrets or scripts.
"""

from __future__ import annotations

import html
import json
import os
import shutil
from pathlib import Path

import pytest
from golden_files import GOLDEN, check_text
from site_fixture import (
    HOSTILE_NAME,
    SECRET_ORDER_TEXT,
    SECRET_REJECTION,
    SEED,
    broken_links,
    build_fixture,
    site_files,
    unsafe_markup,
)

from chronicle.errors import PublishError
from chronicle.site import build_site
from chronicle.views.data import Lineage, load_campaign

GOLDEN_PAGES = ("fixture-wars/battles/b-2-1/index.html", "fixture-wars/wealth/index.html")


@pytest.fixture(scope="module")
def campaign(wars_copy: Path) -> Path:
    return wars_copy


@pytest.fixture(scope="module")
def site(campaign: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    build_site([campaign], out)
    return out


def _texts(site: Path) -> dict[str, str]:
    return {k: v.decode("utf-8") for k, v in site_files(site).items()
            if not k.endswith((".ico", ".png"))}


def test_every_internal_link_resolves(site: Path) -> None:
    assert broken_links(site) == []


def test_every_person_and_reference_number_is_published(campaign: Path, site: Path) -> None:
    data = load_campaign(campaign)
    index = (site / "fixture-wars/people/index.html").read_text(encoding="utf-8")
    text = html.unescape(index)
    for person in data.people.values():
        assert person.name in text
        assert (site / f"fixture-wars/people/{person.slug}/index.html").is_file()
        for _dynasty, ref, _gone in person.all_refs:
            assert ref in text
    assert HOSTILE_NAME in text


def test_battle_provinces_and_final_treasuries_appear(campaign: Path, site: Path) -> None:
    data = load_campaign(campaign)
    for battle in data.battles.values():
        page = (site / f"fixture-wars/battles/{battle.slug}/index.html").read_text(
            encoding="utf-8")
        assert battle.province and battle.province in page
    assert "gascony" in (site / "fixture-wars/turns/turn-002/index.html").read_text(
        encoding="utf-8")
    wealth = (site / "fixture-wars/wealth/index.html").read_text(encoding="utf-8")
    for house in data.houses.values():
        assert f'<td class="num">{house.treasury}</td>' in wealth
    last = [row for row in data.wealth if row.turn == data.turns[-1].number]
    for row in last:
        assert f'<td class="num">{row.treasury}</td>' in wealth


def test_b7_the_wealth_page_gives_every_turn_s_standings(site: Path, campaign: Path) -> None:
    """B7 "Wealth standings: treasuries, the goods in each capital and the value of the
    best cash-in, per turn": one row per house and turn, the best cash-in last."""
    data = load_campaign(campaign)
    wealth = (site / "fixture-wars/wealth/index.html").read_text(encoding="utf-8")
    body = wealth[wealth.index('id="history"'):wealth.index('id="cashins"')]
    goods = sorted({g for row in data.wealth for g in row.goods})
    for row in data.wealth:
        cells = "".join(f'<td class="num">{n}</td>' for n in (
            row.treasury, *(row.goods.get(g, 0) for g in goods), row.best_cash_in))
        assert cells + "</tr>" in body, (row.turn, row.house)


def test_no_secret_reaches_the_site(site: Path) -> None:
    for name, text in _texts(site).items():
        for secret in (SEED, "SECRET-ROLL-PURPOSE", "SECRET-NOTICE", SECRET_REJECTION,
                       SECRET_ORDER_TEXT.splitlines()[1], "epidemic threshold",
                       "epidemic_threshold"):
            assert secret not in text, (name, secret)


def test_no_script_injection_anywhere(site: Path) -> None:
    found = []
    for name, text in _texts(site).items():
        if name.endswith((".html", ".svg", ".atom", ".xml")):
            found += unsafe_markup(name, text)
    assert found == []
    turn = (site / "fixture-wars/turns/turn-001/index.html").read_text(encoding="utf-8")
    assert "<em>fine</em>" in turn and "https://example.org/" in turn
    assert "alert(" not in turn.replace("&lt;script&gt;alert(&#34;name&#34;)", "")


def test_search_index_lists_names_and_numbers(campaign: Path, site: Path) -> None:
    """Issue 19, item 5: "Search over everything: people (case-sensitive reference
    numbers), houses, provinces, battles and turns", loadable "as a script"."""
    text = (site / "fixture-wars/search-index.js").read_text(encoding="utf-8")
    prefix = "window.chronicleSearchIndex = "
    assert text.startswith(prefix) and text.endswith(";\n")
    entries = json.loads(text[len(prefix):-2])
    data = load_campaign(campaign)
    people = [e for e in entries if e[0] == 0]
    assert {p.name for p in data.people.values()} == {e[1] for e in people}
    assert {r for p in data.people.values() for _d, r, _x in p.all_refs} == {
        r for e in people for r in str(e[2]).split()}
    assert {e[1] for e in entries if e[0] == 1} == {h.name for h in data.houses.values()}
    assert len([e for e in entries if e[0] == 3]) == len(data.battles) > 0
    assert len([e for e in entries if e[0] == 4]) == len(data.turns)
    for kind, _name, _refs, _extra, page in entries:
        path = f"people/{page}/index.html" if kind == 0 else str(page)
        assert (site / "fixture-wars" / path).is_file(), path


def test_feed_and_no_sitemap_without_a_base_url(site: Path) -> None:
    """Issue 18 item 6: "A sitemap only with --base-url, because relative <loc>s are
    invalid." (The feed itself is read by a real parser in test_feeds.py.)"""
    feed = (site / "fixture-wars/feed.atom").read_text(encoding="utf-8")
    assert feed.count("<entry>") == 6
    assert not (site / "sitemap.xml").exists()


def test_a_rebuild_is_byte_identical(campaign: Path, site: Path, tmp_path: Path) -> None:
    build_site([campaign], tmp_path / "again")
    assert site_files(tmp_path / "again") == site_files(site)


def test_a_copy_of_the_campaign_elsewhere_builds_the_same_bytes(
        campaign: Path, site: Path, tmp_path: Path) -> None:
    """Nothing of the machine reaches the site: not even the manifest's fingerprints."""
    copy = shutil.copytree(campaign, tmp_path / "elsewhere" / "fixture-wars")
    build_site([copy], tmp_path / "site")
    assert site_files(tmp_path / "site") == site_files(site)


def test_an_unchanged_rebuild_writes_nothing(campaign: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    first = build_site([campaign], out)
    again = build_site([campaign], out)
    assert again.changed == [] and again.removed == []
    assert again.reused == ["fixture-wars"]
    assert again.files == first.files
    (out / "fixture-wars/index.html").unlink()
    repaired = build_site([campaign], out)
    assert repaired.reused == [] and repaired.changed == ["fixture-wars/index.html"]


def test_an_unchanged_campaign_is_recognised_without_opening_its_store(
        campaign: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Speed: a no-change rebuild knows an archived campaign by its fingerprint, and
    takes its summary (for the archive's index) from the last build's manifest; a
    campaign that changed is read again, and a manifest without the summary is not
    trusted."""
    import chronicle.site.build as publish
    from chronicle.site.writer import MANIFEST

    other = build_fixture(tmp_path / "other", turns=2, slug="second-war", language="fr")
    out = tmp_path / "site"
    build_site([campaign, other], out)
    first = site_files(out)
    read = []
    real = publish.summarise

    def summarise(folder: Path) -> object:
        read.append(folder.name)
        return real(folder)

    monkeypatch.setattr(publish, "summarise", summarise)
    again = build_site([campaign, other], out)
    assert read == [] and again.reused == ["fixture-wars", "second-war"]
    assert again.changed == [] and site_files(out) == first
    (other / "commentary").mkdir(exist_ok=True)
    (other / "commentary" / "turn-001.md").write_text("Hear ye.\n", encoding="utf-8")
    changed = build_site([campaign, other], out)
    assert read == ["other"] and changed.reused == ["fixture-wars"]
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    del manifest["facts"]["fixture-wars"]["year"]
    (out / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    read.clear()
    repaired = build_site([campaign, other], out)
    assert read == ["fixture-wars"] and repaired.reused == ["second-war"]
    assert repaired.changed == []


def test_a_new_commentary_rebuilds_only_its_page(campaign: Path, tmp_path: Path) -> None:
    copy = shutil.copytree(campaign, tmp_path / "fixture-wars")
    out = tmp_path / "site"
    build_site([copy], out)
    (copy / "commentary/turn-002.md").write_text("A *second* word.\n", encoding="utf-8")
    report = build_site([copy], out)
    assert report.changed == ["fixture-wars/turns/turn-002/index.html"]


def test_two_campaigns_form_one_archive(campaign: Path, tmp_path: Path) -> None:
    other = build_fixture(tmp_path / "other", turns=2, slug="second-war", language="fr")
    out = tmp_path / "site"
    build_site([campaign, other], out)
    index = (out / "index.html").read_text(encoding="utf-8")
    assert 'href="fixture-wars/index.html"' in index and 'href="second-war/index.html"' in index
    assert broken_links(out) == []


@pytest.mark.parametrize("page", GOLDEN_PAGES)
def test_golden_pages(site: Path, page: str) -> None:
    """A reference copy of two pages whose content the fixture fixes exactly."""
    check_text(GOLDEN / page, (site / page).read_text(encoding="utf-8"))


def test_a_campaign_overrides_templates_and_static_files(campaign: Path, tmp_path: Path) -> None:
    """Layered themes: campaign overrides, then the chosen theme, then the base theme."""
    copy = shutil.copytree(campaign, tmp_path / "fixture-wars")
    (copy / "theme/templates").mkdir(parents=True)
    (copy / "theme/static").mkdir()
    (copy / "theme/templates/battles.html").write_text(
        '{% extends "base.html" %}{% block content %}<p>Our own battles page</p>{% endblock %}',
        encoding="utf-8")
    (copy / "theme/static/style.css").write_text("body { color: black; }\n", encoding="utf-8")
    out = tmp_path / "site"
    build_site([copy], out)
    assert "Our own battles page" in (out / "fixture-wars/battles/index.html").read_text(
        encoding="utf-8")
    assert (out / "fixture-wars/static/style.css").read_text(encoding="utf-8") == \
        "body { color: black; }\n"
    assert (out / "fixture-wars/static/search.js").is_file()
    assert "Our own" not in (out / "fixture-wars/index.html").read_text(encoding="utf-8")


def test_a_campaign_overrides_the_masthead_every_page_shares(campaign: Path,
                                                           tmp_path: Path) -> None:
    """The masthead is rendered once per folder depth (``fragment``); an override still
    reaches every page, with links right for that depth."""
    copy = shutil.copytree(campaign, tmp_path / "fixture-wars")
    (copy / "theme/templates").mkdir(parents=True)
    (copy / "theme/templates/masthead.html").write_text(
        '<p class="ours"><a href="{{ root }}houses/index.html">Our houses</a></p>\n',
        encoding="utf-8")
    out = tmp_path / "site"
    build_site([copy], out)
    home = (out / "fixture-wars/index.html").read_text(encoding="utf-8")
    person = next((out / "fixture-wars/people").glob("*/index.html")).read_text(
        encoding="utf-8")
    assert '<a href="houses/index.html">Our houses</a>' in home
    assert '<a href="../../houses/index.html">Our houses</a>' in person
    assert broken_links(out) == []


def test_the_seed_is_published_once_revealed(campaign: Path, tmp_path: Path) -> None:
    """DESIGN.md: the seed is revealed in the archive when the campaign ends."""
    import sqlite3

    copy = shutil.copytree(campaign, tmp_path / "fixture-wars")
    with sqlite3.connect(copy / "chronicle.sqlite") as db:
        db.execute("update campaign set seed_revealed = ?", (SEED,))
    build_site([copy], tmp_path / "site")
    home = (tmp_path / "site/fixture-wars/index.html").read_text(encoding="utf-8")
    assert f"<code>{SEED}</code>" in home


def test_drawings_no_build_uses_are_pruned_from_the_cache(campaign: Path, tmp_path: Path) -> None:
    """A genealogy cached for a state that is gone (a turn rolled back) is dropped."""
    copy = shutil.copytree(campaign, tmp_path / "fixture-wars")
    build_site([copy], tmp_path / "site")
    graphviz = copy / ".cache/graphviz"
    used = sorted(p.name for p in graphviz.iterdir())
    assert used
    long_ago = 1_000_000_000  # 2001: older than any build
    stale = graphviz / ("0" * 64 + ".svg")
    stale.write_text("<svg/>", encoding="utf-8")
    half_written = graphviz / ".tmp-abc.svg"
    half_written.write_text("<svg", encoding="utf-8")
    notes = graphviz / "README"
    notes.write_text("the arbiter's own file\n", encoding="utf-8")
    for path in graphviz.iterdir():
        os.utime(path, (long_ago, long_ago))
    (copy / "commentary/turn-002.md").write_text("Changed.\n", encoding="utf-8")
    build_site([copy], tmp_path / "site")
    assert not stale.exists() and not half_written.exists()
    assert notes.exists()  # not an entry: never the cache's to remove
    # Entries the build read from the cache were touched, so they stay.
    assert sorted(p.name for p in graphviz.iterdir() if p != notes) == used


def test_an_unchanged_rebuild_prunes_nothing(campaign: Path, tmp_path: Path) -> None:
    copy = shutil.copytree(campaign, tmp_path / "fixture-wars")
    build_site([copy], tmp_path / "site")
    stale = copy / ".cache/graphviz" / ("f" * 64 + ".svg")
    stale.write_text("<svg/>", encoding="utf-8")
    os.utime(stale, (1_000_000_000, 1_000_000_000))
    assert build_site([copy], tmp_path / "site").reused == ["fixture-wars"]
    assert stale.exists()


def test_a_campaign_whose_cache_cannot_be_written_still_builds(
        campaign: Path, site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An archivist's read-only copy: the drawing cache only saves time."""
    copy = shutil.copytree(campaign, tmp_path / "fixture-wars")
    shutil.rmtree(copy / ".cache", ignore_errors=True)

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise PermissionError("read-only file system")

    monkeypatch.setattr("chronicle.site.incremental.cache.tempfile.mkstemp", refuse)
    build_site([copy], tmp_path / "site")
    assert site_files(tmp_path / "site") == site_files(site)
    assert not (copy / ".cache/graphviz").exists() or not any((copy / ".cache/graphviz").iterdir())


def test_an_unreadable_cache_entry_is_drawn_again(campaign: Path, site: Path,
                                                  tmp_path: Path) -> None:
    copy = shutil.copytree(campaign, tmp_path / "fixture-wars")
    build_site([copy], tmp_path / "first")
    for entry in (copy / ".cache/graphviz").iterdir():
        entry.write_bytes(b"\xff\xfe not text")
    (copy / "commentary/turn-002.md").write_text("Changed.\n", encoding="utf-8")
    build_site([copy], tmp_path / "site")
    drawn = sorted((tmp_path / "site/fixture-wars/genealogy").iterdir())
    assert drawn and all(p.read_bytes() == (site / "fixture-wars/genealogy" / p.name).read_bytes()
                         for p in drawn)


def test_a_build_leaves_no_cycle_holding_the_campaign(campaign: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Performance: a campaign's views are freed when its build ends, not at the next
    full garbage collection (which would cost the next build, or the exit, a pause)."""
    import gc
    import weakref

    import chronicle.site.build as publish

    seen: list[weakref.ref[object]] = []
    prepare = publish.prepare

    def watched(*args: object, **kwargs: object) -> object:
        ctx = prepare(*args, **kwargs)  # type: ignore[arg-type]
        seen.append(weakref.ref(ctx))
        return ctx

    monkeypatch.setattr(publish, "prepare", watched)
    gc.collect()
    gc.disable()
    try:
        build_site([campaign], tmp_path / "site")
        assert seen and seen[0]() is None
    finally:
        gc.enable()


def test_a_cache_linked_out_of_the_campaign_is_not_used(campaign: Path, site: Path,
                                                        tmp_path: Path) -> None:
    """DESIGN.md security: no path leaves the campaign or output folder. A campaign
    received whole may carry a link as its cache; the build neither writes nor prunes
    through it, and publishes the same site without a cache."""
    copy = shutil.copytree(campaign, tmp_path / "fixture-wars")
    shutil.rmtree(copy / ".cache", ignore_errors=True)
    outside = tmp_path / "elsewhere"
    (outside / "graphviz").mkdir(parents=True)
    victim = outside / "graphviz" / ("a" * 64 + ".svg")
    victim.write_text("someone else's file\n", encoding="utf-8")
    os.utime(victim, (1_000_000_000, 1_000_000_000))
    (copy / ".cache").symlink_to(outside, target_is_directory=True)
    build_site([copy], tmp_path / "site")
    assert sorted(p.name for p in (outside / "graphviz").iterdir()) == [victim.name]
    assert not (outside / "maps").exists()
    assert site_files(tmp_path / "site") == site_files(site)


def test_a_cache_entry_planted_as_a_link_is_not_published(campaign: Path, site: Path,
                                                          tmp_path: Path) -> None:
    """DESIGN.md security: an entry of the drawing cache that is a link (to a file of
    the machine that builds) is drawn again, never read through."""
    copy = shutil.copytree(campaign, tmp_path / "fixture-wars")
    secret = tmp_path / "private.txt"
    secret.write_text("TOP-SECRET-LOCAL-FILE", encoding="utf-8")
    entries = sorted((copy / ".cache/graphviz").iterdir())
    assert entries
    for entry in entries:
        entry.unlink()
        entry.symlink_to(secret)
    build_site([copy], tmp_path / "site")
    published = site_files(tmp_path / "site")
    assert not any(b"TOP-SECRET-LOCAL-FILE" in data for data in published.values())
    assert published == site_files(site)
    assert secret.read_text(encoding="utf-8") == "TOP-SECRET-LOCAL-FILE"  # replaced, not written
    assert not any(entry.is_symlink() for entry in entries)


def test_the_people_are_known_before_the_events_are_read(campaign: Path) -> None:
    """Performance: the genealogies start from ``Lineage`` while the events load; it
    holds the same people and houses the pages then get, their lives added later."""
    seen = []

    def early(lineage: Lineage) -> None:
        seen.append((lineage, {pid: list(p.timeline) for pid, p in lineage.people.items()}))

    data = load_campaign(campaign, on_lineage=early)
    [(lineage, timelines)] = seen
    assert lineage.people is data.people and lineage.houses is data.houses
    assert lineage.campaign == data.campaign and lineage.marriages is data.marriages
    assert not any(timelines.values())
    assert any(p.timeline for p in data.people.values())
    assert any(p.death_detail for p in data.people.values())


def _delete_the_events(campaign: Path) -> str:
    """Another command's turn, in short: "committed", or why SQLite refused it."""
    import sqlite3

    other = sqlite3.connect(campaign / "chronicle.sqlite", timeout=0.05)
    try:
        other.execute("DELETE FROM events")
        other.commit()
        return "committed"
    except sqlite3.OperationalError as err:
        return str(err)
    finally:
        other.close()


def test_a_load_reads_one_state_of_the_store(campaign: Path, tmp_path: Path) -> None:
    """DESIGN.md: a turn is one transaction, so a site shows the store before it or
    after it, never half of each: a turn committed while the load reads (here, between
    the people and the events) is not seen, or waits until the load is done."""
    copy = shutil.copytree(campaign, tmp_path / "fixture-wars")
    outcome = []

    def commit_meanwhile(_lineage: object = None) -> None:
        outcome.append(_delete_the_events(copy))

    data = load_campaign(copy, on_lineage=commit_meanwhile)
    assert outcome == ["database is locked"]
    expected = load_campaign(campaign)
    assert [e for t in data.turns for e in t.events] == \
        [e for t in expected.turns for e in t.events] != []
    commit_meanwhile()  # the load is over: nothing holds the store any more
    assert outcome[-1] == "committed"


def test_the_fingerprint_is_taken_while_the_store_is_held_still(
        campaign: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fingerprint a build records runs alongside the load, inside its read
    transaction: no turn can be committed meanwhile, so it is of the state published;
    and its errors are not lost."""
    import chronicle.site.build as publish

    copy = shutil.copytree(campaign, tmp_path / "fixture-wars")
    seen = []
    real = publish.fingerprint

    def fingerprint_trying_to_commit(*args: object) -> str:
        seen.append(_delete_the_events(copy))
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(publish, "fingerprint", fingerprint_trying_to_commit)
    build_site([copy], tmp_path / "site")
    assert seen == ["database is locked"]

    def broken(*_args: object) -> str:
        raise PublishError("cannot read the theme")

    monkeypatch.setattr(publish, "fingerprint", broken)
    with pytest.raises(PublishError, match="cannot read the theme"):
        build_site([copy], tmp_path / "site-2")


def test_a_load_that_fails_stops_the_early_layouts(campaign: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A build that fails after the genealogies started leaves no worker behind."""
    from site_fixture import no_child_processes

    from chronicle.site import genealogy

    monkeypatch.setattr(genealogy, "PARALLEL_FROM", 1)
    copy = tmp_path / "fixture-wars"
    shutil.copytree(campaign, copy)
    (copy / "commentary").mkdir(exist_ok=True)
    (copy / "commentary" / "turn-002.md").write_bytes(b"caf\xe9")
    with pytest.raises(PublishError, match=r"turn-002\.md"):
        build_site([copy], tmp_path / "site")
    assert no_child_processes()
