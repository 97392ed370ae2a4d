"""Issue 18 item 6: "Feed and sitemap as their readers expect."

"Entries dated by when each turn was adjudicated (stored in the store, so builds
stay byte-identical), and rel="self". A sitemap only with --base-url, because
relative <loc>s are invalid." The feed is read by a real feed parser
(feedparser), the sitemap by the standard library's XML parser.
"""

from __future__ import annotations

import calendar
import shutil
import sqlite3
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import feedparser
import pytest
from site_fixture import adjudicated, site_files

from chronicle.site import build_site

BASE = "https://chronicle.example.org/archive/"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


@pytest.fixture(scope="module")
def campaign(wars_copy: Path) -> Path:
    return wars_copy


@pytest.fixture(scope="module")
def site(campaign: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    build_site([campaign], out, base_url=BASE)
    return out


def _epoch(stamp: str) -> int:
    return calendar.timegm(time.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ"))


def test_a_feed_parser_reads_the_feed_whole(site: Path) -> None:
    parsed = feedparser.parse((site / "fixture-wars/feed.atom").read_bytes())
    assert not parsed.bozo, parsed.get("bozo_exception")
    assert parsed.version == "atom10"
    assert parsed.feed.title == "The Fixture Wars"
    links = {link.rel: link.href for link in parsed.feed.links}
    assert links["self"] == BASE + "fixture-wars/feed.atom"
    assert links["alternate"] == BASE + "fixture-wars/index.html"
    assert len(parsed.entries) == 6


def test_each_entry_is_dated_by_when_its_turn_was_adjudicated(site: Path) -> None:
    parsed = feedparser.parse((site / "fixture-wars/feed.atom").read_bytes())
    # Newest first: turn 6 to turn 1, each dated as the store keeps it.
    for entry, turn in zip(parsed.entries, range(6, 0, -1), strict=True):
        assert entry.id == f"urn:chronicle:fixture-wars:turn:{turn}"
        assert calendar.timegm(entry.updated_parsed) == _epoch(adjudicated(turn))
        assert calendar.timegm(entry.published_parsed) == _epoch(adjudicated(turn))
        assert entry.link == BASE + f"fixture-wars/turns/turn-{turn:03d}/index.html"
    assert calendar.timegm(parsed.feed.updated_parsed) == _epoch(adjudicated(6))


def test_the_sitemap_lists_every_page_by_its_full_url(site: Path) -> None:
    root = ET.fromstring((site / "sitemap.xml").read_bytes())
    locs = [loc.text or "" for loc in root.iter(f"{SITEMAP}loc")]
    assert BASE + "index.html" in locs
    assert BASE + "fixture-wars/people/index.html" in locs
    assert all(loc.startswith(BASE) and loc.endswith(".html") for loc in locs)
    pages = [name for name in site_files(site) if name.endswith(".html")]
    assert len(locs) == len(pages)


def test_without_a_base_url_no_sitemap_and_a_stale_one_is_removed(
        campaign: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build_site([campaign], out, base_url=BASE)
    assert (out / "sitemap.xml").is_file()
    build_site([campaign], out)
    assert not (out / "sitemap.xml").exists()
    parsed = feedparser.parse((out / "fixture-wars/feed.atom").read_bytes())
    assert not parsed.bozo
    assert {link.rel for link in parsed.feed.links} >= {"self", "alternate"}


def test_a_store_from_before_the_date_was_kept_still_builds(campaign: Path,
                                                            tmp_path: Path) -> None:
    """An older store has no ``turns.adjudicated_at``: the build adds the column
    (``schema.upgrade``) and dates each entry by its game year, as before."""
    import shutil

    old = tmp_path / "fixture-wars"
    shutil.copytree(campaign, old)
    con = sqlite3.connect(old / "chronicle.sqlite")
    con.execute("ALTER TABLE turns DROP COLUMN adjudicated_at")
    con.execute("PRAGMA user_version = 0")  # as every store made before it was stamped
    con.commit()
    con.close()
    out = tmp_path / "site"
    build_site([old], out)
    parsed = feedparser.parse((out / "fixture-wars/feed.atom").read_bytes())
    assert not parsed.bozo
    years = [time.gmtime(calendar.timegm(e.updated_parsed)).tm_year for e in parsed.entries]
    assert years == sorted(years, reverse=True) and years[-1] >= 1300
    again = tmp_path / "again"
    build_site([old], again)
    assert site_files(again) == site_files(out)


def test_the_store_keeps_when_each_turn_was_adjudicated(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """"Entries dated by when each turn was adjudicated (stored in the store ...)": the
    clock by default; SOURCE_DATE_EPOCH, the reproducible-builds convention, stands
    for it; a bad value is refused in words."""
    from cli_support import run

    from chronicle.errors import CampaignError
    from chronicle.turn.runner import adjudication_time

    root = tmp_path / "c"
    assert run("new", root, "--ruleset", "dynasty", "--seed", "clock").exit_code == 0
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    before = time.time()
    (root / "orders" / "turn-001").mkdir(parents=True, exist_ok=True)
    assert run("adjudicate", root, "--yes").exit_code == 0
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    (root / "orders" / "turn-002").mkdir(parents=True, exist_ok=True)
    assert run("adjudicate", root, "--yes").exit_code == 0
    con = sqlite3.connect(root / "chronicle.sqlite")
    stamps = [s for (s,) in con.execute("SELECT adjudicated_at FROM turns ORDER BY number")]
    con.close()
    assert before - 1 <= _epoch(stamps[0]) <= time.time() + 1
    assert stamps[1] == "2026-01-01T00:00:00Z"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "next tuesday")
    (root / "orders" / "turn-003").mkdir(parents=True, exist_ok=True)
    refused = run("adjudicate", root)
    assert refused.exit_code == 1
    assert "SOURCE_DATE_EPOCH='next tuesday': not a number of seconds" in refused.output
    with pytest.raises(CampaignError, match="SOURCE_DATE_EPOCH"):
        adjudication_time()


def test_a_base_url_must_be_a_full_address(campaign: Path, tmp_path: Path) -> None:
    """A sitemap's <loc> must be a full URL: a relative --base-url is a usage error."""
    from cli_support import run

    result = run("build", campaign, "-o", tmp_path / "site", "--base-url", "archive/")
    assert result.exit_code == 2 and "give the full address" in result.output
    assert not (tmp_path / "site").exists()


def test_a_build_not_given_a_base_url_takes_the_campaigns(campaign: Path,
                                                          tmp_path: Path) -> None:
    """campaign.toml's ``base_url`` is where the reports link the battles' pages
    (docs/arbiter.md): ``chronicle build`` without ``--base-url`` publishes at that
    address, and campaigns that disagree on it are refused rather than guessed at."""
    from cli_support import run

    own = tmp_path / "fixture-wars"
    shutil.copytree(campaign, own)
    toml = own / "campaign.toml"
    toml.write_text(f'base_url = "{BASE}"\n' + toml.read_text(encoding="utf-8"),
                    encoding="utf-8")
    assert run("build", own, "-o", tmp_path / "site").exit_code == 0
    root = ET.fromstring((tmp_path / "site" / "sitemap.xml").read_bytes())
    assert all((loc.text or "").startswith(BASE) for loc in root.iter(f"{SITEMAP}loc"))
    other = tmp_path / "second"
    shutil.copytree(own, other)
    (other / "campaign.toml").write_text(
        toml.read_text(encoding="utf-8").replace(BASE, "https://elsewhere.example.org/")
        .replace('slug = "fixture-wars"', 'slug = "second-war"'), encoding="utf-8")
    both = run("build", own, other, "-o", tmp_path / "both")
    assert both.exit_code == 2 and "different base_url values" in both.output
