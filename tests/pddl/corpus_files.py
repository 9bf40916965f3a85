"""The IPC corpus beside the repository, enumerated once for the corpus-wide tests."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED_PDDL = REPO.parent / "shared" / "corpus" / "pddl"


def domain_folders() -> list[Path]:
    if not SHARED_PDDL.is_dir():
        return []
    return sorted(p for p in SHARED_PDDL.glob("ipc-*/*") if p.is_dir())


def pddl_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.pddl"))


def pairs(folder: Path) -> list[tuple[Path, Path]]:
    """(domain, problem) pairs: one shared domain.pddl, or domains/domain-N.pddl per instance."""
    out = []
    for problem in sorted((folder / "instances").glob("instance-*.pddl")):
        number = problem.stem.split("-", 1)[1]
        domain = folder / "domains" / f"domain-{number}.pddl"
        if not domain.exists():
            domain = folder / "domain.pddl"
        out.append((domain, problem))
    return out
