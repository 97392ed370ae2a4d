"""Blood Royale dealings between houses (RULES.md B6 alliances, B7a exchanges),
and disbanding, as DESIGN.md "Blood Royale dealings" writes them."""

from __future__ import annotations

from br_support import fresh_state, put, rules, sheet

from adjudicator.dice import SeededDice
from adjudicator.rulesets.blood_royale import BloodRoyaleRuleset
from adjudicator.rulesets.blood_royale.board import board
from adjudicator.rulesets.blood_royale.counters import new_counter
from adjudicator.rulesets.blood_royale.orders import (
    AllyOrder,
    CounterRef,
    DisbandOrder,
    ExchangeOrder,
    Lot,
)
from adjudicator.rulesets.blood_royale.validation import validate_blood_royale
from adjudicator.rulesets.blood_royale.world import allied, passage_allowed


def test_design_dealings_lines_parse_as_written():
    """DESIGN.md "Blood Royale dealings": ``ally``, ``end alliance``, ``exchange … with``
    and ``disband``, exactly as the contract writes them."""
    parsed = sheet("england",
                   "ally france",
                   "end alliance france",
                   "exchange 30 crowns for wine-7 with france",
                   "exchange metal from cornwall and 10 crowns for food from normandy "
                   "with france",
                   "disband E-3")
    assert not parsed.rejections
    ally, end, simple, mixed, disband = parsed.orders
    assert ally == AllyOrder(line=2, text="ally france", house="france", allied=True)
    assert isinstance(end, AllyOrder) and not end.allied and end.house == "france"
    assert isinstance(simple, ExchangeOrder)
    assert simple.gives == Lot(30, ()) and simple.gets == Lot(0, (CounterRef("wine-7"),))
    assert isinstance(mixed, ExchangeOrder) and mixed.house == "france"
    assert mixed.gives == Lot(10, (CounterRef("metal", "cornwall"),))
    assert mixed.gets == Lot(0, (CounterRef("food", "normandy"),))
    assert isinstance(disband, DisbandOrder) and disband.unit == "E-3"


def test_an_exchange_without_its_partner_is_a_syntax_error():
    parsed = sheet("england", "exchange 30 crowns for wine-7", "exchange for wine-7 with F")
    assert not parsed.orders and len(parsed.rejections) == 2


# -- disband ---------------------------------------------------------------------------


def test_disband_returns_the_armies_to_the_pool_at_once_and_saves_their_upkeep():
    """DESIGN.md dealings: "disband E-3  # the unit's armies return to the pool at once";
    B2.2.6 "Lost armies return to the pool after 2 turns" does not apply to them."""
    state = fresh_state()
    state.turn = 0
    put(state, "E-3", "england", "middlesex", 15)
    orders = {"england": sheet("england", "disband E-3", "raise 15 in middlesex as E-4")}
    result = BloodRoyaleRuleset(rules()).resolve(state, orders, SeededDice("disband", 1))
    after = result.state
    assert "E-3" not in after.units and after.units["E-4"].armies == 15
    assert after.houses["england"].armies_lost == []
    upkeep = next(e for e in result.events if e.kind == "upkeep" and e.house == "england")
    assert upkeep.home_armies == 5
    assert [r.reason for r in result.rejections] == []


def test_disband_refuses_another_house_s_unit_and_later_lines_for_the_disbanded_one():
    """A house disbands only its own units; a unit disbanded cannot then be moved."""
    state = fresh_state()
    put(state, "E-3", "england", "middlesex", 2)
    orders = {"england": sheet("england", "disband F-1", "disband E-3",
                               "move E-3 to kent")}
    validate_blood_royale(state, orders, rules())
    reasons = [r.reason for r in orders["england"].rejections]
    assert reasons == ["you have no unit F-1", "E-3 is disbanded by an earlier line"]


# -- binding exchanges (B7a) -----------------------------------------------------------


def _exchange_turn(england: str, *france: str):
    """One turn with one exchange line from each house; ``{wine}`` is a French counter
    in Burgundy. Returns the result and the counter's id."""
    state = fresh_state()
    state.turn = 0
    wine = new_counter(state, "wine", "france", "burgundy").id
    orders = {"england": sheet("england", england.format(wine=wine)),
              "france": sheet("france", *(line.format(wine=wine) for line in france))}
    validate_blood_royale(state, orders, rules())
    result = BloodRoyaleRuleset(rules()).resolve(state, orders, SeededDice("exchange", 1))
    owner = next(c.owner for c in board(result.state).counters if c.id == wine)
    return result, wine, owner


