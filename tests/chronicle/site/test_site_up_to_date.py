"""Issue 15: a build whose inputs are those of the last build does nothing at all
(``inputs.up_to_date``), and anything that could make its site differ builds."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from site_fixture import build_fixture

from chronicle.site import build_site
from chronicle.site.incremental import inputs
from chronicle.site.incremental.inputs import MANIFEST, up_to_date


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, int]:
    work = tmp_path_factory.mktemp("uptodate")
    campaign = build_fixture(work / "fixture-wars", turns=2)
    report = build_site([campaign], work / "site")
    return campaign, work / "site", report.files


def copies(built: tuple[Path, Path, int], tmp_path: Path) -> tuple[Path, Path]:
    campaign, site, _files = built
    shutil.copytree(campaign, tmp_path / "fixture-wars")
    shutil.copytree(site, tmp_path / "site")
    return tmp_path / "fixture-wars", tmp_path / "site"


def test_the_same_inputs_are_up_to_date(built: tuple[Path, Path, int]) -> None:
    campaign, site, files = built
    assert up_to_date([campaign], site, "") == files


@pytest.mark.parametrize("change", ["store", "commentary", "theme", "base-url", "page-gone",
                                    "manifest-link", "page-link", "other-campaign",
                                    "content-pack"])
def test_anything_else_builds(built: tuple[Path, Path, int], tmp_path: Path,
                              change: str, monkeypatch: pytest.MonkeyPatch) -> None:
    campaign, site = copies(built, tmp_path)
    base_url, campaigns = "", [campaign]
    if change == "store":
        with (campaign / "chronicle.sqlite").open("ab") as store:
            store.write(b"\0")
    elif change == "commentary":
        (campaign / "commentary" / "turn-002.md").write_text("Hear ye.\n", encoding="utf-8")
    elif change == "theme":
        (campaign / "theme" / "templates").mkdir(parents=True)
        (campaign / "theme" / "templates" / "footer.html").write_text("<p>own</p>\n")
    elif change == "base-url":
        base_url = "https://example.org/"
    elif change == "page-gone":
        next(site.glob("*/people/*/index.html")).unlink()
    elif change == "manifest-link":
        (site / MANIFEST).rename(tmp_path / "elsewhere")
        os.symlink(tmp_path / "elsewhere", site / MANIFEST)
    elif change == "page-link":
        page = next(site.glob("*/people/*/index.html"))
        page.rename(tmp_path / "page")
        os.symlink(tmp_path / "page", page)
    elif change == "content-pack":
        # A pack's French name edited: the pages that show it must be made again.
        packs = tmp_path / "content"
        shutil.copytree(inputs.content_dir(), packs)
        houses = packs / "rulesets" / "blood-royale" / "houses.toml"
        text = houses.read_text(encoding="utf-8")
        assert "La Maison Plantagenêt" in text
        houses.write_text(text.replace("La Maison Plantagenêt", "Les Plantagenêts"),
                          encoding="utf-8")
        monkeypatch.setattr(inputs, "content_dir", lambda: packs)
    else:
        campaigns.append(build_fixture(tmp_path / "second", turns=1, slug="second-war"))
    assert up_to_date(campaigns, site, base_url) is None
