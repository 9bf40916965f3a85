"""What relaxed reachability (`pddltools.analysis.reach`) finds wrong with a task, as findings:

- W405 a goal no plan can reach even if nothing were ever deleted, with the chain that explains it;
- I406 an action that can never be applied in any problem checked, and why;
- W407 a precondition (or goal) that contradicts itself: `(p ?x) (not (p ?x))`, `(= ?a ?b) (not (= ?a ?b))`;
- I408 a goal that holds initially and that no reachable action can undo;
- I409 a goal that holds initially and that, once a reachable action deletes it, nothing restores;
- I410 an effect on a predicate that no precondition, condition or goal reads;
- I411 an object that no reachable action uses;
- I412 a numeric condition that interval analysis shows can never hold;
- I413 an invariant: atoms of which at most one holds at a time (the mutex groups of the ground task).

The analysis runs only on a task without errors (an undeclared predicate would make every finding
after it a guess), and gives up silently on tasks too large to explore within `BUDGET` atoms.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pddltools import wording
from pddltools.analysis.fixpoint import TooLarge
from pddltools.analysis.program import Schema, precondition, schemas_of
from pddltools.analysis.reach import Reachability, Reason
from pddltools.analysis.relax import Branch, Pattern, branches
from pddltools.check.codes import finding
from pddltools.check.facts import DomainFacts
from pddltools.diagnostics import Diagnostic, Span
from pddltools.pddl import ast

#: Derived facts (atoms and ground actions) beyond which the checker does not explore a task.
BUDGET = 50_000


def contradictions(domain: ast.Domain, problems: Sequence[ast.Problem] = ()) -> list[Diagnostic]:
    """W407: conditions that no state can satisfy, because they require something and its opposite."""
    found: list[Diagnostic] = []
    conditions: list[tuple[str, ast.Formula | None]] = [
        (f"the precondition of {s.name}", precondition(s)) for s in schemas_of(domain)]
    conditions += [(f"the rule for {d.predicate.name}", d.body) for d in domain.derived_predicates]
    conditions += [(f"the goal of {p.name}", p.goal) for p in problems]
    for what, formula in conditions:
        if formula is None:
            continue
        alternatives = branches(formula)
        if not alternatives:
            continue
        clashes = [_clash(b) for b in alternatives]
        if all(c is not None for c in clashes):
            text, span = clashes[0]  # type: ignore[misc]
            found.append(finding("W407", f"{what} can never hold: {text}", span or formula.span))
    return found


def _clash(branch: Branch) -> tuple[str, Span | None] | None:
    classes: dict[str, str] = {}

    def find(x: str) -> str:
        while classes.get(x, x) != x:
            x = classes[x]
        return x

    for a, b, node in branch.equal:
        ra, rb = find(a), find(b)
        if ra != rb:
            if not ra.startswith("?") and not rb.startswith("?"):
                return f"it requires {a} and {b} to be the same object", node.span
            if rb.startswith("?"):
                classes[rb] = ra
            else:
                classes[ra] = rb
    for a, b, node in branch.distinct:
        if find(a) == find(b):
            return f"it requires {_shown(a)} and {_shown(b)} to be equal and to differ", node.span
    positive = {(p.predicate, tuple(find(x) for x in p.args)): p for p in branch.atoms}
    for n in branch.negative:
        p = positive.get((n.predicate, tuple(find(x) for x in n.args)))
        if p is not None:
            return f"it requires {_shown_pattern(p)} and (not {_shown_pattern(n)})", n.node.span if n.node else None
    return None


def _shown(term: str) -> str:
    return term.split("#")[0]


def _shown_pattern(p: Pattern) -> str:
    return "(" + " ".join((p.predicate, *(_shown(a) for a in p.args))) + ")"


def reachability_findings(domain: ast.Domain, problems: Sequence[ast.Problem], facts: DomainFacts, *,
                          invariants: bool = False) -> list[Diagnostic]:
    """The findings of relaxed reachability over each problem (W405, I408, I409, I411, I412 per problem;
    I406 and I410 once, for what holds in every problem)."""
    found: list[Diagnostic] = []
    dead: dict[int, tuple[Schema, Reason, str]] | None = None
    numeric_reported: set[int] = set()
    first: tuple[ast.Problem, Reachability] | None = None
    for problem in problems:
        try:
            reach = Reachability(domain, problem, budget=BUDGET)
        except TooLarge:
            continue
        first = first or (problem, reach)
        found += _goals(reach, facts)
        found += _objects(reach)
        for branches_ruled in reach.program.ruled_out.values():
            for _, comparison in branches_ruled:
                if id(comparison) in numeric_reported or _within(comparison, problem):
                    continue
                numeric_reported.add(id(comparison))
                found.append(finding("I412", f"{comparison} can never hold in {problem.name}: "
                                     f"{reach.ranges.reason(comparison)}", comparison.span))
        now = {}
        for schema in reach.program.schemas:
            if not reach.bindings(schema):
                reason = reach.blocker(branches(precondition(schema)), _variables(schema), {},
                                       tuple(reach.program.ruled_out.get(id(schema), ())))
                now[id(schema)] = (schema, reason, problem.name)
        dead = now if dead is None else {k: v for k, v in dead.items() if k in now}
    if first is not None and invariants:
        found += _invariants(domain, *first)
    for schema, reason, name in (dead or {}).values():
        where = f"in {name}" if len(problems) == 1 else f"in any of the {len(problems)} problems (in {name})"
        kind = "action" if isinstance(schema, ast.Action | ast.DurativeAction) else type(schema).__name__.lower()
        found.append(finding("I406", f"{kind} {schema.name} can never be applied {where}: it {reason.text}",
                             schema.span, notes=_notes(reason)))
    if problems:
        found += _unread_effects(domain, problems)
    return found


def invariant_findings(domain: ast.Domain, problems: Sequence[ast.Problem]) -> list[Diagnostic]:
    """I413 for the first problem whose task is small enough to ground (what `check --verbose` adds)."""
    for problem in problems:
        try:
            reach = Reachability(domain, problem, budget=BUDGET)
        except TooLarge:
            continue
        return _invariants(domain, problem, reach)
    return []


def _invariants(domain: ast.Domain, problem: ast.Problem, reach: Reachability) -> list[Diagnostic]:
    """I413: the invariants (mutex groups) of the first problem's ground task, where the grounder reads it."""
    from pddltools.analysis.grounder import ground
    from pddltools.analysis.invariants import describe, invariants
    from pddltools.diagnostics import CompileError

    try:
        task = ground(domain, problem, reach)
    except CompileError:
        return []
    declared = {p.name: p for p in domain.predicates}
    found = []
    shown_groups: list[set[int]] = []
    for candidate, groups in invariants(task):
        # the same groups under a vaguer description ((at _ _) with one truck, after (at ?a _)) say nothing new
        if all(any(set(g) <= seen for seen in shown_groups) for g in groups):
            continue
        shown_groups += [set(g) for g in groups]
        decl = declared.get(candidate.parts[0][0])
        shown = describe(candidate, task)
        names = sorted(set(re.findall(r"\?[a-z]", shown)))
        each = f", for each {' '.join(names)}" if names else ""
        found.append(finding("I413", f"invariant: at most one of {shown} holds at a time{each} "
                             f"({wording.count(len(groups), 'mutex group')} in {problem.name})",
                             decl.span if decl else None))
    return found


