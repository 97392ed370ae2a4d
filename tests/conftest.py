"""Fixtures the test modules share.

Support modules beside this file (``site_fixture``, ``dynasty_helpers``,
``browser_support``...) are imported by name: pytest puts this folder on the
path for every test module below it, whatever its depth.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import CHROMIUM, DRIVER, chrome
from site_fixture import build_fixture


@pytest.fixture(scope="session")
def fixture_wars(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site fixture's six turns of war (``site_fixture.build_fixture``), played
    once per test process. Read it, never change it: ``wars_copy`` is for that."""
    return build_fixture(tmp_path_factory.mktemp("master") / "fixture-wars", turns=6)


def copy_of(campaign: Path, into: Path) -> Path:
    """A campaign folder copied whole (its store too) under ``into``, same name."""
    return Path(shutil.copytree(campaign, into / campaign.name, symlinks=True))


@pytest.fixture(scope="module")
def wars_copy(fixture_wars: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A test module's own copy of ``fixture_wars``, to change as it likes."""
    return copy_of(fixture_wars, tmp_path_factory.mktemp("wars"))


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Headless Chromium at 1200 × 1000 for the test module (skipped without it)."""
    if CHROMIUM is None or DRIVER is None:
        pytest.skip("chromium or chromedriver is not installed")
    driver = chrome()
    try:
        yield driver
    finally:
        driver.quit()  # type: ignore[attr-defined]
