"""The sentences of Blood Royale's own events (RULES.md Part B)."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from adjudicator.rulesets.blood_royale.battle import BattleFought
from adjudicator.rulesets.blood_royale.events import (
    AllianceDeclared,
    ArmiesRaised,
    ArmiesReturned,
    CampaignWon,
    CashedIn,
    ControlChanged,
    CounterGiven,
    CounterMoved,
    CounterSeized,
    CrownsPaid,
    EventDieRolled,
    ExchangeMade,
    FamineLifted,
    FamineStruck,
    FleetLost,
    InterventionAgreed,
    KingdomOrderDrawn,
    PassageChanged,
    PlagueStruck,
    ResourceAppeared,
    RevoltBroke,
    RevoltEnded,
    TaxesCollected,
    UnitMoved,
    UnitsMerged,
    UnitSplit,
    UpkeepPaid,
    WealthRow,
)
from chronicle.i18n.grammar import in_sentence
from chronicle.narration.common import directive
from chronicle.narration.narrator import (
    N_,
    ROOT,
    LedgerEntry,
    Narrator,
    Payload,
    Reader,
    for_house,
    ledger,
    ledger_column,
    says,
    told_elsewhere,
    unmarked,
)


def where(n: Narrator, province: Any) -> str:
    """A province's name in a sentence (ids are what events record), with the
    article it takes there ("La famine frappa la Normandie")."""
    name = n.glossary.provinces.get(str(province), str(province or ""))
    article = n.glossary.articles.get(str(province))
    return name if article is None else in_sentence(article, name)


def some(n: Narrator, good: Any) -> str:
    """A good with the article a sentence needs ("des vivres", "de l’or" in French;
    the bare word in English), from the catalogue's ``partitive`` context."""
    text = n.p_("partitive", str(good))
    return text if text != str(good) else n.good(good)


def battle_link(n: Narrator, battle_id: Any, province: Any) -> Markup:
    """A battle's title, linked to its page when the glossary knows it."""
    known = n.glossary.battles.get(str(battle_id))
    if known is None:
        # Titled as the battle's page is (``battle_title``): by the province's name.
        name = n.glossary.provinces.get(str(province), str(province or ""))
        return n.fmt("Battle of %(province)s", province=name)
    slug, title = known
    return Markup('<a href="%sbattles/%s/index.html">%s</a>') % (Markup(ROOT), slug,
                                                                  unmarked(title))


# The wealth rows are the wealth page's table; a counter's move is
# bookkeeping the next events make plain; the event die is on the dice
# page, and its effects are events of their own.
told_elsewhere(WealthRow, CounterMoved, EventDieRolled)

# The turn's economy as a table (RULES.md B3, B4): one row a house.
ledger_column("taxes", N_("Taxes"), adds_up=True)
ledger_column("upkeep", N_("Upkeep"), adds_up=True)
ledger_column("raised", N_("Armies raised"), adds_up=True)
ledger_column("raising", N_("Cost of raising"), adds_up=True)
ledger_column("returned", N_("Armies back in service"), adds_up=True)
ledger_column("disbanded", N_("Armies disbanded for want of pay"), adds_up=True)
ledger_column("goods", N_("New goods"), adds_up=False)
ledger_column("given", N_("Gifts and payments"), adds_up=False)


