"""The (domain, problem) pairs a campaign runs: from files and folders (domains found by
`pddltools.domain_finder`) or from a list, one `domain<TAB>problem` line each, as `validate --batch` reads.

A problem whose domain cannot be found, or a list line that names no such file, is a diagnostic of its
own: the rest of the set still runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pddltools.diagnostics import Diagnostic, Span, error
from pddltools.domain_finder import DomainFinder
from pddltools.reading import pddl_files, read_source

Pair = tuple[Path, Path]


def find_pairs(paths: Sequence[str | Path], domain: str | Path | None = None) -> tuple[list[Pair], list[Diagnostic]]:
    """Each problem among `paths` (folders searched recursively) with its domain; `domain` forces one."""
    forced = Path(domain) if domain is not None else None
    missing: list[Diagnostic] = []
    if forced is not None and not forced.is_file():
        return [], [error("S021", f"no such domain file: {forced}")]
    existing: list[str] = []
    for raw in paths:
        if Path(raw).exists():
            existing.append(str(raw))
        else:
            missing.append(error("S021", f"no such file or folder: {raw}"))
    finder = DomainFinder(forced=forced)
    pairs: list[Pair] = []
    for file in pddl_files(existing):
        kind, _ = finder.kind(file)
        if kind == "domain":
            continue
        if kind is None:
            missing.append(error("S021", f"{file} is neither a PDDL domain nor a problem (no (define (problem ...)) "
                                         "in its first lines)"))
            continue
        found = finder.find(file)
        if found.domain is None:
            missing.append(error("S021", f"{file}: {found.missing()}"))
        else:
            pairs.append((found.domain.resolve(), file.resolve()))
    return list(dict.fromkeys(pairs)), missing  # a problem named twice (a file, and its folder) runs once


def read_pair_list(path: str | Path) -> tuple[list[Pair], list[Diagnostic]]:
    """The pairs of a list file: `domain<TAB>problem` lines (a third column, a plan as in `validate --batch`,
    is allowed and not used); blank lines and `#` comments skipped; paths relative to the current folder.
    Unreadable lists raise `InputError`."""
    source = read_source(path)
    pairs: list[Pair] = []
    problems: list[Diagnostic] = []
    offset = 0
    for raw in source.text.splitlines(keepends=True):
        start, offset = offset, offset + len(raw)
        line = raw.rstrip("\r\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) not in (2, 3) or not all(f.strip() for f in fields[:2]):
            problems.append(error("S023", f"expected domain<TAB>problem (optionally <TAB>plan), found {len(fields)} "
                                          "tab-separated field(s)", Span(source, start, start + len(line))))
            continue
        files = [Path(f.strip()) for f in fields[:2]]
        absent = [(i, f) for i, f in enumerate(files) if not f.is_file()]
        if absent:
            index, file = absent[0]
            begin = start + sum(len(f) + 1 for f in fields[:index])
            problems.append(error("S021", f"no such {('domain', 'problem')[index]} file: {file}",
                                  Span(source, begin, begin + len(fields[index]))))
            continue
        pairs.append((files[0].resolve(), files[1].resolve()))
    return pairs, problems

