"""Issue 19, item 7: "A watch mode for the arbiter: ``chronicle serve --watch CAMPAIGN``
rebuilds when the store changes and reloads open pages."

The command runs for real, in its own process, on a loopback port; a turn is
adjudicated meanwhile by ``chronicle adjudicate``, and the served site and its
version change. Every wait is bounded. The reload script is in what is served
in watch mode only, never in the published files (standard 7: content needs
no JavaScript), and the server hands out the site's own files only, never
through a link (standard 5).
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from browser_support import CHROMIUM, DRIVER, MISSING
from cli_support import serve_process

from chronicle.campaign.scaffold import scaffold
from chronicle.errors import NotServed
from chronicle.site.serve import site_file

#: Long enough for a build and a turn of the small campaign on a busy machine.
TIMEOUT = 120.0


def _chronicle(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "chronicle.commands.cli", *map(str, args)],
                          capture_output=True, text=True, timeout=TIMEOUT, check=False)


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as reply:
            return reply.status, reply.read().decode("utf-8")
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode("utf-8")


def _until(what: str, check: object, timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


@contextmanager
def _serving(*args: str | Path) -> Iterator[str]:
    """``chronicle serve ARGS --port 0`` in its own process; the URL it serves on."""
    process, lines = serve_process(*args)
    try:
        deadline = time.monotonic() + TIMEOUT
        while True:
            left = deadline - time.monotonic()
            assert left > 0 and process.poll() is None, "the server did not start"
            try:
                line = lines.get(timeout=left)
            except queue.Empty:
                continue
            if line.startswith("Serving "):
                yield line.split(" on ", 1)[1].split()[0]
                return
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=30)


@pytest.fixture()
def campaign(tmp_path: Path) -> Path:
    folder = tmp_path / "watched"
    scaffold(folder, "blood-royale", seed="watch")
    done = _chronicle("adjudicate", folder, "--yes")
    assert done.returncode == 0, done.stderr
    return folder


def test_watch_rebuilds_when_a_turn_is_adjudicated_and_pages_reload(campaign: Path,
                                                                    tmp_path: Path) -> None:
    site = tmp_path / "site"
    with _serving("--watch", campaign, "-o", site, "--interval", "0.3") as url:
        home = f"{url}{campaign.name}/index.html"
        status, before = _get(home)
        assert status == 200
        status, version = _get(f"{url}__chronicle/version")
        assert status == 200 and version.strip() == "0"
        # The page served carries the reload script, asking that very endpoint.
        assert '"/__chronicle/version"' in before and 'var seen = "0"' in before
        assert "turn-002" not in before
        (campaign / "orders" / "turn-002").mkdir(parents=True, exist_ok=True)
        done = _chronicle("adjudicate", campaign, "--yes")
        assert done.returncode == 0, done.stderr
        _until("the version to change", lambda: _get(f"{url}__chronicle/version")[1].strip()
               not in ("", "0"))
        status, after = _get(home)
        assert status == 200 and "turn-002" in after and after != before
        assert 'var seen = "1"' in after
        status, page = _get(f"{url}{campaign.name}/turns/turn-002/index.html")
        assert status == 200 and "/__chronicle/version" in page
    # What was published holds no script of the watch mode.
    published = [p.read_text(encoding="utf-8") for p in site.rglob("*.html")]
    assert len(published) > 20
    assert not any("__chronicle" in text for text in published)


@pytest.mark.browser
@pytest.mark.skipif(CHROMIUM is None or DRIVER is None, reason=MISSING)
def test_an_open_page_reloads_itself_in_chromium(browser: object,
                                                 campaign: Path, tmp_path: Path) -> None:
    """"...and reloads open pages": the page open in the browser shows the new turn
    without anyone reloading it."""
    with _serving("--watch", campaign, "-o", tmp_path / "site", "--interval", "0.3") as url:
        browser.get(f"{url}{campaign.name}/index.html")  # type: ignore[attr-defined]
        # A mark on this very page: gone once the page has been loaded again.
        browser.execute_script("window.chronicleMark = 1")  # type: ignore[attr-defined]
        assert "turn-002" not in browser.page_source  # type: ignore[attr-defined]
        (campaign / "orders" / "turn-002").mkdir(parents=True, exist_ok=True)
        assert _chronicle("adjudicate", campaign, "--yes").returncode == 0
        _until("the open page to reload", lambda: browser.execute_script(  # type: ignore[attr-defined]
            "return window.chronicleMark === undefined && "
            "document.body.innerHTML.includes('turn-002')"))


def test_serve_hands_out_only_the_sites_own_files(campaign: Path, tmp_path: Path) -> None:
    """Standard 5: "no input or output goes through a link"."""
    site = tmp_path / "site"
    assert _chronicle("build", campaign, "-o", site).returncode == 0
    os.symlink(campaign / "secrets.toml", site / "secrets.html")
    os.symlink(campaign, site / "campaign")
    os.link(campaign / "secrets.toml", site / "copy.txt")
    secret = (campaign / "secrets.toml").read_text(encoding="utf-8")
    with _serving(site) as url:
        assert _get(url)[0] == 200 and _get(f"{url}{campaign.name}/")[0] == 200
        for path, status in (("secrets.html", 403), ("campaign/secrets.toml", 403),
                             ("copy.txt", 403), ("..%2Fwatched%2Fsecrets.toml", 404),
                             (".chronicle-manifest", 404), ("no-such-page.html", 404)):
            code, text = _get(f"{url}{path}")
            assert (code, secret in text) == (status, False), path
        # No reload script without --watch, and no version to ask for.
        assert "__chronicle" not in _get(url)[1]
        assert _get(f"{url}__chronicle/version")[0] == 404


def test_site_file_refuses_every_way_out(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "index.html").write_text("a", encoding="utf-8")
    (tmp_path / "out.txt").write_text("x", encoding="utf-8")
    assert site_file(tmp_path, "/a/") == tmp_path / "a" / "index.html"
    for path in ("/../x", "/a/../../x", "/.hidden", "/a/%2e%2e/out.txt", "/out.txt/x"):
        with pytest.raises(NotServed):
            site_file(tmp_path, path)
