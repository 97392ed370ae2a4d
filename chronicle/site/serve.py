"""``chronicle serve``: a built site on this machine, and the arbiter's watch mode.

Files are served from inside the output folder only, and never through a
link: each step of a requested path is looked at without following it (as
``writer`` writes and ``campaign.read_input`` reads), so a link planted in a
site, to ``secrets.toml`` say, is refused, not followed. Hidden files (the
build's manifest) are not served.

With ``--watch CAMPAIGN`` a thread looks at the campaign's store (and
``campaign.toml`` and the commentary) every ``interval`` seconds; when one
changes, the site is built again by ``chronicle build`` in a process of its
own (the build forks only when it is the only thread), and the site's
version goes up. Open pages learn it from ``/__chronicle/version``: every
HTML page this server sends in watch mode carries a small script that asks
for it and reloads the page when it changed. The script is added to the
response only; the published files hold no JavaScript of it.
"""

from __future__ import annotations

import html
import http.server
import mimetypes
import os
import stat
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote, urlsplit

from chronicle.errors import NotServed
from chronicle.site.incremental.inputs import STORE

VERSION_PATH = "/__chronicle/version"
#: What watch mode adds to each HTML page it serves, before ``</body>``.
RELOAD = """<script>/* chronicle serve --watch: reloads this page when the site is rebuilt */
(function () {
  var seen = "%(version)s";
  setInterval(function () {
    fetch("%(path)s", {cache: "no-store"}).then(function (r) { return r.text(); })
      .then(function (now) { if (now.trim() !== seen) { location.reload(); } })
      .catch(function () {});
  }, %(every)d);
})();
</script>
"""


def site_file(root: Path, url_path: str) -> Path:
    """The regular file of ``root`` a URL path names (a folder: its ``index.html``).

    No step may be a link, a hidden name or ``..``; anything else is
    ``NotServed``.
    """
    parts = [p for p in unquote(url_path).split("/") if p not in ("", ".")]
    if any(p == ".." or p.startswith(".") or "\0" in p or "\\" in p for p in parts):
        raise NotServed(404, "not a page of the site")
    current = root
    for part in parts:
        if not stat.S_ISDIR(_step(current).st_mode):
            raise NotServed(404, "no such page")
        current = current / part
    if stat.S_ISDIR(_step(current).st_mode):
        current = current / "index.html"
    info = _step(current)
    if not stat.S_ISREG(info.st_mode):
        raise NotServed(404, "not a file")
    if info.st_nlink > 1:
        # The build writes each file anew; one with another name could be anything.
        raise NotServed(403, "a file with another name (a hard link) is not served")
    return current


def _step(path: Path) -> os.stat_result:
    """A step of a served path, looked at without following it."""
    try:
        info = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        raise NotServed(404, "no such page") from None
    if stat.S_ISLNK(info.st_mode):
        raise NotServed(403, "a link: the site's own files only are served")
    return info


def read_site_file(path: Path) -> bytes:
    """A site file's bytes, opened without following a link put in its place meanwhile."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise NotServed(404, "not a file")
        return handle.read()


class Watcher:
    """Builds a campaign's site again whenever its inputs change (``start``: a thread)."""

    def __init__(self, campaign: Path, out: Path, say: Callable[[str], None], *,
                 interval: float = 1.0) -> None:
        self.campaign = campaign
        self.out = out
        self.interval = interval
        self.say = say
        self.version = 0
        self._seen: tuple[tuple[str, int, int], ...] | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="chronicle-watch", daemon=True)

    def signature(self) -> tuple[tuple[str, int, int], ...]:
        """What the site is built from, by name, time and size: cheap enough to ask
        every second (``inputs.fingerprint`` reads the whole store)."""
        files = [self.campaign / STORE, self.campaign / "campaign.toml"]
        commentary = self.campaign / "commentary"
        if commentary.is_dir():
            files += sorted(commentary.glob("*.md"))
        seen = []
        for path in files:
            try:
                info = os.lstat(path)
            except OSError:
                continue
            seen.append((path.name, info.st_mtime_ns, info.st_size))
        return tuple(seen)

    def build(self) -> bool:
        """``chronicle build CAMPAIGN -o OUT`` in its own process; False if it refused."""
        done = subprocess.run(
            [sys.executable, "-m", "chronicle.commands.cli", "build", str(self.campaign), "-o",
             str(self.out)], capture_output=True, text=True, check=False)
        for line in (done.stdout + done.stderr).splitlines():
            self.say(line)
        return done.returncode == 0

    def check(self) -> bool:
        """Build if the inputs changed since the last look; True if a new site is up."""
        now = self.signature()
        if now == self._seen:
            return False
        self._seen = now
        if not self.build():
            return False
        self.version += 1
        return True

    def start(self) -> None:
        self._seen = self.signature()
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=self.interval + 60)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.check()


def handler_for(root: Path, watcher: Watcher | None) -> type[http.server.BaseHTTPRequestHandler]:
    """The request handler of a site in ``root`` (``watcher``: in watch mode)."""

    class SiteHandler(http.server.BaseHTTPRequestHandler):
        server_version = "chronicle-serve"

        def do_GET(self) -> None:
            self._answer(body=True)

        def do_HEAD(self) -> None:
            self._answer(body=False)

        def _answer(self, *, body: bool) -> None:
            path = urlsplit(self.path).path
            if watcher is not None and path == VERSION_PATH:
                self._send(200, "text/plain; charset=utf-8", f"{watcher.version}\n".encode(),
                           body)
                return
            try:
                found = site_file(root, path)
                data = read_site_file(found)
            except NotServed as refused:
                self._send(refused.status, "text/plain; charset=utf-8",
                           f"{refused}\n".encode(), body)
                return
            except OSError:
                self._send(404, "text/plain; charset=utf-8", b"no such page\n", body)
                return
            kind = mimetypes.guess_type(found.name)[0] or "application/octet-stream"
            if kind.startswith("text/") or kind in ("application/javascript", "image/svg+xml"):
                kind += "; charset=utf-8"
            if watcher is not None and found.suffix == ".html":
                data = with_reload(data, watcher.version, watcher.interval)
            self._send(200, kind, data, body)

        def _send(self, status: int, kind: str, data: bytes, body: bool) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            if watcher is not None:
                self.send_header("Cache-Control", "no-store")
            self.end_headers()
            if body:
                self.wfile.write(data)

        def log_message(self, format: str, *args: object) -> None:
            pass

    return SiteHandler


def with_reload(page: bytes, version: int, interval: float) -> bytes:
    """An HTML page with the watch mode's reload script before its ``</body>``."""
    script = (RELOAD % {"version": html.escape(str(version)), "path": VERSION_PATH,
                        "every": max(250, int(interval * 1000))}).encode()
    end = page.rfind(b"</body>")
    return page[:end] + script + page[end:] if end >= 0 else page + script


def make_server(root: Path, port: int,
                watcher: Watcher | None = None) -> http.server.ThreadingHTTPServer:
    """A server of the site in ``root`` on 127.0.0.1 (loopback only)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port),
                                             handler_for(root.resolve(), watcher))
    server.daemon_threads = True
    return server
