"""Driving the command line as the arbiter types it, for the tests."""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from pathlib import Path

from click.testing import CliRunner, Result

from chronicle.commands.cli import cli


def run(*args: str | Path) -> Result:
    """``chronicle ARGS``; a traceback fails the test (standard 3: never a traceback)."""
    result = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"traceback from {args}: {result.exception!r}\n{result.output}")
    return result


def serve_process(*args: str | Path) -> tuple[subprocess.Popen[str], queue.Queue[str]]:
    """``chronicle serve ARGS --port 0`` started in its own process, and a queue
    of the lines it prints, as they come (the caller stops the process)."""
    process = subprocess.Popen([sys.executable, "-m", "chronicle.commands.cli", "serve", *map(str, args),
                                "--port", "0"], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout or ()],
                     daemon=True).start()
    return process, lines
