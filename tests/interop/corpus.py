"""The corpus pairs the interop tests compare against the reference readers, and which of them CI runs.

The reference readers are slow (tarski's ANTLR reader takes about 140 s over the sequential pairs it
accepts, UP's pyparsing reader about 1 s a pair on average and up to a minute on the largest), so by
default only a deterministic subset runs: the pair of `instance-1.pddl` in every domain folder, and for
the comparison with UP's reader only those of them whose domain and problem together are at most
`UP_READER_LIMIT` bytes. `PDDLTOOLS_INTEROP_FULL=1` runs every pair.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

from pddltools.pddl import ast
from pddltools.pddl.parser import parse_domain_file, parse_problem_file
from pddltools.syntax.errors import ParseError

SHARED_PDDL = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "pddl"
FULL = os.environ.get("PDDLTOOLS_INTEROP_FULL") == "1"
UP_READER_LIMIT = 20_000


def small(domain: Path, problem: Path) -> bool:
    return FULL or domain.stat().st_size + problem.stat().st_size <= UP_READER_LIMIT


def pairs() -> list[tuple[Path, Path]]:
    """(domain, problem) for every instance: one shared domain.pddl, or domains/domain-N.pddl per instance."""
    if not SHARED_PDDL.is_dir():
        return []
    out = []
    for folder in sorted(p for p in SHARED_PDDL.glob("ipc-*/*") if p.is_dir()):
        instances = sorted((folder / "instances").glob("instance-*.pddl"), key=lambda p: int(p.stem.split("-")[1]))
        for problem in instances if FULL else instances[:1]:
            number = problem.stem.split("-", 1)[1]
            domain = folder / "domains" / f"domain-{number}.pddl"
            out.append((domain if domain.exists() else folder / "domain.pddl", problem))
    return out


@cache
def parsed(domain: Path, problem: Path) -> tuple[ast.Domain, ast.Problem] | None:
    try:
        return parse_domain_file(domain), parse_problem_file(problem)
    except ParseError:
        return None  # the parser's own corpus test lists the files that are not PDDL


def sequential(domain: Path) -> bool:
    """No durative actions: what tarski (a sequential-planning framework) is compared on."""
    text = domain.read_text(encoding="utf-8", errors="replace").lower()
    return ":durative-action" not in text


def key(path: Path) -> str:
    return path.relative_to(SHARED_PDDL).as_posix()
