"""The arbiter's batch loop: orders in, one adjudicated turn out.

``adjudicate`` reads the next turn's order folder, resolves it in memory with
dice derived from the seed, then hands the finished result to the store in one
transaction, and only then writes the private reports.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from adjudicator.dice import Roll, SeededDice
from adjudicator.errors import ChronicleRulesError, SetupError
from adjudicator.orders import Rejection
from adjudicator.rulesets.base import Ruleset
from adjudicator.state import GameState
from chronicle.campaign.folder import (
    Campaign,
    check_folder_inside,
    entry_line,
    refused_at,
    seed_commitment,
    write_inside,
)
from chronicle.campaign.orders import TurnOrders, read_turn, stored_turn
from chronicle.errors import CampaignBusy, CampaignError, StoreError
from chronicle.i18n.reasons import Say, as_written, engine_words, rejected_line
from chronicle.i18n.words import Phrase, words
from chronicle.i18n.words import Say as Words
from chronicle.i18n.words import as_written as written
from chronicle.store.file import StoreReader, dump_snapshot, load_snapshot
from chronicle.store.lock import READ_ONLY, campaign_lock
from chronicle.store.reader import reading_campaign
from chronicle.turn.outcome import TurnOutcome
from chronicle.turn.reports import write_reports

if TYPE_CHECKING:
    # Loaded by the commands that write the store, and only by them: those
    # that only read it (check, status, template) read it with ``storefile``.
    from chronicle.store.turns import Store

#: Where the first turn builds the store before it is renamed into place.
NEW_STORE = ".chronicle.sqlite.new"
#: In a turn's reports folder once every report is written: the turn's identity.
REPORTS_DONE = ".complete"


def ruleset_of(campaign: Campaign) -> Ruleset:
    return campaign.engine()


def initial_setup(campaign: Campaign, ruleset: Ruleset) -> tuple[GameState, list[Roll]]:
    """The turn-0 state and its dice, drawn from the seed like every other roll."""
    dice = SeededDice(campaign.seed, 0, "setup")
    try:
        return ruleset.setup(campaign.spec, dice), list(dice.log)
    except SetupError as err:
        raise refused_at(entry_line(campaign.text, *err.at) if err.at else None,
                         str(err)) from None
    except ChronicleRulesError as err:
        raise CampaignError(f"campaign.toml: {err}") from None


def initial_state(campaign: Campaign, ruleset: Ruleset) -> GameState:
    return initial_setup(campaign, ruleset)[0]


def open_store(campaign: Campaign, ruleset: Ruleset) -> Store:
    """The campaign's store; it must exist (the first turn adjudicated makes it)."""
    path = campaign.store_path
    if not path.exists():
        raise CampaignError("%(store)s: no store yet; adjudicate a turn first", store=path.name)
    try:
        from chronicle.store.turns import Store

        store = Store.open(path, ruleset)
    except StoreError as err:
        raise CampaignError(str(err)) from None
    try:
        if store.campaign().seed_commitment != seed_commitment(campaign.seed):
            raise CampaignError("%(store)s: this store belongs to another seed",
                                store=path.name)
    except BaseException:
        store.close()
        raise
    return store


def create_store(campaign: Campaign, ruleset: Ruleset, path: Path) -> tuple[Store, GameState]:
    """A new store at ``path`` holding the starting state, and that state."""
    from chronicle.store.turns import Store

    state, rolls = initial_setup(campaign, ruleset)
    row = dict(slug=campaign.slug, title=campaign.title, ruleset=campaign.ruleset,
               start_year=state.start_year, end_year=state.end_year, target=state.target,
               seed_commitment=seed_commitment(campaign.seed), language=campaign.language,
               world=campaign.spec.get("world"))
    return Store.create(path, row, state, ruleset, rolls), state


