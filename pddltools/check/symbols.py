"""The names a domain and a problem declare, collected once, with the findings of declaring them.

Declarations are checked here (duplicates, undeclared types in declarations, cycles among types);
uses of the names are checked by `pddltools.check.names`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from difflib import get_close_matches

from pddltools.check.codes import finding
from pddltools.diagnostics import Diagnostic, Severity, Span
from pddltools.pddl import ast
from pddltools.pddl.type_hierarchy import NUMBER, TypeHierarchy, merged_types, type_names
from pddltools.semantics.derived import strata
from pddltools.semantics.errors import NotStratified


def suggestion(name: str, candidates: Iterable[str]) -> str:
    """" (did you mean x?)" for a near name, or nothing."""
    close = get_close_matches(name, list(candidates), n=1, cutoff=0.75)
    return f" (did you mean {close[0]}?)" if close else ""


@dataclass(frozen=True)
class ObjectInfo:
    name: str
    types: tuple[str, ...]
    declaration: ast.TypedName
    in_domain: bool


@dataclass
class DomainSymbols:
    domain: ast.Domain
    hierarchy: TypeHierarchy
    predicates: dict[str, ast.PredicateDecl] = field(default_factory=dict)
    functions: dict[str, ast.FunctionDecl] = field(default_factory=dict)
    constants: dict[str, ObjectInfo] = field(default_factory=dict)
    structures: dict[str, ast.Action | ast.DurativeAction] = field(default_factory=dict)
    derived: dict[str, list[ast.DerivedPredicate]] = field(default_factory=dict)
    findings: list[Diagnostic] = field(default_factory=list)
    #: actions that stand in for another language's construct (HDDL's methods): name -> what findings call it
    stand_ins: Mapping[str, str] = field(default_factory=dict)

    def action_word(self, name: str) -> str:
        """What findings call action `name`: "action", or the construct it stands in for ("method")."""
        return self.stand_ins.get(name, "action")

    def is_object_function(self, name: str) -> bool:
        decl = self.functions.get(name)
        return decl is not None and decl.type is not None and type_names(decl.type) != (NUMBER,)


@dataclass
class ProblemSymbols:
    problem: ast.Problem
    objects: dict[str, ObjectInfo] = field(default_factory=dict)  # constants of the domain included
    preferences: dict[str, ast.Preference] = field(default_factory=dict)
    domain_preferences: frozenset[str] = frozenset()
    findings: list[Diagnostic] = field(default_factory=list)


def _check_type_refs(symbols: DomainSymbols, names: Iterable[ast.TypedName], owner: str) -> None:
    """E201 for each undeclared type among `names`, the parameters (or constants) of `owner`."""
    for typed in names:
        for ref in _type_nodes(typed.type):
            if ref.name not in symbols.hierarchy:
                symbols.findings.append(finding(
                    "E201", f"{typed.name}{owner} has type {ref.name}, which is not declared in :types"
                    + suggestion(ref.name, symbols.hierarchy.declared()), ref.span))


def _type_nodes(ref: ast.TypeRef | None) -> Iterator[ast.TypeName]:
    if isinstance(ref, ast.TypeName):
        yield ref
    elif isinstance(ref, ast.Either):
        yield from ref.types


def domain_symbols(domain: ast.Domain, *, strict: bool = False, stand_ins: Mapping[str, str] | None = None
                   ) -> DomainSymbols:
    """`strict`: what planners read in one agreed way though the language forbids it (a type declared
    with two parents, a repeated parameter name in a declaration) is an error rather than a warning.
    `stand_ins`: see `DomainSymbols.stand_ins`."""
    symbols = DomainSymbols(domain, TypeHierarchy.of(domain), stand_ins=stand_ins or {})
    found = symbols.findings
    bent = Severity.ERROR if strict else None

    seen_types: dict[str, ast.TypedName] = {}
    for declared in domain.types:
        first = seen_types.get(declared.name)
        if first is None:
            seen_types[declared.name] = declared
        elif first.type == declared.type:
            found.append(finding("W211", f"type {declared.name} is declared twice", declared.span,
                                 notes=(("first declared here", first.span),)))
        else:
            # Fast Downward (set_supertypes) closes over every (type, parent) pair it was given: the type
            # is below each parent named. TypeHierarchy.of reads it the same way.
            parents = " and ".join(symbols.hierarchy.parents[declared.name])
            found.append(finding("W215", f"type {declared.name} is declared twice, with different parents: it "
                                 f"is read as a subtype of each ({parents}), as Fast Downward reads it",
                                 declared.span, severity=bent, notes=(("first declared here", first.span),)))
    for name in symbols.hierarchy.cycles():
        decl = seen_types.get(name)
        found.append(finding("E212", f"type {name} is its own ancestor", decl.span if decl else None))

    for constant in domain.constants:
        _check_type_refs(symbols, [constant], " (a constant)")
        info = ObjectInfo(constant.name, type_names(constant.type), constant, True)
        first_c = symbols.constants.get(constant.name)
        if first_c is None:
            symbols.constants[constant.name] = info
        elif first_c.types == info.types:
            found.append(_duplicate("constant", constant.name, constant.span, first_c.declaration.span, same=True))
        else:
            symbols.constants[constant.name] = _retyped(first_c, info, "constant", found, bent)

    for predicate in domain.predicates:
        _check_type_refs(symbols, predicate.parameters, f" of predicate {predicate.name}")
        first_p = symbols.predicates.get(predicate.name)
        if first_p is None:
            symbols.predicates[predicate.name] = predicate
        else:
            found.append(_duplicate("predicate", predicate.name, predicate.span, first_p.span,
                                    same=_signature(first_p.parameters) == _signature(predicate.parameters)))
        _duplicate_parameters(found, predicate.parameters, f"predicate {predicate.name}", declaration=True,
                              severity=bent)

    for function in domain.functions:
        _check_type_refs(symbols, function.parameters, f" of function {function.name}")
        for ref in _type_nodes(function.type):
            if ref.name not in symbols.hierarchy and ref.name != NUMBER:
                found.append(finding("E201", f"value type {ref.name} of function {function.name} is not declared"
                                     + suggestion(ref.name, symbols.hierarchy.declared()), ref.span))
        first_f = symbols.functions.get(function.name)
        if first_f is None:
            symbols.functions[function.name] = function
        else:
            found.append(_duplicate("function", function.name, function.span, first_f.span,
                                    same=_signature(first_f.parameters) == _signature(function.parameters)
                                    and first_f.type == function.type))
        _duplicate_parameters(found, function.parameters, f"function {function.name}", declaration=True, severity=bent)

    for structure in domain.structures:
        if isinstance(structure, ast.DerivedPredicate):
            head = structure.predicate
            symbols.derived.setdefault(head.name, []).append(structure)
            declared_head = symbols.predicates.get(head.name)
            if declared_head is None:
                found.append(finding("E303", f"derived predicate {head.name} is not declared in :predicates"
                                     + suggestion(head.name, symbols.predicates), head.span))
            elif len(declared_head.parameters) != len(head.parameters):
                found.append(finding("E206", f"derived predicate {head.name} has {len(head.parameters)} "
                                     f"parameters, but :predicates declares {len(declared_head.parameters)}",
                                     head.span, notes=(("declared here", declared_head.span),)))
            _check_type_refs(symbols, head.parameters, f" of derived predicate {head.name}")
            continue
        kind = symbols.action_word(structure.name) if isinstance(structure, ast.Action) else "durative action"
        _check_type_refs(symbols, structure.parameters, f" of {kind} {structure.name}")
        if isinstance(structure, ast.Action):
            _check_type_refs(symbols, structure.vars, f" (in :vars) of {kind} {structure.name}")
        first_s = symbols.structures.get(structure.name)
        if first_s is None:
            symbols.structures[structure.name] = structure
        else:
            found.append(finding("E211", f"{kind} {structure.name} is defined twice", structure.span,
                                 notes=(("first defined here", first_s.span),)))
        params = structure.parameters + (structure.vars if isinstance(structure, ast.Action) else ())
        _duplicate_parameters(found, params, f"{kind} {structure.name}")
    happenings: dict[str, ast.Process | ast.Event] = {}
    for happening in domain.processes_and_events:
        kind = "process" if isinstance(happening, ast.Process) else "event"
        _check_type_refs(symbols, happening.parameters, f" of {kind} {happening.name}")
        first_h = symbols.structures.get(happening.name) or happenings.get(happening.name)
        if first_h is None:
            happenings[happening.name] = happening
        else:
            found.append(finding("E211", f"{kind} {happening.name} is defined twice (names of actions, processes "
                                 "and events are one namespace)", happening.span,
                                 notes=(("first defined here", first_h.span),)))
        _duplicate_parameters(found, happening.parameters, f"{kind} {happening.name}")
    try:
        strata(domain.derived_predicates)
    except NotStratified as exc:
        rule = symbols.derived[exc.predicate][0]
        found.append(finding("E304", f"derived predicate {exc.predicate} is not stratified: its definition uses "
                             f"(not ({exc.negated} ...)), which depends on {exc.predicate} in turn, so no "
                             "state gives it a meaning", rule.span))
    return symbols


def problem_symbols(symbols: DomainSymbols, problem: ast.Problem, domain_preferences: Iterable[str] = (), *,
                    strict: bool = False) -> ProblemSymbols:
    """`domain_preferences`: preferences the domain names (in preconditions), which the metric may weigh.
    `strict`: an object declared twice with different types is an error rather than a warning."""
    table = ProblemSymbols(problem)
    found = table.findings
    bent = Severity.ERROR if strict else None
    if problem.domain != symbols.domain.name:
        found.append(finding("E301", f"the problem is for domain {problem.domain}, but the domain is "
                             f"{symbols.domain.name}", problem.domain_span or problem.span))
    table.objects.update(symbols.constants)
    for obj in problem.objects:
        for ref in _type_nodes(obj.type):
            if ref.name not in symbols.hierarchy:
                found.append(finding("E201", f"type {ref.name} of object {obj.name} is not declared in the "
                                     "domain's :types" + suggestion(ref.name, symbols.hierarchy.declared()),
                                     ref.span))
        info = ObjectInfo(obj.name, type_names(obj.type), obj, False)
        first = table.objects.get(obj.name)
        if first is None:
            table.objects[obj.name] = info
        elif first.types == info.types:
            if first.in_domain:
                found.append(finding("W302", f"object {obj.name} repeats the domain's constant {obj.name}",
                                     obj.span, notes=(("declared as a constant here", first.declaration.span),)))
            else:
                found.append(_duplicate("object", obj.name, obj.span, first.declaration.span, same=True))
        else:
            table.objects[obj.name] = _retyped(first, info, "object", found, bent)
    for formula in (problem.goal, problem.constraints):
        if formula is None:
            continue
        for node in formula.walk():
            if isinstance(node, ast.Preference) and node.name:
                table.preferences.setdefault(node.name, node)
    table.domain_preferences = frozenset(domain_preferences)
    return table


def _signature(parameters: tuple[ast.TypedName, ...]) -> tuple[tuple[str, ...], ...]:
    """Parameter types without names: `(p ?x)` and `(p ?y)` declare the same predicate."""
    return tuple(type_names(p.type) for p in parameters)


def types_text(types: tuple[str, ...]) -> str:
    """A type list as PDDL writes it: `truck`, or `(either truck boat)`."""
    return types[0] if len(types) == 1 else "(either " + " ".join(types) + ")"


def article(text: str) -> str:
    """`a truck`, `an area`, or `one of truck, boat` for an either."""
    if text.startswith("(either"):
        return "one of " + text[len("(either "):-1].replace(" ", ", ")
    return ("an " if text[:1] in "aeiou" else "a ") + text


def _duplicate(kind: str, name: str, span: Span | None, first: Span | None, *, same: bool) -> Diagnostic:
    if same:
        return finding("W211", f"{kind} {name} is declared twice", span, notes=(("first declared here", first),))
    return finding("E211", f"{kind} {name} is declared twice, differently", span,
                   notes=(("first declared here", first),))


def _retyped(first: ObjectInfo, again: ObjectInfo, kind: str, found: list[Diagnostic],
             severity: Severity | None) -> ObjectInfo:
    """An object (or constant) declared a second time with other types: it belongs to each (as
    `pddltools.pddl.type_hierarchy.typed_objects` reads it for the semantics), reported as W217."""
    types = merged_types(first.types, again.types)
    if first.in_domain and not again.in_domain:
        twice = f"as {article(types_text(again.types))} here and as {article(types_text(first.types))} among the " \
                "domain's constants"
    else:
        twice = f"twice, as {article(types_text(first.types))} and as {article(types_text(again.types))}"
    found.append(finding(
        "W217", f"{kind} {again.name} is declared {twice}: it is read as an object of each type ({', '.join(types)})",
        again.declaration.span, severity=severity, notes=(("first declared here", first.declaration.span),)))
    return ObjectInfo(first.name, types, first.declaration, first.in_domain)


def _duplicate_parameters(found: list[Diagnostic], parameters: Iterable[ast.TypedName], owner: str, *,
                          declaration: bool = False, severity: Severity | None = None) -> None:
    """E211 for a parameter named twice. In a predicate or function `declaration` the names are
    placeholders and only the positions count, so it is W216 (with `severity`, if given): IPC-2000
    logistics declares `(in ?obj ?obj)`, which every planner reads."""
    seen: dict[str, ast.TypedName] = {}
    arity = 0
    for parameter in parameters:
        arity += 1
        if parameter.name not in seen:
            seen[parameter.name] = parameter
            continue
        notes = (("first declared here", seen[parameter.name].span),)
        if not declaration:
            found.append(finding("E211", f"parameter {parameter.name} of {owner} is declared twice", parameter.span,
                                 notes=notes))
            continue
        found.append(finding(
            "W216", f"parameter {parameter.name} of {owner} is declared twice: names in a declaration are "
            f"placeholders and only positions count, so this is read as argument {arity} of {owner}",
            parameter.span, severity=severity, notes=notes))


__all__ = ["DomainSymbols", "ObjectInfo", "ProblemSymbols", "article", "domain_symbols", "problem_symbols",
           "suggestion", "types_text"]
