"""plan-map.json: how the compiled task's actions map back to the original's, and `unmap`.

Fields: `format` ("pddltools-plan-map/1"), `original` ({"domain", "problem"}: the paths compiled),
`target`, `removed` (feature names), `problem_specific` (bool: the domain only fits this problem),
`actions` (compiled action name -> {"action": the original name or null for an auxiliary action,
"args": for each original parameter, the index of the compiled argument that gives it or the
constant, as {"constant": name}}, and for a determinised action "outcome": the original's outcome, from
1), `determinised` (when a FOND or PPDDL task was determinised: the determinised task's files and
each "ACTION/N" outcome's action in it, for checking a plan as a weak plan), `multi_agent` (when an MA-PDDL task was
centralised: the centralised task's files, `agent_parameter` (0: each agent action's first argument
is its agent), `agent_types` (action -> its agent's type), `private_objects` (agent -> its private
objects) and `private_predicates` (agent type -> predicates private to each agent of it)), `costs`
(original action -> its cost expression, when costs were removed) and `passes` (the pipeline's report).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pddltools.compile.errors import CompileError, compile_error
from pddltools.compile.pipeline import Result
from pddltools.compile.task import Origin
from pddltools.diagnostics import InputError
from pddltools.reading import read_input_text

FORMAT = "pddltools-plan-map/1"


def to_json(result: Result, domain_path: str, problem_path: str, target: str) -> dict[str, Any]:
    actions = {
        name: {"action": origin.action,
               "args": [a if isinstance(a, int) else {"constant": a} for a in origin.args],
               **({"outcome": origin.outcome} if origin.outcome is not None else {})}
        for name, origin in sorted(result.origins.items())
    }
    return {"format": FORMAT, "original": {"domain": domain_path, "problem": problem_path}, "target": target,
            "removed": sorted(f.value for f in result.removed), "problem_specific": result.problem_specific,
            "actions": actions, "costs": result.costs, "passes": [p.to_json() for p in result.passes]}


@dataclass(frozen=True)
class PlanMap:
    origins: Mapping[str, Origin]
    data: Mapping[str, Any]

    @classmethod
    def load(cls, path: Path) -> PlanMap:
        try:
            data = json.loads(read_input_text(path, f"the plan map {path}", code="E807"))
            if data.get("format") != FORMAT:
                raise ValueError(f"not a {FORMAT} file")
            origins = {name: Origin(entry["action"], tuple(a if isinstance(a, int) else str(a["constant"])
                                                           for a in entry["args"]), entry.get("outcome"))
                       for name, entry in data["actions"].items()}
        except InputError as exc:
            raise CompileError(exc.diagnostics) from exc
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
            raise compile_error("E807", f"cannot read the plan map {path}: {exc}") from exc
        return cls(origins, data)


_STEP = re.compile(r"\(([^()]*)\)")


def read_plan(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """The actions of a plan in IPC format: `(name arg ...)` per line; `;` comments and `t: ... [d]`
    time stamps and durations are ignored."""
    steps = []
    for line in text.splitlines():
        line = line.split(";", 1)[0]
        for match in _STEP.finditer(line):
            words = match.group(1).lower().split()
            if words:
                steps.append((words[0], tuple(words[1:])))
    return steps


def outcomes(plan_map: PlanMap, text: str) -> list[int | None]:
    """For each step of a compiled plan kept by `unmap`, the outcome of the original action it relies on."""
    kept = [plan_map.origins.get(name) for name, _ in read_plan(text)]
    return [o.outcome for o in kept if o is not None and o.action is not None]


def unmap(plan_map: PlanMap, text: str) -> list[tuple[str, tuple[str, ...]]]:
    """The original task's plan for a plan of the compiled task: auxiliary actions dropped, split
    copies renamed, removed parameters restored."""
    out = []
    for n, (name, args) in enumerate(read_plan(text), 1):
        origin = plan_map.origins.get(name)
        if origin is None:
            raise compile_error("E805", f"step {n}: the compiled task has no action {name}")
        if origin.action is None:
            continue
        try:
            original = tuple(args[a] if isinstance(a, int) else a for a in origin.args)
        except IndexError:
            raise compile_error("E805", f"step {n}: {name} takes more arguments than the {len(args)} given") from None
        out.append((origin.action, original))
    return out


def format_plan(steps: list[tuple[str, tuple[str, ...]]], notes: list[str | None] | None = None) -> str:
    """The steps in IPC plan format; a step's note (its agent) as a comment after it."""
    marks = notes if notes is not None else [None] * len(steps)
    return "".join(f"({' '.join((name, *args))})" + (f" ; {note}" if note else "") + "\n"
                   for (name, args), note in zip(steps, marks, strict=True))
