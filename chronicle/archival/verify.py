"""``chronicle verify``: replay a finished campaign from its revealed seed.

Every turn is adjudicated again, from the seed the store revealed at
``chronicle end``, ``campaign.toml`` and the order files, into a fresh store in
a temporary folder; the replay's JSON export must equal the stored one, and
every die it throws (secret ones included) the die the store recorded. The
first difference is told. A bundle (``chronicle archive``) is checked against
its ``SHA256SUMS`` first, and its ``export.json`` against the replay too.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import stat
import tempfile
import zipfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any

from chronicle.archival.bundle import SUMS, json_text
from chronicle.archival.export import export_json
from chronicle.campaign.folder import STORE_FILE, load_campaign, seed_commitment
from chronicle.errors import CampaignError, StoreError
from chronicle.store.file import dump_snapshot, load_snapshot
from chronicle.store.turns import Store

#: The most a bundle may unpack to, and hold files: a bundle may come from anyone.
MAX_UNPACKED = 4 * 1024 * 1024 * 1024
MAX_ENTRIES = 1_000_000


@dataclass(frozen=True)
class Verdict:
    """What the replay found. ``message`` is the catalogue's English sentence, filled
    in by ``values`` (``text``); ``language`` is the campaign's, once it is known."""

    ok: bool
    message: str
    turns: int = 0
    dice: int = 0
    values: Mapping[str, Any] = field(default_factory=dict)
    language: str = "en"

    @property
    def text(self) -> str:
        return self.message % self.values if self.values else self.message


def _language(root: Path) -> str:
    """The campaign's language as its ``campaign.toml`` says it, English on any doubt."""
    from chronicle.i18n.localnames import LANGUAGES
    from chronicle.site.incremental.inputs import campaign_facts

    language = campaign_facts(root).get("language")
    return language if isinstance(language, str) and language in LANGUAGES else "en"


def verify(target: Path) -> Verdict:
    """Verify a campaign folder, or an archive bundle (a ``.zip``)."""
    if target.is_file():
        with tempfile.TemporaryDirectory(prefix="chronicle-verify-") as tmp:
            folder, sums = _unpack(target, Path(tmp) / "bundle")
            if sums is not None:
                return Verdict(False, "%(why)s", values={"why": sums})
            # Named as the bundle's top folder, as the campaign's own was: a
            # campaign.toml without a slug takes its folder's name.
            root = Path(tmp) / "campaign" / folder.name
            root.parent.mkdir()
            (folder / "campaign").rename(root)
            verdict = verify_folder(root, bundle=True)
            if not verdict.ok:
                return verdict
            return _check_bundle_export(root, folder / "export.json", verdict)
    if not target.is_dir():
        raise CampaignError(f"{target}: neither a campaign folder nor an archive bundle")
    return verify_folder(target)


def _unpack(bundle: Path, into: Path) -> tuple[Path, str | None]:
    """Unpack ``bundle`` safely; its top folder, and what its sums say is wrong (or None)."""
    try:
        archive = zipfile.ZipFile(bundle)
    except (zipfile.BadZipFile, OSError) as err:
        raise CampaignError(f"{bundle.name}: not an archive bundle ({err})") from None
    with archive:
        members = archive.infolist()
        if len(members) > MAX_ENTRIES or sum(m.file_size for m in members) > MAX_UNPACKED:
            raise CampaignError(f"{bundle.name}: larger than any campaign's bundle")
        tops = {PurePosixPath(m.filename).parts[0] for m in members if m.filename}
        if len(tops) != 1:
            raise CampaignError(f"{bundle.name}: a bundle holds one top folder, not "
                                f"{len(tops)}")
        top = tops.pop()
        for member in members:
            path = PurePosixPath(member.filename)
            mode = member.external_attr >> 16
            if (path.is_absolute() or ".." in path.parts or "\\" in member.filename
                    or stat.S_ISLNK(mode)):
                raise CampaignError(f"{bundle.name}: {member.filename}: a link, or a path "
                                    "leading out of the bundle; refused")
            target = into.joinpath(*path.parts)
            if member.is_dir():
                target.mkdir(parents=True, exist_ok=True)  # an order folder may be empty
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            with archive.open(member) as source, open(target, "xb") as sink:
                shutil.copyfileobj(source, sink)
    folder = into / top
    return folder, _check_sums(folder)


