"""Uses of names: every predicate, function, constant, object and variable resolves, with the right
number of arguments of the right types, and numbers and objects each where they belong.

A variable declared `- (either a b)` may be either, so it fits a parameter only if both members do;
an object declared that way belongs to both types (see `pddltools.pddl.type_hierarchy`). A variable of a wider
type than the parameter (a `vehicle` where a `truck` is required) is a warning, not an error: the
atom is simply false for the other objects, and many IPC domains rely on that.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import cast

from pddltools.check.codes import finding
from pddltools.check.features import DURATION, TOTAL_TIME
from pddltools.check.memo import InitMemo
from pddltools.check.symbols import DomainSymbols, ObjectInfo, ProblemSymbols, article, suggestion, types_text
from pddltools.code_ids import CodeId
from pddltools.diagnostics import Diagnostic
from pddltools.pddl import ast
from pddltools.pddl.type_hierarchy import type_names
from pddltools.static_typing import assert_never

Scope = Mapping[str, tuple[str, ...]]  # variable → its declared type names


@dataclass
class Place:
    """Where the formula being checked sits: which names it may use."""

    what: str  # "action move", "the goal", ... for messages
    objects: Mapping[str, ObjectInfo]  # the constants, or the constants and the problem's objects
    duration: bool = False  # whether ?duration may be read here
    continuous: bool = False  # whether #t may be read here
    metric: bool = False  # whether total-time and is-violated may be read here


class NameChecker:
    def __init__(self, symbols: DomainSymbols, problem: ProblemSymbols | None = None) -> None:
        self.symbols = symbols
        self.problem = problem
        self.hierarchy = symbols.hierarchy
        self.findings: list[Diagnostic] = []
        self._fits: dict[tuple[tuple[str, ...], ast.TypeRef | None, bool], int] = {}

    # -- whole structures ------------------------------------------------------------------------

    def domain(self) -> None:
        domain = self.symbols.domain
        constants = self.symbols.constants
        if domain.constraints is not None:
            self.formula(domain.constraints, {}, Place("the domain's constraints", constants))
        for structure in domain.structures:
            if isinstance(structure, ast.Action):
                place = Place(f"{self.symbols.action_word(structure.name)} {structure.name}", constants)
                scope = _scope(structure.parameters + structure.vars)
                if structure.precondition is not None:
                    self.formula(structure.precondition, scope, place)
                if structure.effect is not None:
                    self.effect(structure.effect, scope, place)
            elif isinstance(structure, ast.DurativeAction):
                scope = _scope(structure.parameters)
                name = f"durative action {structure.name}"
                if structure.duration is not None:
                    self.formula(structure.duration, scope, Place(name, constants, duration=True))
                if structure.condition is not None:
                    self.formula(structure.condition, scope, Place(name, constants))
                if structure.effect is not None:
                    self.effect(structure.effect, scope, Place(name, constants, duration=True, continuous=True))
            else:  # the head is a declaration, checked in `symbols`
                head = structure.predicate
                self.formula(structure.body, _scope(head.parameters),
                             Place(f"derived predicate {head.name}", constants))
        # PDDL+: a process's effects change with #t; an event's happen at an instant.
        for happening in domain.processes_and_events:
            kind = "process" if isinstance(happening, ast.Process) else "event"
            place = Place(f"{kind} {happening.name}", constants)
            scope = _scope(happening.parameters)
            if happening.precondition is not None:
                self.formula(happening.precondition, scope, place)
            if happening.effect is not None:
                self.effect(happening.effect, scope,
                            Place(place.what, constants, continuous=isinstance(happening, ast.Process)))

    def problem_parts(self, memo: InitMemo | None = None, symbols_from: tuple[object, ...] = ()) -> None:
        """The problem's init, goal, constraints and metric. `memo`: the init's findings are looked up
        there and kept there (see `pddltools.check.memo`), by the problem's objects and init and by
        `symbols_from`, what the symbols were built from (the domain as parsed, the strictness)."""
        assert self.problem is not None
        problem = self.problem.problem
        objects = self.problem.objects
        file = problem.span.file if problem.span is not None else ""
        parts = (*symbols_from, problem.objects, problem.init)
        kept = memo.get(file, parts) if memo is not None else None
        if kept is not None:
            self.findings += kept
        else:
            start = len(self.findings)
            for element in problem.init:
                self.init(element, objects)
            if memo is not None:
                memo.put(file, parts, tuple(self.findings[start:]))
        if problem.goal is not None:
            self.formula(problem.goal, {}, Place("the goal", objects))
        if problem.constraints is not None:
            self.formula(problem.constraints, {}, Place("the constraints", objects))
        if problem.metric is not None:
            self.expression(problem.metric.expression, {}, Place("the metric", objects, metric=True))

    # -- formulas --------------------------------------------------------------------------------

    def formula(self, formula: ast.Formula, scope: Scope, place: Place) -> None:
        stack: list[tuple[ast.Formula, Scope]] = [(formula, scope)]
        while stack:
            node, scope = stack.pop()
            match node:
                case ast.Atom():
                    self.atom(node, scope, place)
                case ast.Comparison():
                    self.comparison(node, scope, place)
                case ast.Exists() | ast.Forall():
                    self.declared_types(node.variables)
                    stack.append((node.body, {**scope, **_scope(node.variables)}))
                case ast.Preference():
                    stack.append((node.body, scope))
                case (ast.Not() | ast.And() | ast.Or() | ast.Imply() | ast.Timed() | ast.Always() | ast.Sometime()
                      | ast.Within() | ast.AtMostOnce() | ast.SometimeAfter() | ast.SometimeBefore()
                      | ast.AlwaysWithin() | ast.HoldDuring() | ast.HoldAfter()):
                    # the parts that are formulas: a deadline or a time is a number, read as written
                    stack.extend((cast(ast.Formula, child), scope) for child in reversed(node.child_list())
                                 if not isinstance(child, ast.Number))
                case _:
                    assert_never(node)

    def atom(self, atom: ast.Atom, scope: Scope, place: Place) -> None:
        decl = self.symbols.predicates.get(atom.predicate)
        if decl is None:
            self.findings.append(finding(
                "E202", f"predicate {atom.predicate} is not declared in :predicates"
                + suggestion(atom.predicate, self.symbols.predicates), atom.span))
            for term in atom.args:
                self.term(term, None, scope, place)
            return
        self.arguments(atom, decl.parameters, atom.args, f"predicate {atom.predicate}", scope, place)

    def arguments(self, node: ast.Node, parameters: tuple[ast.TypedName, ...], args: tuple[ast.Term, ...],
                  owner: str, scope: Scope, place: Place) -> None:
        if len(args) != len(parameters):
            self.findings.append(finding(
                "E206", f"{owner} takes {_count(len(parameters), 'argument')}, but {_count(len(args), 'is', 'are')} "
                f"given", node.span))
        for index, term in enumerate(args):
            expected = parameters[index] if index < len(parameters) else None
            self.term(term, expected, scope, place, owner=owner, position=index + 1)

    def term(self, term: ast.Term, expected: ast.TypedName | None, scope: Scope, place: Place, *,
             owner: str = "", position: int = 0) -> None:
        """Resolve an object term and check it against the parameter it is given for."""
        types = self.object_term_types(term, scope, place)
        if types is None or expected is None:
            return
        self.check_fit(term, types, expected.type, f"argument {position} of {owner}", variable=_is_var(term))

    def check_fit(self, node: ast.Node, types: tuple[str, ...], required: ast.TypeRef | None, what: str,
                  *, variable: bool, code: CodeId = "E207") -> None:
        key = (types, required, variable)
        verdict = self._fits.get(key)
        if verdict is None:
            verdict = self._judge(types, required, variable)
            self._fits[key] = verdict
        if verdict == 0:
            return
        wanted = _type_text(required)
        shown = _term_text(node)
        if verdict == 2:
            self.findings.append(finding(
                code, f"{what} must be {article(wanted)}, but {shown} is {article(types_text(types))}", node.span))
        else:
            self.findings.append(finding(
                "W207", f"{what} must be {article(wanted)}, but {shown} is {article(types_text(types))}, "
                "which may not be one", node.span))

    def _judge(self, types: tuple[str, ...], required: ast.TypeRef | None, variable: bool) -> int:
        """0 fits, 1 a wider type (may not fit), 2 cannot fit."""
        wanted = type_names(required)
        h = self.hierarchy
        if any(t not in h for t in (*types, *wanted)):
            return 0  # an undeclared type is reported where it is declared (E201), once
        if variable:
            if all(any(h.is_subtype(t, w) for w in wanted) for t in types):
                return 0
        elif h.fits(types, required):
            return 0
        # Overlapping types (one below the other) may still meet: a wider variable, a sibling either.
        if any(h.is_subtype(w, t) or h.is_subtype(t, w) for t in types for w in wanted):
            return 1 if variable else 2
        return 2

    def object_term_types(self, term: ast.Term, scope: Scope, place: Place) -> tuple[str, ...] | None:
        """The declared types of an object term, or None when it does not resolve (reported)."""
        if isinstance(term, ast.Variable):
            if term.name == DURATION:
                self.duration_misuse(term, place, as_object=True)
                return None
            types = scope.get(term.name)
            if types is None:
                self.free_variable(term, scope, place)
            return types
        if isinstance(term, ast.Constant):
            info = place.objects.get(term.name)
            if info is None:
                self.unknown_object(term, place)
                return None
            return info.types
        decl = self.symbols.functions.get(term.function)
        if decl is None:
            self.unknown_function(term)
            self.function_arguments(term, None, scope, place)
            return None
        self.function_arguments(term, decl, scope, place)
        if not self.symbols.is_object_function(term.function):
            self.findings.append(finding(
                "E208", f"function {term.function} has numbers as values; an object is expected here", term.span))
            return None
        return type_names(decl.type)

    def function_arguments(self, term: ast.FunctionTerm, decl: ast.FunctionDecl | None, scope: Scope,
                           place: Place) -> None:
        if decl is None:
            for arg in term.args:
                self.term(arg, None, scope, place)
            return
        self.arguments(term, decl.parameters, term.args, f"function {term.function}", scope, place)

    def comparison(self, node: ast.Comparison, scope: Scope, place: Place) -> None:
        objects = [self.is_object_side(side, scope) for side in (node.left, node.right)]
        if node.op == "=" and any(objects):
            for side in (node.left, node.right):
                if isinstance(side, ast.Variable | ast.Constant | ast.FunctionTerm):
                    self.object_term_types(side, scope, place)
                else:
                    self.findings.append(finding("E208", f"{_term_text(side)} is a number, but the other side of "
                                                 "= is an object", side.span))
            return
        for side in (node.left, node.right):
            self.expression(side, scope, place)

    def is_object_side(self, side: ast.Expression, scope: Scope) -> bool:
        if isinstance(side, ast.Variable):
            return side.name != DURATION
        if isinstance(side, ast.Constant):
            return True
        return isinstance(side, ast.FunctionTerm) and self.symbols.is_object_function(side.function)

    # -- numeric expressions ---------------------------------------------------------------------

    def expression(self, expression: ast.Expression, scope: Scope, place: Place) -> None:
        stack: list[ast.Expression] = [expression]
        while stack:
            node = stack.pop()
            match node:
                case ast.Arithmetic():
                    stack.extend(reversed(node.args))
                case ast.FunctionTerm():
                    self.numeric_function(node, scope, place)
                case ast.Variable():
                    if node.name == DURATION:
                        if not place.duration:
                            self.duration_misuse(node, place)
                    elif node.name not in scope:
                        self.free_variable(node, scope, place)
                    else:
                        self.findings.append(finding("E209", f"{node.name} is an object, but a number is expected "
                                                     "here", node.span))
                case ast.Constant():
                    self.findings.append(finding("E209", f"{node.name} is an object, but a number is expected here",
                                                 node.span))
                case ast.ContinuousTime():
                    if not place.continuous:
                        self.findings.append(finding("E453", "#t may only be used in the effects of a durative "
                                                     "action or a process", node.span))
                case ast.IsViolated():
                    self.is_violated(node, place)
                case ast.Number():
                    pass
                case _:
                    assert_never(node)

    def numeric_function(self, term: ast.FunctionTerm, scope: Scope, place: Place) -> None:
        if term.function == TOTAL_TIME and place.metric and not term.args:
            return
        decl = self.symbols.functions.get(term.function)
        if decl is None:
            if place.metric:
                self.findings.append(finding("E602", f"the metric reads {term.function}, which is not declared in "
                                             ":functions" + suggestion(term.function, self.symbols.functions),
                                             term.span))
            else:
                self.unknown_function(term)
            self.function_arguments(term, None, scope, place)
            return
        self.function_arguments(term, decl, scope, place)
        if self.symbols.is_object_function(term.function):
            self.findings.append(finding("E209", f"function {term.function} has objects as values; a number is "
                                         "expected here", term.span))

    def is_violated(self, node: ast.IsViolated, place: Place) -> None:
        if not place.metric:
            return
        known: set[str] = set()
        if self.problem is not None:
            known = set(self.problem.preferences) | self.problem.domain_preferences
        if node.preference not in known:
            self.findings.append(finding("E213", f"is-violated names preference {node.preference}, which the goal "
                                         "and constraints do not declare" + suggestion(node.preference, known),
                                         node.span))

    # -- effects ---------------------------------------------------------------------------------

    def effect(self, effect: ast.Effect, scope: Scope, place: Place) -> None:
        stack: list[tuple[ast.Effect, Scope]] = [(effect, scope)]
        while stack:
            node, scope = stack.pop()
            match node:
                case ast.AndEffect():
                    stack.extend((part, scope) for part in reversed(node.parts))
                case ast.ForallEffect():
                    self.declared_types(node.variables)
                    stack.append((node.body, {**scope, **_scope(node.variables)}))
                case ast.When():
                    self.formula(node.condition, scope, Place(place.what, place.objects))
                    stack.append((node.body, scope))
                case ast.Timed():
                    stack.append((cast(ast.Effect, node.body), scope))
                case ast.Not():
                    if isinstance(node.body, ast.Atom):  # a delete; the parser admits nothing else here
                        self.atom(node.body, scope, place)
                case ast.Atom():
                    self.atom(node, scope, place)
                case ast.Assign():
                    self.assignment(node, scope, place)
                case _:
                    assert_never(node)

    def assignment(self, node: ast.Assign, scope: Scope, place: Place) -> None:
        fluent = node.fluent
        decl = self.symbols.functions.get(fluent.function)
        if decl is None:
            self.unknown_function(fluent)
            self.function_arguments(fluent, None, scope, place)
            return
        self.function_arguments(fluent, decl, scope, place)
        if not self.symbols.is_object_function(fluent.function):
            self.expression(node.value, scope, place)
            return
        if node.op != "assign":
            self.findings.append(finding("E214", f"{node.op} needs a number, but {fluent.function} has objects as "
                                         "values", node.span))
            return
        value = node.value
        if isinstance(value, ast.Variable | ast.Constant | ast.FunctionTerm):
            types = self.object_term_types(value, scope, place)
            if types is not None:
                self.check_fit(value, types, decl.type, f"the value of {fluent.function}", variable=_is_var(value),
                               code="E210")
        else:
            self.findings.append(finding("E210", f"{fluent.function} has objects as values, but it is assigned a "
                                         "number", value.span))

    # -- the initial state -----------------------------------------------------------------------

    def init(self, element: ast.InitElement, objects: Mapping[str, ObjectInfo]) -> None:
        place = Place("the initial state", objects)
        match element:
            case ast.TimedInitial():
                self.init(element.body, objects)
            case ast.Not():
                if isinstance(element.body, ast.Atom):
                    self.ground_atom(element.body, place)
            case ast.Atom():
                self.ground_atom(element, place)
            case ast.InitAssignment():
                self.init_assignment(element, place)
            case _:
                assert_never(element)

    def ground_atom(self, atom: ast.Atom, place: Place) -> None:
        """An init atom: the hot loop of checking a large problem, so the common case is inlined."""
        decl = self.symbols.predicates.get(atom.predicate)
        args = atom.args
        if decl is None or len(decl.parameters) != len(args):
            self.atom(atom, {}, place)
            return
        objects = place.objects
        for index, arg in enumerate(args):
            info = objects.get(arg.name) if isinstance(arg, ast.Constant) else None
            if info is None:
                self.term(arg, decl.parameters[index], {}, place, owner=f"predicate {atom.predicate}",
                          position=index + 1)
                continue
            required = decl.parameters[index].type
            key = (info.types, required, False)
            verdict = self._fits.get(key)
            if verdict is None or verdict:
                self.check_fit(arg, info.types, required, f"argument {index + 1} of predicate {atom.predicate}",
                               variable=False)

    def init_assignment(self, element: ast.InitAssignment, place: Place) -> None:
        fluent = element.fluent
        decl = self.symbols.functions.get(fluent.function)
        if decl is None:
            # Nothing can read a function the domain does not declare (a read would be E203 there), so the
            # value is dead, not wrong: IPC-2023's markettrader problems initialise (fuel) and (fuel-used).
            self.findings.append(finding("W603", f"function {fluent.function} is not declared in :functions, so "
                                         "nothing reads this initial value; it is ignored"
                                         + suggestion(fluent.function, self.symbols.functions), fluent.span))
            return
        self.function_arguments(fluent, decl, {}, place)
        value = element.value
        if self.symbols.is_object_function(fluent.function):
            if isinstance(value, ast.Number):
                self.findings.append(finding("E210", f"{fluent.function} has objects as values, but it is "
                                             f"initialised to {value}", value.span))
                return
            info = place.objects.get(value.name)
            if info is None:
                self.unknown_object(value, place)
                return
            self.check_fit(value, info.types, decl.type, f"the value of {fluent.function}", variable=False,
                           code="E210")
        elif isinstance(value, ast.Constant):
            self.findings.append(finding("E209", f"{fluent.function} has numbers as values, but it is initialised "
                                         f"to the object {value.name}", value.span))

    # -- reports shared by the above ---------------------------------------------------------------

    def declared_types(self, variables: Iterable[ast.TypedName]) -> None:
        for variable in variables:
            for name in type_names(variable.type):
                if name not in self.hierarchy:
                    self.findings.append(finding(
                        "E201", f"{variable.name} has type {name}, which is not declared in :types"
                        + suggestion(name, self.hierarchy.declared()), variable.type.span if variable.type else None))

    def free_variable(self, variable: ast.Variable, scope: Scope, place: Place) -> None:
        where = f"in {place.what}" if place.what else ""
        self.findings.append(finding(
            "E205", f"{variable.name} is not a parameter or a quantified variable {where}".rstrip()
            + suggestion(variable.name, scope), variable.span))

    def unknown_object(self, constant: ast.Constant, place: Place) -> None:
        kind = "constant" if self.problem is None or place.objects is self.symbols.constants else "object"
        where = "the domain's :constants" if kind == "constant" else "the problem's :objects or the domain's :constants"
        self.findings.append(finding("E204", f"{kind} {constant.name} is not declared in {where}"
                                     + suggestion(constant.name, place.objects), constant.span))

    def unknown_function(self, term: ast.FunctionTerm) -> None:
        if term.function in self.symbols.predicates:
            hint = f" ({term.function} is a predicate)"
        else:
            hint = suggestion(term.function, self.symbols.functions)
        self.findings.append(finding("E203", f"function {term.function} is not declared in :functions{hint}",
                                     term.span))

    def duration_misuse(self, node: ast.Variable, place: Place, *, as_object: bool = False) -> None:
        if as_object:
            message = "?duration is a number, but an object is expected here"
        elif place.what.startswith("durative action"):
            message = "?duration may be read in the :duration constraint and in effects, not in conditions"
        else:
            message = "?duration exists only in durative actions"
        self.findings.append(finding("E453", message, node.span))


def _scope(variables: Iterable[ast.TypedName]) -> dict[str, tuple[str, ...]]:
    return {v.name: type_names(v.type) for v in variables}


def _is_var(term: ast.Node) -> bool:
    return isinstance(term, ast.Variable)


def _count(n: int, noun: str, plural: str | None = None) -> str:
    if plural is not None:  # "1 is" / "2 are"
        return f"{n} {noun if n == 1 else plural}"
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _type_text(ref: ast.TypeRef | None) -> str:
    return types_text(type_names(ref))


def _term_text(node: ast.Node) -> str:
    if isinstance(node, ast.Variable | ast.Constant):
        return node.name
    return str(node)


__all__ = ["NameChecker"]
