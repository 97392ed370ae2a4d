"""The shape of ``campaign.toml``: values of the wrong type or size, refused by line.

The engine checks what a campaign means (a father who exists, one founder
per dynasty); this module checks what it is made of, before the engine
sees it, so that a value of the wrong type or an absurd number is
refused as ``campaign.toml:LINE: what and why`` and never reaches
arithmetic or the store as a traceback.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from chronicle.errors import ShapeError

#: No number in a campaign is larger: a treasury growing for a century from
#: here stays far below what the store can hold (2**63).
LIMIT = 10**9
#: Years of the calendar (a campaign may begin before the common era).
YEARS = range(-9999, 10000)


def locate(text: str, key: str, near: str | None = None) -> int | None:
    """The line (1-based) where ``key`` is set: the first at or after the line that
    holds ``near`` (an entry's ``id = "..."``, or a table's header), if given."""
    lines = text.splitlines()
    start = 0
    if near is not None:
        found = next((i for i, line in enumerate(lines) if near in line), None)
        if found is None:
            near = None
        else:
            start = found
    setting = re.compile(rf"(^|[\s{{,]){re.escape(key)}\s*=")
    for index in range(start, len(lines)):
        if setting.search(lines[index].split("#", 1)[0]):
            return index + 1
    return locate(text, key) if near is not None else None


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


def same_kind(default: Any, value: Any) -> bool:
    """Whether ``value`` may stand where ``default`` does (a whole number for a number)."""
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, int | float)
    return isinstance(value, type(default))


def check_numbers(value: Any, text: str, path: str = "") -> None:
    """Every whole number anywhere in the file within ``LIMIT``."""
    if isinstance(value, dict):
        for key, inner in value.items():
            check_numbers(inner, text, key)
    elif isinstance(value, list):
        for inner in value:
            check_numbers(inner, text, path)
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > LIMIT:
        raise ShapeError(f"{path} = {value} is beyond any campaign (at most "
                         f"{LIMIT:,} either way)", locate(text, path))


def check_years(spec: Mapping[str, Any], text: str) -> None:
    for key in ("start_year", "end_year"):
        value = spec.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value not in YEARS:
            raise ShapeError(f"{key} must be a year from {YEARS.start} to {YEARS.stop - 1}, "
                             f"not {value}", locate(text, key))
    start, end = spec.get("start_year"), spec.get("end_year")
    if isinstance(start, int) and isinstance(end, int) and end < start:
        raise ShapeError(f"end_year must not come before start_year ({start}), not {end}",
                         locate(text, "end_year"))


def check_overrides(defaults: Mapping[str, Any], overrides: Mapping[str, Any], text: str,
                    where: str = "rules") -> None:
    """``[rules]`` may change the ruleset's tables, not their shape: each key must
    be one of the tables', and each value of the kind it replaces."""
    for key, value in overrides.items():
        here = f"{where}.{key}"
        if key not in defaults:
            known = ", ".join(sorted(str(k) for k in defaults if not str(k).startswith("_")))
            raise ShapeError(f"[{where}] {key}: no such rule in this ruleset (there are: "
                             f"{known})", locate(text, key, f"[{where}"))
        default = defaults[key]
        if not same_kind(default, value):
            raise ShapeError(f"[{where}] {key} must be {_kind(default)}, not {value!r}",
                             locate(text, key, f"[{where}"))
        if isinstance(default, dict):
            check_overrides(default, value, text, here)
        elif isinstance(default, list) and default:
            wrong = [v for v in value if not same_kind(default[0], v)]
            if wrong:
                raise ShapeError(f"[{where}] {key}: every entry must be {_kind(default[0])}, "
                                 f"not {wrong[0]!r}", locate(text, key, f"[{where}"))


def check_entries(spec: Mapping[str, Any], text: str,
                  fields: Mapping[str, Mapping[str, type | tuple[type, ...]]]) -> None:
    """Each ``[[house]]``, ``[[person]]`` and ``[[unit]]`` field of the type it takes.

    ``fields`` is the engine's declaration: table -> field -> type(s).
    """
    for table, types in fields.items():
        for entry in spec.get(table, []):
            ident = entry.get("id")
            near = f'"{ident}"' if isinstance(ident, str) else None
            label = f"[[{table}]] {ident!r}" if isinstance(ident, str) else f"[[{table}]]"
            for key, value in entry.items():
                wanted = types.get(key)
                if wanted is None:
                    continue  # unknown keys are the engine's to name, with what is allowed
                allowed = wanted if isinstance(wanted, tuple) else (wanted,)
                ok = any(same_kind(_example(t), value) for t in allowed)
                if ok and isinstance(value, list):
                    ok = all(isinstance(v, str) for v in value)
                if not ok:
                    names = " or ".join(_kind(_example(t)) for t in allowed)
                    raise ShapeError(f"{label}: {key} must be {names}, not {value!r}",
                                     locate(text, key, near))


def check_top(spec: Mapping[str, Any], text: str, fields: Mapping[str, type]) -> None:
    """The file's own keys, each of the type it takes (``list``: of tables)."""
    for key, value in spec.items():
        wanted = fields.get(key)
        if wanted is None:
            continue  # unknown keys are named by the caller, all at once
        ok = same_kind(_example(wanted), value)
        if ok and wanted is list:
            ok = all(isinstance(v, dict) for v in value)
        if not ok:
            what = f"[[{key}]] tables" if wanted is list else _kind(_example(wanted))
            raise ShapeError(f"{key} must be {what}, not {value!r}", locate(text, key))


def _example(kind: type) -> Any:
    """A value of ``kind``, for ``same_kind`` and ``_kind``."""
    return {bool: False, int: 0, float: 0.0, str: "", list: [""], dict: {}}[kind]
