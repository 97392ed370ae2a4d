"""``chronicle archive``: the archivist's bundle (DESIGN.md "The archive bundle").

A zip file holding, under one folder named after the campaign's slug:

- ``campaign/``: the campaign folder. Before ``chronicle end`` only what is
  public: ``campaign.toml`` and the commentary of the turns played. The store,
  the order files and the reports hold secrets while the campaign runs (the
  seed's dice, the epidemic threshold, every house's orders), so they wait for
  the end. After it, the whole folder but ``contacts.toml``, ``mail/`` and
  ``outbox/``, which are never published, and the machine's own working files
  (names starting with a dot: the lock, the drawing cache, a turn's marks);
- ``export.json`` and ``genealogy.ged``, the two exports;
- ``site/``, the built site of this campaign;
- ``SHA256SUMS``, one line per other file, as ``sha256sum -c`` reads it.

The bundle is the same bytes whenever it is made from the same campaign:
entries sorted by name, every timestamp 1980-01-01 00:00, every file mode
0644, one compression level.

Nothing is read through a link: a link anywhere in what is bundled stops
the archive with its name (``chronicle.campaign.folder.read_input``).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

from chronicle.archival.export import export_gedcom, export_json
from chronicle.campaign.folder import SECRETS_FILE, STORE_FILE, Campaign, read_input
from chronicle.errors import CampaignError, StoreError
from chronicle.store.lock import unless_read_only
from chronicle.store.turns import Store, copy_store

#: Never in a bundle, before the end or after it (DESIGN.md): the arbiter's
#: addresses and passwords, the mail received and the mail waiting to be sent.
NEVER = frozenset({"contacts.toml", "mail", "outbox"})
SUMS = "SHA256SUMS"
#: The zip format's earliest date: a fixed time for every entry.
EPOCH = (1980, 1, 1, 0, 0, 0)
MODE = 0o100644
FOLDER_MODE = 0o040755
LEVEL = 9
#: The largest file bundled from the campaign folder.
MAX_FILE = 256 * 1024 * 1024


@dataclass(frozen=True)
class Bundle:
    """What ``make_bundle`` wrote: the file, its entries and whether it is the whole."""

    path: Path
    files: int
    ended: bool


def json_text(data: object) -> str:
    """The JSON export's text, as ``chronicle export --format json`` prints it."""
    return json.dumps(data, indent=1, sort_keys=False, ensure_ascii=False) + "\n"


def sums_line(digest: str, name: str) -> str:
    """One line of ``SHA256SUMS``; a name with a backslash or a line break is
    written escaped, with a leading backslash, as GNU ``sha256sum`` does."""
    if "\\" in name or "\n" in name or "\r" in name:
        escaped = name.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r")
        return f"\\{digest}  {escaped}\n"
    return f"{digest}  {name}\n"


def _campaign_files(campaign: Campaign, ended: bool, last_turn: int,
                    skip: Path | None) -> dict[str, bytes]:
    """The campaign folder's files that go in the bundle, by their name inside it."""
    root = campaign.root
    if not ended:
        names = ["campaign.toml"]
        names += [f"commentary/turn-{turn:03d}.md" for turn in range(1, last_turn + 1)]
    else:
        names = sorted(_walk(root, skip))
    files: dict[str, bytes] = {}
    for name in names:
        if name == STORE_FILE:
            continue  # copied whole through SQLite, below
        data = read_input(root, root / name, name, limit=MAX_FILE,
                          secret=name == SECRETS_FILE)
        if data is not None:
            files[name] = data
    return files


def _walk(root: Path, skip: Path | None) -> list[str]:
    """Every regular file of the campaign folder but what is never published, and the
    dot-files; a link is refused, never followed."""
    found: list[str] = []

    def visit(folder: Path, rel: str) -> None:
        with os.scandir(folder) as entries:
            listed = sorted(entries, key=lambda e: e.name)
        for entry in listed:
            name = f"{rel}{entry.name}"
            if entry.name.startswith(".") or (not rel and entry.name in NEVER):
                continue
            if not rel and entry.name.startswith(f"{STORE_FILE}-"):
                continue  # SQLite's journal: part of the store, copied through it
            if skip is not None and Path(entry.path).resolve() == skip:
                continue
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISLNK(info.st_mode):
                raise CampaignError(f"{name}: is a link; Chronicle bundles the campaign "
                                    "folder's own files only, never through a link")
            if stat.S_ISDIR(info.st_mode):
                visit(Path(entry.path), f"{name}/")
            elif stat.S_ISREG(info.st_mode):
                found.append(name)

    visit(root, "")
    return found