def _check_sums(folder: Path) -> str | None:
    """What ``sha256sum -c SHA256SUMS`` would find wrong, or None."""
    sums = folder / SUMS
    if not sums.is_file():
        return f"{SUMS}: missing from the bundle"
    listed: dict[str, str] = {}
    for number, line in enumerate(sums.read_text(encoding="utf-8").splitlines(), start=1):
        escaped = line.startswith("\\")
        digest, sep, name = line.removeprefix("\\").partition("  ")
        if not sep or len(digest) != 64:
            return f"{SUMS}:{number}: not a sha256sum line"
        if escaped:
            name = name.replace("\\\\", "\0").replace("\\n", "\n").replace("\\r", "\r") \
                .replace("\0", "\\")
        listed[name] = digest
    present = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    present.discard(SUMS)
    for name in sorted(present | set(listed)):
        if name not in listed:
            return f"{name}: in the bundle, but not in {SUMS}"
        if name not in present:
            return f"{name}: listed in {SUMS}, but missing from the bundle"
        if hashlib.sha256((folder / name).read_bytes()).hexdigest() != listed[name]:
            return f"{name}: its SHA-256 is not the one {SUMS} gives"
    return None


def verify_folder(root: Path, *, bundle: bool = False) -> Verdict:
    """Replay the campaign in ``root`` (``bundle``: a bundle's) from its revealed seed
    and compare."""
    verdict = _replayed(root, bundle)
    return replace(verdict, language=_language(root))


def _replayed(root: Path, bundle: bool) -> Verdict:
    from chronicle.turn import runner

    store_path = root / STORE_FILE
    if store_path.is_symlink() or not store_path.is_file():
        if bundle:
            return Verdict(False, "%(store)s: not there; a bundle made before 'chronicle "
                                  "end' holds no store, and nothing can be replayed until "
                                  "the seed is revealed", values={"store": STORE_FILE})
        if (root / "campaign").is_dir() and (root / SUMS).is_file():
            return Verdict(False, "this folder is an unpacked bundle: verify the bundle "
                                  "itself (the .zip), or the campaign/ folder inside")
        return Verdict(False, "%(store)s: not there; no turn of this campaign has been "
                              "adjudicated", values={"store": STORE_FILE})
    try:
        stored = Store.open(store_path)
    except StoreError as err:
        raise CampaignError(str(err)) from None
    try:
        row = stored.campaign()
        if row.seed_revealed is None:
            return Verdict(False, "the seed is not revealed yet (the campaign has not "
                                  "ended: 'chronicle end'); nothing can be replayed")
        seed = row.seed_revealed
        if seed_commitment(seed) != row.seed_commitment:
            return Verdict(False, "the revealed seed does not match the store's commitment")
        campaign = load_campaign(root, seed=seed)
        ruleset = runner.ruleset_of(campaign)
        last = stored.last_turn()
        expected = export_json(campaign, stored.state(), stored.events(), row=row)
        expected_dice = _dice(stored)
        # Each turn's state as this version writes it (an older version may have
        # laid the same state out otherwise), to tell the first turn that differs.
        snapshots = {turn: dump_snapshot(load_snapshot(stored.snapshot(turn)), living_only=True)
                     for turn in range(1, last + 1)}
    finally:
        stored.close()
    diverged: int | None = None
    with tempfile.TemporaryDirectory(prefix="chronicle-replay-") as tmp:
        replay, state = runner.create_store(campaign, ruleset, Path(tmp) / STORE_FILE)
        try:
            for turn in range(1, last + 1):
                if not campaign.orders_dir(turn).is_dir():
                    return Verdict(False, "orders/turn-%(padded)s/: missing, but the store "
                                          "holds turn %(turn)s",
                                   values={"padded": f"{turn:03d}", "turn": turn})
                if state.finished:
                    return Verdict(False, "the replay ends after turn %(turn)s; the store "
                                          "goes on to turn %(last)s",
                                   values={"turn": state.turn, "last": last})
                outcome = runner.resolve_next(campaign, ruleset, state)
                made = replay.commit_turn(state, outcome.result, outcome.orders)
                if diverged is None and made != snapshots[turn]:
                    diverged = turn
                state = outcome.result.state
            replay.reveal(seed, campaign.descriptor.revealed(replay.secret_rolls()))
            actual = export_json(campaign, replay.state(), replay.events(),
                                 row=replay.campaign())
            actual_dice = _dice(replay)
        finally:
            replay.close()
    differs = ("the replay differs from the store: %(difference)s" if diverged is None else
               "the replay differs from the store from turn %(since)s on: %(difference)s")
    difference = first_difference(expected, actual)
    if difference is not None:
        return Verdict(False, differs, last,
                       values={"since": diverged, "difference": difference})
    for index, (was, now) in enumerate(zip(expected_dice, actual_dice, strict=False)):
        if was != now:
            return Verdict(False, differs, last, values={
                "since": diverged, "difference": f"die {index + 1} (turn {was[0]}, {was[2]}, "
                f"#{was[1]}, {was[3]}): the store recorded {was[6]}, the replay threw {now[6]}"})
    if len(expected_dice) != len(actual_dice):
        return Verdict(False, "the replay threw %(thrown)s dice; the store recorded "
                              "%(recorded)s", last,
                       values={"thrown": len(actual_dice), "recorded": len(expected_dice)})
    return Verdict(True, "verified: %(turns)s turns replayed from the revealed seed give the "
                         "stored export, and all %(dice)s dice", last, len(actual_dice),
                   values={"turns": last, "dice": len(actual_dice)})


