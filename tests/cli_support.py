"""Driving the command line as the arbiter types it, for the tests."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner, Result

from chronicle.cli import cli


def run(*args: str | Path) -> Result:
    """``chronicle ARGS``; a traceback fails the test (standard 3: never a traceback)."""
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"traceback from {args}: {result.exception!r}\n{result.output}")
    return result