def make_bundle(campaign: Campaign, output: Path) -> Bundle:
    """Write ``campaign``'s archive bundle to ``output`` (a ``.zip``)."""
    from chronicle.site import build_site

    root = campaign.root
    store_path = campaign.store_path
    if store_path.is_symlink():
        raise CampaignError(f"{STORE_FILE}: is a link; Chronicle reads the campaign "
                            "folder's own files only, never through a link")
    if not store_path.is_file():
        raise CampaignError("%(store)s: no store yet; adjudicate a turn first", store=STORE_FILE)
    output = Path(os.path.abspath(output))
    if output.is_dir():
        raise CampaignError("%(output)s: is a folder; name the bundle's file (-o FILE.zip)",
                            output=output)
    top = campaign.slug
    with unless_read_only(root, "archive"), \
            tempfile.TemporaryDirectory(prefix="chronicle-archive-") as tmp:
        work = Path(tmp)
        copy = work / STORE_FILE
        copy_store(store_path, copy)
        try:
            store = Store.open(copy)
        except StoreError as err:
            raise CampaignError(str(err)) from None
        try:
            row = store.campaign()
            ended = row.seed_revealed is not None
            state, events = store.state(), store.events()
            last = store.last_turn()
        finally:
            store.close()
        files: dict[str, bytes] = {}
        for name, data in _campaign_files(campaign, ended, last, output.resolve()).items():
            files[f"campaign/{name}"] = data
        if ended:
            files[f"campaign/{STORE_FILE}"] = copy.read_bytes()
        files["export.json"] = json_text(export_json(campaign, state, events,
                                                     row=row)).encode("utf-8")
        files["genealogy.ged"] = export_gedcom(campaign, state, events).encode("utf-8")
        site = work / "site"
        build_site([root], site)
        for path in sorted(site.rglob("*")):
            rel = path.relative_to(site).as_posix()
            # The build's manifest is its own bookkeeping, not part of the site.
            if path.is_file() and not any(part.startswith(".") for part in rel.split("/")):
                files[f"site/{rel}"] = path.read_bytes()
        ordered = sorted(files)
        sums = "".join(sums_line(hashlib.sha256(files[name]).hexdigest(), name)
                       for name in ordered)
        files[SUMS] = sums.encode("utf-8")
        # A turn played on defaults has an empty order folder, which a zip keeps
        # only as an entry of its own; without it ``verify`` finds the turn's
        # orders missing.
        folders = [f"campaign/orders/turn-{turn:03d}/" for turn in range(1, last + 1)
                   if ended and campaign.orders_dir(turn).is_dir()]
        _write_zip(output, top, files, folders)
    return Bundle(path=output, files=len(files), ended=ended)


def _write_zip(output: Path, top: str, files: dict[str, bytes],
               folders: list[str]) -> None:
    """The zip, written beside ``output`` and renamed over it (a link there is
    replaced, not followed); ``folders`` (names ending in ``/``) are entries of
    their own."""
    output.parent.mkdir(parents=True, exist_ok=True)
    fresh = output.with_name(f".{output.name}.tmp")
    fresh.unlink(missing_ok=True)
    try:
        fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
        with os.fdopen(fd, "wb") as handle, \
                zipfile.ZipFile(handle, "w", zipfile.ZIP_DEFLATED) as bundle:
            for name in sorted([*files, *folders]):
                info = zipfile.ZipInfo(f"{top}/{name}", date_time=EPOCH)
                info.create_system = 3  # Unix: the mode below is read
                if name in files:
                    info.compress_type = zipfile.ZIP_DEFLATED
                    info.external_attr = MODE << 16
                    bundle.writestr(info, files[name], compresslevel=LEVEL)
                else:
                    info.external_attr = FOLDER_MODE << 16 | 0x10  # and MS-DOS's folder flag
                    bundle.writestr(info, b"")
        os.replace(fresh, output)
    finally:
        fresh.unlink(missing_ok=True)
