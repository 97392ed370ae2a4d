"""The one seam through which a build runs work beside itself.

A job runs in a forked child process when that is safe and useful, else at
once in this process; either way ``result()`` gives its value or raises its
error, so a caller never knows which it got, and the site is the same.

Forking is safe only while this process runs no other thread: a child
inherits every lock as it was, and a lock held by a thread that does not
exist in the child never comes free (Python 3.12 warns of it). So ``start``
forks only when this is the only thread, and the build starts its writing
threads after its forks (see ``writer.Writer``). The child inherits the
parent's memory (a campaign's views need no pickling) and sends back only its
result, pickled, through a pipe.

Measured (paired, interleaved whole builds on two cores; README): the two
uses, laying out genealogies beside the load and rendering half the pages in
a second process, each pay for themselves. Tests make every job serial with
``serial()`` or ``CHRONICLE_SERIAL=1``.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

T = TypeVar("T")

SERIAL_ENV = "CHRONICLE_SERIAL"
_SERIAL = [False]


@contextlib.contextmanager
def serial() -> Iterator[None]:
    """Within the block, every job runs at once in this process."""
    before = _SERIAL[0]
    _SERIAL[0] = True
    try:
        yield
    finally:
        _SERIAL[0] = before


def can_fork() -> bool:
    """True if a job started now would run in a child process."""
    return (not _SERIAL[0] and not os.environ.get(SERIAL_ENV) and hasattr(os, "fork")
            and (os.cpu_count() or 1) > 1 and threading.active_count() == 1)


class Job(Generic[T]):
    """Work started by ``start``; ``result()`` waits for it."""

    def result(self) -> T:
        raise NotImplementedError

    def cancel(self) -> None:
        """Stop it if it still runs (a build that failed no longer needs it)."""

    @property
    def forked(self) -> bool:
        return False


class _Done(Job[T]):
    """A job that ran at once, here."""

    def __init__(self, work: Callable[[], T]) -> None:
        self._error: BaseException | None = None
        try:
            self._value: T | None = work()
        except Exception as err:  # raised where the result is asked for, as a child's
            self._value, self._error = None, err

    def result(self) -> T:
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]


class _Child(Job[T]):
    """A job running in a forked child, which sends back its pickled result."""

    def __init__(self, work: Callable[[], T]) -> None:
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the child, which coverage does not follow
            os.close(read)
            _run_child(work, write)
        os.close(write)
        self._pid: int | None = pid
        self._read: int | None = read
        self._outcome: tuple[bool, object] | None = None

    @property
    def forked(self) -> bool:
        return True

    def result(self) -> T:
        if self._outcome is None:
            self._outcome = self._collect()
        ok, value = self._outcome
        if not ok:
            raise value  # type: ignore[misc]
        return value  # type: ignore[return-value]

    def _collect(self) -> tuple[bool, object]:
        assert self._read is not None and self._pid is not None
        with os.fdopen(self._read, "rb") as pipe:
            self._read = None
            data = pipe.read()
        _pid, status = os.waitpid(self._pid, 0)
        self._pid = None
        if not data:
            return False, RuntimeError(f"a build process died ({_describe(status)})")
        outcome: tuple[bool, object] = pickle.loads(data)
        return outcome

    def cancel(self) -> None:
        if self._pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._pid, signal.SIGTERM)
            os.waitpid(self._pid, 0)
            self._pid = None
        if self._read is not None:
            os.close(self._read)
            self._read = None


def _run_child(work: Callable[[], T], write: int) -> None:  # pragma: no cover - in the child
    code = 0
    try:
        payload = pickle.dumps((True, work()), protocol=pickle.HIGHEST_PROTOCOL)
    except BaseException as err:
        code = 1
        try:
            payload = pickle.dumps((False, err), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:
            payload = pickle.dumps((False, RuntimeError(repr(err))))
    try:
        with os.fdopen(write, "wb") as pipe:
            pipe.write(payload)
    finally:
        # Straight out: the parent's buffers, handlers and atexit are the parent's.
        os._exit(code)


def _describe(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exit status {os.waitstatus_to_exitcode(status)}"


def start(work: Callable[[], T], *, worth_forking: bool = True) -> Job[T]:
    """Run ``work`` in a child process if that is safe and ``worth_forking``, else now."""
    if worth_forking and can_fork():
        return _Child(work)
    return _Done(work)
