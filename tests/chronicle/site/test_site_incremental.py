"""Issue 15: "a page rendered only when its inputs changed, decided by a
fingerprint of those inputs", and "Keep byte-identical full builds".

A Blood Royale campaign is played turn by turn through the command line and
published after every turn into the same folder; the site must then be the
same, byte for byte, as one built at once from the last store, while most
pages of the later builds were never rendered again.
"""

from __future__ import annotations

import json
import os
import shutil
import tomllib
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest
from cli_support import run

from chronicle.play.demo import play_turns
from chronicle.site import build as build_module
from chronicle.site import build_site, genealogy, pages
from chronicle.site.incremental import inputs
from chronicle.site.parallel import executor
from chronicle.site.writer import JOURNAL, MANIFEST
from chronicle.views.data import load_campaign


def files_of(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes()
            for p in sorted(site.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory
           ) -> tuple[Path, Path, list[tuple[int, int, int]]]:
    """The campaign after six turns, its site built after turns 3 to 6, and for
    each of those builds: the person pages rendered, written, and in all."""
    work = tmp_path_factory.mktemp("incremental")
    campaign = work / "campaign"
    assert run("new", campaign, "--ruleset", "blood-royale", "--seed", "incremental").exit_code == 0
    play_turns(campaign, 2, "incremental")
    site = work / "site"
    rendered: list[tuple[int, int, int]] = []
    real_render = pages.render
    count = [0]

    def counting(ctx: pages.SiteContext, write: pages.Write, template: str, rel: str,
                 **values: object) -> None:
        count[0] += template == "person.html"
        real_render(ctx, write, template, rel, **values)

    pages.render = counting  # type: ignore[assignment]
    try:
        # In one process, so that every rendering is counted here.
        with executor.serial():
            for _turn in range(4):
                play_turns(campaign, 1, "incremental")
                count[0] = 0
                report = build_site([campaign], site)
                written = [p for p in report.changed if "/people/" in p
                           and p.endswith("/index.html") and not p.endswith("people/index.html")]
                rendered.append((count[0], len(written),
                                 len(list(site.glob("*/people/*/index.html")))))
    finally:
        pages.render = real_render  # type: ignore[assignment]
    return campaign, site, rendered


def test_a_site_built_turn_after_turn_is_the_site_built_at_once(
        played: tuple[Path, Path, list[tuple[int, int, int]]], tmp_path: Path) -> None:
    campaign, site, _rendered = played
    fresh = tmp_path / "fresh"
    shutil.copytree(campaign, tmp_path / "copy")
    build_site([tmp_path / "copy"], fresh)
    ours, theirs = files_of(site), files_of(fresh)
    assert ours.keys() == theirs.keys()
    differ = [name for name in ours if ours[name] != theirs[name]]
    assert differ == []


def test_a_claim_s_new_place_behind_a_relative_the_page_names_anyway_is_published(
        tmp_path: Path) -> None:
    """A person page says whom each rank in a succession comes after. Here the
    claimant before C1500 changes from John II to Walter, both his brothers:
    the people the page names are the same, only their roles differ, and the
    page must still be made again (found by building campaigns turn after
    turn against fresh builds of the same stores)."""
    campaign, site = tmp_path / "campaign", tmp_path / "site"
    assert run("new", campaign, "--ruleset", "dynasty", "--seed", "fz989416").exit_code == 0
    houses = [arg for h in ("england", "france", "castile") for arg in ("--auto", h)]
    for turn, personality in enumerate(["mercantile", "ambitious", "ambitious", "cautious",
                                        "ambitious", "cautious", "ambitious", "ambitious",
                                        "cautious"], start=1):
        assert run("template", campaign, *houses, "--personality", personality,
                   "--force").exit_code == 0
        assert run("adjudicate", campaign, "--yes").exit_code == 0
        if turn >= 8:
            build_site([campaign], site)
    shutil.copytree(campaign, tmp_path / "copy", ignore=shutil.ignore_patterns(".cache"))
    build_site([tmp_path / "copy"], tmp_path / "fresh")
    ours, theirs = files_of(site), files_of(tmp_path / "fresh")
    assert ours.keys() == theirs.keys()
    assert [name for name in ours if ours[name] != theirs[name]
            and not name.endswith(MANIFEST)] == []
    page = ours["campaign/people/c1500-robert-ii/index.html"].decode()
    assert "after <a href=\"../../people/c1300-walter/index.html\">" in page


def test_a_life_s_new_event_that_changes_no_fact_is_published(tmp_path: Path) -> None:
    """A person page tells the life's events. A couple that "hoped in vain for a
    child" (``birth-attempts``) has an event this turn and not one fact changed
    (no birth, death, marriage or title): the page must still be made again.
    The turn-after-turn comparison above fails too when the life's events are
    left out of the page's print, among many pages; this names the case."""
    campaign, site = tmp_path / "campaign", tmp_path / "site"
    assert run("new", campaign, "--ruleset", "blood-royale", "--seed", "fz610154",
               "--language", "fr").exit_code == 0
    for turn, personality in enumerate(["mercantile", "ambitious", "ambitious", "mercantile"],
                                       start=1):
        if turn == 4:
            build_site([campaign], site)
            before = load_campaign(campaign).people
        ok = run("template", campaign, *_houses(campaign), "--personality", personality,
                 "--force")
        assert ok.exit_code == 0
        assert run("adjudicate", campaign, "--yes").exit_code == 0
    after = load_campaign(campaign).people
    quiet = {pid: [event.kind for event in person.timeline[len(before[pid].timeline):]]
             for pid, person in after.items() if pid in before
             and pages.person_facts(person) == pages.person_facts(before[pid])
             and len(person.timeline) > len(before[pid].timeline)}
    # Without them the test would test nothing.
    assert quiet == {"amadeus": ["birth-attempts"], "france-blanche": ["birth-attempts"]}
    report = build_site([campaign], site)
    assert {"campaign/people/amadeus/index.html",
            "campaign/people/f1a00-france-blanche/index.html"} <= set(report.changed)
    assert _same_as_a_fresh_build(campaign, site, tmp_path / "fresh") == []


def _houses(campaign: Path) -> list[str]:
    spec = tomllib.loads((campaign / "campaign.toml").read_text(encoding="utf-8"))
    return [arg for house in spec["house"] for arg in ("--auto", house["id"])]


def _same_as_a_fresh_build(campaign: Path, site: Path, work: Path) -> list[str]:
    """The files of ``site`` that differ from a fresh build of a copy of ``campaign``."""
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(campaign, work / campaign.name, ignore=shutil.ignore_patterns(".cache"))
    build_site([work / campaign.name], work / "site")
    ours, theirs = files_of(site), files_of(work / "site")
    return sorted(name for name in ours.keys() | theirs.keys()
                  if not name.endswith(MANIFEST) and ours.get(name) != theirs.get(name))


@pytest.mark.parametrize(("ruleset", "world", "language", "seed"), [
    ("dynasty", None, "fr", "each-turn-1"),
    ("blood-royale", "westeros", "en", "each-turn-2"),
    ("familles", None, "en", "each-turn-3"),
])
def test_every_build_of_a_played_campaign_is_the_site_built_at_once(
        tmp_path: Path, ruleset: str, world: str | None, language: str, seed: str) -> None:
    """Every ruleset, published after every step: turns with changing players'
    moods, a commentary, a rollback and a different replay, the campaign's end.
    After each build the site is, byte for byte, a fresh build of the same
    store (the check that found the claimant kept in the wrong role above)."""
    campaign, site = tmp_path / "campaign", tmp_path / "site"
    made = ["new", campaign, "--ruleset", ruleset, "--seed", seed, "--language", language]
    assert run(*made, *(["--world", world] if world else [])).exit_code == 0
    moods = iter(["ambitious", "cautious", "mercantile", "ambitious", "ambitious",
                  "cautious", "mercantile", "ambitious"] * 2)

    def ok(*args: str | Path) -> None:
        assert run(*args).exit_code == 0, args

    def play(turns: int) -> None:
        for _ in range(turns):
            ok("template", campaign, *_houses(campaign), "--personality", next(moods), "--force")
            ok("adjudicate", campaign, "--yes")

    def comment() -> None:
        (campaign / "commentary").mkdir(exist_ok=True)
        (campaign / "commentary" / "turn-002.md").write_text(
            "The *arbiter* notes a hard winter.\n", encoding="utf-8")

    steps: list[Callable[[], None]] = [
        lambda: play(2), lambda: play(1), comment, lambda: play(2),
        lambda: ok("rollback", campaign, "--to", "2"), lambda: play(3),
        lambda: ok("end", campaign)]
    for number, step in enumerate(steps):
        step()
        build_site([campaign], site)
        assert _same_as_a_fresh_build(campaign, site, tmp_path / "fresh") == [], number


def test_a_new_turn_renders_only_the_pages_whose_inputs_changed(
        played: tuple[Path, Path, list[tuple[int, int, int]]]) -> None:
    _campaign, _site, rendered = played
    first, *later = rendered
    assert first[0] == first[1] == first[2] > 20  # a first build renders every page
    for renders, written, everyone in later:
        # A page is rendered again only when it then changes: the unchanged
        # ones (the dead, and the living whose page says nothing new) are kept.
        assert renders == written < everyone, rendered


def test_a_changed_theme_renders_every_page_again(
        played: tuple[Path, Path, list[tuple[int, int, int]]], tmp_path: Path) -> None:
    """A template is an input of every page: changed, no page may be kept."""
    campaign, site, _rendered = played
    copy, out = tmp_path / "campaign", tmp_path / "site"
    shutil.copytree(campaign, copy)
    shutil.copytree(site, out)
    (copy / "theme" / "templates").mkdir(parents=True)
    (copy / "theme" / "templates" / "footer.html").write_text(
        "<p>A footer of the campaign's own</p>\n", encoding="utf-8")
    report = build_site([copy], out)
    person_pages = [p for p in report.changed if "/people/" in p and p.endswith("/index.html")
                    and not p.endswith("people/index.html")]
    assert len(person_pages) == len(list(out.glob("*/people/*/index.html")))
    assert "A footer of the campaign's own" in next(out.glob("*/people/*/index.html")).read_text(
        encoding="utf-8")


def test_a_page_edited_by_hand_is_kept_only_if_its_print_matches(
        played: tuple[Path, Path, list[tuple[int, int, int]]], tmp_path: Path) -> None:
    """A kept page is never read: the manifest's print says it is the one the
    last build wrote. A manifest that lost its prints renders everything again."""
    campaign, site, _rendered = played
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    manifest = copy / MANIFEST
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace('"pages"', '"old-pages"').replace(
        '"fingerprints"', '"old-fingerprints"'), encoding="utf-8")
    page = next(copy.glob("*/people/*/index.html"))
    page.write_text("edited", encoding="utf-8")
    build_site([campaign], copy)
    assert page.read_text(encoding="utf-8") != "edited"


