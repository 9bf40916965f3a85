"""Shared locations: the repository's own corpus and the read-only IPC corpus beside the repository."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_PDDL = REPO.parent / "shared" / "corpus" / "pddl"


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
