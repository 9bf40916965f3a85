"""A factored MA-PDDL task read from its files and checked: each agent's domain and problem parsed and
checked as that agent sees the task, then the files of all the agents put together (`factored.join`) and
checked as one task, whose features and CoDMAP track verdicts the report gives."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pddltools.check.report import CheckReport, in_file_order
from pddltools.check.tracks import with_errors
from pddltools.diagnostics import Diagnostic, Error, InputError, Severity, error
from pddltools.mapddl.ast import MADomain, MAProblem
from pddltools.mapddl.factored import Agent, Joined, agent_files, in_context, join
from pddltools.pddl import ast
from pddltools.reading import pddl_files, read_source


def factored_agents(given: Sequence[str], suffixes: Sequence[str] = (".pddl",)
                    ) -> dict[str, dict[str, Path]] | str | None:
    """The files of each agent when `given` is a factored MA-PDDL task (a folder of, or more than two,
    files named `domain-AGENT.pddl` and `problem-AGENT.pddl`), what is missing in words if an agent lacks
    one, or None: not a factored task (a pair of one agent's files is read as a pair)."""
    paths = list(dict.fromkeys(pddl_files(given, suffixes)))
    if len(paths) <= 2 and not any(Path(g).is_dir() for g in given):
        return None
    files = agent_files(paths)
    if files is None:
        return None
    missing = incomplete(files)
    return "; ".join(missing) if missing else files


def incomplete(files: Mapping[str, Mapping[str, Path]]) -> list[str]:
    """What is missing for each agent to have a domain and a problem file, in words."""
    return [f"agent {agent} has no {kind} file ({kind}-{agent}.pddl)"
            for agent, pair in files.items() for kind in ("domain", "problem") if kind not in pair]


@dataclass
class Read:
    """The agents whose files parsed, the task they make (None if a file did not parse or is no MA-PDDL
    file of its kind), and every finding on the way; `unreadable`: a file could not be read at all."""

    agents: list[Agent] = field(default_factory=list)
    joined: Joined | None = None
    findings: list[Diagnostic] = field(default_factory=list)
    unreadable: bool = False

    @property
    def errors(self) -> list[Diagnostic]:
        return [f for f in self.findings if f.severity is Severity.ERROR]


def read_agents(files: Mapping[str, Mapping[str, Path]]) -> Read:
    """Each agent's files parsed (`files`: {agent: {"domain": path, "problem": path}}), its problem read as
    its domain reads it, and the task they make together."""
    from pddltools import dialects

    read = Read()
    complete = True
    for agent, pair in files.items():
        nodes: dict[str, object] = {}
        for kind in ("domain", "problem"):
            try:
                nodes[kind] = dialects.parse(read_source(pair[kind]), "domain" if kind == "domain" else "problem",
                                             read.findings)
            except InputError as exc:
                read.findings += exc.diagnostics
                read.unreadable = True
            except Error as exc:
                read.findings += exc.diagnostics
        domain, problem = _as_mapddl(nodes.get("domain")), _as_mapddl(nodes.get("problem"))
        if not isinstance(domain, MADomain) or not isinstance(problem, MAProblem):
            complete = False
            if nodes.get("domain") is not None and nodes.get("problem") is not None:
                read.findings.append(error("E110", f"the files of agent {agent} ({pair['domain']}, "
                                           f"{pair['problem']}) are not a PDDL or MA-PDDL domain and problem"))
            continue
        read.agents.append(Agent(agent, domain, read_in_context(domain, problem)))
    if complete and read.agents:
        read.joined = join(read.agents)
        read.findings += read.joined.findings
    return read


def _as_mapddl(node: object) -> object:
    """A file of an agent that has nothing private is plain PDDL: read as MA-PDDL with no private group."""
    if isinstance(node, ast.Domain):
        return MADomain(node, span=node.span)
    if isinstance(node, ast.Problem):
        return MAProblem(node, span=node.span)
    return node


def read_in_context(domain: MADomain, problem: MAProblem) -> MAProblem:
    found = in_context(domain, problem)
    assert isinstance(found, MAProblem)
    return found


def check_agents(files: Mapping[str, Mapping[str, Path]], *, strict: bool = False,
                 tracks: Iterable[str] | None = None) -> CheckReport:
    """The report of a factored task: each agent's files checked as its own task (names, types, arity as
    it sees them), the findings of putting them together (privacy across agents, one declaration each,
    one goal), and the task's features and track verdicts, on the files of all the agents together."""
    from pddltools import dialects

    read = read_agents(files)
    paths = tuple(str(p) for pair in files.values() for p in pair.values())
    findings = list(read.findings)
    for agent in read.agents:
        findings += [f for f in dialects.check(agent.domain, [agent.problem], strict=strict, tracks=()).findings
                     if f.code not in _TASK_WIDE]
    if read.joined is None:
        return CheckReport(paths, tuple(in_file_order(_once(findings), paths)), None, {}, read.unreadable)
    report = dialects.check(read.joined.domain, [read.joined.problem], strict=strict, tracks=tracks)
    joined = [f for f in report.findings if f.code != "E931"]  # join says it in the factored form's words
    merged = in_file_order(_once([*findings, *joined]), paths)
    errors = sum(1 for f in merged if f.severity is Severity.ERROR)
    verdicts = {t: with_errors(v, errors) for t, v in report.tracks.items()}
    return CheckReport(paths, tuple(merged), report.features, verdicts, read.unreadable, report.numeric_fragment)


#: Findings about the task as a whole (what is reachable, static, unused, read), which the files of one
#: agent cannot answer (alone, an agent reaches none of the goals other agents must help with): the joined
#: task's check gives them.
_TASK_WIDE = frozenset({"W401", "I402", "I403", "W405", "I406", "I408", "I409", "I410", "I411", "I412", "I413"})


def _once(findings: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Each finding once: a public declaration is checked in every agent's files and in the joined task."""
    seen: set[tuple[object, ...]] = set()
    out = []
    for f in findings:
        key = (f.code, f.message, f.span.file if f.span else None, f.span.start if f.span else None)
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out