@says(KingdomOrderDrawn)
def kingdom_order(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("Round %(round)s: the kingdoms moved in this order: %(order)s.",
                 round=int(pl.get("round", 0)),
                 order=Markup(", ").join(n.house(h) for h in pl.get("order") or []))


@says(BattleFought)
def battle(n: Narrator, pl: Payload) -> Markup:
    sides = n.joined(n.house(s.get("house")) for s in pl.get("sides", []))
    title = battle_link(n, pl.get("id"), pl.get("province"))
    winner = pl.get("winner")
    if winner:
        return n.fmt("%(battle)s between %(sides)s: %(winner)s prevailed.",
                     battle=title, sides=sides, winner=n.house(winner))
    return n.fmt("%(battle)s between %(sides)s: no side prevailed.", battle=title, sides=sides)


@says(CashedIn)
def cash_in(n: Narrator, pl: Payload) -> Markup:
    return n.n_fmt("%(house)s cashed in %(num)s set of goods for %(value)s crowns.",
                   "%(house)s cashed in %(num)s sets of goods for %(value)s crowns.",
                   len(pl.get("sets") or []), house=n.house(pl["house"]),
                   value=int(pl.get("value", 0)))


@says(RevoltBroke)
def revolt(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("%(province)s rose in revolt against %(house)s.",
                 province=where(n, pl.get("province")), house=n.house(pl["house"]))


@says(RevoltEnded)
def revolt_ended(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("The revolt in %(province)s is over.", province=where(n, pl.get("province")))


def plague(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("Plague struck %(province)s.", province=where(n, pl.get("province")))


says(PlagueStruck)(plague)


@says(FamineStruck)
def famine(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("Famine struck %(province)s.", province=where(n, pl.get("province")))


@says(FamineLifted)
def famine_lifted(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("The famine in %(province)s is over.", province=where(n, pl.get("province")))


@says(FleetLost)
def fleet_lost(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("A fleet of %(house)s sank in a storm off %(province)s.",
                 house=n.house(pl["house"]), province=where(n, pl.get("province")))


@says(ControlChanged)
def control(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("%(house)s took control of %(province)s.",
                 house=n.house(pl["controller"]), province=where(n, pl.get("province")))


@directive("control")
def control_ruled(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("By the arbiter's ruling, %(province)s passes under the control of %(house)s.",
                 province=where(n, pl.get("province")), house=n.house(pl["house"]))


@says(CampaignWon)
def victory(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("The campaign is over: %(house)s is victorious.", house=n.house(pl["winner"]))


@says(TaxesCollected)
def taxes(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("%(house)s levied %(amount)s crowns in taxes.",
                 house=n.house(pl["house"]), amount=int(pl.get("amount", 0)))


@says(PassageChanged)
def passage(n: Narrator, pl: Payload) -> Markup:
    if pl.get("allowed"):
        return n.fmt("%(house)s opened its lands to the armies of %(other)s.",
                     house=n.house(pl["house"]), other=n.house(pl["to"]))
    return n.fmt("%(house)s closed its lands to the armies of %(other)s.",
                 house=n.house(pl["house"]), other=n.house(pl["to"]))


@says(AllianceDeclared)
def alliance(n: Narrator, pl: Payload) -> Markup:
    house, other = n.house(pl["house"]), n.house(pl["ally"])
    if not pl.get("declared"):
        return n.fmt("%(house)s ended its alliance with %(other)s.", house=house, other=other)
    if pl.get("in_force"):
        return n.fmt("%(house)s and %(other)s are now allies.", house=house, other=other)
    return n.fmt("%(house)s offered an alliance to %(other)s.", house=house, other=other)


@says(ExchangeMade)
def exchange(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("%(house)s and %(other)s honoured a binding exchange.",
                 house=n.house(pl["house"]), other=n.house(pl["partner"]))


@says(InterventionAgreed)
def intervention(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("Unit %(unit)s of %(house)s marched under the banner of %(other)s.",
                 unit=str(pl.get("unit", "")), house=n.house(pl["house"]),
                 other=n.house(pl["under"]))


@says(ResourceAppeared)
def resource(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("New %(good)s appeared in %(province)s for %(house)s.",
                 good=some(n, pl.get("good")), province=where(n, pl.get("province")),
                 house=n.house(pl["house"]))


@says(CounterGiven)
def counter_given(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("%(house)s gave %(good)s in %(province)s to %(other)s.",
                 house=n.house(pl["house"]), good=some(n, pl.get("good")),
                 province=where(n, pl.get("province")), other=n.house(pl["to"]))


@says(CounterSeized)
def counter_seized(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("%(house)s seized the %(good)s of %(other)s in %(province)s.",
                 house=n.house(pl["house"]), good=some(n, pl.get("good")),
                 other=n.house(pl["previous"]), province=where(n, pl.get("province")))


@says(CrownsPaid)
def crowns_paid(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("%(house)s paid %(amount)s crowns to %(other)s.",
                 house=n.house(pl["house"]), amount=int(pl.get("amount", 0)),
                 other=n.house(pl["to"]))


@says(UpkeepPaid)
def upkeep(n: Narrator, pl: Payload) -> Markup:
    lost = sum(int(v) for v in (pl.get("disbanded") or {}).values())
    if lost:
        return n.n_fmt("%(house)s paid %(amount)s crowns of upkeep and had to disband "
                       "%(num)s army.",
                       "%(house)s paid %(amount)s crowns of upkeep and had to disband "
                       "%(num)s armies.", lost, house=n.house(pl["house"]),
                       amount=int(pl.get("amount", 0)))
    return n.fmt("%(house)s paid %(amount)s crowns of upkeep.",
                 house=n.house(pl["house"]), amount=int(pl.get("amount", 0)))


@says(ArmiesReturned)
def armies_returned(n: Narrator, pl: Payload) -> Markup:
    return n.n_fmt("%(num)s army of %(house)s returned to service.",
                   "%(num)s armies of %(house)s returned to service.",
                   int(pl.get("armies", 0)), house=n.house(pl["house"]))


@says(ArmiesRaised)
def raised(n: Narrator, pl: Payload) -> Markup:
    return n.n_fmt("%(house)s raised %(num)s army in %(province)s (unit %(unit)s) for "
                   "%(cost)s crowns.",
                   "%(house)s raised %(num)s armies in %(province)s (unit %(unit)s) for "
                   "%(cost)s crowns.", int(pl.get("armies", 0)),
                   house=n.house(pl["house"]), province=where(n, pl.get("province")),
                   unit=str(pl.get("unit", "")), cost=int(pl.get("cost", 0)))


@says(UnitSplit)
def unit_split(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("%(house)s split unit %(new)s from unit %(unit)s.",
                 house=n.house(pl["house"]), new=str(pl.get("new_unit", "")),
                 unit=str(pl.get("unit", "")))


@says(UnitsMerged)
def units_merged(n: Narrator, pl: Payload) -> Markup:
    return n.fmt("%(house)s merged unit %(unit)s into unit %(into)s.",
                 house=n.house(pl["house"]), unit=str(pl.get("unit", "")),
                 into=str(pl.get("into", "")))


@says(UnitMoved)
def unit_moved(n: Narrator, pl: Payload) -> Markup | None:
    """A unit that did not leave its province is not news."""
    path = [where(n, p) for p in pl.get("path") or []]
    if not path:
        return None
    start = where(n, pl["start"]) if pl.get("start") else path[0]
    return n.fmt("Unit %(unit)s of %(house)s marched from %(start)s to %(end)s.",
                 unit=str(pl.get("unit", "")), house=n.house(pl.get("owner")),
                 start=start, end=path[-1])


# -- a house's own report (issue 17 item 7) -------------------------------------
@for_house(KingdomOrderDrawn)
def kingdom_order_for_house(n: Narrator, pl: Payload, reader: Reader) -> list[Markup]:
    order = [str(h) for h in pl.get("order") or []]
    if reader.house not in order:
        return []
    return [n.fmt("Round %(round)s: you moved in place %(place)s of %(count)s (%(order)s).",
                  round=int(pl.get("round", 0)), place=order.index(reader.house) + 1,
                  count=len(order), order=Markup(", ").join(n.house(h) for h in order))]


@for_house(BattleFought)
def battle_for_house(n: Narrator, pl: Payload, reader: Reader) -> list[Markup]:
    """Issue 17 item 7: "Losses to plague and battle, with links to the battle pages"."""
    sides = [s for s in pl.get("sides", [])
             if reader.house == s.get("house") or reader.house in (s.get("allies") or [])]
    if not sides:
        return []
    side = sides[0]
    title = battle_link(n, pl.get("id"), pl.get("province"))
    lost = n.n_fmt("your side lost %(num)s army of %(before)s",
                   "your side lost %(num)s armies of %(before)s", int(side.get("losses", 0)),
                   before=int(side.get("armies_before", 0)))
    winner = pl.get("winner")
    if not winner:
        return [n.fmt("%(battle)s: %(lost)s; no side prevailed.", battle=title, lost=lost)]
    if winner == side.get("house"):
        return [n.fmt("%(battle)s: %(lost)s, and prevailed.", battle=title, lost=lost)]
    return [n.fmt("%(battle)s: %(lost)s; %(winner)s prevailed.", battle=title, lost=lost,
                  winner=n.house(winner))]


@for_house(PlagueStruck)
def plague_for_house(n: Narrator, pl: Payload, reader: Reader) -> list[Markup]:
    """The armies a house lost; its people's deaths are told with their rolls."""
    owners = pl.get("owners") or {}
    mine = {str(u): int(lost) for u, lost in sorted((pl.get("losses") or {}).items())
            if owners.get(u) == reader.house and int(lost)}
    province = where(n, pl.get("province"))
    if mine:
        units = ", ".join(f"{u} {lost}" for u, lost in mine.items())
        return [n.n_fmt("Plague struck %(province)s: you lost %(num)s army (%(units)s).",
                        "Plague struck %(province)s: you lost %(num)s armies (%(units)s).",
                        sum(mine.values()), province=province, units=units)]
    if pl.get("house") == reader.house or reader.people & set(pl.get("exposed") or []):
        return [plague(n, pl)]
    return []


@for_house(CrownsPaid)
def paid_for_house(n: Narrator, pl: Payload, reader: Reader) -> list[Markup]:
    amount = int(pl.get("amount", 0))
    if pl.get("house") == reader.house:
        return [n.fmt("You paid %(amount)s crowns to %(other)s.", amount=amount,
                      other=n.house(pl["to"]))]
    if pl.get("to") == reader.house:
        return [n.fmt("%(other)s paid you %(amount)s crowns.", amount=amount,
                      other=n.house(pl["house"]))]
    return []


@for_house(CounterGiven)
def given_for_house(n: Narrator, pl: Payload, reader: Reader) -> list[Markup]:
    good, province = some(n, pl.get("good")), where(n, pl.get("province"))
    if pl.get("house") == reader.house:
        return [n.fmt("You gave %(good)s in %(province)s to %(other)s.", good=good,
                      province=province, other=n.house(pl["to"]))]
    if pl.get("to") == reader.house:
        return [n.fmt("%(other)s gave you %(good)s in %(province)s.", good=good,
                      province=province, other=n.house(pl["house"]))]
    return []


def _lot(n: Narrator, crowns: int, counters: list[str]) -> Markup:
    parts = [n.n_fmt("%(num)s crown", "%(num)s crowns", crowns)] if crowns else []
    parts += [Markup("%s") % c for c in counters]
    return n.joined(parts) if parts else n.fmt("nothing")


@for_house(ExchangeMade)
def exchange_for_house(n: Narrator, pl: Payload, reader: Reader) -> list[Markup]:
    gave = _lot(n, int(pl.get("crowns_given", 0)), [str(c) for c in pl.get("counters_given") or []])
    got = _lot(n, int(pl.get("crowns_received", 0)),
               [str(c) for c in pl.get("counters_received") or []])
    if pl.get("house") == reader.house:
        return [n.fmt("In a binding exchange with %(other)s you gave %(gave)s and received "
                      "%(got)s.", other=n.house(pl["partner"]), gave=gave, got=got)]
    if pl.get("partner") == reader.house:
        return [n.fmt("In a binding exchange with %(other)s you gave %(gave)s and received "
                      "%(got)s.", other=n.house(pl["house"]), gave=got, got=gave)]
    return []


@for_house(RevoltEnded)
def revolt_ended_for_house(n: Narrator, pl: Payload, reader: Reader) -> list[Markup]:
    if pl.get("house") != reader.house:
        return []
    province = where(n, pl.get("province"))
    if pl.get("cause") == "paid":
        return [n.fmt("You bought off the revolt in %(province)s for %(price)s crowns.",
                      province=province, price=int(pl.get("price", 0)))]
    return [n.fmt("Your garrison put down the revolt in %(province)s.", province=province)]


@for_house(WealthRow)
def wealth_for_house(n: Narrator, pl: Payload, reader: Reader) -> list[Markup]:
    """The turn's accounts of the house, from its wealth row (B7)."""
    if pl.get("house") != reader.house:
        return []
    values = {key: int(pl.get(key) or 0) for key in (
        "treasury", "taxes", "upkeep", "raised", "revolts", "paid", "received", "ransom_paid",
        "ransom_received", "cash_in")}
    return [n.fmt("Your treasury holds %(treasury)s crowns: taxes +%(taxes)s, cash-in "
                  "+%(cash_in)s, received +%(received)s, ransoms received +%(ransom_received)s; "
                  "upkeep -%(upkeep)s, raising -%(raised)s, revolts bought off -%(revolts)s, "
                  "paid -%(paid)s, ransoms paid -%(ransom_paid)s.", **values)]


# -- the ledger -----------------------------------------------------------------
@ledger(TaxesCollected)
def taxes_entry(n: Narrator, pl: Payload) -> list[LedgerEntry]:
    return [LedgerEntry(str(pl["house"]), "taxes", int(pl.get("amount", 0)))]


@ledger(UpkeepPaid)
def upkeep_entry(n: Narrator, pl: Payload) -> list[LedgerEntry]:
    house = str(pl["house"])
    lost = sum(int(v) for v in (pl.get("disbanded") or {}).values())
    return [LedgerEntry(house, "upkeep", int(pl.get("amount", 0)))] + (
        [LedgerEntry(house, "disbanded", lost)] if lost else [])


@ledger(ArmiesRaised)
def raised_entry(n: Narrator, pl: Payload) -> list[LedgerEntry]:
    house = str(pl["house"])
    return [LedgerEntry(house, "raised", int(pl.get("armies", 0))),
            LedgerEntry(house, "raising", int(pl.get("cost", 0)))]


@ledger(ArmiesReturned)
def returned_entry(n: Narrator, pl: Payload) -> list[LedgerEntry]:
    return [LedgerEntry(str(pl["house"]), "returned", int(pl.get("armies", 0)))]


@ledger(ResourceAppeared)
def resource_entry(n: Narrator, pl: Payload) -> list[LedgerEntry]:
    return [LedgerEntry(str(pl["house"]), "goods", note=n.fmt(
        "%(good)s in %(province)s", good=n.good(pl.get("good")),
        province=where(n, pl.get("province"))))]


@ledger(CounterGiven)
def given_entry(n: Narrator, pl: Payload) -> list[LedgerEntry]:
    return [LedgerEntry(str(pl["house"]), "given", note=n.fmt(
        "%(good)s in %(province)s to %(other)s", good=n.good(pl.get("good")),
        province=where(n, pl.get("province")), other=n.house(pl["to"])))]


@ledger(CrownsPaid)
def paid_entry(n: Narrator, pl: Payload) -> list[LedgerEntry]:
    return [LedgerEntry(str(pl["house"]), "given", note=n.fmt(
        "%(amount)s crowns to %(other)s", amount=int(pl.get("amount", 0)),
        other=n.house(pl["to"])))]
