"""Reading a campaign folder (DESIGN.md "Campaign folder").

Everything here turns files into values and refuses bad ones with a
``CampaignError`` whose message names the file and, where TOML gives it, the
line. No path outside the campaign folder is ever followed.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adjudicator.errors import RulesDataError
from adjudicator.rulesets.base import Ruleset
from chronicle.campaign.schedule import check_schedule
from chronicle.campaign.spec import (
    check_entries,
    check_numbers,
    check_overrides,
    check_top,
    check_years,
    locate,
)
from chronicle.errors import CampaignError, ContentError, RulesetError, ShapeError
from chronicle.i18n.localnames import LANGUAGES
from chronicle.rulesets import Descriptor, descriptor, ruleset_ids

CAMPAIGN_FILE = "campaign.toml"
SECRETS_FILE = "secrets.toml"
STORE_FILE = "chronicle.sqlite"
#: campaign.toml's own keys and their types (DESIGN.md "Campaign folder"), as every
#: campaign may have them; a ruleset adds its own (``Descriptor.campaign_fields``).
TOP_FIELDS: dict[str, type] = {
    "title": str, "ruleset": str, "start_year": int, "end_year": int,
    "seed_commitment": str, "house": list, "person": list, "language": str,
    "theme": str, "world": str, "rules": dict, "options": dict, "slug": str, "player": str,
    "deadline": dict, "cadence": str, "base_url": str}


def top_fields(ruleset: object) -> dict[str, type]:
    """campaign.toml's keys for a campaign of ``ruleset``; for a ruleset not
    registered, the keys of any ruleset (the ruleset is refused next)."""
    if isinstance(ruleset, str) and ruleset in ruleset_ids():
        return {**TOP_FIELDS, **descriptor(ruleset).campaign_fields}
    return {**TOP_FIELDS, **{k: v for rid in ruleset_ids()
                             for k, v in descriptor(rid).campaign_fields.items()}}


@dataclass
class Campaign:
    root: Path
    spec: dict[str, Any]
    seed: str
    rules: dict[str, Any] = field(default_factory=dict)
    #: campaign.toml as written, to name the line of what its engine refuses.
    text: str = ""

    @property
    def slug(self) -> str:
        slug = self.spec.get("slug") or self.root.name
        return re.sub(r"[^a-z0-9-]+", "-", str(slug).lower()).strip("-") or "campaign"

    @property
    def ruleset(self) -> str:
        return str(self.spec["ruleset"])

    @property
    def descriptor(self) -> Descriptor:
        """What the application knows of the campaign's ruleset."""
        return descriptor(self.ruleset)

    def engine(self) -> Ruleset:
        """The engine's ruleset, with this campaign's rules tables."""
        return self.descriptor.engine(self.rules)

    @property
    def title(self) -> str:
        return str(self.spec.get("title", self.slug))

    @property
    def store_path(self) -> Path:
        return self.root / STORE_FILE

    @property
    def language(self) -> str:
        return str(self.spec.get("language", "en"))

    @property
    def site_folder_url(self) -> str | None:
        """The address of this campaign's folder on the published site (``base_url``,
        where ``chronicle build`` output is served, then the campaign's slug), or None."""
        base = self.spec.get("base_url")
        return f"{str(base).rstrip('/')}/{self.slug}/" if base else None

    def orders_dir(self, turn: int) -> Path:
        return self.root / "orders" / f"turn-{turn:03d}"

    def reports_dir(self, turn: int) -> Path:
        return self.root / "reports" / f"turn-{turn:03d}"

    def commentary(self, turn: int) -> Path:
        return self.root / "commentary" / f"turn-{turn:03d}.md"


def entry_line(text: str, table: str, index: int) -> int | None:
    """The line of the ``[[table]]`` header that opens entry ``index`` (from 0), if the
    file writes its entries so."""
    headers = [number for number, line in enumerate(text.splitlines(), 1)
               if line.split("#", 1)[0].strip() == f"[[{table}]]"]
    return headers[index] if 0 <= index < len(headers) else None


