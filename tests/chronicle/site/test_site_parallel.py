"""Work shared between processes gives the same site as one process (DESIGN.md: determinism).

Large campaigns render their pages in two processes and lay out their
genealogies on every core; the fixture is small, so these tests lower the
thresholds to take those paths and compare with the plain ones.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from site_fixture import no_child_processes, site_files

from chronicle.site import build_site, genealogy
from chronicle.site.genealogy import TreeMarriage, TreePerson, render_genealogies
from chronicle.site.parallel import executor
from chronicle.site.parallel import workers as parallel
from chronicle.views.data import HouseStyle

pytestmark = pytest.mark.skipif(not executor.can_fork(), reason="needs fork and two cores")


@pytest.fixture(scope="module")
def campaign(wars_copy: Path) -> Path:
    return wars_copy


def test_pages_shared_between_two_processes_give_the_same_site(
        campaign: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    alone = build_site([campaign], tmp_path / "alone")
    monkeypatch.setattr(parallel, "MIN_PAGES", 0)
    shared = build_site([campaign], tmp_path / "shared")
    assert site_files(tmp_path / "shared") == site_files(tmp_path / "alone")
    assert shared.files == alone.files
    assert sorted(shared.changed) == sorted(alone.changed)
    again = build_site([campaign], tmp_path / "shared")
    assert again.changed == [] and again.removed == []


def test_genealogies_started_during_the_load_give_the_same_site(
        campaign: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The diagrams laid out by workers forked midway through the load (``Lineage``),
    with no cache, while two processes share the pages: the same bytes as one process."""
    alone = build_site([campaign], tmp_path / "alone")
    cached = campaign / ".cache"
    copy = tmp_path / "fixture-wars"
    shutil.copytree(campaign, copy, ignore=lambda folder, _names: (
        [".cache"] if Path(folder) == campaign else []))
    assert not (copy / ".cache").exists() and cached.is_dir()
    monkeypatch.setattr(genealogy, "PARALLEL_FROM", 1)
    monkeypatch.setattr(parallel, "MIN_PAGES", 0)
    early = build_site([copy], tmp_path / "early")
    assert site_files(tmp_path / "early") == site_files(tmp_path / "alone")
    assert early.files == alone.files


def test_a_page_changed_in_the_helper_process_is_reported(
        campaign: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "MIN_PAGES", 0)
    out = tmp_path / "site"
    build_site([campaign], out)
    pages = sorted(p for p in site_files(out) if p.endswith("index.html") and "/people/" in p)
    assert len(pages) > 2  # so both processes have some of them
    for page in pages:
        (out / page).write_text("stale", encoding="utf-8")
    (out / ".chronicle-manifest").unlink()  # forget the fingerprint: render again
    report = build_site([campaign], out)
    assert sorted(report.changed) == pages


def test_a_page_that_fails_leaves_no_helper_behind(campaign: Path, tmp_path: Path) -> None:
    """An error in the parent's pages is raised once the helper process is gone."""
    from chronicle.site.build import prepare
    from chronicle.site.writer import Writer
    from chronicle.views.data import load_campaign

    def failing(_ctx: object, _write: object) -> None:
        raise RuntimeError("a builder failed")

    ctx = prepare(load_campaign(campaign))
    with pytest.raises(RuntimeError, match="a builder failed"):
        parallel.run_builders(ctx, [failing], Writer(tmp_path / "site"), min_pages=0)
    assert no_child_processes()
    assert ctx.shard is None


def _dynasty(generations: int) -> tuple[list[TreePerson], list[TreeMarriage]]:
    people = [TreePerson("E0", "Founder", "M", 1200, 1260, "england", refs={"england": "E0"})]
    marriages: list[TreeMarriage] = []
    fathers = ["E0"]
    for depth in range(1, generations + 1):
        sons = []
        for father in fathers:
            wife = TreePerson(f"W{father}", f"Wife of {father}", "F", 1200 + 25 * depth - 20)
            people.append(wife)
            marriages.append(TreeMarriage(father, wife.id, 1200 + 25 * depth - 5))
            for n in (1, 2):
                pid = f"{father}.{n}"
                people.append(TreePerson(pid, f"Son {pid}", "M", 1200 + 25 * depth, None,
                                         "england", father, wife.id, refs={"england": pid}))
                sons.append(pid)
        fathers = sons
    return people, marriages


def test_genealogies_laid_out_on_every_core_match_one_process(
        monkeypatch: pytest.MonkeyPatch) -> None:
    people, marriages = _dynasty(6)
    houses = {"england": HouseStyle("england", "England", "#9b1b30")}

    def in_this_process(dot: str) -> str:
        return genealogy.render_svg(dot)

    one = render_genealogies(people, marriages, houses, lambda pid: f"{pid}.html",
                             max_members=20, render=in_this_process)
    monkeypatch.setattr(genealogy, "PARALLEL_FROM", 1)
    many = render_genealogies(people, marriages, houses, lambda pid: f"{pid}.html",
                              max_members=20)
    assert len(one.parts) > 2
    assert many.parts == one.parts and many.svgs == one.svgs


