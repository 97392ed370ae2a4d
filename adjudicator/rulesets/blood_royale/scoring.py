"""Cash-in (RULES.md B7), the end of the campaign (B8) and the wealth rows.

A cash-in closes every turn whose year ends in 5 (``cash_in_every`` and
``cash_in_remainder``), and the last turn of a campaign with an end year.
Only counters in the owner's capital count; the sets cashed are the best
combination (``wealth.best_cash_in``), and the counters used are the lowest
numbered of each good, so the same goods always leave.

The richest house is the one with most crowns [D]: ties go to the house with
more controlled provinces, then to the lower house id.
"""

from __future__ import annotations

from collections import Counter as Tally
from collections.abc import Mapping
from typing import Any

from adjudicator.dynastic.events import PrisonerReleased
from adjudicator.rulesets.base import TurnContext
from adjudicator.rulesets.blood_royale.board import board
from adjudicator.rulesets.blood_royale.counters import counter_number
from adjudicator.rulesets.blood_royale.events import CampaignWon, CashedIn, WealthRow
from adjudicator.rulesets.blood_royale.tables import br_rules
from adjudicator.rulesets.blood_royale.turnstate import BRTurn
from adjudicator.rulesets.blood_royale.wealth import best_cash_in
from adjudicator.rulesets.blood_royale.world import controlled
from adjudicator.state import GameState

END_YEAR = "end-year"
TARGET = "target"


def is_cash_in_year(year: int, rules: Mapping[str, Any]) -> bool:
    economy = br_rules(rules).economy
    return year % economy.cash_in_every == economy.cash_in_remainder


def is_last_turn(state: GameState, year: int) -> bool:
    return state.end_year is not None and year >= state.end_year


def goods_in_capital(state: GameState, house: str) -> dict[str, int]:
    capital = state.houses[house].capital
    tally = Tally(c.good for c in board(state).counters if c.owner == house and c.province == capital)
    return dict(sorted(tally.items()))


def cash_in(ctx: TurnContext, turn: BRTurn, final: bool) -> None:
    """Turn every house's best sets into crowns; surplus goods stay in the capital."""
    state = ctx.state
    for house in sorted(h.id for h in state.active_houses()):
        goods = goods_in_capital(state, house)
        best = best_cash_in(goods, ctx.rules)
        if best.value <= 0:
            continue
        capital = state.houses[house].capital
        spent: set[str] = set()
        for good, count in best.used.items():
            here = sorted((c for c in board(state).counters
                           if c.owner == house and c.province == capital and c.good == good),
                          key=counter_number)
            spent.update(c.id for c in here[:count])
        board(state).counters = [c for c in board(state).counters if c.id not in spent]
        state.houses[house].treasury += best.value
        turn.ledger(house).cash_in += best.value
        ctx.emit(CashedIn(phase=ctx.dice.phase, house=house, sets=best.sets, value=best.value,
                          used=dict(best.used), remaining=dict(best.remaining), final=final))


def richest(state: GameState, houses: list[str]) -> str:
    return min(houses, key=lambda h: (-state.houses[h].treasury,
                                      -len(controlled(state, h)), h))


def run_cash_in_and_victory(ctx: TurnContext, turn: BRTurn) -> None:
    """B7 then B8, at the end of the turn."""
    state = ctx.state
    ctx.dice.set_phase("cash-in")
    year = ctx.year
    last = is_last_turn(state, year)
    cashed = is_cash_in_year(year, ctx.rules) or last
    if cashed:
        cash_in(ctx, turn, final=last)
    active = sorted(h.id for h in state.active_houses())
    if not active or state.finished:
        return
    reason = None
    contenders = active
    if state.target is not None and cashed:
        over = [h for h in active if state.houses[h].treasury > state.target]
        if over:
            reason, contenders = TARGET, over
    if reason is None and last:
        reason = END_YEAR
    if reason is None:
        return
    winner = richest(state, contenders)
    state.winner = winner
    state.finished = True
    ctx.emit(CampaignWon(phase=ctx.dice.phase, winner=winner, reason=reason,
                         standings={h: state.houses[h].treasury for h in active}))


def _book_ransoms(ctx: TurnContext, turn: BRTurn) -> None:
    """The dynasty phase's ransoms (A9), paid by the prisoner's dynasty to the captor."""
    state = ctx.state
    for event in ctx.events:
        if isinstance(event, PrisonerReleased) and event.ransom:
            payer = state.persons[event.person].dynasty
            assert payer is not None
            turn.ledger(payer).ransom_paid += event.ransom
            turn.ledger(event.captor).ransom_received += event.ransom


def emit_wealth_rows(ctx: TurnContext, turn: BRTurn) -> None:
    """One ``WealthRow`` per active house, the last event of the turn: the standings
    of B7 and every crown that moved, so that each row's treasury is the previous
    row's plus its inflows minus its outflows."""
    state = ctx.state
    _book_ransoms(ctx, turn)
    for house in sorted(h.id for h in state.active_houses()):
        ledger = turn.ledger(house)
        goods = goods_in_capital(state, house)
        ctx.emit(WealthRow(phase=ctx.dice.phase, house=house, turn=ctx.turn, year=ctx.year,
                           treasury=state.houses[house].treasury, goods=goods,
                           best_cash_in=best_cash_in(goods, ctx.rules).value,
                           taxes=ledger.taxes, upkeep=ledger.upkeep, raised=ledger.raised,
                           cash_in=ledger.cash_in, revolts=ledger.revolts, paid=ledger.paid,
                           received=ledger.received, ransom_paid=ledger.ransom_paid,
                           ransom_received=ledger.ransom_received))