@contextmanager
def read_store(campaign: Campaign) -> Iterator[StoreReader]:
    """A read transaction on the campaign's store (it must exist), checked as
    ``open_store`` checks it, for the commands that only read: they need not
    load the ORM (``storefile``)."""
    path = campaign.store_path
    if not path.exists():
        raise CampaignError(f"{path.name}: no store yet; adjudicate a turn first")
    try:
        with reading_campaign(path) as (reader, row):
            if row.seed_commitment != seed_commitment(campaign.seed):
                raise CampaignError(f"{path.name}: this store belongs to another seed")
            yield reader
    except StoreError as err:
        raise CampaignError(str(err)) from None


def current_state(campaign: Campaign, ruleset: Ruleset) -> GameState:
    if campaign.store_path.exists():
        with read_store(campaign) as reader:
            return reader.state_to_play()
    return initial_state(campaign, ruleset)


def last_turn(campaign: Campaign, ruleset: Ruleset) -> int:
    """The last turn the store holds (0 before the first), without decoding any state."""
    if not campaign.store_path.exists():
        return 0
    with read_store(campaign) as reader:
        last = reader.last_turn()
    return last[0] if last else 0


def next_turn(state: GameState) -> int:
    return state.turn + 1


def orders_folder(campaign: Campaign, turn: int) -> Path:
    """The order folder of ``turn``, refused if it or ``orders/`` is a link: read
    through, a link would give the turn its orders from elsewhere; refused file by
    file, it would give every house its defaults."""
    folder = campaign.orders_dir(turn)
    for step in (folder.parent, folder):
        if step.is_symlink():
            where = step.relative_to(campaign.root).as_posix()
            raise CampaignError(f"{where}/: is a link; Chronicle reads the campaign folder's "
                                "own files only, never through a link")
    return folder


def resolve_next(campaign: Campaign, ruleset: Ruleset, state: GameState, *,
                 allow_empty: bool = True) -> TurnOutcome:
    """Resolve the next turn in memory. ``allow_empty=False`` refuses a folder holding
    no order file at all (every house would get the defaults: a forgotten import?)."""
    turn = next_turn(state)
    over = over_reason(state)
    if over is not None:
        raise CampaignError("the campaign is over (%(why)s): no turn is left to adjudicate; "
                            "run 'chronicle end' to reveal the seed", why=over_phrase(state))
    folder = orders_folder(campaign, turn)
    if not folder.is_dir():
        raise CampaignError("orders/turn-%(padded)s/: the folder for turn %(turn)s does not "
                            "exist; create it and put the houses' order files in it",
                            padded=f"{turn:03d}", turn=turn)
    if not allow_empty and not any(p.suffix == ".orders" for p in folder.iterdir()):
        raise CampaignError("orders/turn-%(padded)s/: holds no order file at all, so every "
                            "house would get the defaults; run again with --yes if that is "
                            "what you want", padded=f"{turn:03d}")
    orders = read_turn(folder, campaign.root, ruleset, state)
    dice = SeededDice(campaign.seed, turn)
    result = ruleset.resolve(state, orders.sheets, dice)
    return TurnOutcome(turn=turn, year=state.year_of(turn), previous=state, result=result,
                       orders=orders)


def adjudication_time() -> str:
    """Now, in UTC to the second, as the store keeps when a turn was adjudicated.

    ``SOURCE_DATE_EPOCH`` (the reproducible-builds convention), when set,
    stands for now: a campaign replayed with it gives the same store, dates
    included.
    """
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch is None or not epoch.strip():
        moment = datetime.now(UTC)
    else:
        try:
            moment = datetime.fromtimestamp(int(epoch), UTC)
        except (ValueError, OverflowError, OSError):
            raise CampaignError(f"SOURCE_DATE_EPOCH={epoch!r}: not a number of seconds "
                                "since 1970 (unset it to use the clock)") from None
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def over_reason(state: GameState, say: Words = written) -> str | None:
    """Why the campaign is over, in words (``say``'s), or None while turns remain."""
    why = over_phrase(state)
    return None if why is None else why.said(say)


