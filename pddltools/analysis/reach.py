"""Relaxed reachability of a task: which atoms and which ground actions some plan could ever reach if
nothing were ever deleted, and, for what is not reached, why not.

    reach = Reachability(domain, problem)
    reach.atoms                      # the ground atoms reached (the initial ones included)
    reach.actions                    # the ground actions reached, as ("name", "a", "b") tuples
    reach.goal_reachable
    reach.why_not(pattern)           # a chain: "(clean ?t), which no action adds and ... (domain.pddl:41:7)"

An atom this analysis does not reach is false in every state of every plan (the relaxation only adds
possibilities), so "unreachable" is a proof; "reached" is not a promise. The explanation follows, from
what is missing, its achievers (the actions or derived-predicate rules that could add it) and the first
precondition of each that nothing reaches, down to something nothing adds at all.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from pddltools.analysis.fixpoint import Binding, Model
from pddltools.analysis.intervals import Ranges
from pddltools.analysis.program import (
    GOAL,
    Literal,
    Schema,
    action_predicate,
    build,
    end_condition,
    precondition,
)
from pddltools.analysis.relax import Branch, Pattern, branches
from pddltools.diagnostics import Span
from pddltools.pddl import ast
from pddltools.pddl.type_hierarchy import type_names
from pddltools.semantics.grounding import Grounder
from pddltools.semantics.state import GroundAtom

MAX_DEPTH = 4  # links of a chain before it says only "never reached"
MAX_GROUPS = 2  # different reasons spelt out where achievers fail differently


@dataclass(frozen=True, slots=True)
class Achiever:
    """Something that can make atoms of `head`'s shape true: an action's effect or a derived rule."""

    name: str  # the action, or the derived predicate's rule
    origin: ast.Node
    head: tuple[str, ...]  # the effect atom's arguments: its variables and objects
    alternatives: tuple[Branch, ...]  # what it needs (precondition and `when` conditions), by disjunct
    variables: tuple[ast.TypedName, ...]
    ruled_out: tuple[tuple[Branch, ast.Comparison], ...] = ()


@dataclass
class Link:
    """One step of an explanation, with where it was written (for an editor's related information)."""

    text: str
    span: Span | None


@dataclass
class Reason:
    text: str
    links: list[Link] = field(default_factory=list)
    #: the achiever does not apply to these objects at all: the problem lacks a static fact about them
    static: bool = False


class Reachability:
    def __init__(self, domain: ast.Domain, problem: ast.Problem, grounder: Grounder | None = None, *,
                 budget: int | None = None) -> None:
        self.domain = domain
        self.problem = problem
        self.ranges = Ranges(domain, problem)
        self.program = build(domain, problem, self.ranges.possible, grounder)
        self.model = Model(self.program, budget).run()
        self.derived = {d.predicate.name for d in domain.derived_predicates}
        self._achievers: dict[str, list[Achiever]] | None = None

    # ---------------------------------------------------------------------------------------------
    # What is reached

    @property
    def goal_reachable(self) -> bool:
        return (GOAL,) in self.model.facts

    @property
    def atoms(self) -> set[GroundAtom]:
        return {f for f in self.model.facts if not f[0].startswith("@")}

    @property
    def actions(self) -> list[GroundAtom]:
        """Reached ground actions, as (name, *args)."""
        return [(f[0][8:], *f[1:]) for f in self.model.facts if f[0].startswith("@action ")]

    def bindings(self, schema: Schema) -> list[tuple[str, ...]]:
        """The argument tuples with which `schema` is reached."""
        return [f[1:] for f in self.model.of(action_predicate(schema))]

    def reached(self, pattern: Pattern, binding: Binding | None = None) -> bool:
        return next(self.model.matching(pattern, binding), None) is not None

    # ---------------------------------------------------------------------------------------------
    # Why not

    def achievers(self, pattern: Pattern) -> list[tuple[Achiever, Binding]]:
        """What could add atoms of `pattern`'s shape, each with the binding of its variables the match implies."""
        if self._achievers is None:
            self._achievers = self._collect()
        found = []
        for achiever in self._achievers.get(pattern.predicate, ()):
            binding = _unify(achiever.head, pattern.args)
            if binding is not None:
                found.append((achiever, binding))
        return found

    def _achievers_of(self, predicate: str) -> list[Achiever]:
        if self._achievers is None:
            self._achievers = self._collect()
        return self._achievers.get(predicate, [])

    def _collect(self) -> dict[str, list[Achiever]]:
        out: dict[str, list[Achiever]] = {}
        ruled = self.program.ruled_out
        for lit in self.program.literals:
            if not lit.positive:
                continue
            head = tuple(getattr(a, "name", f"?value#{i}") for i, a in enumerate(lit.atom.args))
            alternatives = _needs(lit)
            params = lit.schema.parameters + (lit.schema.vars if isinstance(lit.schema, ast.Action) else ())
            out.setdefault(lit.atom.predicate, []).append(Achiever(
                lit.schema.name, lit.schema, head, alternatives, params + lit.variables,
                tuple(ruled.get(id(lit.schema), ()))))
        for rule in self.domain.derived_predicates:
            head = tuple(p.name for p in rule.predicate.parameters)
            out.setdefault(rule.predicate.name, []).append(Achiever(
                f"the rule for {rule.predicate.name}", rule, head, branches(rule.body), rule.predicate.parameters,
                tuple(ruled.get(id(rule), ()))))
        return out

    def why_not(self, pattern: Pattern, binding: Binding | None = None, *, depth: int = 0,
                seen: frozenset[str] = frozenset()) -> Reason:
        """Why no atom of `pattern`'s shape (with `binding`) is ever reached: a text that starts with the
        atom, and the links of the chain."""
        atom = _show(pattern, binding or {})
        span = pattern.node.span if pattern.node is not None else None
        achievers = self.achievers(Pattern(pattern.predicate, tuple((binding or {}).get(a, a) for a in pattern.args)))
        if not achievers:
            what = "no rule derives" if pattern.predicate in self.derived else "no action adds"
            text = f"{atom}, which {what} and the problem does not give"
            return Reason(text + _at(span), [Link(text, span)])
        if atom in seen or depth >= MAX_DEPTH:
            text = f"{atom}, which is never reached"
            return Reason(text, [Link(text, span)])
        clause = self.achiever_clause(achievers, depth, seen | {atom})
        return Reason(f"{atom}, whose {clause.text}", [Link(f"{atom} is never reached", span), *clause.links])

    def achiever_clause(self, achievers: list[tuple[Achiever, Binding]], depth: int = 0,
                        seen: frozenset[str] = frozenset()) -> Reason:
        """"only achiever A needs ..." / "achievers A and B need ..." / "achievers all fail: A needs ...; B ..."."""
        groups: dict[str, tuple[list[str], Reason]] = {}
        found = [(achiever, self.blocker(achiever.alternatives, achiever.variables, binding, achiever.ruled_out,
                                         depth=depth, seen=seen)) for achiever, binding in achievers]
        # Achievers that do not apply to these objects (serve_sandwich for a child who is allergic) say
        # nothing about why the others fail: leave them out, unless none is left.
        here = "" if all(r.static for _, r in found) or not any(r.static for _, r in found) else " here"
        if here:
            found = [(a, r) for a, r in found if not r.static]
        for achiever, reason in found:
            names, _ = groups.setdefault(reason.text, ([], reason))
            if achiever.name not in names:
                names.append(achiever.name)
        names_all = [n for names, _ in groups.values() for n in names]
        if len(groups) == 1:
            (names, reason), = groups.values()
            if len(names) == 1:
                if here:
                    return Reason(f"only achiever here, {names[0]}, {reason.text}", reason.links)
                return Reason(f"only achiever {names[0]} {reason.text}", reason.links)
            return Reason(f"achievers{here} {_and(names)} all {_plural(reason.text)}", reason.links)
        shown = list(groups.values())[:MAX_GROUPS]
        parts = [f"{_and(names)} {reason.text}" for names, reason in shown]
        if len(groups) > MAX_GROUPS:
            parts.append(f"and {len(groups) - MAX_GROUPS} more reasons")
        links = [link for _, reason in shown for link in reason.links]
        return Reason(f"achievers{here} ({_and(names_all)}) all fail: " + "; ".join(parts), links)

    def blocker(self, alternatives: tuple[Branch, ...], variables: tuple[ast.TypedName, ...], binding: Binding,
                ruled_out: tuple[tuple[Branch, ast.Comparison], ...] = (), *, depth: int = 0,
                seen: frozenset[str] = frozenset()) -> Reason:
        """What keeps a precondition (given as its alternatives) from ever holding under `binding`:
        "needs X, which ...", one alternative after the other."""
        grounder = self.program.grounder
        for v in variables:
            value = binding.get(v.name)
            if value is None and not grounder.objects_of(v.type):
                kind = " or ".join(type_names(v.type))
                text = f"finds no object of type {kind} for {v.name}"
                return Reason(text, [Link(text, v.span)])
        reasons: list[Reason] = []
        for _, comparison in ruled_out[:1]:
            text = f"needs {comparison}, which can never hold: {self.ranges.reason(comparison)}"
            reasons.append(Reason(text + _at(comparison.span), [Link(text, comparison.span)]))
        for branch in alternatives:
            if any(not self.ranges.possible(c) for c in branch.numeric):
                continue  # reported from ruled_out
            reasons.append(self._branch_blocker(branch, binding, depth, seen))
        if not reasons:
            return Reason("can never apply")
        if len(reasons) == 1 or all(r.text == reasons[0].text for r in reasons):
            return reasons[0]
        return Reason(" or ".join(dict.fromkeys(r.text for r in reasons)), [link for r in reasons for link in r.links])

    def _branch_blocker(self, branch: Branch, binding: Binding, depth: int, seen: frozenset[str]) -> Reason:
        for a, b, node in branch.distinct:
            if binding.get(a, a) == binding.get(b, b):
                text = f"needs {a} and {b} to differ, which they cannot here"
                return Reason(text + _at(node.span), [Link(text, node.span)])
        for pattern in branch.atoms:
            if not self.reached(pattern, binding):
                inner = self.why_not(pattern, binding, depth=depth + 1, seen=seen)
                static = any(not a.startswith("?") or a in binding for a in pattern.args) \
                    and not self._achievers_of(pattern.predicate)
                return Reason(f"needs {inner.text}", inner.links, static)
        shown = " ".join(_show(p, binding) for p in branch.atoms)
        return Reason(f"needs {shown} at once, which never hold together for the same objects")

    # ---------------------------------------------------------------------------------------------

    def goal_literals(self) -> Iterator[tuple[Pattern, bool]]:
        """The goal's literals that its every alternative requires outright."""
        if self.problem.goal is None:
            return
        alternatives = branches(self.problem.goal)
        if len(alternatives) != 1:
            return
        branch = alternatives[0]
        for p in branch.atoms:
            yield p, True
        for p in branch.negative:
            yield p, False


def _needs(lit: Literal) -> tuple[Branch, ...]:
    result = branches(precondition(lit.schema))
    if lit.time == "end":
        result = tuple(a + b for a in result for b in branches(end_condition(lit.schema)))
    for condition in lit.conditions:
        result = tuple(a + b for a in result for b in branches(condition))
    return result


def _unify(head: tuple[str, ...], args: tuple[str, ...]) -> Binding | None:
    """The binding of `head`'s variables that makes it an instance of `args` where `args` names objects."""
    if len(head) != len(args):
        return None
    binding: Binding = {}
    for h, a in zip(head, args, strict=True):
        if a.startswith("?"):
            continue
        if h.startswith("?"):
            if binding.setdefault(h, a) != a:
                return None
        elif h != a:
            return None
    return binding


def _show(pattern: Pattern, binding: Binding) -> str:
    args = [binding.get(a, a).split("#")[0] for a in pattern.args]
    return "(" + " ".join((pattern.predicate, *args)) + ")"


def _at(span: Span | None) -> str:
    if span is None:
        return ""
    return f" ({span.file.rsplit('/', 1)[-1]}:{span.line}:{span.column})"


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _plural(text: str) -> str:
    """"needs X" said of several achievers: "need X"."""
    for verb in ("needs", "finds", "can"):
        if text.startswith(verb + " "):
            return ("need" if verb == "needs" else "find" if verb == "finds" else "can") + text[len(verb):]
    return text
