"""Blood Royale dealings between houses (RULES.md B6 alliances, B7a exchanges),
and disbanding, as DESIGN.md "Blood Royale dealings" writes them."""

from __future__ import annotations

from adjudicator.rulesets.blood_royale.orders import (
    AllyOrder,
    CounterRef,
    DisbandOrder,
    ExchangeOrder,
    Lot,
)
from tests.br_support import sheet


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
