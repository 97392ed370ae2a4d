"""The only code that touches the output folder.

The writer guards the site: a path may be written once per build and never
outside the output folder. It writes a file only when its bytes changed, so
an unchanged rebuild leaves every modification time alone, and it removes the
files an earlier build wrote that this build did not (the list lives in the
manifest ``.chronicle-manifest``; files it never wrote are never deleted).

The manifest also keeps one fingerprint per campaign: when a campaign's
inputs are unchanged and its files are still in place, the builder skips it
and ``keep``\\ s the files instead of rendering them again.

A build that stops halfway (Ctrl-C, a full disk, a crash) must leave nothing
the next one would trust wrongly: before its first file is written, the
manifest keeps only the files' list and says ``building``,
and every file new to the site is noted in a journal (``JOURNAL``) before it
is made. The next build then renders every page again (still writing only
the bytes that changed) and removes what the stopped one left that it does
not write itself, and any copy it had not yet renamed over its file.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from pathlib import Path
from typing import Any

from chronicle.errors import PublishError
from chronicle.site.incremental.inputs import MANIFEST

#: Files a build made that the manifest did not list, one JSON string a line,
#: while it runs (see the module's docstring).
JOURNAL = MANIFEST + ".new"

# Never through a link: the output folder may come from elsewhere, and a
# link planted there (as a page, its ``.tmp`` or the manifest) would have the
# build overwrite whatever file it points to.
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NOFOLLOW | getattr(os, "O_CLOEXEC", 0) | \
    getattr(os, "O_BINARY", 0)


def _write_file(path: str, data: bytes) -> None:
    """``data`` into the file ``path``, made or emptied first; refused if it is a link.

    The file calls themselves, without a Python file object around them: a
    first build writes twelve thousand files, and the object's own work (a
    buffer, a ``stat`` for its size) cost as much as the writing.
    """
    try:
        fd = os.open(path, _FLAGS, 0o666)
    except OSError:
        if os.path.islink(path):
            raise PublishError(f"refusing to write through a link: {path!r}") from None
        raise
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def _replace_file(path: str, data: bytes) -> None:
    """``data`` into ``path`` by way of a new file renamed over it.

    Renaming replaces a link planted at ``path`` instead of following it;
    anything already at the temporary name is removed first, for the same reason.
    """
    tmp = path + ".tmp"
    with contextlib.suppress(FileNotFoundError):
        os.unlink(tmp)
    _write_file(tmp, data)
    os.replace(tmp, path)


def _holds(path: str, data: bytes) -> bool:
    """True if ``path`` is a plain file (not a link) whose bytes are ``data``."""
    info = os.lstat(path)
    if not stat.S_ISREG(info.st_mode) or info.st_size != len(data):
        return False
    fd = os.open(path, os.O_RDONLY | _NOFOLLOW | getattr(os, "O_BINARY", 0))
    with os.fdopen(fd, "rb") as fh:
        return fh.read() == data


def _make_folder(folder: str) -> None:
    """Make ``folder`` if it is missing; usually only its last part is."""
    try:
        os.mkdir(folder)
    except FileExistsError:
        pass
    except FileNotFoundError:
        os.makedirs(folder, exist_ok=True)


class Writer:
    """Writes files under ``out_dir``; see the module docstring for the guarantees."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir.resolve()
        self._root = str(self.out_dir)
        self._folders: set[str] = set()
        self._fresh: set[str] = set()  # checked folders that did not exist: made by us
        # Whether the output folder exists is settled now, before a forked helper
        # (``parallel``) can make it: otherwise the first process to write would
        # find it made by the other, and ``lstat`` every folder of a fresh site.
        self._root_absent = not os.path.lexists(self._root)
        self.written: set[str] = set()
        self.changed: list[str] = []
        self.fingerprints: dict[str, str] = {}
        self.facts: dict[str, dict[str, Any]] = {}
        # Each page's print (``pages.page_print``), this build's and the last's.
        self.page_prints: dict[str, str] = {}
        self.site_print = ""  # of the whole site's inputs (``inputs.up_to_date``)
        self._after_stop = False  # the last build stopped halfway (``_read_manifest``)
        (self._previous_files, self._previous_groups, self._previous_prints,
         self._previous_facts, self._previous_pages) = self._read_manifest()
        self._groups: dict[str, list[str]] = {}
        self._group: str = ""
        self._journal: int | None = None  # its descriptor, once this build writes

    # -- the manifest ---------------------------------------------------------
    def _read_manifest(self) -> tuple[set[str], dict[str, list[str]], dict[str, str],
                                      dict[str, dict[str, Any]], dict[str, str]]:
        try:
            fd = os.open(self.out_dir / MANIFEST, os.O_RDONLY | _NOFOLLOW)
            with os.fdopen(fd, "rb") as handle:
                data = json.loads(handle.read().decode("utf-8"))
            groups = {str(k): [str(p) for p in v] for k, v in data.get("groups", {}).items()}
            prints = {str(k): str(v) for k, v in data.get("fingerprints", {}).items()}
            facts = {str(k): dict(v) for k, v in data.get("facts", {}).items()}
            pages = {str(k): str(v) for k, v in data.get("pages", {}).items()}
            files = {str(p) for p in data.get("files", [])}
            if data.get("building"):
                self._after_stop = True
                files |= self._journaled()
            return files, groups, prints, facts, pages
        except (OSError, ValueError, AttributeError, TypeError):
            return set(), {}, {}, {}, {}

    def _journaled(self) -> set[str]:
        """The files a build that stopped halfway noted as new (``JOURNAL``)."""
        try:
            fd = os.open(self.out_dir / JOURNAL, os.O_RDONLY | _NOFOLLOW)
        except OSError:
            return set()
        with os.fdopen(fd, "rb") as handle:
            lines = handle.read().decode("utf-8", "replace").splitlines()
        found: set[str] = set()
        for line in lines:
            with contextlib.suppress(ValueError):
                path = json.loads(line)
                if isinstance(path, str):
                    found.add(path)
        return found

    def _begin_writing(self) -> None:
        """Before this build's first file: the manifest without its prints, and a
        new journal (see the module's docstring). Done by the parent before it
        forks (``begin_group``), so a helper process finds it done."""
        if self._journal is not None:
            return
        self.out_dir.mkdir(parents=True, exist_ok=True)
        interim = {"building": True, "files": sorted(self._previous_files)}
        _replace_file(str(self.out_dir / MANIFEST),
                      json.dumps(interim, indent=0, sort_keys=True).encode("utf-8"))
        journal = str(self.out_dir / JOURNAL)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(journal)  # a link planted there is removed, not followed
        self._journal = os.open(journal, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND
                                | _NOFOLLOW | getattr(os, "O_BINARY", 0), 0o666)

    def _about_to_write(self, relpath: str) -> None:
        """Note a file new to the site before making it (whichever process makes it:
        the journal is opened for appending, so lines never overwrite each other)."""
        self._begin_writing()
        if relpath not in self._previous_files:
            assert self._journal is not None
            os.write(self._journal, (json.dumps(relpath) + "\n").encode("utf-8"))

    def has_fingerprints(self) -> bool:
        """True if the last build recorded any group's fingerprint."""
        return bool(self._previous_prints)

    def previous_group(self, fingerprint: str) -> tuple[str, dict[str, Any]] | None:
        """The group the last build recorded with ``fingerprint``, and its facts."""
        for group, recorded in self._previous_prints.items():
            if recorded == fingerprint:
                return group, self._previous_facts.get(group, {})
        return None

    def begin_group(self, group: str, fingerprint: str,
                    facts: dict[str, Any] | None = None) -> None:
        """Files written from now on belong to ``group`` (a campaign).

        ``fingerprint`` and ``facts`` (plain JSON values) are kept in the
        manifest for the next build: see ``previous_group``.
        """
        self._begin_writing()
        self._group = group
        self.fingerprints[group] = fingerprint
        self.facts[group] = dict(facts or {})
        self._groups.setdefault(group, [])

    def keep_group(self, group: str) -> bool:
        """Claim an unchanged group's files without rewriting them.

        Returns False (and claims nothing) when any of its files is missing,
        so that the caller renders the group again.
        """
        files = self._previous_groups.get(group)
        root, isfile, join = self._root, os.path.isfile, os.path.join
        # Strings, not Paths: an unchanged rebuild is mostly this loop.
        if files is None or not all(isfile(join(root, f)) for f in files):
            return False
        for rel in files:
            self._claim(rel)
            if rel in self._previous_pages:
                self.page_prints[rel] = self._previous_pages[rel]
        self._groups[group] = list(files)
        self.fingerprints[group] = self._previous_prints[group]
        self.facts[group] = self._previous_facts.get(group, {})
        return True

    def previous_facts(self) -> dict[str, Any]:
        """The facts the last build kept for the group being written (``begin_group``)."""
        return self._previous_facts.get(self._group, {})

    def previous_print(self, relpath: str) -> str | None:
        """The print the last build kept for the page ``relpath``, if any."""
        return self._previous_pages.get(relpath)

    def keep_page(self, relpath: str, key: str) -> bool:
        """Claim ``relpath`` unwritten if the last build made it from inputs printed
        ``key`` and it is still a plain file there; False (nothing claimed) otherwise.

        The print is of the page's inputs (``pages.page_print``), so a page
        kept is the page a new rendering would write.
        """
        if self._previous_pages.get(relpath) != key:
            return False
        target = self._target(relpath)
        try:
            if not stat.S_ISREG(os.lstat(target).st_mode):
                return False
        except OSError:
            return False
        self._claim(relpath)
        self.page_prints[relpath] = key
        return True

    # -- writing --------------------------------------------------------------
    def _target(self, relpath: str) -> str:
        """The file's path, after refusing anything that could leave ``out_dir``.

        Only plain relative POSIX paths pass (no ``..``, empty part, backslash,
        drive or NUL), so the join stays inside without asking the disk.
        """
        parts = relpath.split("/")
        if (not relpath or relpath.startswith("/") or "\\" in relpath or "\x00" in relpath
                or ":" in parts[0] or any(p in ("", ".", "..") for p in parts)
                or parts[0] in (MANIFEST, JOURNAL)):
            raise PublishError(f"refusing to write outside the site: {relpath!r}")
        return os.path.join(self._root, *parts)

    def _claim(self, relpath: str) -> None:
        if relpath in self.written:
            raise PublishError(f"the site writes {relpath!r} twice")
        self.written.add(relpath)
        if self._group:
            self._groups[self._group].append(relpath)

    def write(self, relpath: str, content: str | bytes) -> None:
        """Write ``content`` at ``relpath`` (POSIX, relative) if its bytes changed.

        In this thread: writing on a pool of threads was measured to save under
        5 % of a build (paired whole builds; README), and threads may not run
        while the build forks (``executor``).
        """
        target, folder, data = self._checked(relpath, content)
        self._claim(relpath)
        if self._store(relpath, target, folder, data, folder in self._fresh) is not None:
            self.changed.append(relpath)

    def _checked(self, relpath: str, content: str | bytes) -> tuple[str, str, bytes]:
        """The file's path and folder, once both are known safe, and its bytes."""
        target = self._target(relpath)
        folder = os.path.dirname(target)
        if folder not in self._folders:
            self._check_folder(folder, relpath)
        return target, folder, content.encode("utf-8") if isinstance(content, str) else content

    def _check_folder(self, folder: str, relpath: str) -> None:
        """Refuse a folder that is, or lies under, a link (it could lead out of the site).

        Folders already checked are remembered, so a new folder costs one
        ``lstat`` of its own name, not a walk from the file system's root; a
        name that does not exist yet will be made by the writer, as a folder,
        and so will everything under it, which needs no look at all (a first
        build into an empty folder asks the disk nothing before writing).
        """
        if folder == self._root:
            real = os.path.realpath(folder)
            if real != self._root:
                raise PublishError(f"refusing to write through a link: {relpath!r}")
            if self._root_absent:
                self._fresh.add(folder)
            self._folders.add(folder)
            return
        parent = os.path.dirname(folder)
        if parent not in self._folders:
            self._check_folder(parent, relpath)
        if parent in self._fresh:
            self._fresh.add(folder)
        else:
            try:
                if stat.S_ISLNK(os.lstat(folder).st_mode):
                    raise PublishError(f"refusing to write through a link: {relpath!r}")
            except FileNotFoundError:
                self._fresh.add(folder)
        self._folders.add(folder)

    def _store(self, relpath: str, target: str, folder: str, data: bytes,
               fresh: bool = False) -> str | None:
        """Write one file unless it already holds ``data``; return its path if written.

        In a ``fresh`` folder (absent when checked) there is nothing to compare.
        """
        if fresh:
            self._about_to_write(relpath)
            _make_folder(folder)
            _write_file(target, data)
            return relpath
        try:
            if _holds(target, data):
                return None
            self._about_to_write(relpath)
            _replace_file(target, data)
        except FileNotFoundError:  # a new file, or its folder gone meanwhile
            self._about_to_write(relpath)
            _make_folder(folder)
            _write_file(target, data)
        return relpath

    # -- pages written by another process (see ``parallel``) --------------------
    def claim_elsewhere(self, relpath: str) -> None:
        """Claim a path that another process writes (checked like any other)."""
        self._target(relpath)
        self._claim(relpath)

    def write_here(self, relpath: str, content: str | bytes) -> bool:
        """Write at once, in this thread, claiming nothing; True if the bytes changed.

        For a forked helper process: the parent claims the path
        (``claim_elsewhere``) and records the change.
        """
        target, folder, data = self._checked(relpath, content)
        return self._store(relpath, target, folder, data, folder in self._fresh) is not None

    def record_changed(self, paths: list[str], prints: dict[str, str] | None = None) -> None:
        """Count as changed files that another process wrote; keep its pages' prints."""
        self.changed.extend(paths)
        self.page_prints.update(prints or {})

    def end_group(self) -> None:
        self._group = ""

    # -- finishing ------------------------------------------------------------
    def finish(self) -> list[str]:
        """Remove stale files of earlier builds, save the manifest; return the removed."""
        removed: list[str] = []
        for rel in sorted(self._previous_files - self.written):
            target = self._removable(rel)
            if target is not None:
                target.unlink()
                removed.append(rel)
                self._prune(target.parent)
        if self._after_stop:
            self._remove_stray_copies()
        manifest = {"files": sorted(self.written),
                    "groups": {k: sorted(v) for k, v in sorted(self._groups.items())},
                    "fingerprints": dict(sorted(self.fingerprints.items())),
                    "facts": dict(sorted(self.facts.items())),
                    "pages": {p: k for p, k in sorted(self.page_prints.items())
                              if p in self.written},
                    "site": self.site_print}
        self.out_dir.mkdir(parents=True, exist_ok=True)
        _replace_file(str(self.out_dir / MANIFEST),
                      json.dumps(manifest, indent=0, sort_keys=True).encode("utf-8"))
        if self._journal is not None:
            os.close(self._journal)
            self._journal = None
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.out_dir / JOURNAL)
        return removed

    def _removable(self, rel: str) -> Path | None:
        """The file ``rel`` names if it may be removed: a plain file whose folders are
        the site's own (a manifest naming a path through a link must not remove
        anything elsewhere)."""
        try:
            target = Path(self._target(rel))
        except PublishError:
            return None
        if target.is_file() and not target.is_symlink() and \
                target.resolve().is_relative_to(self.out_dir):
            return target
        return None

    def _remove_stray_copies(self) -> None:
        """The new copies a stopped build made and did not rename over their files
        (``_replace_file``): only files the site had then were replaced, all
        in the list it left, and an upload would otherwise publish the copy."""
        site = self._previous_files | self.written
        for rel in sorted(self._previous_files):
            # A file of the site may have a copy's name (a theme's, say): it stays.
            stray = self._removable(rel + ".tmp") if rel + ".tmp" not in site else None
            if stray is not None:
                stray.unlink()

    def _prune(self, folder: Path) -> None:
        while folder != self.out_dir and folder.is_relative_to(self.out_dir):
            try:
                folder.rmdir()
            except OSError:
                return
            folder = folder.parent
