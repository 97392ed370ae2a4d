"""A published site that nothing received can subvert (issue: trust, scale).

A campaign folder received from someone else is untrusted, and so is the
output folder: neither a planted drawing nor a planted link may put script
in the site or have the build write outside it. The archive index tells the
state its campaign's pages show, and a character's page stays the size of
one life, however large the events it shares with others.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from chronicle.cli import cli
from chronicle.demo import play_turns, run_demo
from chronicle.publish import build as build_module
from chronicle.publish.writer import MANIFEST

SEED = "site-trust-seed"


def run(*args: str | Path) -> Result:
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"traceback from {args}: {result.exception!r}\n{result.output}")
    return result


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    out = tmp_path / "camp"
    run_demo(ruleset="dynasty", turns=2, seed=SEED, out=out, site=None, quiet=True)
    return out


# -- writes through links -----------------------------------------------------------
@pytest.mark.parametrize("planted", [MANIFEST, "index.html.tmp", "index.html",
                                     "camp/index.html.tmp"])
def test_writes_through_links_no_write_follows_a_link_planted_in_the_output_folder(
        campaign: Path, tmp_path: Path, planted: str) -> None:
    """Finding: links planted in the output folder (``.chronicle-manifest``,
    ``index.html.tmp``) made ``build`` overwrite files outside it."""
    site = tmp_path / "site"
    assert run("build", campaign, "-o", site).exit_code == 0
    outside = tmp_path / "precious.txt"
    outside.write_text("keep me\n")
    link = site / planted
    link.unlink(missing_ok=True)
    link.symlink_to(outside)
    # A new title has every page written again, the archive index too.
    toml = campaign / "campaign.toml"
    toml.write_text(toml.read_text().replace('title = "', 'title = "Renamed ', 1))
    result = run("build", campaign, "-o", site)
    assert outside.read_text() == "keep me\n"
    assert result.exit_code == 0, result.output
    # The site's own files are files again; a stray ``.tmp`` may stay a link, unused.
    assert not (site / planted.removesuffix(".tmp")).is_symlink()


def test_writes_through_links_a_dangling_link_in_a_new_page_is_not_followed(
        campaign: Path, tmp_path: Path) -> None:
    """Finding (as above): a link to a file not yet made would have been made by the build."""
    site = tmp_path / "site"
    (site / "camp").mkdir(parents=True)
    target = tmp_path / "made-outside.html"
    (site / "camp" / "index.html").symlink_to(target)
    result = run("build", campaign, "-o", site)
    assert not target.exists()
    assert result.exit_code == 0, result.output
    assert not (site / "camp" / "index.html").is_symlink()


# -- a build during adjudicate -------------------------------------------------------
def _turns_in_index(site: Path) -> int:
    found = re.search(r"(\d+) turns played", (site / "index.html").read_text())
    assert found is not None
    return int(found.group(1))


def test_a_build_during_adjudicate_publishes_the_archive_index_of_the_state_it_read(
        campaign: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding: a build during adjudicate could publish a stale archive index, and kept
    it on later no-change builds. The summary comes from the build's one read."""
    load = build_module.load_campaign

    def adjudicated_meanwhile(folder: Path, **kwargs: object) -> object:
        play_turns(folder, 1, SEED)  # the turn is committed after the build looked
        return load(folder, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(build_module, "load_campaign", adjudicated_meanwhile)
    site = tmp_path / "site"
    assert run("build", campaign, "-o", site).exit_code == 0
    monkeypatch.setattr(build_module, "load_campaign", load)
    assert (site / "camp" / "turns" / "turn-003" / "index.html").is_file()
    assert _turns_in_index(site) == 3
    result = run("build", campaign, "-o", site)
    assert result.exit_code == 0, result.output
    assert _turns_in_index(site) == 3