def test_the_names_an_event_gives_a_print_come_from_every_field_it_has() -> None:
    """A page's print names the people and houses its events name (``pages._named``),
    read field by field: an event view given a new field must be read there too."""
    import dataclasses

    from chronicle.views.data import EventView

    read = {"turn", "year", "seq", "phase", "kind", "payload", "subjects", "houses"}
    assert {f.name for f in dataclasses.fields(EventView)} == read


def test_a_new_turn_reads_only_the_realms_of_the_turn_pages_it_renders(
        played: tuple[Path, Path, list[tuple[int, int, int]]], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A turn page's print names the rulers and heirs of its realms, read from the
    turn's whole snapshot: the print keeps them with the snapshot's hash, so only
    the pages made again (the new turn's, and the one before, which now links it)
    read a snapshot; the site stays the one a first build makes."""
    from chronicle.views import data

    campaign, site, _rendered = played
    copy, out = tmp_path / "campaign", tmp_path / "site"
    shutil.copytree(campaign, copy)
    shutil.copytree(site, out)
    play_turns(copy, 1, "incremental")
    read: list[str] = []
    real = data.realms_of

    def counting(snapshot: dict[str, object]) -> tuple[data.RealmView, ...]:
        read.append(str(snapshot.get("turn")))
        return real(snapshot)  # type: ignore[arg-type]

    monkeypatch.setattr(data, "realms_of", counting)
    with executor.serial():
        build_site([copy], out)
    assert sorted(read) == ["6", "7"]
    fresh = tmp_path / "fresh"
    with executor.serial():
        build_site([copy], fresh)
    assert files_of(out) == files_of(fresh)
    assert len(read) > 2 + 6  # the first build reads them all: the count could fail


def test_a_new_turn_draws_only_the_family_tree_parts_that_changed(
        played: tuple[Path, Path, list[tuple[int, int, int]]], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 15: "a page rendered only when its inputs changed", for the family
    trees: a part whose drawing the last build made (same DOT, same years) is
    neither read from the layout cache nor filled again, and its page and file
    are kept; one whose page or file is gone is drawn again, the same; the
    site is the one built at once."""
    campaign, site, _rendered = played
    copy, out = tmp_path / "campaign", tmp_path / "site"
    shutil.copytree(campaign, copy)
    shutil.copytree(site, out)
    filled: list[str] = []
    real_fill = genealogy.fill_lives

    def counting(svg: str, people: Mapping[str, genealogy.TreePerson]) -> str:
        filled.append(svg)
        return real_fill(svg, people)

    def genealogy_files() -> dict[str, bytes]:
        return {name: data for name, data in files_of(out).items() if "/genealogy/" in name}

    genealogy.fill_lives = counting  # type: ignore[assignment]
    try:
        with executor.serial():
            # The campaign changed, its people did not: every drawing is kept.
            (copy / "commentary").mkdir(exist_ok=True)
            (copy / "commentary" / "turn-001.md").write_text("A *hard* winter.\n", "utf-8")
            before = genealogy_files()
            report = build_site([copy], out)
            assert report.changed and filled == []
            assert genealogy_files() == before
            # A part's page and another's file, removed: drawn again, and only they.
            svgs = sorted(out.glob("*/genealogy/*.svg"))
            gone = [svgs[0].with_suffix(".html"), svgs[1]]
            for path in gone:
                path.unlink()
            build_site([copy], out)
            assert len(filled) == 2 and genealogy_files() == before
            # A new turn: the parts drawn are those whose pages changed.
            play_turns(copy, 1, "incremental")
            filled.clear()
            report = build_site([copy], out)
            redrawn = [p for p in report.changed if "/genealogy/" in p and p.endswith(".html")]
            assert 0 < len(filled) == len(redrawn)
            # A new version of the generator: every part drawn again, by the
            # drawing processes, none left for the parent to draw one by one.
            filled.clear()
            redraws: list[str] = []
            for module in (build_module, inputs):
                monkeypatch.setattr(module, "code_print", lambda *_a: "another version")
            monkeypatch.setattr(genealogy.PendingGenealogies, "redraw",
                                lambda _self, name: redraws.append(name) or "")
            build_site([copy], out)
            assert len(filled) == len(list(out.glob("*/genealogy/*.html"))) and redraws == []
            monkeypatch.undo()
    finally:
        genealogy.fill_lives = real_fill  # type: ignore[assignment]
    fresh = tmp_path / "fresh"
    build_site([copy], fresh)
    # The manifest's prints are of the code the last build thought it ran.
    ours, theirs = files_of(out), files_of(fresh)
    del ours[MANIFEST], theirs[MANIFEST]
    assert ours.keys() == theirs.keys()
    assert [name for name in ours if ours[name] != theirs[name]] == []


class _Interrupted(Exception):
    """Stands for whatever stops a build halfway: Ctrl-C, a full disk, a crash."""


def test_a_build_interrupted_halfway_leaves_nothing_a_later_build_would_keep_wrongly(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build writes its pages as it goes and its manifest at the end. One stopped
    halfway has overwritten pages whose prints the manifest still gives as the
    last build's: after a rollback to that build's turn, those pages would be
    kept, showing the turn rolled back. So the prints are dropped from the
    manifest before the first page is written, and saved again at the end."""
    campaign = tmp_path / "campaign"
    assert run("new", campaign, "--ruleset", "blood-royale", "--seed", "halfway").exit_code == 0
    play_turns(campaign, 3, "halfway")
    site = tmp_path / "site"
    with executor.serial():
        build_site([campaign], site)
        before = files_of(site)
        play_turns(campaign, 1, "halfway")

        def stop(_ctx: pages.SiteContext, _write: pages.Write) -> None:
            raise _Interrupted

        # The feed is made after every page but the drawings (``build_campaign``).
        monkeypatch.setattr(build_module, "build_feed", stop)
        with pytest.raises(_Interrupted):
            build_site([campaign], site)
        monkeypatch.undo()
        overwritten = [name for name, data in files_of(site).items()
                       if name in before and data != before[name] and name != MANIFEST]
        assert any("/people/" in name for name in overwritten)  # the case in point
        assert run("rollback", campaign, "--to", "3").exit_code == 0
        build_site([campaign], site)
    fresh = tmp_path / "fresh"
    build_site([campaign], fresh)
    ours, theirs = files_of(site), files_of(fresh)
    assert ours.keys() == theirs.keys()
    assert [name for name in ours if ours[name] != theirs[name]] == []


def test_a_build_stopped_between_a_page_s_copy_and_its_renaming_leaves_no_copy_behind(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A page that changed is written to a copy beside it, then renamed over it. A
    build stopped in between leaves the copy (``index.html.tmp``), which an upload
    would publish: the next build removes it, even when that page does not change
    again, and its site is the one built at once."""
    campaign = tmp_path / "campaign"
    assert run("new", campaign, "--ruleset", "blood-royale", "--seed", "copies").exit_code == 0
    play_turns(campaign, 2, "copies")
    site = tmp_path / "site"
    real_replace = os.replace
    stopped: list[str] = []

    def replace(source: str, target: str) -> None:
        if str(source).endswith("index.html.tmp") and "/people/" in str(source):
            stopped.append(str(source))
            raise _Interrupted
        real_replace(source, target)

    with executor.serial():
        build_site([campaign], site)
        play_turns(campaign, 1, "copies")
        monkeypatch.setattr(os, "replace", replace)
        with pytest.raises(_Interrupted):
            build_site([campaign], site)
        monkeypatch.undo()
        [copy] = stopped
        assert Path(copy).is_file()  # the case in point
        # Its page is not written again: the copy stays unless removed.
        Path(copy).with_suffix("").write_bytes(Path(copy).read_bytes())
        build_site([campaign], site)
        fresh = tmp_path / "fresh"
        build_site([campaign], fresh)
    assert sorted(site.rglob("*.tmp")) == []
    ours, theirs = files_of(site), files_of(fresh)
    assert ours.keys() == theirs.keys()
    assert [name for name in ours if ours[name] != theirs[name]] == []


def test_a_site_file_named_like_a_copy_survives_the_build_after_a_stop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a stopped build's copies are removed after it: a file of the site that
    has a copy's name (here a theme's static file, ``notes.txt.tmp`` beside
    ``notes.txt``) is published as before."""
    campaign = tmp_path / "campaign"
    assert run("new", campaign, "--ruleset", "blood-royale", "--seed", "named").exit_code == 0
    play_turns(campaign, 1, "named")
    static = campaign / "theme" / "static"
    static.mkdir(parents=True)
    (static / "notes.txt").write_text("the notes\n", encoding="utf-8")
    (static / "notes.txt.tmp").write_text("a file of the theme\n", encoding="utf-8")
    site = tmp_path / "site"
    real_replace = os.replace

    def replace(source: str, target: str) -> None:
        if "/people/" in str(source):
            raise _Interrupted
        real_replace(source, target)

    with executor.serial():
        build_site([campaign], site)
        [published] = site.rglob("notes.txt.tmp")
        play_turns(campaign, 1, "named")
        monkeypatch.setattr(os, "replace", replace)
        with pytest.raises(_Interrupted):
            build_site([campaign], site)
        monkeypatch.undo()
        build_site([campaign], site)
        fresh = tmp_path / "fresh"
        build_site([campaign], fresh)
    assert published.read_text(encoding="utf-8") == "a file of the theme\n"
    assert files_of(site) == files_of(fresh)


def test_a_finished_build_leaves_no_journal_and_a_whole_manifest(tmp_path: Path) -> None:
    """With its helper processes (forking on): the journal of new files is gone once
    the manifest is saved, and the manifest no longer says it is being built."""
    campaign = tmp_path / "campaign"
    assert run("new", campaign, "--ruleset", "blood-royale", "--seed", "journal").exit_code == 0
    play_turns(campaign, 2, "journal")
    site = tmp_path / "site"
    assert run("build", campaign, "-o", site).exit_code == 0
    manifest = json.loads((site / MANIFEST).read_text(encoding="utf-8"))
    assert "building" not in manifest and manifest["pages"]
    assert not (site / JOURNAL).exists()
