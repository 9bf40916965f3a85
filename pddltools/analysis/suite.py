"""Domain test suites: a domain's expectations in a small TOML file kept beside it, run as a test.

    domain = "domain.pddl"            # paths are relative to the suite file

    [[test]]
    name = "the reference plan costs 12"
    problem = "p01.pddl"
    plan = "p01.plan"
    valid = true                      # the plan is valid ...
    value = 12                        # ... with this value (the metric, or the number of steps)

    [[test]]
    problem = "p01.pddl"
    plan = "p01-broken.plan"
    valid = false
    fails_at = 3                      # the step whose precondition fails ("goal": the goal is not met)

    [[test]]
    problem = "p02.pddl"
    relaxed_solvable = false          # relaxed reachability cannot reach the goal: no plan exists

    [[test]]
    problem = "p01.pddl"
    reachable = ["(at truck1 depot)"]     # atoms some plan could reach (relaxed reachability) ...
    unreachable = ["(at truck1 moon)"]    # ... and atoms none can

Each `[[test]]` may name its own `domain`. A test passes when every expectation it states holds; one that
does not is an E861 finding at the test's `[[test]]` line, a malformed suite an E862.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pddltools.diagnostics import Diagnostic, Error, Severity, Source, Span, error

KEYS = {"name", "domain", "problem", "plan", "valid", "value", "fails_at", "relaxed_solvable", "reachable",
        "unreachable"}
_ATOM = re.compile(r"^\(\s*([^\s()]+)((?:\s+[^\s()]+)*)\s*\)$")


@dataclass
class Outcome:
    """One test: what it expected, and the expectations that failed (empty: it passed)."""

    name: str
    line: int
    span: Span
    checks: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures

    def diagnostics(self) -> list[Diagnostic]:
        return [Diagnostic("E861", Severity.ERROR, f"{self.name}: {failure}", self.span) for failure in self.failures]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "line": self.line, "ok": self.ok, "checks": self.checks, "failures": self.failures}


@dataclass
class Suite:
    path: Path
    source: Source
    domain: str | None
    tests: list[tuple[dict[str, Any], Span]]

    @classmethod
    def load(cls, path: Path) -> Suite:
        """Raises `Error` (E001 unreadable, E862 malformed)."""
        from pddltools.diagnostics import read_source

        source = read_source(path)
        try:
            data = tomllib.loads(source.text)
        except tomllib.TOMLDecodeError as exc:
            line = int(m.group(1)) if (m := re.search(r"line (\d+)", str(exc))) else 1
            raise Error([error("E862", f"the suite is not valid TOML: {exc}", _line_span(source, line))]) from None
        tests = data.get("test", [])
        unknown = set(data) - {"domain", "test"}
        headers = [m.start() for m in re.finditer(r"^[ \t]*\[\[\s*test\s*\]\]", source.text, re.MULTILINE)]
        if unknown or not isinstance(tests, list) or not tests:
            what = f"unknown key {sorted(unknown)[0]}" if unknown else "no [[test]] in it"
            raise Error([error("E862", f"the suite has {what}", Span(source, 0, 0))])
        out = []
        for index, test in enumerate(tests):
            start = headers[index] if index < len(headers) else 0
            span = Span(source, start, start + len(source.text[start:].split("\n", 1)[0]))
            bad = set(test) - KEYS
            if bad:
                raise Error([error("E862", f"test {index + 1} has an unknown key {sorted(bad)[0]} (keys: "
                                           f"{', '.join(sorted(KEYS))})", span)])
            if "problem" not in test or not (test.get("domain") or data.get("domain")):
                raise Error([error("E862", f"test {index + 1} names no problem or no domain", span)])
            out.append((test, span))
        domain = data.get("domain")
        return cls(path, source, str(domain) if domain is not None else None, out)

    def run(self, on_test: Callable[[Outcome], None] | None = None) -> Iterator[Outcome]:
        base = self.path.parent
        for index, (test, span) in enumerate(self.tests):
            domain = base / str(test.get("domain") or self.domain)
            problem = base / str(test["problem"])
            outcome = Outcome(str(test.get("name") or f"test {index + 1} ({test['problem']})"), span.line, span)
            try:
                _run(test, domain, problem, base, outcome)
            except Error as exc:
                first = exc.diagnostics[0] if exc.diagnostics else None
                where = f" ({first.span})" if first is not None and first.span is not None else ""
                outcome.failures.append(f"cannot be run: {first.message if first else exc}{where}")
            if on_test is not None:
                on_test(outcome)
            yield outcome


def _line_span(source: Source, line: int) -> Span:
    lines = source.text.split("\n")
    start = sum(len(text) + 1 for text in lines[: max(line - 1, 0)])
    return Span(source, min(start, len(source.text)), min(start, len(source.text)))


def _run(test: dict[str, Any], domain: Path, problem: Path, base: Path, outcome: Outcome) -> None:
    if "plan" in test:
        _plan(test, domain, problem, base / str(test["plan"]), outcome)
    if any(key in test for key in ("relaxed_solvable", "reachable", "unreachable")):
        _reach(test, domain, problem, outcome)
    if not outcome.checks:
        outcome.failures.append("states no expectation (plan, relaxed_solvable, reachable or unreachable)")


def _plan(test: dict[str, Any], domain: Path, problem: Path, plan: Path, outcome: Outcome) -> None:
    from pddltools.validate import GroundedTask, validate_plan

    report = validate_plan(GroundedTask.load(domain, problem), plan)
    expected = bool(test.get("valid", True))
    outcome.checks.append(f"{plan.name} is {'valid' if expected else 'invalid'}")
    if report.valid != expected:
        why = f": {report.message}" if report.message else ""
        outcome.failures.append(f"{plan.name} is {'valid' if report.valid else 'invalid'}, expected "
                                f"{'valid' if expected else 'invalid'}{why}")
        return
    if "value" in test:
        outcome.checks.append(f"its value is {test['value']}")
        if report.value is None or float(report.value) != float(test["value"]):
            outcome.failures.append(f"{plan.name} has value {report.value}, expected {test['value']}")
    if "fails_at" in test:
        wanted = test["fails_at"]
        outcome.checks.append(f"it fails at {'the goal' if wanted == 'goal' else f'step {wanted}'}")
        got = "goal" if report.reason == "goal" else report.failed_step
        if got != wanted:
            shown = "the goal" if got == "goal" else f"step {got}"
            outcome.failures.append(f"{plan.name} fails at {shown}, expected "
                                    f"{'the goal' if wanted == 'goal' else f'step {wanted}'}")


def _reach(test: dict[str, Any], domain: Path, problem: Path, outcome: Outcome) -> None:
    from pddltools.analysis.reach import Reachability
    from pddltools.analysis.relax import Pattern
    from pddltools.pddl.parser import parse_domain_file, parse_problem_file

    reach = Reachability(parse_domain_file(domain), parse_problem_file(problem))
    if "relaxed_solvable" in test:
        expected = bool(test["relaxed_solvable"])
        outcome.checks.append("the goal is relaxed-reachable" if expected else "the task is relaxed-unsolvable")
        if reach.goal_reachable != expected:
            outcome.failures.append("the goal is reachable under the delete relaxation" if reach.goal_reachable
                                    else "the goal is unreachable even under the delete relaxation")
    for key, expected in (("reachable", True), ("unreachable", False)):
        for text in test.get(key, []):
            match = _ATOM.match(str(text).strip().lower())
            if match is None:
                outcome.failures.append(f"{text!r} in {key} is not a ground atom like (at truck1 depot)")
                continue
            atom = Pattern(match.group(1), tuple(match.group(2).split()))
            outcome.checks.append(f"{text} is {'reachable' if expected else 'unreachable'}")
            got = reach.reached(atom)
            if got != expected:
                if got:
                    outcome.failures.append(f"{text} is reachable")
                else:
                    reason = reach.why_not(atom).text
                    reason = "its " + reason.split(", whose ", 1)[1] if ", whose " in reason else reason
                    outcome.failures.append(f"{text} is unreachable: {reason}")