def over_phrase(state: GameState) -> Phrase | None:
    """Why the campaign is over, or None while turns remain: won, or its last turn
    played (the ruleset says), or its next turn past its ``end_year`` (a ruleset
    without an end of its own, such as ``dynasty``, stops there too)."""
    if state.winner:
        name = state.houses[state.winner].name if state.winner in state.houses else state.winner
        return Phrase("won by %(name)s", {"name": name})
    if state.finished:
        return Phrase("its last turn is played")
    if state.end_year is not None and state.year_of(next_turn(state)) > state.end_year:
        return Phrase("its end year, %(year)s, is past", {"year": state.end_year})
    return None


def adjudicate(campaign: Campaign, *, state: GameState | None = None,
               at: str | None = None, allow_empty: bool = True) -> TurnOutcome:
    """Adjudicate and store the next turn; write its private reports.

    The campaign's writer lock is held throughout, so the turn stored is the
    one resolved from the store's last turn. The first turn makes the store:
    it is written beside the real one and renamed into place once the turn
    is in it, so there is never a store without its first turn, or one made
    from a ``campaign.toml`` since corrected.

    ``state`` may pass the store's last state when the caller already holds it
    (the demo loop does), to save decoding it twice; it must be that state.
    ``at`` is when the turn counts as adjudicated (default: now,
    ``adjudication_time``).
    """
    ruleset = ruleset_of(campaign)
    stamp = at or adjudication_time()
    with campaign_lock(campaign.root, "adjudicate"):
        if campaign.store_path.exists():
            with _opened(campaign, ruleset) as store:
                refuse_if_ended(store)
                if state is None or state.turn != store.last_turn():
                    state = store.state_to_play()
                outcome = resolve_next(campaign, ruleset, state, allow_empty=allow_empty)
                # A reports folder leading elsewhere is refused before anything is stored.
                check_folder_inside(campaign.root, campaign.reports_dir(outcome.turn))
                stored = store.commit_turn(state, outcome.result, outcome.orders,
                                           adjudicated_at=stamp)
        else:
            outcome, stored = _first_turn(campaign, ruleset, stamp, allow_empty)
        _write_reports_of(campaign, ruleset, outcome, _identity(stored))
    return outcome


@contextmanager
def _opened(campaign: Campaign, ruleset: Ruleset) -> Iterator[Store]:
    """The store, for a command holding the writer lock: the last turn's reports,
    if an interruption left them unwritten, are written first."""
    store = open_store(campaign, ruleset)
    try:
        complete_reports(campaign, ruleset, store)
        yield store
    finally:
        store.close()


@contextmanager
def writing(campaign: Campaign, command: str) -> Iterator[tuple[Ruleset, Store]]:
    """The campaign's engine and store, for ``command``, which changes it."""
    ruleset = ruleset_of(campaign)
    with campaign_lock(campaign.root, command), _opened(campaign, ruleset) as store:
        yield ruleset, store


def recover(campaign: Campaign) -> int | None:
    """Before a command that only reads: finish what an interrupted one left.

    Returns the turn whose reports were written, if any. Skipped while
    another command holds the campaign (it finishes them itself).
    """
    if not campaign.store_path.exists():
        return None
    try:
        with campaign_lock(campaign.root, "recovery"):
            # Read plainly first: the reports are nearly always whole, and
            # then the command need not load the ORM at all.
            with read_store(campaign) as reader:
                last = reader.last_turn()
                if last is None or reports_written(campaign, last[0],
                                                   _identity(reader.snapshot(last[0]))):
                    return None
            ruleset = ruleset_of(campaign)
            with _opened(campaign, ruleset) as store:
                return complete_reports(campaign, ruleset, store)
    except CampaignBusy:
        return None
    except OSError as err:
        if err.errno in READ_ONLY:
            return None  # nothing could be written here: the command only reads
        raise


#: Where a rollback moves what the turns it removes left behind.
ROLLED_BACK = "rolled-back"


