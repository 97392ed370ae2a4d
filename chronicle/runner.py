"""The arbiter's batch loop: orders in, one adjudicated turn out.

``adjudicate`` reads the next turn's order folder, resolves it in memory with
dice derived from the seed, then hands the finished result to the store in one
transaction, and only then writes the private reports.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from adjudicator.dice import Roll, SeededDice
from adjudicator.errors import ChronicleRulesError
from adjudicator.rulesets.base import Ruleset
from adjudicator.state import GameState
from chronicle.campaign import (
    Campaign,
    CampaignError,
    check_folder_inside,
    seed_commitment,
    write_inside,
)
from chronicle.lock import CampaignBusy, campaign_lock
from chronicle.models import CampaignRow
from chronicle.orders_io import TurnOrders, read_turn, stored_turn
from chronicle.outcome import TurnOutcome
from chronicle.reports import write_reports
from chronicle.store import Store, StoreError, copy_store, dump_snapshot, load_snapshot

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
    except ChronicleRulesError as err:
        raise CampaignError(f"campaign.toml: {err}") from None


def initial_state(campaign: Campaign, ruleset: Ruleset) -> GameState:
    return initial_setup(campaign, ruleset)[0]


def open_store(campaign: Campaign, ruleset: Ruleset) -> Store:
    """The campaign's store; it must exist (the first turn adjudicated makes it)."""
    path = campaign.store_path
    if not path.exists():
        raise CampaignError(f"{path.name}: no store yet; adjudicate a turn first")
    try:
        store = Store.open(path, ruleset)
    except StoreError as err:
        raise CampaignError(str(err)) from None
    row = store.campaign()
    if row.seed_commitment != seed_commitment(campaign.seed):
        raise CampaignError(f"{path.name}: this store belongs to another seed")
    return store


def create_store(campaign: Campaign, ruleset: Ruleset, path: Path) -> tuple[Store, GameState]:
    """A new store at ``path`` holding the starting state, and that state."""
    state, rolls = initial_setup(campaign, ruleset)
    row = CampaignRow(slug=campaign.slug, title=campaign.title, ruleset=campaign.ruleset,
                      start_year=state.start_year, end_year=state.end_year,
                      target=state.target, seed_commitment=seed_commitment(campaign.seed),
                      language=campaign.language, world=campaign.spec.get("world"))
    return Store.create(path, row, state, ruleset, rolls), state


def current_state(campaign: Campaign, ruleset: Ruleset) -> GameState:
    if campaign.store_path.exists():
        return open_store(campaign, ruleset).state()
    return initial_state(campaign, ruleset)


def next_turn(state: GameState) -> int:
    return state.turn + 1


def resolve_next(campaign: Campaign, ruleset: Ruleset, state: GameState) -> TurnOutcome:
    turn = next_turn(state)
    if state.finished:
        raise CampaignError("the campaign has ended; nothing more to adjudicate")
    folder = campaign.orders_dir(turn)
    if not folder.is_dir():
        raise CampaignError(f"orders/turn-{turn:03d}/: the folder for turn {turn} does not "
                            "exist; create it and put the houses' order files in it")
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


def adjudicate(campaign: Campaign, *, state: GameState | None = None,
               at: str | None = None) -> TurnOutcome:
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
                _refuse_if_ended(store)
                if state is None or state.turn != store.last_turn():
                    state = store.state()
                outcome = resolve_next(campaign, ruleset, state)
                # A reports folder leading elsewhere is refused before anything is stored.
                check_folder_inside(campaign.root, campaign.reports_dir(outcome.turn))
                stored = store.commit_turn(state, outcome.result, outcome.orders,
                                           adjudicated_at=stamp)
        else:
            outcome, stored = _first_turn(campaign, ruleset, stamp)
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
        store.engine.dispose()


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
        with writing(campaign, "recovery") as (ruleset, store):
            return complete_reports(campaign, ruleset, store)
    except CampaignBusy:
        return None


def rollback(campaign: Campaign, to: int) -> int:
    """Return the store to the end of turn ``to``; returns the last turn it had."""
    with writing(campaign, "rollback") as (_ruleset, store):
        last = store.last_turn()
        if to > last:
            raise CampaignError(f"cannot roll back to turn {to}: the last turn is {last}")
        store.rollback(to)
        return last


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


def _first_turn(campaign: Campaign, ruleset: Ruleset, stamp: str) -> tuple[TurnOutcome, bytes]:
    fresh = campaign.root / NEW_STORE
    fresh.unlink(missing_ok=True)  # what a killed first turn left
    try:
        store, state = create_store(campaign, ruleset, fresh)
        try:
            outcome = resolve_next(campaign, ruleset, state)
            check_folder_inside(campaign.root, campaign.reports_dir(outcome.turn))
            stored = store.commit_turn(state, outcome.result, outcome.orders,
                                       adjudicated_at=stamp)
        finally:
            store.engine.dispose()
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
        raise CampaignError(f"--turn {turn}: the store holds turns 1 to {last}" if last
                            else "no turn has been adjudicated yet")
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


def _refuse_if_ended(store: Store) -> None:
    """DESIGN.md: after ``chronicle end``, ``adjudicate`` and ``preview`` refuse (the
    seed is public: every later die could be computed by every player)."""
    if store.campaign().seed_revealed is not None:
        raise CampaignError("the campaign has ended (chronicle end): its seed is public, "
                            "so no turn can be adjudicated any more")


def preview(campaign: Campaign) -> TurnOutcome:
    """Adjudicate into a throw-away copy of the store; the real one is untouched."""
    ruleset = ruleset_of(campaign)
    with tempfile.TemporaryDirectory(prefix="chronicle-preview-") as tmp:
        if campaign.store_path.exists():
            copy_store(campaign.store_path, Path(tmp) / "preview.sqlite")
            store = Store.open(Path(tmp) / "preview.sqlite", ruleset)
            _refuse_if_ended(store)
            state = store.state()
        else:
            state = initial_state(campaign, ruleset)
        return resolve_next(campaign, ruleset, state)


def check(campaign: Campaign) -> tuple[int, TurnOrders]:
    """Parse and validate the next turn's orders; adjudicate nothing."""
    ruleset = ruleset_of(campaign)
    state = current_state(campaign, ruleset)
    turn = next_turn(state)
    folder = campaign.orders_dir(turn)
    if not folder.is_dir():
        raise CampaignError(f"orders/turn-{turn:03d}/: the folder for turn {turn} does not exist")
    orders = read_turn(folder, campaign.root, ruleset, state)
    ruleset.validate(state, orders.sheets)
    return turn, orders
