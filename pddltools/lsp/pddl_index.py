"""Where each PDDL name is declared and used: what go-to-definition, references, hover and completion ask.

Built on the AST alone (every node has a span). A name's own place inside a node's span (the `at` of
`(at ?x ?y)`, the `move` of `(:action move ...)`) is found by reading the few tokens at the start of the
span. The checker's `DomainSymbols` keeps declarations only and reports findings; this index also keeps
every use, with the scope of each parameter.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Literal

from pddltools.diagnostics import Span
from pddltools.pddl import ast
from pddltools.pddl.type_hierarchy import TypeHierarchy

Kind = Literal["type", "predicate", "function", "object", "action", "parameter", "domain"]
_TOKEN = re.compile(r"[^\s()]+")
_BINDERS = (ast.Action, ast.DurativeAction, ast.DerivedPredicate, ast.Process, ast.Event, ast.Forall, ast.Exists,
            ast.ForallEffect)


@dataclass(frozen=True)
class Symbol:
    """A declared name. `key` identifies it across documents (a parameter by its binder's place)."""

    kind: Kind
    name: str
    span: Span  # the name where it is declared
    node: ast.Node  # the declaring node
    binder: ast.Node | None = None  # for a parameter: the action, axiom or quantifier that binds it

    @property
    def key(self) -> tuple[str, str, str, int]:
        where = self.binder.span if self.binder is not None and self.binder.span is not None else None
        return (self.kind, self.name, self.span.file if where is not None else "",
                where.start if where is not None else -1)


@dataclass(frozen=True)
class Use:
    """One place a name appears: its declaration or a reference to it."""

    kind: Kind
    name: str
    span: Span
    binder: ast.Node | None = None
    declaration: bool = False

    def key(self) -> tuple[str, str, str, int]:
        where = self.binder.span if self.binder is not None and self.binder.span is not None else None
        return (self.kind, self.name, self.span.file if where is not None else "",
                where.start if where is not None else -1)


def word_span(span: Span | None, name: str, skip: int = 0, tokens: int = 4) -> Span | None:
    """The span of the first token equal to `name` among the first `tokens` tokens of `span`
    (after `skip` characters: 1 skips the opening parenthesis)."""
    if span is None:
        return None
    text = span.source.text
    for count, match in enumerate(_TOKEN.finditer(text, span.start + skip, span.end)):
        if match.group().lower() == name:
            return Span(span.source, match.start(), match.end())
        if count + 1 >= tokens:
            break
    return None


# -------------------------------------------------------------------------------------------------
# Declarations


@dataclass
class Table:
    """The names a domain (and a problem of it) declare; for a problem, the domain's are included."""

    domain: ast.Domain | None
    problem: ast.Problem | None = None
    hierarchy: TypeHierarchy = field(default_factory=lambda: TypeHierarchy({}))
    types: dict[str, Symbol] = field(default_factory=dict)
    objects: dict[str, Symbol] = field(default_factory=dict)
    predicates: dict[str, Symbol] = field(default_factory=dict)
    functions: dict[str, Symbol] = field(default_factory=dict)
    actions: dict[str, Symbol] = field(default_factory=dict)
    domain_name: Symbol | None = None

    def of_kind(self, kind: str) -> dict[str, Symbol]:
        return {"type": self.types, "object": self.objects, "predicate": self.predicates,
                "function": self.functions, "action": self.actions}.get(kind, {})

    def lookup(self, use: Use) -> Symbol | None:
        if use.kind == "parameter":
            return _parameter_symbol(use)
        if use.kind == "domain":
            return self.domain_name
        return self.of_kind(use.kind).get(use.name)


def _parameter_symbol(use: Use) -> Symbol | None:
    binder = use.binder
    if binder is None:
        return None
    for declared in _bound(binder):
        if declared.name == use.name and declared.span is not None:
            return Symbol("parameter", use.name, _name_of(declared), declared, binder)
    return None


def _name_of(typed: ast.TypedName) -> Span:
    assert typed.span is not None
    return Span(typed.span.source, typed.span.start, typed.span.start + len(typed.name))


def _bound(binder: ast.Node) -> tuple[ast.TypedName, ...]:
    """The names `binder` declares: its bound variables, or a declaration's parameters."""
    if isinstance(binder, ast.PredicateDecl | ast.FunctionDecl):
        return binder.parameters
    return binder.bound_variables()


def build_table(domain: ast.Domain | None, problem: ast.Problem | None = None) -> Table:
    table = Table(domain, problem, TypeHierarchy.of(domain) if domain is not None else TypeHierarchy({}))
    if domain is not None:
        table.domain_name = _sym("domain", domain.name, word_span(domain.span, domain.name, 1, 5), domain)
        for typed in domain.types:
            if typed.span is not None:
                table.types.setdefault(typed.name, Symbol("type", typed.name, _name_of(typed), typed))
        for typed in domain.types:  # a parent named only after '-' is declared there
            for ref in _type_refs(typed.type):
                if ref.span is not None:
                    table.types.setdefault(ref.name, Symbol("type", ref.name, ref.span, ref))
        for typed in domain.constants:
            if typed.span is not None:
                table.objects.setdefault(typed.name, Symbol("object", typed.name, _name_of(typed), typed))
        for decl in domain.predicates:
            _add(table.predicates, "predicate", decl.name, word_span(decl.span, decl.name, 1), decl)
        for fdecl in domain.functions:
            _add(table.functions, "function", fdecl.name, word_span(fdecl.span, fdecl.name, 1), fdecl)
        for structure in domain.structures:
            if isinstance(structure, ast.DerivedPredicate):
                head = structure.predicate
                _add(table.predicates, "predicate", head.name, word_span(head.span, head.name, 1), head)
            else:
                _add(table.actions, "action", structure.name, word_span(structure.span, structure.name, 1), structure)
        for happening in domain.processes_and_events:  # PDDL+: named like actions, in their namespace
            _add(table.actions, "action", happening.name, word_span(happening.span, happening.name, 1), happening)
    if problem is not None:
        for typed in problem.objects:
            if typed.span is not None:
                table.objects.setdefault(typed.name, Symbol("object", typed.name, _name_of(typed), typed))
    return table


def _sym(kind: Kind, name: str, span: Span | None, node: ast.Node) -> Symbol | None:
    return Symbol(kind, name, span, node) if span is not None else None


def _add(into: dict[str, Symbol], kind: Kind, name: str, span: Span | None, node: ast.Node) -> None:
    if span is not None and name not in into:
        into[name] = Symbol(kind, name, span, node)


def _type_refs(ref: ast.TypeRef | None) -> tuple[ast.TypeName, ...]:
    if isinstance(ref, ast.TypeName):
        return (ref,)
    if isinstance(ref, ast.Either):
        return ref.types
    return ()


# -------------------------------------------------------------------------------------------------
# Uses


def uses(root: ast.Domain | ast.Problem, functions: frozenset[str] = frozenset()) -> Iterator[Use]:
    """Every name in `root`, declarations included, in no particular order. `functions` are the
    domain's function names, so that a bare 0-ary function in a metric is not read as an object."""
    stack: list[tuple[ast.Node, ast.Node | None, dict[str, ast.Node]]] = [(root, None, {})]
    while stack:
        node, parent, scope = stack.pop()
        if isinstance(node, _BINDERS):
            scope = {**scope, **{v.name: node for v in _bound(node)}}
        yield from _own_uses(node, parent, root, scope, functions)
        for child in node.children():
            stack.append((child, node, scope))


def _own_uses(node: ast.Node, parent: ast.Node | None, root: ast.Domain | ast.Problem,
              scope: dict[str, ast.Node], functions: frozenset[str]) -> Iterator[Use]:
    span = node.span
    if span is None:
        return
    if isinstance(node, ast.Variable):
        yield Use("parameter", node.name, span, scope.get(node.name))
    elif isinstance(node, ast.Constant):
        kind: Kind = "function" if node.name in functions else "object"
        yield Use(kind, node.name, span)
    elif isinstance(node, ast.TypeName):
        yield Use("type", node.name, span)
    elif isinstance(node, ast.TypedName):
        yield _typed_use(node, parent, root, scope)
    elif isinstance(node, ast.Atom):
        word = word_span(span, node.predicate, 1, 1)
        if word is not None:
            yield Use("predicate", node.predicate, word)
    elif isinstance(node, ast.FunctionTerm):
        word = word_span(span, node.function, 1 if span.text.startswith("(") else 0, 1)
        if word is not None:
            yield Use("function", node.function, word)
    elif isinstance(node, ast.PredicateDecl | ast.FunctionDecl):
        word = word_span(span, node.name, 1, 1)
        if word is not None:
            yield Use("function" if isinstance(node, ast.FunctionDecl) else "predicate", node.name, word,
                      declaration=True)
    elif isinstance(node, ast.Action | ast.DurativeAction | ast.Process | ast.Event):
        word = word_span(span, node.name, 1, 2)
        if word is not None:
            yield Use("action", node.name, word, declaration=True)
    elif isinstance(node, ast.Domain):
        word = word_span(span, node.name, 1, 5)
        if word is not None:
            yield Use("domain", node.name, word, declaration=True)
    elif isinstance(node, ast.Problem) and node.domain_span is not None:  # where the parser found (:domain NAME)
        yield Use("domain", node.domain, node.domain_span)


def _typed_use(node: ast.TypedName, parent: ast.Node | None, root: ast.Domain | ast.Problem,
               scope: dict[str, ast.Node]) -> Use:
    assert node.span is not None
    name = _name_of(node)
    if node.name.startswith("?"):
        binder: ast.Node | None = parent if isinstance(parent, (*_BINDERS, ast.PredicateDecl,
                                                               ast.FunctionDecl)) else None
        if isinstance(parent, ast.PredicateDecl) and node.name in scope:
            binder = scope[node.name]  # the head of a derived predicate binds its axiom's variables
        return Use("parameter", node.name, name, binder, declaration=True)
    if isinstance(root, ast.Domain) and any(t is node for t in root.types):
        return Use("type", node.name, name, declaration=True)
    return Use("object", node.name, name, declaration=True)


# -------------------------------------------------------------------------------------------------
# The name at a place


def path_at(root: ast.Node, offset: int) -> list[ast.Node]:
    """The nodes whose spans hold `offset`, outermost first (an offset just after a word counts)."""
    path = [root]
    node = root
    while True:
        child = _child_at(node, offset)
        if child is None:
            return path
        path.append(child)
        node = child


def _child_at(node: ast.Node, offset: int) -> ast.Node | None:
    items = node.child_list()
    if len(items) < 16:
        return next((item for item in items if _holds(item, offset)), None)
    # A long list (a large problem's :init): bisect on the starts, where sections came in order.
    starts = [item.span.start if item.span is not None else -1 for item in items]
    if any(a > b for a, b in pairwise(starts)):
        return next((item for item in items if _holds(item, offset)), None)
    index = bisect.bisect_right(starts, offset) - 1
    for candidate in (index, index - 1):  # `a|b` with no space: the one ending here
        if 0 <= candidate < len(items) and _holds(items[candidate], offset):
            return items[candidate]
    return None


def _holds(node: ast.Node, offset: int) -> bool:
    return node.span is not None and node.span.start <= offset <= node.span.end


def use_at(root: ast.Domain | ast.Problem, offset: int, functions: frozenset[str] = frozenset()) -> Use | None:
    """The name under the cursor, as a `Use`, or None."""
    path = path_at(root, offset)
    scope: dict[str, ast.Node] = {}
    for depth, node in enumerate(path):
        if isinstance(node, _BINDERS):
            scope = {**scope, **{v.name: node for v in _bound(node)}}
        if depth + 1 < len(path):
            continue
        parent = path[depth - 1] if depth else None
        for use in _own_uses(node, parent, root, scope, functions):
            if use.span.start <= offset <= use.span.end:
                return use
    return None


def enclosing_scope(root: ast.Node, offset: int) -> list[ast.TypedName]:
    """The variables in scope at `offset`: the parameters of the enclosing action and its quantifiers."""
    bound: list[ast.TypedName] = []
    for node in path_at(root, offset):
        if isinstance(node, _BINDERS):
            bound.extend(_bound(node))
    return bound
