"""Inputs that cannot leak secrets (issue: trust; DESIGN.md standard 5).

A campaign folder received from someone else is untrusted. No input file
may be a link, or another name (a hard link) for a file of the folder: a
commentary that is ``secrets.toml`` under another name would publish the
seed, and an order file that is would have the seed quoted in a report.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cli_support import run

from chronicle.play.demo import run_demo

SEED = "trust-SECRET-SEED-0c41"



@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    out = tmp_path / "camp"
    run_demo(ruleset="dynasty", turns=2, seed=SEED, out=out, site=None, quiet=True)
    (out / "contacts.toml").write_text('[house.england]\nemail = ["alice@example.org"]\n')
    return out


def _published(site: Path) -> bytes:
    return b"".join(p.read_bytes() for p in site.rglob("*") if p.is_file()) \
        if site.exists() else b""


SECRET_FILES = ["secrets.toml", "contacts.toml", "reports/turn-001/england.md",
                "orders/turn-002/england.orders"]


@pytest.mark.parametrize("target", SECRET_FILES)
@pytest.mark.parametrize("kind", ["symbolic", "hard"])
def test_a_commentary_that_is_a_secret_under_another_name_is_refused(
        campaign: Path, tmp_path: Path, target: str, kind: str) -> None:
    """Finding: a commentary file linked to ../secrets.toml, to a private report or to an
    unpublished order file was published while the campaign ran."""
    commentary = campaign / "commentary" / "turn-002.md"
    secret = (campaign / target).read_bytes()
    if kind == "symbolic":
        commentary.symlink_to(os.path.relpath(campaign / target, commentary.parent))
    else:
        os.link(campaign / target, commentary)
    site = tmp_path / "site"
    result = run("build", campaign, "-o", site)
    assert result.exit_code == 1
    why = "is a link" if kind == "symbolic" else "has another name (a hard link)"
    assert f"commentary/turn-002.md: {why}" in result.output
    assert secret not in result.output.encode()
    assert SEED.encode() not in _published(site)


@pytest.mark.parametrize("target", ["secrets.toml", "contacts.toml", "chronicle.sqlite"])
@pytest.mark.parametrize("kind", ["symbolic", "hard"])
def test_an_order_file_that_is_a_secret_under_another_name_is_refused_unquoted(
        campaign: Path, target: str, kind: str) -> None:
    """Finding: an order file linked to secrets.toml put the seed into that house's
    private report (the refusal quoted its first line)."""
    orders = campaign / "orders" / "turn-003"
    orders.mkdir()
    path = orders / "england.orders"
    if kind == "symbolic":
        path.symlink_to(os.path.relpath(campaign / target, orders))
    else:
        os.link(campaign / target, path)
    checked = run("check", campaign)
    assert checked.exit_code == 1
    assert "turn-003/england.orders: " in checked.output
    assert run("adjudicate", campaign).exit_code == 0
    told = checked.output + "".join(p.read_text() for p in (campaign / "reports").rglob("*.md"))
    assert SEED not in told and "alice@example.org" not in told
    assert "seed =" not in told


def test_a_secrets_file_that_is_a_link_is_refused(campaign: Path, tmp_path: Path) -> None:
    """The seed is read from the folder's own secrets.toml, never through a link."""
    elsewhere = tmp_path / "elsewhere.toml"
    (campaign / "secrets.toml").rename(elsewhere)
    (campaign / "secrets.toml").symlink_to(elsewhere)
    result = run("check", campaign)
    assert result.exit_code == 1 and "secrets.toml: is a link" in result.output


def test_a_folder_on_the_way_that_is_a_link_is_refused(campaign: Path, tmp_path: Path) -> None:
    """Not only the file: a commentary folder linked elsewhere is refused too."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "turn-001.md").write_text("FROM-OUTSIDE")
    for path in (campaign / "commentary").iterdir():
        path.unlink()
    (campaign / "commentary").rmdir()
    (campaign / "commentary").symlink_to(outside, target_is_directory=True)
    result = run("build", campaign, "-o", tmp_path / "site")
    assert result.exit_code == 1 and "commentary: is a link" in result.output
    assert b"FROM-OUTSIDE" not in _published(tmp_path / "site")


def test_a_campaign_named_by_a_relative_path_is_read(campaign: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """As an arbiter types it, `chronicle build camp -o site` from the folder above, and
    through a link to the campaign folder itself (the arbiter's own choice)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "alias").symlink_to(campaign, target_is_directory=True)
    for name in ("camp", "alias", "./camp/../camp"):
        result = run("build", name, "-o", f"site-{len(name)}")
        assert result.exit_code == 0, result.output
        assert run("check", name).exit_code in (0, 1)