def _within(comparison: ast.Comparison, problem: ast.Problem) -> bool:
    return problem.goal is not None and any(n is comparison for n in problem.goal.walk())


def _variables(schema: Schema) -> tuple[ast.TypedName, ...]:
    return schema.parameters + (schema.vars if isinstance(schema, ast.Action) else ())


def _notes(reason: Reason) -> tuple[tuple[str, Span | None], ...]:
    return tuple((link.text, link.span) for link in reason.links if link.span is not None)


def _goals(reach: Reachability, facts: DomainFacts) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    problem = reach.problem
    if problem.goal is None:
        return found
    derived = reach.derived
    init = reach.program.facts
    explained = False
    for pattern, positive in reach.goal_literals():
        ground = all(not a.startswith("?") for a in pattern.args)
        atom = (pattern.predicate, *pattern.args)
        span = pattern.node.span if pattern.node is not None else problem.goal.span
        if positive and ground and not reach.reached(pattern):
            explained = True
            if pattern.predicate not in facts.added and pattern.predicate not in derived:
                continue  # W401 says so already
            reason = reach.why_not(pattern)
            text = reason.text.split(", ", 1)[1] if ", " in reason.text else reason.text
            found.append(finding("W405", f"goal {_shown_pattern(pattern)} is unreachable: "
                                 f"{text.replace('whose ', 'its ', 1)}", span, notes=_notes(reason)[1:]))
        elif positive and ground and atom in init and pattern.predicate not in derived:
            deleters = _deleters(reach, pattern)
            if not deleters:
                found.append(finding("I408", f"goal {_shown_pattern(pattern)} holds initially and no action "
                                     "can make it false: it needs no plan", span))
            elif not _adders(reach, pattern):
                found.append(finding("I409", f"goal {_shown_pattern(pattern)} holds initially, but once "
                                     f"{deleters[0]} deletes it no action adds it back", span))
    if not reach.goal_reachable and not explained:
        found.append(_goal_as_a_whole(reach))
    return found


