"""Campaigns sharing a work folder: each run is claimed before it starts, so no two runners touch it.

Several `pddltools run` may use one work folder and one results database at once (a campaign started
on four machines of a cluster, or twice by mistake). Without claims, each would take the other's live
run folders for the leftovers of a killed runner, kill their planners and delete them.

Two kinds of lock file, both `flock`s, which the kernel drops when their process dies (so a killed
runner never leaves a claim behind):
- `WORKDIR/.campaign.lock`: held shared by every campaign running in the folder. The first to start
  holds it exclusively while it decides what to run (and writes the time it started into it); those
  starting meanwhile wait, then join: a run the joined campaigns stored since that time is theirs, not
  an older result to be replaced or refused.
- `RUNDIR.claim` beside each run folder: held exclusively while the run is in flight and until it is
  stored. A run claimed by another campaign writing the same database is left to it; one claimed by a
  campaign writing another database waits for it (the folder is the same). A claimed run found stored
  since this campaign started was run by another campaign meanwhile, and is not run again.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


def _open(path: Path) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    return os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0), 0o644)


def _try(fd: int, how: int) -> bool:
    try:
        fcntl.flock(fd, how | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


class Campaign:
    """This runner's membership of the campaigns running in `workdir`, and its claims on runs."""

    def __init__(self, workdir: Path, db: str) -> None:
        self.workdir = workdir
        self.db = str(Path(db).resolve())
        self._fd = _open(workdir / ".campaign.lock")
        self._claims: dict[str, int] = {}
        self.alone = True
        self.started = time.time()  # of the campaigns running together: the first one's start
        self.left: list[str] = []  # runs left to another campaign (their folders)
        self.enabled = True  # False where the file system has no locks

    def start(self) -> bool:
        """Join the campaigns running here, or start alone; whether alone. Alone, the folder is held
        exclusively until `settled`: call it once what to run is decided. On a file system without
        locks (some network ones), alone, and without claims: as before claims existed."""
        try:
            return self._start()
        except OSError as exc:
            if isinstance(exc, BlockingIOError):
                raise
            self.enabled = False
            return True

    def _start(self) -> bool:
        if not _try(self._fd, fcntl.LOCK_EX):
            fcntl.flock(self._fd, fcntl.LOCK_SH)  # waits while another campaign decides what it runs
            # That campaign may have ended meanwhile (it refused to run): then this one is alone after all.
            if not _try(self._fd, fcntl.LOCK_EX):
                fcntl.flock(self._fd, fcntl.LOCK_SH)  # (a failed upgrade may have dropped the shared lock)
                self.alone = False
                with contextlib.suppress(ValueError, OSError):
                    self.started = float(os.pread(self._fd, 64, 0).decode().strip())
                return False
        self.alone = True
        self.started = time.time()
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, f"{self.started:.6f}\n".encode(), 0)
        return True

    def settled(self) -> None:
        """What to run is decided: let other campaigns join."""
        if self.enabled:
            fcntl.flock(self._fd, fcntl.LOCK_SH)

    def claims(self, items: Iterable[T], rundir: Callable[[T], str], taken: Callable[[T], bool],
               cancelled: Callable[[], bool] = lambda: False) -> Iterator[T]:
        """The items whose run folder this campaign could claim and whose run `taken` does not say another
        campaign finished meanwhile, claimed, lazily (each as the executor asks for the next); those
        another campaign runs into the same database are left to it (noted in `left`). Claims held by a
        campaign writing elsewhere are waited for, the other items going first."""
        if not self.enabled:
            yield from items
            return
        waiting: list[T] = []
        for item in items:
            if self._claim(item, rundir, taken, waiting):
                yield item
        while waiting and not cancelled():
            again, waiting = waiting, []
            for item in again:
                if self._claim(item, rundir, taken, waiting):
                    yield item
            if waiting:
                time.sleep(0.2)

    def _claim(self, item: T, rundir: Callable[[T], str], taken: Callable[[T], bool], waiting: list[T]) -> bool:
        folder = rundir(item)
        path = Path(folder + ".claim")
        fd = _open(path)
        if not _try(fd, fcntl.LOCK_EX):
            holder = os.pread(fd, 4096, 0).decode(errors="replace").strip()
            os.close(fd)
            if holder == self.db:
                self.left.append(folder)
            else:
                waiting.append(item)
            return False
        if taken(item):
            os.close(fd)
            self.left.append(folder)
            return False
        os.ftruncate(fd, 0)
        os.pwrite(fd, self.db.encode() + b"\n", 0)
        self._claims[folder] = fd
        return True

    def release(self, folder: str) -> None:
        """The run in `folder` is stored: another campaign may have it."""
        fd = self._claims.pop(folder, None)
        if fd is not None:
            os.close(fd)

    def close(self) -> None:
        for folder in list(self._claims):
            self.release(folder)
        with contextlib.suppress(OSError):
            os.close(self._fd)

    def __enter__(self) -> Campaign:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
