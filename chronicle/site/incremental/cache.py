"""A content-addressed cache for rendered diagrams.

Laying out a large genealogy is the slowest step of a build, and most
diagrams do not change from one turn to the next. The cache keys a rendering
by the SHA-256 of its source text (the DOT) and a salt naming the renderer,
so an unchanged diagram is read back instead of laid out again, and a new
Graphviz or a new post-processing step gets fresh files. Entries hold no
timestamp; the same source always maps to the same file, e.g.
``<campaign>/.cache/graphviz/<sha256>.svg``.

Each build touches the entries it uses (any process may), so that
:func:`prune` can then drop those it did not: diagrams of turns rolled
back, or of states long gone, which would otherwise pile up turn after turn.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

from chronicle.site.svgsafe import accepted

Renderer = Callable[[str], str]


class RenderCache:
    """Rendered text stored under ``folder`` by the hash of its source.

    The folder lies in the campaign's, which may come from someone else:
    an entry is used only as ``accept`` returns it (by default, marked as a
    drawing the site may publish); one it refuses (None) is rendered again,
    and replaced.
    """

    def __init__(self, folder: Path, *, salt: str = "", suffix: str = ".svg",
                 accept: Callable[[str], str | None] = accepted) -> None:
        self.folder = folder
        self.salt = salt
        self.suffix = suffix
        self.accept = accept

    def key(self, source: str) -> str:
        digest = hashlib.sha256()
        digest.update(self.salt.encode("utf-8"))
        digest.update(b"\0")
        digest.update(source.encode("utf-8"))
        return digest.hexdigest()

    def path(self, source: str) -> Path:
        return self.folder / f"{self.key(source)}{self.suffix}"

    def get(self, source: str) -> str | None:
        """The stored rendering of ``source``, or None (missing, unreadable or refused)."""
        text = self.read(source)
        return None if text is None else self.accept(text)

    def read(self, source: str) -> str | None:
        """The stored rendering of ``source`` as it is, unchecked (``accept`` is the
        caller's to apply), or None if missing or unreadable; marked as used."""
        path = self.path(source)
        try:
            # Never through a link: an entry planted as one would publish
            # whatever file it points to.
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
            with os.fdopen(fd, "rb") as handle:
                text = handle.read().decode("utf-8")
        except (OSError, UnicodeDecodeError):
            return None
        # Used by this build: kept by ``prune``. A read-only campaign folder
        # still builds; it just keeps everything.
        with contextlib.suppress(OSError):
            os.utime(path)
        return text

    def touch(self, source: str) -> None:
        """Mark the entry of ``source`` used by this build, unread (kept by ``prune``)."""
        with contextlib.suppress(OSError, NotImplementedError):
            os.utime(self.path(source), follow_symlinks=False)

    def put(self, source: str, rendered: str) -> None:
        """Store atomically, so an interrupted build never leaves half a file.

        The cache only saves time: where it cannot be written (a campaign
        folder on read-only media, a full disk), the build goes on without it.
        """
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".tmp-", suffix=self.suffix)
        except OSError:
            return
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
                handle.write(rendered)
            os.replace(tmp, self.path(source))
        except BaseException as err:
            Path(tmp).unlink(missing_ok=True)
            if not isinstance(err, OSError):
                raise


def inside(root: Path, *parts: str) -> Path | None:
    """``root/parts...``, unless links lead it out of ``root`` (then None).

    A campaign folder may come from elsewhere (an archive downloaded whole):
    a link planted as its cache would have the build write, and prune, files
    outside it. The cache only saves time, so the build does without it.
    """
    path = root.joinpath(*parts)
    try:
        return path if path.resolve().is_relative_to(root.resolve()) else None
    except (OSError, RuntimeError):  # unreadable, or a loop of links
        return None


_ENTRY = re.compile(r"(?:[0-9a-f]{64}|\.tmp-.*)\.[a-z]+")


def prune(folder: Path, before: float) -> list[Path]:
    """Remove the entries of ``folder`` last used before ``before`` (a time).

    Only files named like entries (or left half-written) go; anything else
    in the folder, and the folder itself, is left alone. A file a concurrent
    build just used is newer than ``before`` and stays.
    """
    removed: list[Path] = []
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return removed
    for entry in entries:
        try:
            if (_ENTRY.fullmatch(entry.name) and entry.is_file(follow_symlinks=False)
                    and entry.stat(follow_symlinks=False).st_mtime < before):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue  # gone already, or not ours to remove: kept
    return removed


def render_cached(source: str, render: Renderer, cache: RenderCache | None,
                  finish: Callable[[str], str] | None = None) -> str:
    """``render(source)``, unless the cache already holds its result.

    ``finish`` (optional) completes the rendering, cached or not, before it is
    used; a cached entry is accepted (``RenderCache.accept``) once finished,
    so that what is checked is what is published. The cache keeps the
    rendering unfinished.
    """
    done = finish or _as_is
    if cache is None:
        return done(render(source))
    stored = cache.read(source)
    if stored is not None:
        hit = cache.accept(done(stored))
        if hit is not None:
            return hit
    rendered = render(source)
    cache.put(source, rendered)
    return done(rendered)


def _as_is(text: str) -> str:
    return text
