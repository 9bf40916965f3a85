"""Instances found in RDDL files, each with its domain and non-fluents block: what can be simulated.

`find_problems(paths)` reads files or folders (sibling files supply a domain an instance names, as
`pddltools rddl check` does) and returns one `Problem` per instance, keyed by the instance name.
A `Problem` also keeps the texts RDDLSim sends as the task of a session.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pddltools.diagnostics import Diagnostic, Error, error
from pddltools.rddl import ast
from pddltools.rddl.loading import collect, parse_paths
from pddltools.rddl_simulation.simulator import Simulator


class ProblemError(Error):
    """An instance that names a domain or non-fluents block nowhere to be found, or no instance at all."""


@dataclass(frozen=True)
class Problem:
    domain: ast.Domain
    instance: ast.Instance
    non_fluents: ast.NonFluents | None

    @property
    def name(self) -> str:
        return self.instance.name

    def simulator(self, seed: int | None = None) -> Simulator:
        return Simulator(self.domain, self.instance, seed, self.non_fluents)

    def task_text(self) -> str:
        """What RDDLSim's session-init carries: the domain file, two line separators, the instance file,
        one line separator (a file holding both is sent twice; a separate non-fluents file is not sent)."""
        return _file_text(self.domain) + "\n\n" + _file_text(self.instance) + "\n"


def _file_text(block: ast.Block) -> str:
    if block.span is None:
        return str(block)
    return block.span.source.text


def problems_in(files: Sequence[ast.RDDLFile]) -> dict[str, Problem]:
    """Every instance of `files` with its domain and non-fluents; raises `ProblemError` if none resolves."""
    found, problems = _resolve(files)
    if problems and not found:
        raise ProblemError(problems)
    return found


def _resolve(files: Sequence[ast.RDDLFile]) -> tuple[dict[str, Problem], list[Diagnostic]]:
    domains: dict[str, ast.Domain] = {}
    non_fluents: dict[str, ast.NonFluents] = {}
    instances: list[tuple[int, ast.Instance]] = []
    local_nf: dict[tuple[int, str], ast.NonFluents] = {}
    for index, rddl in enumerate(files):
        for block in rddl.blocks:
            if isinstance(block, ast.Domain):
                domains.setdefault(block.name, block)
            elif isinstance(block, ast.NonFluents):
                non_fluents.setdefault(block.name, block)
                local_nf[(index, block.name)] = block
            else:
                instances.append((index, block))
    found: dict[str, Problem] = {}
    problems: list[Diagnostic] = []
    for index, instance in instances:
        domain = domains.get(instance.domain or "")
        if domain is None:
            problems.append(error("R300", f"instance {instance.name} names domain {instance.domain}, "
                                          "which is not given", instance.span))
            continue
        nf = None
        if instance.non_fluents:
            # rddlrepository folders define one non-fluents name in several files: the instance's own first
            nf = local_nf.get((index, instance.non_fluents)) or non_fluents.get(instance.non_fluents)
            if nf is None:
                problems.append(error("R300", f"instance {instance.name} names non-fluents "
                                              f"{instance.non_fluents}, which are not given", instance.span))
                continue
        found.setdefault(instance.name, Problem(domain, instance, nf))
    return found, problems


def find_problems(paths: Sequence[str | Path], skipped: list[Diagnostic] | None = None) -> dict[str, Problem]:
    """Parse `paths` (files or folders) plus the siblings that hold what they name; their instances.

    A file that does not parse raises `ProblemError`, unless `skipped` is given: then its diagnostics
    go there and the other files are used (a server need not refuse a folder for one bad file).
    """
    files = collect(paths)
    results = parse_paths(files)
    broken = [d for r in results for d in r.diagnostics if d.is_error]
    if broken and skipped is None:
        raise ProblemError(broken)
    if skipped is not None:
        skipped.extend(broken)
    parsed = [r.rddl for r in results if r.rddl is not None]
    found, problems = _resolve(parsed)
    if problems:
        siblings = sorted({p for f in files for p in f.parent.glob("*.rddl")} - set(files))
        more = [r.rddl for r in parse_paths(siblings) if r.rddl is not None]
        return problems_in(parsed + more)
    return found


def load_problem(domain: str | Path, instance: str | Path, name: str | None = None) -> Problem:
    """The one instance in the files `domain` and `instance` (or the one called `name`)."""
    found = find_problems([domain, instance] if Path(domain) != Path(instance) else [domain])
    instance_path = str(Path(instance))
    mine = {k: p for k, p in found.items() if p.instance.span is None or p.instance.span.file == instance_path}
    pool = mine or found
    if name is not None:
        if name not in found:
            raise ProblemError([error("R300", f"no instance named {name} in {instance}")])
        return found[name]
    if not pool:
        raise ProblemError([error("R300", f"no instance in {instance}")])
    return next(iter(pool.values()))