def _check_bundle_export(root: Path, export: Path, verdict: Verdict) -> Verdict:
    """The bundle's ``export.json`` must be the export of its store, which was replayed."""
    store = Store.open(root / STORE_FILE)
    try:
        row = store.campaign()
        campaign = load_campaign(root, seed=row.seed_revealed)
        data = export_json(campaign, store.state(), store.events(), row=row)
    finally:
        store.close()
    shipped = export.read_text(encoding="utf-8")
    if shipped != json_text(data):
        difference = first_difference(data, json.loads(shipped), ("the store", "export.json"))
        return Verdict(False, "export.json is not the export of the bundle's store: "
                              "%(difference)s", verdict.turns, language=verdict.language,
                       values={"difference": difference or "laid out otherwise"})
    return verdict


def _dice(store: Store) -> list[tuple[Any, ...]]:
    return [(r.turn, r.seq, r.phase, r.purpose, r.subject, r.dice, json.dumps(list(r.faces)),
             r.total, r.secret) for r in store.rolls()]


def first_difference(expected: Any, actual: Any,
                     names: tuple[str, str] = ("the store", "the replay")) -> str | None:
    """Where two JSON values first differ, in words, or None if they are equal."""
    for where, was, now in _differences(expected, actual, ""):
        return (f"at {where or 'the top'}: {names[0]} says {_short(was)}, "
                f"{names[1]} {_short(now)}")
    return None


def _differences(expected: Any, actual: Any, path: str) -> Iterator[tuple[str, Any, Any]]:
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in [*expected, *(k for k in actual if k not in expected)]:
            if key not in actual or key not in expected:
                yield f"{path}.{key}".lstrip("."), expected.get(key, "(nothing)"), \
                    actual.get(key, "(nothing)")
                return
            yield from _differences(expected[key], actual[key], f"{path}.{key}".lstrip("."))
        return
    if isinstance(expected, list) and isinstance(actual, list):
        for index, (was, now) in enumerate(zip(expected, actual, strict=False)):
            label = f"{path}[{index}]"
            if isinstance(was, dict) and "id" in was:
                label += f" ({was['id']})"
            yield from _differences(was, now, label)
        if len(expected) != len(actual):
            yield f"{path} (length)", len(expected), len(actual)
        return
    if expected != actual or type(expected) is not type(actual):
        yield path, expected, actual


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 160 else text[:157] + "..."
