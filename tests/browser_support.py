"""Headless Chromium for the real-browser tests: where it is, a site served over
HTTP on this machine, and the check that a page logged no error."""

from __future__ import annotations

import contextlib
import functools
import http.server
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from repo_paths import TESTS

#: Where the browser tests leave their screenshots, to be looked at.
SHOTS = TESTS / "screenshots"


def _browser() -> tuple[Path | None, Path | None, str]:
    """Debian's Chromium and its driver, and why the tests skip if either is missing."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    missing = [name for name, found in (("chromium", chromium), ("chromedriver", driver))
               if found is None]
    why = f"{' and '.join(missing)} not installed (Debian: chromium, chromium-driver)"
    return (Path(chromium) if chromium else None, Path(driver) if driver else None, why)


CHROMIUM, DRIVER, MISSING = _browser()

#: A browser test module's marks: ``pytestmark = BROWSER``.
BROWSER = [pytest.mark.browser,
           pytest.mark.skipif(CHROMIUM is None or DRIVER is None, reason=MISSING)]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def served(folder: Path) -> Iterator[str]:
    """The URL of ``folder`` served over HTTP on this machine, while the block runs."""
    handler = functools.partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def chrome(width: int = 1200, height: int = 1000) -> object:
    """A headless Chromium driven through chromedriver (the caller quits it)."""
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 f"--window-size={width},{height}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(str(DRIVER)), options=options)


def no_console_errors(driver: object) -> None:
    logs = driver.get_log("browser")  # type: ignore[attr-defined]
    errors = [entry for entry in logs if entry["level"] in ("SEVERE", "ERROR")]
    assert errors == []
