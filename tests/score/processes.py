"""Test helpers: whether the processes a stand-in planner started are gone."""

from __future__ import annotations

import time
from collections.abc import Iterable

import psutil


def gone(pid: int) -> bool:
    """No such process, or only its zombie (waiting for a parent to collect its status)."""
    try:
        return bool(psutil.Process(pid).status() == psutil.STATUS_ZOMBIE)
    except psutil.NoSuchProcess:
        return True


def all_gone(pids: Iterable[int], within: float = 10.0) -> bool:
    """Whether every one of `pids` is gone, waiting up to `within` seconds for those being killed."""
    pids = list(pids)
    deadline = time.monotonic() + within
    while not all(gone(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return all(gone(pid) for pid in pids)
