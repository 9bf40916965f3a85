"""HDDL to and from Unified Planning's hierarchical problems (`unified_planning.model.htn`), and UP's
hierarchical plans in the IPC HTN plan format.

Both directions go through HDDL text and UP's own HDDL reader and writer: `to_up_htn` prints the domain
and problem and has UP read them, so it gives exactly what UP gives for the same files;
`from_up_htn` has UP write the problem and parses what it wrote. UP's writer renames what HDDL cannot
spell and lower-cases nothing, so names come back as UP knows them. Refused: E702 when UP's reader
rejects the printed files or loses part of them (a method's `:constraints`, which UP 1.3's reader
drops), E703 when UP's writer cannot write the problem or writes what pddltools cannot read.

    htn = HTNTask.load("domain.hddl", "p01.hddl")
    result = OneshotPlanner(name="aries").solve(to_up_htn(htn.domain, htn.problem))
    Path("p01.plan").write_text(ipc_plan(result.plan))   # pddltools validate domain.hddl p01.hddl p01.plan
"""

from __future__ import annotations

from typing import Any

from pddltools.diagnostics import Error, Source
from pddltools.hddl import ast
from pddltools.hddl.parser import parse
from pddltools.interop.errors import FROM_FRAMEWORK, TO_UP, refuse, require

TARGET = "Unified Planning"


def to_up_htn(domain: ast.HTNDomain, problem: ast.HTNProblem) -> Any:
    """The `HierarchicalProblem` UP's HDDL reader builds for `domain` and `problem` as pddltools prints them."""
    io = require("unified_planning.io", "up")
    try:
        task = io.PDDLReader().parse_problem_string(str(domain), str(problem))
    except Exception as exc:  # UP's reader raises its own exceptions, pyparsing's and plain ones alike
        raise refuse(TO_UP, TARGET, f"the problem {problem.name}", problem.span, f"its HDDL reader says: {exc}") \
            from None
    kept = {m.name: m for m in task.methods}
    for method in domain.methods:
        # UP 1.3's reader reads a method's :constraints and drops them: refuse rather than lose them
        if method.network.constraints is not None and method.name in kept and not kept[method.name].constraints:
            raise refuse(TO_UP, TARGET, f"the :constraints of method {method.name}", method.network.constraints.span,
                         "UP's HDDL reader drops them")
    return task


def from_up_htn(task: Any) -> tuple[ast.HTNDomain, ast.HTNProblem]:
    """`(HTNDomain, HTNProblem)` for a UP hierarchical problem, read from what UP's HDDL writer writes."""
    io = require("unified_planning.io", "up")
    htn = require("unified_planning.model.htn", "up")
    if not isinstance(task, htn.HierarchicalProblem):
        raise refuse(FROM_FRAMEWORK, "HDDL", f"the problem {task.name}", None, "it is not hierarchical")
    try:
        writer = io.PDDLWriter(task)
        domain_text, problem_text = writer.get_domain(), writer.get_problem()
    except Exception as exc:  # UP refuses what HDDL cannot express with its own exceptions
        raise refuse(FROM_FRAMEWORK, "HDDL", f"the problem {task.name}", None, f"UP's writer says: {exc}") from None
    try:
        return (parse(Source(domain_text, f"{task.name}-domain.hddl"), "domain"),
                parse(Source(problem_text, f"{task.name}.hddl"), "problem"))
    except Error as exc:
        raise refuse(FROM_FRAMEWORK, "HDDL", f"the problem {task.name}", None,
                     "UP's writer wrote what pddltools cannot read: " + exc.diagnostics[0].message) from None


def ipc_plan(plan: Any) -> str:
    """A UP `HierarchicalPlan` in the IPC HTN plan format: the primitive steps in plan order, then the
    root tasks and one decomposition line per method application, every id list in plan order."""
    htn = require("unified_planning.plans.hierarchical_plan", "up")
    flat = plan.action_plan
    actions = list(flat.actions) if hasattr(flat, "actions") else [a for _, a, _ in sorted(
        flat.timed_actions, key=lambda timed: timed[0])]
    ids = {id(action): number for number, action in enumerate(actions)}
    first: dict[int, int] = {n: n for n in ids.values()}  # id -> plan position of its first action
    lines: list[str] = []
    next_id = [len(actions)]

    def ordered(subtasks: list[int]) -> list[int]:
        # a task without actions has no place in the plan order: its method's order is kept then
        return sorted(subtasks, key=first.__getitem__) if all(s in first for s in subtasks) else subtasks

    def visit(node: Any) -> int:
        if not isinstance(node, htn.MethodInstance):
            return ids[id(node)]
        ident = next_id[0]
        next_id[0] += 1
        method = node.method
        values = dict(zip((p.name for p in method.parameters), node.parameters, strict=True))
        args = [str(values[p.name]) for p in method.achieved_task.parameters]
        subtasks = ordered([visit(node.decomposition.subtasks[s.identifier]) for s in method.subtasks
                            if s.identifier in node.decomposition.subtasks])
        if subtasks and all(s in first for s in subtasks):
            first[ident] = min(first[s] for s in subtasks)
        lines.append(" ".join([str(ident), method.achieved_task.task.name, *args, "->", method.name,
                               *map(str, subtasks)]))
        return ident

    roots = ordered([visit(node) for node in plan.decomposition.subtasks.values()])
    steps = [f"{ids[id(a)]} ({' '.join([a.action.name, *map(str, a.actual_parameters)])})" for a in actions]
    return "\n".join(["==>", *steps, " ".join(["root", *map(str, roots)]), *lines, "<=="]) + "\n"


__all__ = ["from_up_htn", "ipc_plan", "to_up_htn"]
