"""Shared locations: the repository's own corpus and the read-only IPC corpus beside the repository."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_PDDL = REPO.parent / "shared" / "corpus" / "pddl"


@pytest.fixture(scope="session")
def shared_pddl() -> Path:
    if not SHARED_PDDL.is_dir():
        pytest.skip(f"the shared IPC corpus is not at {SHARED_PDDL}")
    return SHARED_PDDL
