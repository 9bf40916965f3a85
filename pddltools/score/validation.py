"""Plans checked by the validator (`pddltools.validate`), each task parsed once however many plans it has."""

from __future__ import annotations

import threading
from pathlib import Path

from pddltools import dialects
from pddltools.diagnostics import Error, Source, error
from pddltools.hddl.verify import HTNTask, verify_plan
from pddltools.score.verdicts import PlanChecker, PlanVerdict, count_actions
from pddltools.validate import GroundedTask, validate_plan
from pddltools.validate.report import double


class Validator:
    """Validates plans with `pddltools.validate`, caching each parsed task."""

    def __init__(self) -> None:
        self._tasks: dict[tuple[str, str], GroundedTask | HTNTask] = {}
        self._broken: dict[tuple[str, str], str] = {}
        self._lock = threading.Lock()

    def _task(self, domain: str, problem: str) -> GroundedTask | HTNTask:
        key = (str(Path(domain).resolve()), str(Path(problem).resolve()))
        with self._lock:
            if key in self._broken:
                raise Error([error("S011", self._broken[key])])
            task = self._tasks.get(key)
            if task is None:
                try:
                    task = (HTNTask.load(domain, problem) if dialects.of_path(domain).hierarchical
                            else GroundedTask.load(domain, problem))
                except Error as exc:
                    self._broken[key] = f"{problem} cannot be loaded: " + "; ".join(
                        d.message for d in exc.diagnostics)
                    raise
                self._tasks[key] = task
            return task

    def warm(self) -> None:
        """Load what every task needs (the parser of PDDL, made from its image or grammar), so that the
        first plan is not charged for it."""
        from pddltools.pddl.parser import parse_text

        parse_text("(define (domain warm) (:predicates (p)) (:action a :parameters () :effect (p)))")

    def __call__(self, domain: str, problem: str, plan_text: str) -> PlanVerdict:
        try:
            task = self._task(domain, problem)
        except Error as exc:
            problems = "; ".join(d.message for d in exc.diagnostics)
            return PlanVerdict(False, None, None, f"the task does not load: {problems}")
        # A Source, not a str: the validator reads a one-line str naming a file as that file.
        plan = Source(plan_text, "<plan>")
        report = verify_plan(task, plan) if isinstance(task, HTNTask) else validate_plan(task, plan)
        value = report.value
        length = report.length
        why = ": ".join(str(part) for part in (report.reason, getattr(report, "message", "")) if part)
        return PlanVerdict(bool(report.valid), None if value is None else double(value),
                           None if length is None else int(length), "" if report.valid else why,
                           judged=report.reason != "unsupported")


__all__ = ["PlanChecker", "PlanVerdict", "Validator", "count_actions"]
