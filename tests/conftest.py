"""Shared locations: the repository's own corpus and the read-only IPC corpus beside the repository."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
SHARED_PDDL = SHARED / "corpus" / "pddl"


def pytest_sessionstart(session: pytest.Session) -> None:
    """In CI the shared corpus must be there: without it more than half of the suite would skip and the
    run would still pass. On a developer's machine the corpus tests skip with a reason instead."""
    if os.environ.get("CI") and not SHARED_PDDL.is_dir():
        raise pytest.UsageError(f"CI is set but the shared corpus is not at {SHARED_PDDL}: "
                                "clone the repository beside shared/ (the corpus tests would all skip)")


@pytest.fixture(scope="session")
def shared_pddl() -> Path:
    if not SHARED_PDDL.is_dir():
        pytest.skip(f"the shared IPC corpus is not at {SHARED_PDDL}")
    return SHARED_PDDL


@pytest.fixture(scope="session")
def chromium() -> str | None:
    """The path of a headless-capable Chromium on PATH, or None (the tests that need one skip)."""
    for name in ("chromium-headless-shell", "chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None