def test_b7a_an_exchange_both_houses_send_moves_crowns_and_counters():
    """B7a: "both houses send the same exchange" and it happens; "Counters change owner
    where they lie, like gifts"."""
    result, wine, owner = _exchange_turn("exchange 30 crowns for {wine} with france",
                                         "exchange {wine} for 30 crowns with england")
    assert [r.text for r in result.rejections] == []
    [made] = [e for e in result.events if e.kind == "exchange"]
    assert (made.house, made.partner, made.crowns_given, made.counters_received) == (
        "england", "france", 30, (wine,))
    assert owner == "england"
    rows = {e.house: e for e in result.events if e.kind == "wealth"}
    assert (rows["england"].paid, rows["france"].received) == (30, 30)


def test_b7a_an_exchange_one_side_cannot_deliver_does_not_happen_at_all():
    """B7a: "it happens only if both sides can deliver everything they promised;
    otherwise neither part happens and both houses are told why"."""
    result, wine, owner = _exchange_turn("exchange 30 crowns for {wine} with france",
                                         "give {wine} to germany",
                                         "exchange {wine} for 30 crowns with england")
    reasons = {r.house: r.reason for r in result.rejections}
    assert reasons == {h: f"House Capet no longer has {wine}: neither part of the exchange "
                          "happens" for h in ("england", "france")}
    assert owner == "germany"
    assert not [e for e in result.events if e.kind == "exchange"]
    rows = {e.house: e for e in result.events if e.kind == "wealth"}
    assert rows["england"].paid == rows["france"].paid == 0


def test_b7a_two_different_exchanges_are_both_refused():
    """DESIGN.md: "both lines must describe the same exchange or both are refused"."""
    result, _, owner = _exchange_turn("exchange 30 crowns for {wine} with france",
                                      "exchange {wine} for 40 crowns with england")
    assert {r.house for r in result.rejections} == {"england", "france"}
    assert all("did not send the same exchange" in r.reason for r in result.rejections)
    assert owner == "france"


def test_b7a_an_exchange_of_this_turn_s_goods_named_by_province():
    """DESIGN.md: ``exchange metal from cornwall and 10 crowns for food from normandy
    with france``: a province may be named by id or by name on either side."""
    result, _, _ = _exchange_turn(
        "exchange metal from cornwall and 10 crowns for {wine} with france",
        "exchange {wine} for 10 crowns and metal from Cornwall with england")
    assert [r.text for r in result.rejections] == []
    [made] = [e for e in result.events if e.kind == "exchange"]
    [metal] = made.counters_given
    assert next(c.owner for c in board(result.state).counters if c.id == metal) == "france"


# -- alliances (B6) --------------------------------------------------------------------


def test_b6_allies_give_each_other_passage_and_never_fight_each_other():
    """B6: "Two houses that both declare ally <house> (a standing order, ended by
    end alliance <house> from either) are allies. Allies give each other passage, never
    fight each other"."""
    state = fresh_state()
    state.turn = 0
    put(state, "F-9", "france", "kent", 3)
    put(state, "E-5", "england", "kent", 3)
    game = BloodRoyaleRuleset(rules())
    orders = {"england": sheet("england", "ally france", "attack france"),
              "france": sheet("france", "ally england", "attack england")}
    result = game.resolve(state, orders, SeededDice("allies", 1))
    assert allied(result.state, "england", "france")
    assert passage_allowed(result.state, "england", "france")
    assert not [e for e in result.events if e.kind == "battle"]
    assert board(result.state).provinces["kent"].controller == "england"
    ended = game.resolve(result.state, {"france": sheet("france", "end alliance england")},
                         SeededDice("allies", 2))
    assert not allied(ended.state, "england", "france")
    assert [e for e in ended.events if e.kind == "battle"]


def test_b6_one_house_declaring_is_no_alliance():
    """B6: allies are houses that *both* declare it."""
    state = fresh_state()
    state.turn = 0
    result = BloodRoyaleRuleset(rules()).resolve(
        state, {"england": sheet("england", "ally france")}, SeededDice("allies", 1))
    assert not allied(result.state, "england", "france")
    assert not passage_allowed(result.state, "england", "france")
