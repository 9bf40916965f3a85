"""What the report's browser tests share: the system's Chromium, if there is one."""

from __future__ import annotations

import shutil

import pytest


@pytest.fixture(scope="session")
def chromium() -> str | None:
    """The path of a headless-capable Chromium on PATH, or None (the tests that need one skip)."""
    for name in ("chromium-headless-shell", "chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None
