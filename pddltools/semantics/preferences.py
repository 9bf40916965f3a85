"""PDDL3: preferences (soft goals, soft preconditions, soft constraints) and trajectory constraints.

A trajectory is the sequence of states a plan goes through, each with the time it starts to hold:
state k holds over [t_k, t_{k+1}), the last one for ever. A sequential plan's step i happens at time i
(as in VAL); a temporal plan's happenings at their times. The modal operators, as Gerevini and Long
define them for PDDL3:

- `always p`: p in every state; `sometime p`: in some state; `within t p`: in some state from time <= t;
- `at-most-once p`: p becomes true at most once; `sometime-after p q`: whenever p, q then or later;
- `sometime-before p q`: whenever p, q strictly earlier; `always-within t p q`: whenever p at time s,
  q at some state from s to s + t; `hold-during a b p`: p over all of [a, b); `hold-after t p`: p
  over all of (t, infinity); `at end p`: p in the final state.

A preference counts one violation each time it is false: per instance of a quantified preference, per
application of an action with a soft precondition.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from pddltools.pddl import ast
from pddltools.semantics.evaluate import Evaluator, ground
from pddltools.semantics.grounding import Binding
from pddltools.semantics.state import Number, State

#: (time at which the state starts to hold, state)
Trajectory = Sequence[tuple[Number, State]]
ANONYMOUS = "<anonymous>"


@dataclass(frozen=True, slots=True)
class ConstraintResult:
    """The hard constraints that failed (as ground PDDL) and the violations of each preference name."""

    failed: tuple[str, ...]
    violations: Counter[str]


def _soft_parts(formula: ast.Formula, binding: Binding, ev: Evaluator) -> list[tuple[ast.Formula, Binding, str | None]]:
    """The top-level conjuncts of a goal or constraint, quantifiers expanded: (formula, binding, name of
    the preference it is in, or None for a hard part)."""
    out: list[tuple[ast.Formula, Binding, str | None]] = []
    stack: list[tuple[ast.Formula, Binding]] = [(formula, binding)]
    while stack:
        node, b = stack.pop()
        if isinstance(node, ast.And):
            stack.extend((p, b) for p in reversed(node.parts))
        elif isinstance(node, ast.Forall) and _has_preference(node.body):
            stack.extend((node.body, inner) for inner in reversed(list(ev.grounder.bindings(node.variables, b))))
        elif isinstance(node, ast.Preference):
            out.append((node.body, b, node.name or ANONYMOUS))
        else:
            out.append((node, b, None))
    return out


def _has_preference(node: ast.Node) -> bool:
    return any(isinstance(n, ast.Preference) for n in node.walk())


def state_violations(ev: Evaluator, formula: ast.Formula | None, binding: Binding, state: State) -> Counter[str]:
    """Violations of the preferences in a goal or precondition, evaluated in one state."""
    counts: Counter[str] = Counter()
    if formula is None or not _has_preference(formula):
        return counts
    for body, b, name in _soft_parts(formula, binding, ev):
        if name is not None and not ev.holds(body, b, state):
            counts[name] += 1
    return counts


def evaluate_constraints(ev: Evaluator, formulas: Sequence[ast.Formula], trajectory: Trajectory) -> ConstraintResult:
    """Check trajectory constraints over a plan's states: hard ones must hold, soft ones are counted."""
    failed: list[str] = []
    counts: Counter[str] = Counter()
    for formula in formulas:
        for body, b, name in _soft_parts(formula, {}, ev):
            if holds_over(ev, body, b, trajectory):
                continue
            if name is None:
                failed.append(str(ground(body, b)))
            else:
                counts[name] += 1
    return ConstraintResult(tuple(failed), counts)


def holds_over(ev: Evaluator, f: ast.Formula, b: Binding, traj: Trajectory) -> bool:
    """Whether a (modal) constraint holds over the trajectory."""
    def at(k: int, g: ast.Formula) -> bool:
        return ev.holds(g, b, traj[k][1])

    n = len(traj)
    times = [t for t, _ in traj]
    ends: list[float | Number] = [*times[1:], float("inf")]
    if isinstance(f, ast.And):
        return all(holds_over(ev, p, b, traj) for p in f.parts)
    if isinstance(f, ast.Forall):
        return all(holds_over(ev, f.body, inner, traj) for inner in ev.grounder.bindings(f.variables, b))
    if isinstance(f, ast.Always):
        return all(at(k, f.body) for k in range(n))
    if isinstance(f, ast.Sometime):
        return any(at(k, f.body) for k in range(n))
    if isinstance(f, ast.Within):
        return any(at(k, f.body) for k in range(n) if times[k] <= f.deadline.value)
    if isinstance(f, ast.AtMostOnce):
        rises, before = 0, False
        for k in range(n):
            now = at(k, f.body)
            rises += now and not before
            before = now
        return rises <= 1
    if isinstance(f, ast.SometimeAfter):
        return all(any(at(j, f.consequence) for j in range(k, n)) for k in range(n) if at(k, f.condition))
    if isinstance(f, ast.SometimeBefore):
        return all(any(at(j, f.antecedent) for j in range(k)) for k in range(n) if at(k, f.condition))
    if isinstance(f, ast.AlwaysWithin):
        d = f.deadline.value
        return all(any(at(j, f.consequence) for j in range(k, n) if times[j] <= times[k] + d)
                   for k in range(n) if at(k, f.condition))
    if isinstance(f, ast.HoldDuring):
        lo, hi = f.start.value, f.end.value
        return all(at(k, f.body) for k in range(n) if times[k] < hi and ends[k] > lo)
    if isinstance(f, ast.HoldAfter):
        return all(at(k, f.body) for k in range(n) if ends[k] > f.time.value)
    if isinstance(f, ast.Timed) and f.time == "end":
        return at(n - 1, f.body)  # type: ignore[arg-type]
    # A plain formula among the constraints is read as a state invariant.
    return all(at(k, f) for k in range(n))
