"""`--batch LIST`: `domain<TAB>problem<TAB>plan` lines, each task parsed once, one entry per line."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

from pddltools.diagnostics import Error
from pddltools.semantics import GroundedTask
from pddltools.validate.api import validate_plan
from pddltools.validate.kinds import DEFAULT_TOLERANCE
from pddltools.validate.report import PlanReport


def validate_batch(lines: list[str], *, epsilon: Fraction | None = None,
                   tolerance: Fraction = DEFAULT_TOLERANCE, base: Path | None = None) -> Iterator[dict[str, Any]]:
    """One JSON-ready entry per non-blank, non-comment line, in order: `batch_line` (its line in LIST),
    `domain`, `problem`, the plan's report fields and `error`. A malformed line or a task that does not
    load is an entry with `error` set (and `valid: false`), never the end of the batch."""
    tasks: dict[tuple[str, str], GroundedTask | Error] = {}
    where = base or Path.cwd()
    for number, raw in enumerate(lines, 1):
        line = raw.rstrip("\r\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = line.split("\t")
        entry: dict[str, Any] = {"batch_line": number, "domain": None, "problem": None}
        if len(fields) != 3 or not all(f.strip() for f in fields):
            message = f"line {number}: expected domain<TAB>problem<TAB>plan, found {len(fields)} field(s)"
            yield {**_failure(None, "batch-line", message), **entry, "error": message}
            continue
        domain, problem, plan = (f.strip() for f in fields)
        entry.update(domain=domain, problem=problem)
        key = (domain, problem)
        if key not in tasks:
            try:
                tasks[key] = GroundedTask.load(where / domain, where / problem)
            except Error as exc:
                tasks[key] = exc
        task = tasks[key]
        if isinstance(task, Error):
            message = "; ".join(f"{d.span}: {d.message}" if d.span else d.message for d in task.diagnostics)
            yield {**_failure(plan, "task", message), **entry, "error": message}
            continue
        report = validate_plan(task, where / plan, epsilon=epsilon, tolerance=tolerance, name=plan)
        yield {**report.to_json(), **entry, "plan": plan, "error": None}


def _failure(plan: str | None, reason: str, message: str) -> dict[str, Any]:
    """An entry with every report field, for a line that names no plan that could be judged."""
    data = PlanReport(plan="", valid=False, verdict="error", reason=reason, message=message).to_json()
    data["plan"] = plan
    return data
