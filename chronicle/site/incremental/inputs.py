"""What a site is made from, hashed: light enough for a build that changes nothing.

A build with nothing changed must not pay for the database library, the
templates or Graphviz: this module imports none of them. It names the theme
layers of a campaign and hashes every input of its pages (``fingerprint``);
``build`` keeps the hashes in the manifest, and ``up_to_date`` compares.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import tomllib
import unicodedata
from collections.abc import Iterable
from pathlib import Path

import adjudicator
import chronicle
from chronicle.campaign.resources import content_dir, themes_dir

STORE = "chronicle.sqlite"
MANIFEST = ".chronicle-manifest"
BASE_THEME = "default"
# The code the pages are made by: the generator, the sentences, the engine's events.
CODE = (Path(chronicle.__file__).parent, Path(adjudicator.__file__).parent)

_NOT_IN_SLUG = re.compile(r"[^a-z0-9]+")


def slugify(text: str, default: str = "x") -> str:
    """A lowercase ASCII slug for URLs (stable: depends on the text alone)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = _NOT_IN_SLUG.sub("-", ascii_text.lower()).strip("-")
    return slug or default


def theme_chain(folder: Path | None, theme: str, ruleset: str | None = None) -> list[Path]:
    """Campaign overrides, then the chosen theme, then the base theme, then the layers
    of the campaign's ruleset (``Descriptor.theme_layers``: its own pages and the
    blocks it fills), which the layers before them override like any template."""
    chain = []
    if folder is not None:
        chain.append(folder / "theme")
    name = slugify(theme, BASE_THEME)
    if name != BASE_THEME:
        chain.append(themes_dir() / name)
    chain.append(themes_dir() / BASE_THEME)
    chain += ruleset_layers(ruleset)
    return [p for p in chain if p.is_dir()]


def ruleset_layers(ruleset: str | None) -> tuple[Path, ...]:
    """The theme layers of ``ruleset`` (none for an unknown one: the load refuses it)."""
    from chronicle.rulesets import descriptor

    if ruleset is None:
        return ()
    try:
        return descriptor(ruleset).theme_folders()
    except KeyError:
        return ()


def _files_under(folder: Path, patterns: Iterable[str]) -> list[Path]:
    return sorted({p for pat in patterns for p in folder.rglob(pat) if p.is_file()})


def _hash_files(digest: hashlib._Hash, inputs: Iterable[tuple[int, Path, Path]]) -> None:
    """Each file by its name under its root (not where it lies on this machine:
    the manifest that keeps the hash is part of the site) and its bytes."""
    for index, root, path in inputs:
        if path.is_file():
            # Fed piece by piece: joining would copy a whole store once more.
            for piece in (f"{index}:{path.relative_to(root).as_posix()}".encode(), b"\0",
                          path.read_bytes(), b"\0"):
                digest.update(piece)


def code_print(chain: list[Path], base_url: str) -> str:
    """The hash of what every page is made with: the theme layers (their templates and
    static files), the code and its catalogues, the content packs, and the base URL
    (not the campaign)."""
    digest = hashlib.sha256(base_url.encode())
    inputs: list[tuple[int, Path, Path]] = []
    for index, layer in enumerate(chain, start=1):
        inputs += [(index, layer, p) for part in ("templates", "static")
                   if (layer / part).is_dir() for p in _files_under(layer / part, ["*"])]
    for index, package in enumerate(CODE, start=-len(CODE)):
        inputs += [(index, package, p) for p in _files_under(package, ["*.py", "*.po"])]
    # The content packs too: pages show their names (a house's French one...).
    packs = content_dir()
    inputs += [(-len(CODE) - 1, packs, p) for p in _files_under(packs, ["*.toml"])]
    _hash_files(digest, inputs)
    return digest.hexdigest()


def fingerprint(folder: Path, chain: list[Path], base_url: str) -> str:
    """The hash of everything a campaign's pages are made from."""
    digest = hashlib.sha256(code_print(chain, base_url).encode())
    inputs = [(0, folder, folder / STORE), (0, folder, folder / "campaign.toml")]
    if (folder / "commentary").is_dir():
        inputs += [(0, folder, p) for p in _files_under(folder / "commentary", ["*.md"])]
    _hash_files(digest, inputs)
    return digest.hexdigest()


def site_print(prints: Iterable[str], base_url: str) -> str:
    """The hash of a whole site's inputs: its campaigns' fingerprints (in any
    order) and what the archive's index is made with."""
    digest = hashlib.sha256(code_print(theme_chain(None, BASE_THEME), base_url).encode())
    for value in sorted(prints):
        digest.update(value.encode())
    return digest.hexdigest()


def campaign_facts(folder: Path) -> dict[str, object]:
    """``campaign.toml`` read plainly, never through a link; empty on any doubt
    (a campaign that does not read well is built, and refused, the long way)."""
    try:
        fd = os.open(folder / "campaign.toml", os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as handle:
            return tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError, UnicodeError):
        return {}


def campaign_theme(folder: Path) -> str:
    """The theme ``campaign.toml`` names; the default on any doubt (``campaign_facts``)."""
    return str(campaign_facts(folder).get("theme") or BASE_THEME)


def campaign_ruleset(folder: Path) -> str | None:
    """The ruleset ``campaign.toml`` names; None on any doubt (``campaign_facts``)."""
    ruleset = campaign_facts(folder).get("ruleset")
    return ruleset if isinstance(ruleset, str) else None


def up_to_date(campaigns: list[Path], out: Path, base_url: str) -> int | None:
    """The number of files of the site in ``out`` if it was built from exactly these
    inputs and every file is still there; None if it must be built.

    Nothing is read through a link: a manifest or a page planted as one means
    a build, which refuses it.
    """
    try:
        fd = os.open(out / MANIFEST, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as handle:
            manifest = json.loads(handle.read().decode("utf-8"))
        recorded, files = manifest.get("site"), manifest.get("files")
        if not isinstance(recorded, str) or not isinstance(files, list):
            return None
    except (OSError, ValueError, AttributeError):
        return None
    folders = [Path(c).resolve() for c in campaigns]
    for folder in folders:
        for name in (STORE, "campaign.toml"):
            try:
                if not stat.S_ISREG(os.lstat(folder / name).st_mode):
                    return None
            except OSError:
                return None
    prints = [fingerprint(f, theme_chain(f, campaign_theme(f), campaign_ruleset(f)), base_url)
              for f in folders]
    if site_print(prints, base_url) != recorded:
        return None
    root = os.path.realpath(out)
    if root != os.path.abspath(out):
        return None
    try:
        # Each name looked up from the site's folder itself: a site's worth of
        # paths joined one by one is a third of this whole command.
        site = os.open(root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return None
    try:
        for name in files:
            if not stat.S_ISREG(os.lstat(str(name), dir_fd=site).st_mode):
                return None
    except OSError:
        return None
    finally:
        os.close(site)
    return len(files)
