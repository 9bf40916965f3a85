"""Find, read, parse and check RDDL files given as paths (files or folders): the API behind the CLI.

A folder stands for every `*.rddl` file below it; a file named explicitly is read whatever its name
(`traffic_mdp.rddl.simulate`). When an instance names a domain or a non-fluents block that none of the
given files defines, the other `*.rddl` files of its folder are read too, so that checking one
instance file of an rddlrepository folder finds the domain beside it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pddltools.diagnostics import Diagnostic, Error, InputError, error
from pddltools.rddl import ast
from pddltools.rddl.parser import parse_file
from pddltools.rddl.typecheck import check


class MissingPath(InputError):
    """A path given on the command line that does not exist, or a folder without RDDL files."""


def collect(paths: Iterable[str | Path]) -> list[Path]:
    """The files `paths` stand for, in a stable order; raises `MissingPath` for a path that is not there."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            below = sorted(p for p in path.rglob("*.rddl") if p.is_file())
            if not below:
                raise MissingPath([error("E001", f"no *.rddl files in folder {path}")])
            found.extend(below)
        elif path.exists():
            found.append(path)
        else:
            raise MissingPath([error("E001", f"no such file or folder: {path}")])
    return list(dict.fromkeys(found))


@dataclass
class FileResult:
    """What happened to one file: its AST when it parsed, and every diagnostic about it."""

    path: Path
    rddl: ast.RDDLFile | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    unreadable: bool = False
    #: blocks this file names that were found in a file beside it: (kind, name, that file)
    borrowed: list[tuple[str, str, Path]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.rddl is not None and not any(d.is_error for d in self.diagnostics)


def parse_paths(paths: Sequence[Path]) -> list[FileResult]:
    results = []
    for path in paths:
        result = FileResult(path)
        try:
            result.rddl = parse_file(path, warnings=result.diagnostics)
        except InputError as exc:
            result.unreadable = True
            result.diagnostics.extend(exc.diagnostics)
        except Error as exc:
            result.diagnostics.extend(exc.diagnostics)
        except RecursionError:
            result.diagnostics.append(_too_deep(path))
        results.append(result)
    return results


def _too_deep(path: Path) -> Diagnostic:
    return error("R106", f"{path}: expressions are nested too deeply for pddltools to handle "
                 f"(more than about {sys.getrecursionlimit() // 4} levels)")


def check_paths(paths: Sequence[Path]) -> list[FileResult]:
    """Parse `paths` and type-check them together, reading sibling files for missing references.

    A sibling file takes part only when it defines a block that a given file names and no given
    file defines; each result lists what it borrowed so (`FileResult.borrowed`).
    """
    results = parse_paths(paths)
    parsed = [r for r in results if r.rddl is not None]
    files = [r.rddl for r in parsed if r.rddl is not None]
    files += _borrow(parsed, paths)
    by_file: dict[str, FileResult] = {str(r.path): r for r in results}
    for diagnostic in check(files):
        target = by_file.get(diagnostic.span.file) if diagnostic.span else None
        if target is None and diagnostic.span is None and parsed:
            target = parsed[0]  # not located: still reported, never dropped
        if target is not None:
            target.diagnostics.append(diagnostic)
    for result in results:
        result.diagnostics.sort(key=lambda d: d.span.start if d.span else -1)
    return results


_KINDS = {"Domain": "domain", "NonFluents": "non-fluents"}


def _borrow(parsed: Sequence[FileResult], given: Sequence[Path]) -> list[ast.RDDLFile]:
    """The sibling files that define the domains and non-fluents blocks the given files miss."""
    defined = {(type(b).__name__, b.name) for r in parsed if r.rddl for b in r.rddl.blocks}
    missing: dict[Path, list[tuple[FileResult, tuple[str, str]]]] = {}
    for result in parsed:
        assert result.rddl is not None
        for block in result.rddl.blocks:
            needs = []
            if isinstance(block, (ast.Instance, ast.NonFluents)) and block.domain:
                needs.append(("Domain", block.domain))
            if isinstance(block, ast.Instance) and block.non_fluents:
                needs.append(("NonFluents", block.non_fluents))
            for need in needs:
                if need not in defined:
                    missing.setdefault(result.path.parent, []).append((result, need))
    given_set = set(given)
    borrowed: list[ast.RDDLFile] = []
    for folder, wants in sorted(missing.items()):
        siblings = [p for p in sorted(folder.glob("*.rddl")) if p.is_file() and p not in given_set]
        for sibling in parse_paths(siblings):
            if sibling.rddl is None:
                continue
            offers = {(type(b).__name__, b.name) for b in sibling.rddl.blocks}
            users = [(result, need) for result, need in wants if need in offers]
            if users:
                borrowed.append(sibling.rddl)
                for result, (kind, name) in users:
                    entry = (_KINDS[kind], name, sibling.path)
                    if entry not in result.borrowed:  # an instance and its non-fluents may both ask
                        result.borrowed.append(entry)
                    defined.add((kind, name))
                wants = [(r, n) for r, n in wants if n not in offers]
    return borrowed
