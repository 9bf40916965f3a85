"""A `GroundTask` as a PDDL task without parameters: one nullary predicate per reached fluent atom, one
action per ground operator, and the origin of each action for the plan map.

Names: an atom `(on a b)` becomes the predicate `on_a_b`, the operator `(stack a b)` the action
`stack_a_b` (`-2`, `-3` ... when such a name is taken; a split disjunctive precondition gives several).
The requirements say what is left: `:negative-preconditions` when a precondition or goal negates an atom,
`:conditional-effects` when an effect stays conditional, `:action-costs` when costs count,
`:derived-predicates` when derived atoms are read: each needed one (`axioms.py`) is a nullary derived
predicate whose body is the disjunction of its axioms' conditions.
"""

from __future__ import annotations

from fractions import Fraction

from pddltools.analysis.axioms import Axioms
from pddltools.analysis.grounder import COST, GroundTask, Literal
from pddltools.compile.task import Origin, ParsedTask, PassResult, unique_name
from pddltools.pddl import ast
from pddltools.semantics.state import GroundAtom

UNREACHABLE = "goal-unreachable"


def to_pddl(task: GroundTask) -> PassResult:
    taken: set[str] = set()
    names = [unique_name("_".join(atom), taken) for atom in task.atoms]
    needed = Axioms(task)
    negative = any(not p for op in task.operators for _, p in op.precondition) or \
        (task.goal is not None and any(not p for _, p in task.goal)) or \
        any(not p for axiom in needed.axioms for _, p in axiom.condition)
    conditional = any(e.conditions for op in task.operators for e in op.effects)

    def literal(lit: Literal) -> ast.Formula:
        atom = ast.Atom(names[lit[0]])
        return atom if lit[1] else ast.Not(atom)

    actions: list[ast.Structure] = []
    origins: dict[str, Origin] = {}
    action_names: set[str] = set(names)
    for op in task.operators:
        name = unique_name("_".join((op.schema, *op.args)), action_names)
        parts: list[ast.Effect] = []
        for effect in op.effects:
            body: ast.Effect = ast.Atom(names[effect.atom]) if effect.add else ast.Not(ast.Atom(names[effect.atom]))
            if effect.conditions:
                body = ast.When(_conjunction([literal(c) for c in effect.conditions]), body)
            parts.append(body)
        if task.metric and op.cost:
            parts.append(ast.Assign("increase", ast.FunctionTerm(COST), _number(op.cost)))
        pre = _conjunction([literal(c) for c in op.precondition])
        actions.append(ast.Action(name, (), pre, ast.AndEffect(tuple(parts))))
        origins[name] = Origin(op.schema, op.args)
    bodies: dict[int, list[ast.Formula]] = {a: [] for a in needed.atoms}
    for axiom in needed.axioms:
        bodies[axiom.head].append(_conjunction([literal(c) for c in axiom.condition]))
    rules = [ast.DerivedPredicate(ast.PredicateDecl(names[a]), parts[0] if len(parts) == 1 else ast.Or(tuple(parts)))
             for a, parts in bodies.items()]
    predicates = [ast.PredicateDecl(n) for a, n in enumerate(names) if task.atoms[a][0] not in task.derived
                  or a in bodies]
    if task.goal is None:
        predicates.append(ast.PredicateDecl(unique_name(UNREACHABLE, action_names)))
        goal: ast.Formula = ast.Atom(predicates[-1].name)
    else:
        goal = _conjunction([literal(c) for c in task.goal])
    flags = [":strips"] + [":negative-preconditions"] * negative + [":conditional-effects"] * conditional \
        + [":action-costs"] * task.metric + [":derived-predicates"] * bool(rules)
    domain = ast.Domain(f"{task.domain.name}-grounded", tuple(ast.Requirement(f) for f in flags), (), (),
                        tuple(predicates), (ast.FunctionDecl(COST),) if task.metric else (), None,
                        (*rules, *actions))
    init: list[ast.InitElement] = [ast.Atom(names[a]) for a in sorted(task.init)]
    if task.metric:
        init.append(ast.InitAssignment(ast.FunctionTerm(COST), ast.Number(0)))
    problem = ast.Problem(task.problem.name, domain.name, (), (), tuple(init), goal, None,
                          ast.Metric("minimize", ast.FunctionTerm(COST)) if task.metric else None)
    return PassResult(ParsedTask(domain, problem), origins, problem_specific=True)


def _conjunction(parts: list[ast.Formula]) -> ast.Formula:
    return parts[0] if len(parts) == 1 else ast.And(tuple(parts))  # no parts: (and), true


def _number(value: int | Fraction) -> ast.Number:
    return ast.Number(value)


def atom_name(atom: GroundAtom) -> str:
    return "_".join(atom)