def rollback(campaign: Campaign, to: int) -> tuple[int, list[str]]:
    """Return the store to the end of turn ``to``.

    Returns the last turn it had, and what was moved aside (campaign-relative):
    the removed turns' reports, the templates written after them, and their
    report mails still waiting in ``outbox/``, so that none of it can be
    mailed by mistake. The order folders stay, for ``adjudicate --through``.
    """
    with writing(campaign, "rollback") as (_ruleset, store):
        # Turns removed after the end could never be played again: adjudicate refuses.
        refuse_if_ended(store, "so its turns are final and none can be rolled back")
        last = store.last_turn()
        if to > last:
            raise CampaignError("cannot roll back to turn %(to)s: the last turn is %(last)s",
                                to=to, last=last)
        store.rollback(to)
        return last, _set_aside(campaign, to, last)


def _set_aside(campaign: Campaign, to: int, last: int) -> list[str]:
    root = campaign.root
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    aside = root / ROLLED_BACK / f"to-turn-{to:03d}-{stamp}"
    found: list[Path] = []
    for turn in range(to + 1, last + 1):
        found.append(campaign.reports_dir(turn))
    templates = root / "templates"
    if templates.is_dir():
        found += [p for p in templates.iterdir()
                  if p.name.startswith("turn-") and p.name[5:].isdigit()
                  and int(p.name[5:]) > to + 1]
    outbox = root / "outbox"
    if outbox.is_dir():
        found += [p for p in outbox.iterdir()
                  if p.name.startswith("report-turn-") and p.name[12:15].isdigit()
                  and int(p.name[12:15]) > to]
    moved = []
    for path in sorted(p for p in found if p.exists() and not p.is_symlink()):
        target = aside / path.relative_to(root)
        check_folder_inside(root, target.parent)
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, target)
        moved.append(path.relative_to(root).as_posix())
    return [f"{m} -> {(aside / m).relative_to(root).as_posix()}" for m in moved]


def end(campaign: Campaign) -> None:
    """End the campaign: reveal the seed, and what the ruleset keeps secret
    until the end (every epidemic threshold drawn, A5.4), in the store."""
    with writing(campaign, "end") as (_ruleset, store):
        store.reveal(campaign.seed, campaign.descriptor.revealed(store.secret_rolls()))


def reports(campaign: Campaign, turn: int | None) -> tuple[int, Path]:
    """Write a turn's private reports again (default: the last turn)."""
    with writing(campaign, "reports") as (ruleset, store):
        number = store.last_turn() if turn is None else turn
        return number, rewrite_reports(campaign, store, ruleset, number)


def _first_turn(campaign: Campaign, ruleset: Ruleset, stamp: str,
                allow_empty: bool) -> tuple[TurnOutcome, bytes]:
    fresh = campaign.root / NEW_STORE
    fresh.unlink(missing_ok=True)  # what a killed first turn left
    try:
        store, state = create_store(campaign, ruleset, fresh)
        try:
            outcome = resolve_next(campaign, ruleset, state, allow_empty=allow_empty)
            check_folder_inside(campaign.root, campaign.reports_dir(outcome.turn))
            stored = store.commit_turn(state, outcome.result, outcome.orders,
                                       adjudicated_at=stamp)
        finally:
            store.close()
        _sync(fresh)
        os.replace(fresh, campaign.store_path)
        _sync(campaign.root)
    finally:
        fresh.unlink(missing_ok=True)
    return outcome, stored


