"""A task as a Datalog program over its relaxed reading, as Fast Downward's `pddl_to_prolog` builds one.

Each action becomes rules whose body is a branch of its precondition (`relax.branches`) plus one atom
per parameter type, and whose heads are the action itself (`@action NAME args`) and the atoms it adds
outright; each conditional or universally quantified add effect becomes a rule of its own, read
after its action. Derived predicates become rules for their atoms, the goal one rule for `@goal`.
Equalities in a branch are resolved by renaming (a variable equal to a constant becomes the constant),
so the join never sees them; inequalities are kept for the join to check.

Needs: a domain and problem as parsed. Guarantees: a rule's heads use only variables its body binds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import cast

from pddltools.analysis.relax import Branch, Pattern, branches
from pddltools.pddl import ast
from pddltools.pddl.type_hierarchy import type_names
from pddltools.semantics.grounding import Grounder
from pddltools.semantics.state import GroundAtom
from pddltools.static_typing import assert_never

Schema = ast.Action | ast.DurativeAction | ast.Process | ast.Event
GOAL = "@goal"
#: Tells whether a numeric condition may ever hold (interval analysis); every one may by default.
NumericTest = Callable[[ast.Comparison], bool]


def action_predicate(schema: Schema) -> str:
    return f"@action {schema.name}"


def type_predicate(ref: ast.TypeRef | None) -> str:
    return "@type " + "|".join(type_names(ref))


@dataclass(frozen=True, slots=True)
class Rule:
    """When every body atom holds together (and `distinct` pairs differ), every head holds."""

    heads: tuple[Pattern, ...]
    body: tuple[Pattern, ...]
    distinct: tuple[tuple[str, str], ...]
    origin: ast.Node = field(compare=False)  # the action, derived predicate, effect or goal it reads


@dataclass(frozen=True, slots=True)
class Literal:
    """An add or delete effect of a schema, with the variables and conditions it is under."""

    schema: Schema
    atom: ast.Atom
    positive: bool
    variables: tuple[ast.TypedName, ...]  # of enclosing `forall`s
    conditions: tuple[ast.Formula, ...]  # of enclosing `when`s
    time: str | None = None  # a durative action's "start" or "end"


@dataclass
class Program:
    rules: list[Rule]
    facts: set[GroundAtom]  # the initial state's atoms (with timed ones) and each type's objects
    schemas: list[Schema]
    literals: list[Literal]
    grounder: Grounder
    #: the branches that a numeric condition rules out, by the structure they belong to
    ruled_out: dict[int, list[tuple[Branch, ast.Comparison]]] = field(default_factory=dict)


def schemas_of(domain: ast.Domain) -> list[Schema]:
    found: list[Schema] = [s for s in domain.structures if isinstance(s, ast.Action | ast.DurativeAction)]
    return found + list(domain.processes) + list(domain.events)


def precondition(schema: Schema) -> ast.Formula | None:
    """What must hold for the schema to start: a durative action's `at start` conditions only. Its `over
    all` and `at end` conditions may be made true by its own start effects, or by actions run meanwhile
    (`end_condition`)."""
    if not isinstance(schema, ast.DurativeAction):
        return schema.precondition
    return _timed(schema.condition, ("start",))


def end_condition(schema: Schema) -> ast.Formula | None:
    """A durative action's `over all` and `at end` conditions (None for an instantaneous schema)."""
    return _timed(schema.condition, ("all", "end")) if isinstance(schema, ast.DurativeAction) else None


def _timed(condition: ast.Formula | None, times: tuple[str, ...]) -> ast.Formula:
    parts = condition.parts if isinstance(condition, ast.And) else (() if condition is None else (condition,))
    return ast.And(tuple(p for p in parts if isinstance(p, ast.Timed) and p.time in times))


def effect_literals(schema: Schema) -> Iterator[Literal]:
    """Every add and delete effect of `schema`, with what it is under, in source order."""
    stack: list[tuple[ast.Effect, tuple[ast.TypedName, ...], tuple[ast.Formula, ...], str | None]] = []
    if schema.effect is not None:
        stack.append((schema.effect, (), (), None))
    while stack:
        node, variables, conditions, time = stack.pop()
        match node:
            case ast.AndEffect():
                stack.extend((p, variables, conditions, time) for p in reversed(node.parts))
            case ast.ForallEffect():
                stack.append((node.body, variables + node.variables, conditions, time))
            case ast.When():
                stack.append((node.body, variables, (*conditions, node.condition), time))
            case ast.Timed():
                stack.append((cast(ast.Effect, node.body), variables, conditions, node.time))
            case ast.Atom():
                yield Literal(schema, node, True, variables, conditions, time)
            case ast.Not():
                if isinstance(node.body, ast.Atom):
                    yield Literal(schema, node.body, False, variables, conditions, time)
            case ast.Assign():
                pass  # no literal: numbers are not atoms
            case _:
                assert_never(node)


def build(domain: ast.Domain, problem: ast.Problem, numeric: NumericTest | None = None,
          grounder: Grounder | None = None) -> Program:
    grounder = grounder or Grounder(domain, problem)
    builder = _Builder(grounder, numeric or (lambda _: True), {f.name: f.type for f in domain.functions})
    schemas = schemas_of(domain)
    literals: list[Literal] = []
    for schema in schemas:
        own = list(effect_literals(schema))
        literals += own
        builder.schema(schema, own)
    for rule in domain.derived_predicates:
        head = ast.Atom(rule.predicate.name, tuple(ast.Variable(p.name) for p in rule.predicate.parameters))
        builder.add(rule, rule.predicate.parameters, branches(rule.body), [head])
    if problem.goal is not None:
        builder.add(problem, (), branches(problem.goal), [], extra_heads=(Pattern(GOAL, ()),))
    facts: set[GroundAtom] = set()
    for element in problem.init:
        body = element.body if isinstance(element, ast.TimedInitial) else element
        if isinstance(body, ast.Atom):
            facts.add((body.predicate, *(getattr(a, "name", "") for a in body.args)))
    for predicate, ref in builder.types.items():
        facts.update((predicate, obj) for obj in grounder.objects_of(ref))
    return Program(builder.rules, facts, schemas, literals, grounder, builder.ruled_out)


class _Builder:
    def __init__(self, grounder: Grounder, numeric: NumericTest,
                 function_types: dict[str, ast.TypeRef | None] | None = None) -> None:
        self.grounder = grounder
        self.function_types = function_types or {}
        self.numeric = numeric
        self.rules: list[Rule] = []
        self.types: dict[str, ast.TypeRef | None] = {}
        self.ruled_out: dict[int, list[tuple[Branch, ast.Comparison]]] = {}

    def schema(self, schema: Schema, literals: list[Literal]) -> None:
        params = tuple(ast.Variable(p.name) for p in schema.parameters)
        head = Pattern(action_predicate(schema), tuple(p.name for p in params))
        plain = [lit.atom for lit in literals
                 if lit.positive and not lit.variables and not lit.conditions and lit.time != "end"]
        extra = schema.vars if isinstance(schema, ast.Action) else ()  # PDDL 1.2 `:vars`: bound, not named
        self.add(schema, schema.parameters + extra, branches(precondition(schema)), plain, extra_heads=(head,))
        bound = frozenset(p.name for p in params)
        if isinstance(schema, ast.DurativeAction):
            # the end: once started, when its over-all and at-end conditions hold
            ends = [lit.atom for lit in literals
                    if lit.positive and not lit.variables and not lit.conditions and lit.time == "end"]
            started = tuple(Branch(atoms=(head,)) + b for b in branches(end_condition(schema)))
            if ends:
                self.add(schema, (), started, ends, bound=bound)
        for lit in literals:
            if not lit.positive or (not lit.variables and not lit.conditions):
                continue
            condition: tuple[Branch, ...] = (Branch(atoms=(head,)),)
            for formula in lit.conditions:
                condition = tuple(a + b for a in condition for b in branches(formula))
            self.add(schema, lit.variables, condition, [lit.atom], bound=bound)

    def add(self, origin: ast.Node, variables: tuple[ast.TypedName, ...],
            alternatives: tuple[Branch, ...], heads: list[ast.Atom], *, extra_heads: tuple[Pattern, ...] = (),
            bound: frozenset[str] = frozenset()) -> None:
        for branch in alternatives:
            impossible = next((c for c in branch.numeric if not self.numeric(c)), None)
            if impossible is not None:
                self.ruled_out.setdefault(id(origin), []).append((branch, impossible))
                continue
            rule = self._rule(origin, variables, branch, heads, extra_heads, bound)
            if rule is not None:
                self.rules.append(rule)

    def _rule(self, origin: ast.Node, variables: tuple[ast.TypedName, ...], branch: Branch,
              heads: list[ast.Atom], extra_heads: tuple[Pattern, ...], bound: frozenset[str]) -> Rule | None:
        rename = _unify(branch)
        if rename is None:
            return None  # two different objects said to be equal

        def name(term: str) -> str:
            return rename.get(term, term)

        body = [Pattern(a.predicate, tuple(name(x) for x in a.args), a.node) for a in branch.atoms]
        distinct = tuple((name(a), name(b)) for a, b, _ in branch.distinct)
        if any(a == b for a, b in distinct):
            return None
        in_atoms = {x for a in body for x in a.args}
        for v in (*variables, *branch.variables):
            term = name(v.name)
            if v.name in bound:
                continue
            if (v.type is None or type_names(v.type) == ("object",)) and term in in_atoms:
                continue  # every object is an object: the atom binds it already
            predicate = type_predicate(v.type)
            self.types.setdefault(predicate, v.type)
            body.append(Pattern(predicate, (term,)))
        out: list[Pattern] = [Pattern(h.predicate, tuple(name(x) for x in h.args)) for h in extra_heads]
        for atom in heads:
            args: list[str] = []
            for a in atom.args:
                found = _arg(a)
                if found is None:
                    # an object fluent's value: any object of the function's type, for all this reading knows
                    found = f"?value#{len(body)}"
                    ref = self.function_types.get(a.function) if isinstance(a, ast.FunctionTerm) else None
                    predicate = type_predicate(ref)
                    self.types.setdefault(predicate, ref)
                    body.append(Pattern(predicate, (found,)))
                else:
                    found = name(found)
                args.append(found)
            out.append(Pattern(atom.predicate, tuple(args), atom))
        return Rule(tuple(out), tuple(body), distinct, origin)


def _arg(term: ast.Node) -> str | None:
    if isinstance(term, ast.Variable | ast.Constant):
        return term.name
    return None


def _unify(branch: Branch) -> dict[str, str] | None:
    """The renaming the branch's equalities imply: each variable to its class's object, or to one
    variable of its class; None when two different objects end up equal."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    for a, b, _ in branch.equal:
        ra, rb = find(a), find(b)
        if ra == rb:
            continue
        a_object, b_object = not ra.startswith("?"), not rb.startswith("?")
        if a_object and b_object:
            return None
        if b_object:
            parent[ra] = rb
        else:
            parent[rb] = ra
    return {x: find(x) for x in parent}