def _goal_as_a_whole(reach: Reachability) -> Diagnostic:
    problem = reach.problem
    assert problem.goal is not None
    ruled = tuple(reach.program.ruled_out.get(id(problem), ()))
    reason = reach.blocker(branches(problem.goal), (), {}, ruled)
    return finding("W405", f"the goal of {problem.name} is unreachable: it {reason.text}", problem.goal.span,
                   notes=_notes(reason))


def _deleters(reach: Reachability, pattern: Pattern) -> list[str]:
    """Reached actions with a delete effect that may take away the ground atom `pattern`."""
    names = []
    atom = pattern.args
    for lit in reach.program.literals:
        if lit.positive or lit.atom.predicate != pattern.predicate or lit.schema.name in names:
            continue
        args = tuple(getattr(a, "name", "?") for a in lit.atom.args)
        params = [p.name for p in lit.schema.parameters]
        for values in reach.bindings(lit.schema):
            binding = dict(zip(params, values, strict=False))
            if all(binding.get(a, a) == v or (a.startswith("?") and a not in binding) for a, v in zip(args, atom,
                                                                                                      strict=False)):
                names.append(lit.schema.name)
                break
    return names


def _adders(reach: Reachability, pattern: Pattern) -> list[str]:
    names = []
    for achiever, binding in reach.achievers(pattern):
        params = [p.name for p in achiever.variables]
        schema = achiever.origin
        if not isinstance(schema, ast.Action | ast.DurativeAction | ast.Process | ast.Event):
            names.append(achiever.name)
            continue
        for values in reach.bindings(schema):
            bound = dict(zip(params, values, strict=False))
            if all(bound.get(k, v) == v for k, v in binding.items()):
                names.append(achiever.name)
                break
    return names


def _objects(reach: Reachability) -> list[Diagnostic]:
    used = {value for action in reach.actions for value in action[1:]}
    if not reach.actions:
        return []
    found = []
    for obj in reach.problem.objects:
        if obj.name not in used:
            found.append(finding("I411", f"object {obj.name} takes part in no action that can ever be applied",
                                 obj.span))
    return found


def _unread_effects(domain: ast.Domain, problems: Sequence[ast.Problem]) -> list[Diagnostic]:
    """I410: predicates that effects change but nothing ever reads (at the first effect that changes each)."""
    read: set[str] = set()
    conditions: list[ast.Node | None] = [domain.constraints, *(p.goal for p in problems),
                                         *(p.constraints for p in problems)]
    for schema in schemas_of(domain):
        conditions.append(precondition(schema))
        if isinstance(schema, ast.DurativeAction):
            conditions.append(schema.duration)
        if schema.effect is not None:
            for node in ast.effect_parts(schema.effect):
                if isinstance(node, ast.When):
                    conditions.append(node.condition)
                elif isinstance(node, ast.Assign):
                    conditions.append(node.value)
    conditions += [d.body for d in domain.derived_predicates]
    for condition in conditions:
        if condition is not None:
            read.update(n.predicate for n in condition.walk() if isinstance(n, ast.Atom))
    first: dict[str, ast.Atom] = {}
    for schema in schemas_of(domain):
        if schema.effect is None:
            continue
        for node in ast.effect_parts(schema.effect):
            atom = node.body if isinstance(node, ast.Not) else node
            if isinstance(atom, ast.Atom) and atom.predicate not in read:
                first.setdefault(atom.predicate, atom)
    return [finding("I410", f"effects change {name}, but no precondition, condition or goal reads it",
                    atom.span) for name, atom in first.items()]
