"""The cash-in (RULES.md B7): turning the goods in a capital into crowns.

Every set type is the basic set plus some extra goods, with a value in crowns
(``content/rulesets/blood-royale/wealth.toml``). Choosing how many sets of each
type to cash is a small integer program. ``best_cash_in`` solves it exactly by
enumerating the number of sets of every type but the last; the last type then
takes as many sets as the remaining goods allow, since any optimum does so
(every set is worth something, so one more set always pays more).

Among combinations worth the same, the tie-break is deterministic [D]:

1. the one that uses the fewest goods (the surplus stays in the capital, B7);
2. then the one with more sets of the most valuable type, then of the next
   most valuable, and so on.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.errors import RulesDataError


@dataclass(frozen=True)
class SetType:
    """One kind of set: the goods it takes and what it pays."""

    name: str
    goods: tuple[tuple[str, int], ...]
    value: int

    def needs(self, good: str) -> int:
        return dict(self.goods).get(good, 0)


@dataclass(frozen=True)
class WealthRules:
    """Typed view of ``rules["wealth"]``; set types by falling value."""

    basic: tuple[str, ...]
    sets: tuple[SetType, ...]

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> WealthRules:
        try:
            basic = tuple(str(g) for g in data["basic"])
            types: list[SetType] = []
            for entry in data["set"]:
                counts: dict[str, int] = {}
                for good in (*basic, *(str(g) for g in entry["extra"])):
                    counts[good] = counts.get(good, 0) + 1
                types.append(SetType(name=str(entry["name"]),
                                     goods=tuple(sorted(counts.items())),
                                     value=int(entry["value"])))
        except (KeyError, TypeError, ValueError) as err:
            raise RulesDataError(f"wealth rules: missing or bad entry {err}") from err
        if not basic or not types:
            raise RulesDataError("wealth rules: a basic set and at least one set type are needed")
        if any(t.value <= 0 for t in types):
            raise RulesDataError("wealth rules: every set must be worth at least one crown")
        if len({t.name for t in types}) != len(types):
            raise RulesDataError("wealth rules: two set types share a name")
        types.sort(key=lambda t: (-t.value, t.name))
        return cls(basic=basic, sets=tuple(types))

    @property
    def goods(self) -> tuple[str, ...]:
        """Every good some set uses, sorted."""
        return tuple(sorted({g for t in self.sets for g, _ in t.goods}))


@dataclass(frozen=True)
class CashIn:
    """The chosen combination: the sets cashed, their worth, the goods used and left."""

    sets: tuple[str, ...]
    value: int
    used: dict[str, int]
    remaining: dict[str, int]

    def count(self, name: str) -> int:
        return self.sets.count(name)


def wealth_rules(rules: Mapping[str, Any]) -> WealthRules:
    """The typed B7 tables of a full rules mapping."""
    return WealthRules.from_mapping(rules["wealth"])


def _feasible(kind: SetType, stock: Mapping[str, int]) -> int:
    """How many sets of ``kind`` the stock can make."""
    return min(stock.get(good, 0) // need for good, need in kind.goods)


def _take(stock: dict[str, int], kind: SetType, count: int) -> None:
    for good, need in kind.goods:
        stock[good] -= need * count


def _combinations(kinds: tuple[SetType, ...], stock: dict[str, int]) -> Iterator[tuple[int, ...]]:
    """Every count vector in which the last kind takes all it can."""
    first, rest = kinds[0], kinds[1:]
    most = _feasible(first, stock)
    if not rest:
        yield (most,)
        return
    for count in range(most, -1, -1):
        _take(stock, first, count)
        for tail in _combinations(rest, stock):
            yield (count, *tail)
        _take(stock, first, -count)


def best_cash_in(goods: Mapping[str, int], rules: Mapping[str, Any]) -> CashIn:
    """The combination of sets that pays the most crowns for ``goods`` (B7).

    ``goods`` counts the goods in a capital; ``rules`` is the full rules
    mapping (its ``"wealth"`` table). Goods that no set uses stay as surplus.
    """
    if any(n < 0 for n in goods.values()):
        raise ValueError(f"negative goods count in {dict(goods)!r}")
    table = wealth_rules(rules)
    kinds = table.sets
    stock = {good: int(goods.get(good, 0)) for good in table.goods}
    best: tuple[int, int, tuple[int, ...]] | None = None
    for counts in _combinations(kinds, dict(stock)):
        value = sum(c * k.value for c, k in zip(counts, kinds, strict=True))
        used = sum(c * n for c, k in zip(counts, kinds, strict=True) for _, n in k.goods)
        key = (value, -used, counts)
        if best is None or key > best:
            best = key
    assert best is not None
    counts = best[2]
    names = tuple(k.name for c, k in zip(counts, kinds, strict=True) for _ in range(c))
    everything = sorted(set(goods) | set(table.goods))
    used_by_good = {g: sum(c * k.needs(g) for c, k in zip(counts, kinds, strict=True))
                    for g in everything}
    return CashIn(
        sets=names,
        value=best[0],
        used=used_by_good,
        remaining={g: int(goods.get(g, 0)) - used_by_good[g] for g in everything},
    )