def test_issue_15_no_fork_while_threads_run(campaign: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 15: "No fork while threads run." Every fork of a build that shares
    its pages and its layouts happens while the build is the only thread."""
    import os
    import threading

    real_fork = os.fork
    seen: list[int] = []

    def watched_fork() -> int:
        seen.append(threading.active_count())
        return real_fork()

    monkeypatch.setattr(os, "fork", watched_fork)
    monkeypatch.setattr(genealogy, "PARALLEL_FROM", 1)
    monkeypatch.setattr(parallel, "MIN_PAGES", 0)
    copy = tmp_path / "fixture-wars"
    shutil.copytree(campaign, copy, ignore=lambda folder, _names: (
        [".cache"] if Path(folder) == campaign else []))
    build_site([copy], tmp_path / "site")
    # The genealogies' children, one per core, then the pages' helper.
    assert len(seen) == (os.cpu_count() or 1) + 1
    assert set(seen) == {1}
    assert no_child_processes()


def test_a_job_never_forks_beside_a_thread() -> None:
    """Issue 15: with another thread running, a job runs in this process instead."""
    import threading

    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        job = executor.start(lambda: 6 * 7)
        assert not job.forked and job.result() == 42
    finally:
        release.set()
        other.join()
    forked = executor.start(lambda: 6 * 7)
    assert forked.forked and forked.result() == 42


def test_a_forked_job_s_error_reaches_the_parent_and_serial_runs_here() -> None:
    def fails() -> int:
        raise ValueError("from the child")

    job = executor.start(fails)
    assert job.forked
    with pytest.raises(ValueError, match="from the child"):
        job.result()
    with executor.serial():
        here = executor.start(fails)
    assert not here.forked
    with pytest.raises(ValueError, match="from the child"):
        here.result()
    assert no_child_processes()


def test_issue_15_a_rebuild_shares_the_pages_of_the_living_evenly(campaign: Path) -> None:
    """Issue 15 ("a rebuild ... ≤ 25 % of a first build's wall time"): the pages a
    rebuild renders again are those of the people alive since the last build,
    so the two processes get equal weights of those, not equal runs of people
    (the latest-born half would get nearly all of them); a first build still
    cuts the people into equal runs."""
    from chronicle.site.pages import RENDER_WEIGHT, shares
    from chronicle.views.data import load_campaign

    data = load_campaign(campaign)
    people = sorted(data.people.values(), key=lambda p: (p.born, p.seq, p.id))
    since = sorted(t.year for t in data.turns)[-2]

    def owner(person: object) -> int:
        return owners[f"people/{person.slug}/index.html"]  # type: ignore[attr-defined]

    owners = shares(data, 2)
    counts = [sum(1 for p in people if owner(p) == k) for k in (0, 1)]
    assert abs(counts[0] - counts[1]) <= 1
    assert [owner(p) for p in people] == sorted(owner(p) for p in people)  # cut by time

    owners = shares(data, 2, since)
    living = [p for p in people if p.died is None or p.died >= since]
    assert 0 < len(living) < len(people)
    weights = [sum(RENDER_WEIGHT if p in living else 1 for p in people if owner(p) == k)
               for k in (0, 1)]
    assert abs(weights[0] - weights[1]) <= RENDER_WEIGHT
    assert [owner(p) for p in people] == sorted(owner(p) for p in people)
    # Each turn's page goes with the people born by then.
    first_of_helper = min(p.born for p in people if owner(p) == 1)
    for turn in data.turns:
        expected = 1 if turn.year > first_of_helper else 0
        assert owners[f"turns/turn-{turn.number:03d}/index.html"] == expected


def test_a_rebuild_after_a_new_turn_in_two_processes_is_the_site_of_one(
        campaign: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The weighted cut of a rebuild (above) changes who renders, never the bytes."""
    from chronicle.play.demo import play_turns

    copy = tmp_path / "fixture-wars"
    shutil.copytree(campaign, copy)
    monkeypatch.setattr(parallel, "MIN_PAGES", 0)
    shared = tmp_path / "shared"
    build_site([copy], shared)
    play_turns(copy, 1, "parallel-rebuild")
    rebuilt = build_site([copy], shared)
    assert rebuilt.changed
    monkeypatch.setattr(parallel, "MIN_PAGES", 10**9)
    alone = tmp_path / "alone"
    build_site([copy], alone)
    assert site_files(shared) == site_files(alone)
