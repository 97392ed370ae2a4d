"""One writer at a time per campaign folder.

Commands that change a campaign (a turn adjudicated, a rollback, the end,
reports written again) hold an exclusive lock on ``.chronicle.store.lock`` in the
campaign folder for their whole run: reading the last turn, resolving the
next and committing it is one step, and a second writer started meanwhile
is refused in words at once instead of interleaving with it. The kernel
releases the lock when the holder exits, however it exits, so a killed
command never leaves a campaign locked.
"""

from __future__ import annotations

import errno
import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from chronicle.errors import CampaignBusy

LOCK_FILE = ".chronicle.store.lock"


def _holder(fd: int) -> str:
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        text = os.read(fd, 200).decode("utf-8", "replace").strip()
    except OSError:
        return ""
    return text if text.isprintable() else ""


@contextmanager
def campaign_lock(root: Path, command: str) -> Iterator[None]:
    """Hold the campaign's writer lock while the block runs.

    Raises ``CampaignBusy`` at once if another command holds it. The lock
    file is opened without following a link: a planted link must not make
    us create or truncate a file elsewhere.
    """
    path = root / LOCK_FILE
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise CampaignBusy(f"{LOCK_FILE}: is a link; remove it") from None
        raise
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            raise CampaignBusy(
                "another command is changing this campaign"
                + (f" ({holder})" if holder else "")
                + "; nothing was done: try again once it has finished") from None
        os.ftruncate(fd, 0)
        os.write(fd, f"chronicle {command}, process {os.getpid()}, since "
                     f"{time.strftime('%H:%M:%S')}\n".encode())
        yield
    finally:
        os.close(fd)


READ_ONLY = (errno.EACCES, errno.EPERM, errno.EROFS)


@contextmanager
def unless_read_only(root: Path, command: str) -> Iterator[None]:
    """``campaign_lock`` for a command that only reads the campaign: in a folder it
    cannot write, where it cannot make the lock file either, it goes on without
    the lock instead of failing (a writer would need that same folder)."""
    with ExitStack() as held:
        try:
            held.enter_context(campaign_lock(root, command))
        except OSError as err:
            if err.errno not in READ_ONLY:
                raise
        yield
