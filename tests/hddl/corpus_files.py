"""The IPC-2020 HTN corpus beside the repository (read-only), enumerated for the corpus-wide tests."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED_HDDL = REPO.parent / "shared" / "corpus" / "hddl" / "ipc-2020"


def hddl_files() -> list[Path]:
    """Every .hddl file of the set, except the feature tests' plans folder (its sortof.hddl is a plan)."""
    if not SHARED_HDDL.is_dir():
        return []
    return sorted(p for p in SHARED_HDDL.rglob("*.hddl") if "plans" not in p.parts)
