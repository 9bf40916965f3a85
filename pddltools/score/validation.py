"""Plans checked by the validator (`pddltools.validate`), each task parsed once however many plans it has."""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pddltools.diagnostics import Error, Source, error


@dataclass(frozen=True)
class Verdict:
    valid: bool
    value: float | None  # the metric value; plan cost (or length) when the problem states no metric
    length: int | None
    reason: str = ""


def count_actions(plan_text: str) -> int:
    """The number of actions in a plan file's text: its lines that are not empty or comments."""
    return sum(1 for line in plan_text.splitlines() if line.split(";", 1)[0].strip())


# (domain path, problem path, plan text) -> verdict; tests pass hand-made ones.
PlanChecker = Callable[[str, str, str], Verdict]


def _validate_module() -> Any:
    try:
        module = importlib.import_module("pddltools.validate")
    except ImportError:
        return None
    # A folder without the API yet (a namespace package) is not a validator.
    return module if hasattr(module, "Task") and hasattr(module, "validate_plan") else None


def _load_htn(domain: str, problem: str) -> Any:
    from pddltools.hddl.verify import HTNTask  # HTN plans: pddltools/hddl/verify.py

    return HTNTask.load(domain, problem)


def _verify_htn(task: Any, plan: Source) -> Any:
    from pddltools.hddl.verify import verify_plan

    return verify_plan(task, plan)


def validator_available() -> bool:
    return _validate_module() is not None


class Validator:
    """Validates plans with `pddltools.validate`, caching each parsed task."""

    def __init__(self) -> None:
        validate = _validate_module()
        if validate is None:
            raise Error([error("S010", "plan validation needs pddltools.validate, which is not installed")])
        self._module: Any = validate
        self._tasks: dict[tuple[str, str], Any] = {}
        self._broken: dict[tuple[str, str], str] = {}
        self._lock = threading.Lock()

    def _task(self, domain: str, problem: str) -> Any:
        key = (str(Path(domain).resolve()), str(Path(problem).resolve()))
        with self._lock:
            if key in self._broken:
                raise Error([error("S011", self._broken[key])])
            task = self._tasks.get(key)
            if task is None:
                try:
                    task = _load_htn(domain, problem) if domain.lower().endswith(".hddl") else \
                        self._module.Task.load(domain, problem)
                except Error as exc:
                    self._broken[key] = f"{problem} cannot be loaded: " + "; ".join(
                        d.message for d in exc.diagnostics)
                    raise
                self._tasks[key] = task
            return task

    def __call__(self, domain: str, problem: str, plan_text: str) -> Verdict:
        try:
            task = self._task(domain, problem)
        except Error as exc:
            problems = "; ".join(d.message for d in exc.diagnostics)
            return Verdict(False, None, None, f"the task does not load: {problems}")
        # A Source, not a str: the validator reads a one-line str naming a file as that file.
        report = (_verify_htn(task, Source(plan_text, "<plan>")) if domain.lower().endswith(".hddl")
                  else self._module.validate_plan(task, Source(plan_text, "<plan>")))
        value = report.value
        length = report.length
        why = ": ".join(str(part) for part in (report.reason, getattr(report, "message", "")) if part)
        return Verdict(bool(report.valid), None if value is None else float(value),
                       None if length is None else int(length), "" if report.valid else why)
