"""Locations for the validator's tests: the shared plans with VAL's verdicts, and corpus/plans."""

from __future__ import annotations

import csv
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
PLANS = SHARED / "plans"
OWN = REPO / "corpus" / "plans"


def manifest(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))