def _sync(path: Path) -> None:
    """Flush a file, or a folder's entries, to the disk (a rename must survive a crash)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# -- private reports ---------------------------------------------------------------
def _identity(snapshot: bytes) -> str:
    """What tells one adjudication of a turn from another (after a rollback, say):
    the hash of its snapshot as stored, so that a later version, which may encode
    states otherwise, still knows the reports it finds whole."""
    return hashlib.sha256(snapshot).hexdigest()


def _write_reports_of(campaign: Campaign, ruleset: Ruleset, outcome: TurnOutcome,
                      identity: str) -> None:
    """Write a stored turn's reports, then the mark that they are all there.

    The turn is stored first: a failure here loses nothing, and the next
    command (or ``chronicle reports``) writes them again from the store.
    """
    try:
        write_reports(campaign, ruleset, outcome)
        write_inside(campaign.root, campaign.reports_dir(outcome.turn) / REPORTS_DONE,
                     identity + "\n")
    except OSError as err:
        raise CampaignError(
            f"turn {outcome.turn} is stored, but its reports could not be written "
            f"({err.strerror or err}); once that is mended, 'chronicle reports' writes "
            "them (so does the next command)") from None


def reports_identity(store: Store, turn: int) -> str:
    """What tells this adjudication of ``turn`` from another (its reports' mark)."""
    return _identity(store.snapshot(turn))


def reports_written(campaign: Campaign, turn: int, identity: str) -> bool:
    mark = campaign.reports_dir(turn) / REPORTS_DONE
    try:
        return not mark.is_symlink() and mark.read_text("utf-8").strip() == identity
    except (OSError, UnicodeDecodeError):
        return False


def stored_outcome(campaign: Campaign, ruleset: Ruleset, store: Store, turn: int) -> TurnOutcome:
    """Turn ``turn`` resolved again from the store: its state before, its order
    files and the seed's dice give the very turn stored (checked)."""
    last = store.last_turn()
    if not 1 <= turn <= last:
        raise CampaignError("--turn %(turn)s: the store holds turns 1 to %(last)s", turn=turn,
                            last=last) if last else CampaignError(
                                "no turn has been adjudicated yet")
    previous = store.state(turn - 1)
    files, problems, digest, snapshot = store.turn_inputs(turn)
    orders = stored_turn(ruleset, files, problems, digest)
    result = ruleset.resolve(previous, orders.sheets, SeededDice(campaign.seed, turn))
    # Both as this version writes them: an earlier version's snapshot of the same
    # state may be laid out differently.
    stored = dump_snapshot(load_snapshot(snapshot), living_only=True)
    if dump_snapshot(result.state, living_only=True) != stored:
        raise CampaignError(f"turn {turn} does not replay to what the store holds (was it "
                            "adjudicated by another version of Chronicle?); its reports "
                            "cannot be written again")
    return TurnOutcome(turn=turn, year=previous.year_of(turn), previous=previous,
                       result=result, orders=orders)


def rewrite_reports(campaign: Campaign, store: Store, ruleset: Ruleset, turn: int) -> Path:
    """Write turn ``turn``'s private reports again, from the store alone."""
    outcome = stored_outcome(campaign, ruleset, store, turn)
    _write_reports_of(campaign, ruleset, outcome, _identity(store.snapshot(turn)))
    return campaign.reports_dir(turn)


def complete_reports(campaign: Campaign, ruleset: Ruleset, store: Store) -> int | None:
    """Write the last turn's reports if an interruption left them unwritten.

    Returns the turn whose reports were written, or None if they were whole.
    """
    last = store.last_turn()
    if last == 0 or reports_written(campaign, last, _identity(store.snapshot(last))):
        return None
    rewrite_reports(campaign, store, ruleset, last)
    return last


def refuse_if_ended(store: Store,
                    what: str = "so no turn can be adjudicated any more") -> None:
    """DESIGN.md: after ``chronicle end``, ``adjudicate``, ``preview`` and ``mail import``
    refuse (the seed is public: every later die could be computed by every player);
    and so does ``rollback``, whose removed turns nothing could then play again."""
    if store.campaign().seed_revealed is not None:
        raise CampaignError("the campaign has ended (chronicle end): its seed is public, "
                            "%(what)s", what=Phrase(what))


def preview(campaign: Campaign) -> TurnOutcome:
    """Adjudicate into a throw-away copy of the store; the real one is untouched."""
    ruleset = ruleset_of(campaign)
    with tempfile.TemporaryDirectory(prefix="chronicle-preview-") as tmp:
        if campaign.store_path.exists():
            from chronicle.store.turns import Store, copy_store

            copy_store(campaign.store_path, Path(tmp) / "preview.sqlite")
            store = Store.open(Path(tmp) / "preview.sqlite", ruleset)
            try:
                refuse_if_ended(store)
                # The copy is gone when the caller reads the outcome: its dead come along.
                state = store.state_to_play(kept=True)
            finally:
                store.close()
        else:
            state = initial_state(campaign, ruleset)
        return resolve_next(campaign, ruleset, state)


@dataclass(frozen=True)
class Checked:
    """What ``chronicle check`` finds in the next turn's order folder."""

    turn: int
    orders: TurnOrders
    #: The houses expected to send orders this turn.
    expected: tuple[str, ...]
    #: The campaign's language, and the engine's reasons in it.
    language: str = "en"
    say: Say = as_written

    def rejections(self, house: str | None = None) -> list[Rejection]:
        found = (r for s in self.orders.sheets.values() for r in s.rejections
                 if house is None or r.house == house)
        return sorted(found, key=lambda r: (r.file, r.line))

    def missing(self) -> list[str]:
        return [h for h in self.expected if h not in self.orders.sheets]

    @property
    def failed(self) -> bool:
        return bool(self.rejections() or self.orders.problems or self.orders.refused())

    def lines(self) -> list[str]:
        """The whole check, as ``chronicle check`` prints it."""
        _ = words(self.language)
        problems = self.orders.problems + self.orders.refused()
        rejections = self.rejections()
        out = [*map(self.say, problems), *(rejected_line(r, self.say) for r in rejections)]
        if self.missing():
            out.append(_("no orders yet from: %(houses)s", houses=", ".join(self.missing())))
        # A refused file (a house not in play) gives no line at all.
        accepted = sum(len(s.orders) for s in self.orders.sheets.values() if not s.refused)
        out.append(_("turn %(turn)s: %(files)s order files, %(accepted)s lines accepted, "
                     "%(rejected)s rejected, %(problems)s file problems", turn=self.turn,
                     files=len(self.orders.sheets), accepted=accepted,
                     rejected=len(rejections), problems=len(problems)))
        return out

    def house_lines(self, house: str) -> list[str]:
        """What the check says of one house's file (its acknowledgement quotes this)."""
        _ = words(self.language)
        sheet = self.orders.sheets.get(house)
        if sheet is None:
            return [_("turn %(turn)s: no order file from %(house)s", turn=self.turn, house=house)]
        if sheet.refused:
            return [self.say(sheet.refused)]
        rejections = self.rejections(house)
        return [*(rejected_line(r, self.say) for r in rejections),
                _("%(file)s: %(accepted)s lines accepted, %(rejected)s rejected",
                  file=sheet.file, accepted=len(sheet.orders), rejected=len(rejections))]


def check(campaign: Campaign, *, ruleset: Ruleset | None = None,
          state: GameState | None = None) -> Checked:
    """Parse and validate the next turn's orders; adjudicate nothing.

    ``ruleset`` and ``state`` may pass what the caller has already read (the
    mail import checks the folder after each message it files).
    """
    ruleset = ruleset or ruleset_of(campaign)
    state = state or current_state(campaign, ruleset)
    turn = next_turn(state)
    folder = orders_folder(campaign, turn)
    if not folder.is_dir():
        raise CampaignError("orders/turn-%(padded)s/: the folder for turn %(turn)s does not "
                            "exist", padded=f"{turn:03d}", turn=turn)
    orders = read_turn(folder, campaign.root, ruleset, state)
    ruleset.validate(state, orders.sheets)
    language = campaign.language
    say = engine_words(language, campaign.descriptor.local_names(campaign.spec, language))
    return Checked(turn, orders, tuple(ruleset.ordering_houses(state)), language, say)
