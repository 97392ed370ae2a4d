"""The arbiter's batch loop: orders in, one adjudicated turn out.

``adjudicate`` reads the next turn's order folder, resolves it in memory with
dice derived from the seed, then hands the finished result to the store in one
transaction, and only then writes the private reports.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from adjudicator.dice import Roll, SeededDice
from adjudicator.errors import ChronicleRulesError
from adjudicator.rulesets.base import Ruleset
from adjudicator.state import GameState
from chronicle.campaign import Campaign, CampaignError, check_folder_inside, seed_commitment
from chronicle.models import CampaignRow
from chronicle.orders_io import TurnOrders, read_turn
from chronicle.outcome import TurnOutcome
from chronicle.reports import write_reports
from chronicle.store import Store, StoreError, copy_store


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


def open_store(campaign: Campaign, ruleset: Ruleset, *, create: bool = True) -> Store:
    """The campaign's store, created from campaign.toml on first use."""
    path = campaign.store_path
    if path.exists():
        try:
            store = Store.open(path, ruleset)
        except StoreError as err:
            raise CampaignError(str(err)) from None
        row = store.campaign()
        if row.seed_commitment != seed_commitment(campaign.seed):
            raise CampaignError(f"{path.name}: this store belongs to another seed")
        return store
    if not create:
        raise CampaignError(f"{path.name}: no store yet; adjudicate a turn first")
    state, rolls = initial_setup(campaign, ruleset)
    row = CampaignRow(slug=campaign.slug, title=campaign.title, ruleset=campaign.ruleset,
                      start_year=state.start_year, end_year=state.end_year,
                      target=state.target, seed_commitment=seed_commitment(campaign.seed),
                      language=campaign.language, world=campaign.spec.get("world"))
    return Store.create(path, row, state, ruleset, rolls)


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


def adjudicate(campaign: Campaign, *, state: GameState | None = None) -> TurnOutcome:
    """Adjudicate and store the next turn; write its private reports.

    ``state`` may pass the store's last state when the caller already holds it
    (the demo loop does), to save decoding it twice; it must be that state.
    """
    ruleset = ruleset_of(campaign)
    store = open_store(campaign, ruleset)
    if state is None or state.turn != store.last_turn():
        state = store.state()
    outcome = resolve_next(campaign, ruleset, state)
    # A reports folder leading elsewhere is refused before anything is stored.
    check_folder_inside(campaign.root, campaign.reports_dir(outcome.turn))
    store.commit_turn(state, outcome.result, outcome.orders.texts, outcome.orders.digest)
    write_reports(campaign, ruleset, outcome)
    return outcome


def preview(campaign: Campaign) -> TurnOutcome:
    """Adjudicate into a throw-away copy of the store; the real one is untouched."""
    ruleset = ruleset_of(campaign)
    with tempfile.TemporaryDirectory(prefix="chronicle-preview-") as tmp:
        if campaign.store_path.exists():
            copy_store(campaign.store_path, Path(tmp) / "preview.sqlite")
            store = Store.open(Path(tmp) / "preview.sqlite", ruleset)
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
