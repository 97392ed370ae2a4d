"""``bench/build.py`` loaded as a module, once, for the tests that use its campaigns
and its measuring (the bench is a script, not part of the package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _load() -> Any:
    sys.path.insert(0, str(ROOT / "bench"))  # as when the script runs: its modules beside it
    spec = importlib.util.spec_from_file_location("bench_build", ROOT / "bench" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


BENCH = _load()
