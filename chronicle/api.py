"""The application's public API: what the command line does, as functions.

Every function takes a campaign as a ``Campaign`` (``open_campaign``) or as its
folder, and raises a ``ChronicleError`` (``chronicle.errors``) when the input
or the machine refuses; anything else is a bug. Nothing here prints: the
command line (``chronicle.commands``) says what these return.

The verbs are the command line's: ``new_campaign``, ``open_campaign``,
``current_state``, ``write_auto_orders``, ``check``, ``adjudicate``, ``preview``, ``rollback``, ``end``,
``write_reports``, ``build_site``, ``export``, ``archive``, ``verify``;
``read_dice`` reads a store's recorded dice for an archivist's own checks.
``docs/api.md`` shows each at work.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from chronicle.errors import CampaignError

if TYPE_CHECKING:
    from adjudicator.state import GameState
    from chronicle.archival.bundle import Bundle
    from chronicle.archival.verify import Verdict
    from chronicle.campaign.folder import Campaign
    from chronicle.site.build import BuildReport
    from chronicle.turn.outcome import TurnOutcome
    from chronicle.turn.runner import Checked

def open_campaign(folder: Path | str, *, seed: str | None = None) -> Campaign:
    """The campaign in ``folder``: ``campaign.toml`` and ``secrets.toml`` read and
    checked (the seed against its commitment). ``seed`` stands in for a missing
    ``secrets.toml`` (a finished campaign's revealed seed)."""
    from chronicle.campaign.folder import load_campaign

    return load_campaign(Path(folder), seed=seed)


def _opened(campaign: Campaign | Path | str) -> Campaign:
    return campaign if not isinstance(campaign, Path | str) else open_campaign(campaign)


def new_campaign(folder: Path | str, ruleset: str, *, world: str | None = None,
                 title: str | None = None, seed: str | None = None,
                 language: str = "en") -> Path:
    """A ready-to-play campaign folder for ``ruleset`` (``chronicle new``); a new
    random seed unless one is given. Refuses a folder that is not empty."""
    from chronicle.campaign.scaffold import scaffold

    return scaffold(Path(folder), ruleset, world=world, title=title, seed=seed,
                    language=language)


def current_state(campaign: Campaign | Path | str) -> GameState:
    """The state at the end of the last adjudicated turn (or the start)."""
    from chronicle.turn import runner

    camp = _opened(campaign)
    return runner.current_state(camp, runner.ruleset_of(camp))


def write_auto_orders(campaign: Campaign | Path | str, house: str,
                      personality: str = "cautious", *, force: bool = False) -> Path:
    """``house``'s order file for the next turn, written by a built-in player
    (``chronicle template --auto``); refuses to replace a file unless ``force``."""
    from chronicle.play.players import write_auto_orders as write

    camp = _opened(campaign)
    return write(camp, current_state(camp), house, personality, force=force)


def check(campaign: Campaign | Path | str) -> Checked:
    """Parse and validate the next turn's orders, adjudicating nothing
    (``chronicle check``): every rejected line with its file, line and reason."""
    from chronicle.turn import runner

    return runner.check(_opened(campaign))


def adjudicate(campaign: Campaign | Path | str, *, through: int | None = None,
               allow_empty: bool = False,
               each: Callable[[TurnOutcome], None] | None = None) -> list[TurnOutcome]:
    """Adjudicate the next turn, or every turn up to ``through`` whose order folder
    exists, each in one transaction with its private reports (``chronicle
    adjudicate``). Stops early when the campaign is over (``over_reason``).
    ``each`` is called with every turn's outcome as soon as it is stored."""
    from chronicle.turn import runner

    camp = _opened(campaign)
    # Only the turn number here: the state itself is decoded once, under the
    # writer lock, by ``runner.adjudicate`` (decoding it is most of a turn's cost).
    stored = runner.last_turn(camp, runner.ruleset_of(camp))
    last = through if through is not None else stored + 1
    if last <= stored:
        raise CampaignError("--through %(last)s: turn %(last)s is adjudicated already (the "
                            "store ends at turn %(stored)s); roll back first",
                            last=last, stored=stored)
    outcomes: list[TurnOutcome] = []
    state = None
    while True:
        # Each later turn starts from the state the last one ended with, which
        # ``runner.adjudicate`` checks against the store's last turn.
        outcome = runner.adjudicate(camp, state=state, allow_empty=allow_empty)
        outcomes.append(outcome)
        if each is not None:
            each(outcome)
        state = outcome.result.state
        if runner.over_reason(state) is not None or outcome.turn >= last:
            return outcomes


def over_reason(outcome: TurnOutcome, say: Callable[..., str] | None = None) -> str | None:
    """Why the campaign is over after ``outcome`` (its end year, a house's victory),
    in the words of ``say``; None while it goes on."""
    from chronicle.turn import runner

    return runner.over_reason(outcome.result.state, *(() if say is None else (say,)))


def preview(campaign: Campaign | Path | str) -> TurnOutcome:
    """The next turn adjudicated into a throw-away copy: nothing is stored."""
    from chronicle.turn import runner

    return runner.preview(_opened(campaign))


@dataclass(frozen=True)
class RolledBack:
    """What a rollback did: the last turn removed, and the files moved aside."""

    last: int
    moved: tuple[str, ...]


def rollback(campaign: Campaign | Path | str, to: int) -> RolledBack:
    """Return the store to the end of turn ``to`` (0: the start). The order folders
    are kept; the removed turns' reports and outgoing mail are moved aside."""
    from chronicle.turn import runner

    last, moved = runner.rollback(_opened(campaign), to)
    return RolledBack(last=last, moved=tuple(moved))


def end(campaign: Campaign | Path | str) -> None:
    """End the campaign: the seed is revealed in the store, for the archive."""
    from chronicle.turn import runner

    runner.end(_opened(campaign))


def write_reports(campaign: Campaign | Path | str, turn: int | None = None) -> tuple[int, Path]:
    """Write a turn's private reports again from the store (default: the last
    turn); the turn and the folder written."""
    from chronicle.turn import runner

    return runner.reports(_opened(campaign), turn)


def recover(campaign: Campaign | Path | str) -> int | None:
    """Finish what an interrupted command left undone (a turn stored without its
    reports); the turn whose reports were written, or None."""
    from chronicle.turn import runner

    return runner.recover(_opened(campaign))


def build_site(folders: Iterable[Path | str], output: Path | str, *,
               base_url: str = "", progress: Callable[[str], None] | None = None
               ) -> BuildReport:
    """Publish the campaigns in ``folders`` as one static site in ``output``; only
    the files whose bytes changed are written (``chronicle build``)."""
    from chronicle.site.build import build_site as build

    campaigns = [Path(f) for f in folders]
    for folder in campaigns:
        open_campaign(folder)
    return build(campaigns, Path(output), base_url=base_url, progress=progress)


def export(campaign: Campaign | Path | str,
           fmt: Literal["json", "gedcom", "gedcom7"] = "json") -> str:
    """The last adjudicated turn (or the start) as JSON (the contract in
    docs/design.md "JSON export"), GEDCOM 5.5.1 or GEDCOM 7.0."""
    from chronicle.archival.export import export_gedcom, export_json
    from chronicle.turn import runner

    camp = _opened(campaign)
    ruleset = runner.ruleset_of(camp)
    row: Any = None
    if camp.store_path.exists():
        store = runner.open_store(camp, ruleset)
        try:
            state, events, row = store.state(), store.events(), store.campaign()
        finally:
            store.close()
    else:
        state, events = runner.initial_state(camp, ruleset), []
    if fmt == "json":
        return json.dumps(export_json(camp, state, events, row=row),
                          indent=1, sort_keys=False, ensure_ascii=False) + "\n"
    return export_gedcom(camp, state, events, version="7.0" if fmt == "gedcom7" else "5.5.1")


def archive(campaign: Campaign | Path | str, output: Path | str) -> Bundle:
    """The archivist's bundle (docs/design.md "The archive bundle"): before the end,
    only what is public."""
    from chronicle.archival.bundle import make_bundle

    return make_bundle(_opened(campaign), Path(output))


def verify(target: Path | str) -> Verdict:
    """Replay a campaign folder or a bundle from its revealed seed and compare it
    with what it recorded (``chronicle verify``)."""
    from chronicle.archival.verify import verify as replay

    return replay(Path(target))


@dataclass(frozen=True)
class RecordedRoll:
    """One die roll as the store recorded it (docs/design.md "Determinism")."""

    turn: int
    seq: int
    phase: str
    purpose: str
    subject: str | None
    dice: str
    faces: tuple[int, ...]
    total: int
    secret: bool


@dataclass(frozen=True)
class DiceRecord:
    """A store's recorded dice and, once the campaign has ended, its seed."""

    seed: str | None
    rolls: tuple[RecordedRoll, ...]


def read_dice(store: Path | str) -> DiceRecord:
    """Every roll a store recorded, in order, and the revealed seed (None before
    ``chronicle end``): what an archivist re-rolls with a script of their own.
    A store made by an earlier version is brought up to date first."""
    from chronicle.store.reader import reading

    with reading(Path(store)) as reader:
        found = reader.rows("SELECT seed_revealed FROM campaign ORDER BY id LIMIT 1")
        seed = found[0][0] if found else None
        rows = reader.rows("SELECT turn, seq, phase, purpose, subject, dice, faces, total, "
                           "secret FROM rolls ORDER BY turn, seq")
    return DiceRecord(
        seed=None if seed is None else str(seed),
        rolls=tuple(RecordedRoll(turn=int(t), seq=int(s), phase=str(ph), purpose=str(pu),
                                 subject=None if su is None else str(su), dice=str(d),
                                 faces=tuple(int(f) for f in json.loads(fa)), total=int(to),
                                 secret=bool(se))
                    for t, s, ph, pu, su, d, fa, to, se in rows))