def player_names(spec: Mapping[str, Any]) -> dict[str, str]:
    """Each house's player as ``campaign.toml`` names them now, by house id.

    A player's name is for display only, and the arbiter changes it when a
    house changes hands: such a change "takes effect at the next command"
    (DESIGN.md). The store keeps the names the campaign started with, so
    whatever shows a house's player (the site, the JSON export) reads it
    here; a replay from the same ``campaign.toml`` then shows the same.
    """
    houses = spec.get("house")
    return {str(h["id"]): h["player"] for h in (houses if isinstance(houses, list) else [])
            if isinstance(h, Mapping) and isinstance(h.get("id"), str)
            and isinstance(h.get("player"), str)}


MAX_TEXT_BYTES = 1024 * 1024


def read_input(root: Path, path: Path, shown: str, *, limit: int = MAX_TEXT_BYTES,
               secret: bool = False) -> bytes | None:
    """The bytes of one file of the campaign folder, or None if there is none.

    A campaign folder may come from someone else, and what is read from it
    may be published or quoted back in a report. So the file, and every
    folder on the way to it, must be the folder's own: a link is refused,
    never followed, and so is a file with another name (a hard link, which
    could be ``secrets.toml`` or a private report under a published name),
    except for the secrets themselves (``secret``). Refusals name the file
    and never quote it.
    """
    # ``path`` is taken as given (relative to the working folder), lexically:
    # the walk below looks at every step of it for a link.
    lexical, given = Path(os.path.abspath(root)), Path(os.path.abspath(path))
    if not given.is_relative_to(lexical):
        raise CampaignError(f"{shown}: lies outside the campaign folder")
    root = root.resolve()
    absolute = root / given.relative_to(lexical)
    current, info = root, None
    for part in absolute.relative_to(root).parts:
        current = current / part
        try:
            info = os.lstat(current)
        except FileNotFoundError:
            return None
        except OSError as err:
            raise CampaignError(f"{shown}: cannot be read ({err.strerror})") from None
        if stat.S_ISLNK(info.st_mode):
            where = shown if current == absolute else current.relative_to(root).as_posix()
            raise CampaignError(f"{where}: is a link; Chronicle reads the campaign folder's "
                                "own files only, never through a link")
    if info is None or not stat.S_ISREG(info.st_mode):
        raise CampaignError(f"{shown}: not a regular file")
    if info.st_nlink > 1 and not secret:
        raise CampaignError(f"{shown}: has another name (a hard link); Chronicle reads only "
                            "files that are nothing else, so copy it instead")
    if info.st_size > limit:
        raise CampaignError(f"{shown}: larger than {limit // 1024} KiB")
    try:
        fd = os.open(absolute, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        with os.fdopen(fd, "rb") as handle:
            now = os.fstat(handle.fileno())
            if (now.st_dev, now.st_ino) != (info.st_dev, info.st_ino):
                raise CampaignError(f"{shown}: changed while being read; try again")
            data = handle.read(limit + 1)
    except OSError as err:
        raise CampaignError(f"{shown}: cannot be read ({err.strerror})") from None
    if len(data) > limit:
        raise CampaignError(f"{shown}: larger than {limit // 1024} KiB")
    return data


def read_toml(path: Path, shown: str, *, inside: Path | None = None,
              secret: bool = False) -> dict[str, Any]:
    """Parse a TOML file of a campaign folder (``inside``: the folder; by default the
    file's own); errors carry the file name and tomllib's line and column."""
    return read_toml_text(path, shown, inside=inside, secret=secret)[0]


def read_toml_text(path: Path, shown: str, *, inside: Path | None = None,
                   secret: bool = False) -> tuple[dict[str, Any], str]:
    """``read_toml``, and the file's text (to name the line of a bad value)."""
    raw = read_input(inside or path.parent, path, shown, secret=secret)
    if raw is None:
        raise CampaignError(f"{shown}: file not found")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise CampaignError(f"{shown}: not valid UTF-8 (byte {err.start})") from None
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as err:
        message = str(err)
        match = re.search(r"\(at line (\d+), column (\d+)\)", message)
        if match:
            message = message[: match.start()].strip()
            raise CampaignError(f"{shown}:{match.group(1)}: {message} "
                                f"(column {match.group(2)})") from None
        raise CampaignError(f"{shown}: {message}") from None


def read_inside(root: Path, path: Path, shown: str) -> str | None:
    """A UTF-8 text file of the campaign folder, or None if there is none (``read_input``)."""
    raw = read_input(root, path, shown)
    if raw is None:
        return None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise CampaignError(f"{shown}: not UTF-8 text (bad byte at offset {err.start})") from None


def check_folder_inside(root: Path, folder: Path) -> None:
    """Refuse a folder of the campaign that links lead out of ``root``.

    A campaign received with a planted link must not make us write elsewhere.
    """
    if not folder.resolve().is_relative_to(root.resolve()):
        shown = folder.relative_to(root).as_posix() if folder.is_relative_to(root) else folder
        raise CampaignError(f"{shown}: points outside the campaign folder")


def write_inside(root: Path, path: Path, text: str) -> None:
    """Write a text file of the campaign folder, never through a link.

    The folder must resolve inside ``root`` (``check_folder_inside``); the
    file is written beside and renamed over, so a link in its place is
    replaced, not followed.
    """
    folder = path.parent
    check_folder_inside(root, folder)
    folder.mkdir(parents=True, exist_ok=True)
    fresh = folder / f".{path.name}.tmp"
    fresh.unlink(missing_ok=True)
    fresh.write_text(text, encoding="utf-8")
    os.replace(fresh, path)


def seed_commitment(seed: str) -> str:
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def deep_merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = deep_merge(merged[key], value)
        else:
            merged[key] = value
    return merged


#: A published address as reports link it: the scheme, then no space, quote,
#: bracket or parenthesis (a Markdown link could not hold them).
_SITE_ADDRESS = re.compile(r"https?://[^\s()<>\[\]\"'`\\]+")


def _check_base_url(spec: dict[str, Any], text: str) -> None:
    value = spec.get("base_url")
    if value is not None and not _SITE_ADDRESS.fullmatch(value):
        raise ShapeError(f"base_url must be the site's full address, https://..., without "
                         f"spaces or brackets, not {value!r}", locate(text, "base_url"))


def refused_at(line: int | None, why: str) -> CampaignError:
    """``campaign.toml:LINE: why``, or without the line when it is not known."""
    return CampaignError(f"{CAMPAIGN_FILE}:{line}: {why}" if line else f"{CAMPAIGN_FILE}: {why}")


def _refused(err: ShapeError) -> CampaignError:
    return refused_at(err.line, str(err))


def load_rules(ruleset: str, spec: dict[str, Any], text: str = "") -> dict[str, Any]:
    """The rules tables of a ruleset, with the campaign's ``[rules]`` overrides
    (``text``: campaign.toml's, to name the line of a bad one)."""
    overrides = spec.get("rules", {})
    if not isinstance(overrides, dict):
        raise CampaignError(f"{CAMPAIGN_FILE}: [rules] must be a table")
    kind = descriptor(ruleset)
    try:
        kind.world(spec)
        rules = kind.rules(spec)
    except RulesetError as err:
        raise CampaignError(f"{CAMPAIGN_FILE}: {err}") from None
    except ContentError as err:
        raise CampaignError(str(err)) from None
    names = kind.name_lists(spec, rules)
    if names is not None:
        rules["names"] = names
    try:
        check_overrides(rules, overrides, text)
    except ShapeError as err:
        raise _refused(err) from None
    return deep_merge(rules, overrides)


def load_campaign(root: Path, *, seed: str | None = None) -> Campaign:
    """Read and check ``campaign.toml`` and ``secrets.toml``.

    ``seed``: the seed as a finished campaign's store reveals it, for a folder
    that may come without ``secrets.toml`` (``chronicle verify``); it is
    checked against the commitment all the same.
    """
    root = root.resolve()
    if not root.is_dir():
        raise CampaignError(f"{root}: not a campaign folder")
    spec, text = read_toml_text(root / CAMPAIGN_FILE, CAMPAIGN_FILE, inside=root)
    fields = top_fields(spec.get("ruleset"))
    unknown = sorted(set(spec) - set(fields))
    if unknown:
        raise CampaignError(f"{CAMPAIGN_FILE}: unknown keys {', '.join(unknown)}")
    ruleset = spec.get("ruleset")
    if ruleset not in ruleset_ids():
        raise CampaignError(f"{CAMPAIGN_FILE}: ruleset must be one of "
                            f"{', '.join(ruleset_ids())}, not {ruleset!r}")
    try:
        check_top(spec, text, fields)
        _check_base_url(spec, text)
    except ShapeError as err:
        raise _refused(err) from None
    if spec.get("language", "en") not in LANGUAGES:
        raise CampaignError(f"{CAMPAIGN_FILE}: language must be "
                            f"{' or '.join(repr(lang) for lang in LANGUAGES)}")
    if seed is None:
        secrets = read_toml(root / SECRETS_FILE, SECRETS_FILE, inside=root, secret=True)
        seed = secrets.get("seed")
    if not isinstance(seed, str) or not seed:
        raise CampaignError(f"{SECRETS_FILE}: 'seed' must be a non-empty string")
    commitment = spec.get("seed_commitment")
    if not isinstance(commitment, str):
        raise CampaignError(f"{CAMPAIGN_FILE}: 'seed_commitment' is missing")
    if commitment.lower() != seed_commitment(seed):
        raise CampaignError(f"{CAMPAIGN_FILE}: seed_commitment does not match the seed in "
                            f"{SECRETS_FILE}: the seed was changed after the campaign began")
    for kind in (key for key, wanted in fields.items() if wanted is list):
        value = spec.get(kind, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise CampaignError(f"{CAMPAIGN_FILE}: {kind} entries must be [[{kind}]] tables")
    try:
        check_years(spec, text)
        check_numbers(spec, text)
        check_schedule(spec, text)
    except ShapeError as err:
        raise _refused(err) from None
    campaign = Campaign(root=root, spec=spec, seed=seed, text=text)
    try:
        check_entries(spec, text, campaign.descriptor.engine_type().spec_fields)
    except ShapeError as err:
        raise _refused(err) from None
    campaign.rules = load_rules(str(ruleset), spec, text)
    try:
        campaign.engine().check_rules()
    except RulesDataError as err:
        raise _rules_refused(err, spec, text) from None
    return campaign


def _rules_refused(err: RulesDataError, spec: Mapping[str, Any], text: str) -> CampaignError:
    """A value of the rules tables the engine cannot play with, at the line of
    ``campaign.toml`` that overrides it, or else at the header of the table of
    overrides that made it wrong; when the campaign overrides nothing there,
    the value is the ruleset's own (a content pack's)."""
    overridden: Any = spec.get("rules", {})
    depth = 0
    for key in err.where:
        if not isinstance(overridden, Mapping) or key not in overridden:
            break
        overridden, depth = overridden[key], depth + 1
    if depth == 0:
        return refused_at(None, f"the rules tables: {err}")
    tables = ".".join(err.where[:depth - 1])
    if depth == len(err.where):
        line = locate(text, err.where[-1], f"[rules.{tables}" if tables else "[rules")
    else:
        header = f"[rules.{'.'.join(err.where[:depth])}]"
        line = next((n for n, text_line in enumerate(text.splitlines(), 1)
                     if text_line.strip().startswith(header)), None)
    return refused_at(line, f"[rules] {err}")
