"""The IPC corpus beside the repository, enumerated once for the corpus-wide tests."""

from __future__ import annotations

from pathlib import Path

from pddltools.domain_finder import DomainFinder

REPO = Path(__file__).resolve().parents[2]
SHARED_PDDL = REPO.parent / "shared" / "corpus" / "pddl"


def domain_folders() -> list[Path]:
    if not SHARED_PDDL.is_dir():
        return []
    return sorted(p for p in SHARED_PDDL.glob("ipc-*/*") if p.is_dir())


def pddl_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.pddl"))


def pairs(folder: Path) -> list[tuple[Path, Path]]:
    """(domain, problem) pairs of the folder's instances/, each domain found as every command finds it
    (`pddltools.domain_finder`: one shared domain.pddl, domains/domain-N.pddl per instance, ...)."""
    finder = DomainFinder()
    out = []
    for problem in sorted((folder / "instances").glob("*.pddl")):
        domain = finder.find(problem).domain
        assert domain is not None, f"no domain found for {problem}"
        out.append((domain, problem))
    return out
