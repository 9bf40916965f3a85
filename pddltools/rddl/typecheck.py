"""The RDDL type checker: names, arities, types, CPFs and the links between blocks.

`check(files)` takes every parsed file of one problem set (a domain, its non-fluents, its instances,
in one file or several) and returns diagnostics; it never raises for bad input. What it checks:

- every type, pvariable, object and enum value used is declared, with the right number of arguments,
  each of the right type (subtypes count as their supertypes);
- expressions are well typed: logical operators, conditions and constraints take booleans; arithmetic
  takes numbers, where a boolean counts as 0 or 1, as in RDDLSim; a CPF's value fits its fluent;
- each state, interm, observ and derived fluent has exactly one CPF, and no action or non-fluent has one;
- interm and derived fluents do not depend on each other in a cycle;
- a non-fluents block or an instance names a domain (and non-fluents block) that exists, and assigns
  only pvariables of the right kind, with values of the right type.

Types are strings: "bool", "int", "real", a declared type's name, or UNKNOWN when an earlier error
already explains the problem (so one mistake gives one diagnostic, not a cascade).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from pddltools.diagnostics import Diagnostic, Severity, Span, error, warning
from pddltools.rddl import ast

UNKNOWN = "?"
_T = TypeVar("_T")
_NUMERIC = ("bool", "int", "real")

#: Built-in functions written with square brackets: name -> (number of arguments, result type);
#: a result of None means "the type of the arguments" (int if both are int, else real).
FUNCTIONS: dict[str, tuple[int, str | None]] = {
    **{name: (1, "real") for name in (
        "cos", "sin", "tan", "acos", "asin", "atan", "cosh", "sinh", "tanh", "exp", "ln", "sqrt",
        "lngamma", "gamma",
    )},
    "abs": (1, None), "sgn": (1, "int"), "round": (1, "int"), "floor": (1, "int"), "ceil": (1, "int"),
    "div": (2, "int"), "mod": (2, "int"), "fmod": (2, "real"), "min": (2, None), "max": (2, None),
    "pow": (2, "real"), "log": (2, "real"), "hypot": (2, "real"),
}

#: Distributions: name -> (number of parameters, type of a draw); None means "the argument's type".
DISTRIBUTIONS: dict[str, tuple[int, str | None]] = {
    "KronDelta": (1, None), "DiracDelta": (1, None), "Bernoulli": (1, "bool"),
    "Normal": (2, "real"), "Uniform": (2, "real"), "Exponential": (1, "real"), "Weibull": (2, "real"),
    "Gamma": (2, "real"), "Beta": (2, "real"), "Pareto": (2, "real"), "Student": (1, "real"),
    "Gumbel": (2, "real"), "Laplace": (2, "real"), "Laplacian": (2, "real"), "Cauchy": (2, "real"),
    "Gompertz": (2, "real"), "ChiSquare": (1, "real"), "Kumaraswamy": (2, "real"),
    "Poisson": (1, "int"), "Binomial": (2, "int"), "NegativeBinomial": (2, "int"), "Geometric": (1, "int"),
}
_NEEDS_CPF = frozenset({"state-fluent", "interm-fluent", "observ-fluent", "derived-fluent"})
_NO_CPF = frozenset({"action-fluent", "non-fluent"})
_LEVELLED = frozenset({"interm-fluent", "derived-fluent"})


def check(files: Sequence[ast.RDDLFile]) -> list[Diagnostic]:
    """Check every block of `files` together; references between blocks resolve by name.

    A name is looked up in the referring block's own file first, then in the other files in the
    order given: so one folder may hold several instance files that each define a non-fluents block
    of the same name, as rddlrepository's folders do.
    """
    diagnostics: list[Diagnostic] = []
    domains: dict[str, list[tuple[int, _Table]]] = {}
    non_fluents: dict[str, list[tuple[int, ast.NonFluents]]] = {}
    instances: list[tuple[int, ast.Instance]] = []
    folders = [os.path.dirname(f.span.file) if f.span else "" for f in files]
    for index, rddl in enumerate(files):
        seen: dict[tuple[str, str], ast.Block] = {}
        block: ast.Block
        for block in rddl.blocks:
            key = (type(block).__name__, block.name)
            if key in seen:
                diagnostics.append(_duplicate(_kind(block), block.name, block.span, seen[key].span))
                continue
            seen[key] = block
            if isinstance(block, ast.Domain):
                domains.setdefault(block.name, []).append((index, _Table.build(block, diagnostics)))
            elif isinstance(block, ast.NonFluents):
                non_fluents.setdefault(block.name, []).append((index, block))
            else:
                instances.append((index, block))

    # a domain's expressions may name objects ($box): those of every block that uses the domain
    objects_by_domain: dict[str, dict[str, str]] = {}
    users: list[ast.NonFluents | ast.Instance] = [nf for found in non_fluents.values() for _, nf in found]
    users += [instance for _, instance in instances]
    for user in users:
        if user.domain is not None:
            known = objects_by_domain.setdefault(user.domain, {})
            for decl in user.objects:
                known.update(dict.fromkeys(decl.names, decl.type))
    for found_domains in domains.values():
        for _, domain_table in found_domains:
            objects = objects_by_domain.get(domain_table.domain.name, {})
            try:
                _DomainChecker(domain_table, objects, diagnostics).run()
            except RecursionError:
                diagnostics.append(error(
                    "R106", f"domain {domain_table.domain.name} nests expressions too deeply to check "
                    f"(more than about {sys.getrecursionlimit() // 4} levels)", domain_table.domain.span))

    for found_non_fluents in non_fluents.values():
        for index, block in found_non_fluents:
            table = _domain_of(block, _resolve(domains, block.domain, index, folders), diagnostics, domains)
            if table is not None:
                objects = _declare_objects(table, block.objects, {}, diagnostics)
                _check_assignments(table, objects, block.values, "non-fluent", diagnostics)
    for index, instance in instances:
        table = _domain_of(instance, _resolve(domains, instance.domain, index, folders), diagnostics, domains)
        block_nf = _resolve(non_fluents, instance.non_fluents, index, folders)
        _check_instance(instance, table, block_nf, diagnostics)
    return diagnostics


def _resolve(table: dict[str, list[tuple[int, _T]]], name: str | None, index: int,
             folders: list[str]) -> _T | None:
    """The block called `name` for a block of file `index`: from that file, its folder, or any."""
    if name is None or name not in table:
        return None
    found = table[name]
    same_file = (block for i, block in found if i == index)
    same_folder = (block for i, block in found if folders[i] == folders[index])
    return next(same_file, None) or next(same_folder, None) or found[0][1]


def _kind(block: ast.Block) -> str:
    return {ast.Domain: "domain", ast.NonFluents: "non-fluents block", ast.Instance: "instance"}[type(block)]


# ---------------------------------------------------------------------------------------------------
# the symbol table of one domain


@dataclass
class _Table:
    domain: ast.Domain
    types: dict[str, ast.TypeDef] = field(default_factory=dict)
    enums_of_value: dict[str, list[str]] = field(default_factory=dict)
    pvariables: dict[str, ast.PVariableDecl] = field(default_factory=dict)

    @classmethod
    def build(cls, domain: ast.Domain, diagnostics: list[Diagnostic]) -> _Table:
        table = cls(domain)
        for type_def in domain.types:
            if type_def.name in table.types or type_def.name in _NUMERIC or type_def.name == "object":
                diagnostics.append(_duplicate("type", type_def.name, type_def.span,
                                              getattr(table.types.get(type_def.name), "span", None)))
                continue
            table.types[type_def.name] = type_def
            if isinstance(type_def, ast.EnumType):
                for value in type_def.values:
                    table.enums_of_value.setdefault(value, []).append(type_def.name)
        for type_def in domain.types:
            if isinstance(type_def, ast.ObjectType) and type_def.parent != "object":
                parent = table.types.get(type_def.parent)
                if not isinstance(parent, ast.ObjectType):
                    diagnostics.append(error("R201", f"type {type_def.name} extends undefined object type "
                                             f"{type_def.parent}", type_def.span))
        for decl in domain.pvariables:
            if decl.name in table.pvariables:
                diagnostics.append(_duplicate("pvariable", decl.name, decl.span,
                                              table.pvariables[decl.name].span))
                continue
            table.pvariables[decl.name] = decl
        return table

    def is_entity(self, type_name: str) -> bool:
        """An object or enum type: what pvariable parameters range over."""
        return type_name in self.types or type_name == "object"

    def is_enum(self, type_name: str) -> bool:
        return isinstance(self.types.get(type_name), ast.EnumType)

    def is_subtype(self, sub: str, sup: str) -> bool:
        seen = set()
        while sub not in seen:
            if sub == sup:
                return True
            seen.add(sub)
            type_def = self.types.get(sub)
            if not isinstance(type_def, ast.ObjectType):
                return sup == "object" and sub != UNKNOWN and not self.is_enum(sub) and sub not in _NUMERIC
            sub = type_def.parent
        return False

    def enum_values(self, type_name: str) -> tuple[str, ...]:
        type_def = self.types.get(type_name)
        return type_def.values if isinstance(type_def, ast.EnumType) else ()


def _duplicate(what: str, name: str, span: Span | None, first: Span | None) -> Diagnostic:
    diagnostic = error("R213", f"{what} {name} is declared twice", span)
    if first is not None:
        return Diagnostic(diagnostic.code, diagnostic.severity, diagnostic.message, span,
                          (("first declared here", first),))
    return diagnostic


def _enum_literal(value: str) -> str:
    """The type of an enum constant whose enum the context must tell (it is in several enums)."""
    return "@" + value


# ---------------------------------------------------------------------------------------------------
# expressions


class _Expressions:
    """Infers and checks the types of expressions in one domain, with the objects known for it."""

    def __init__(self, table: _Table, objects: dict[str, str], diagnostics: list[Diagnostic]) -> None:
        self.table = table
        self.objects = objects
        self.diagnostics = diagnostics

    def report(self, code: str, message: str, node: object) -> None:
        self.diagnostics.append(error(code, message, getattr(node, "span", None)))

    # --- compatibility --------------------------------------------------------------------------

    def fits(self, actual: str, expected: str) -> bool:
        """Can a value of type `actual` stand where `expected` is required?"""
        if UNKNOWN in (actual, expected) or actual == expected:
            return True
        if actual.startswith("@"):
            return actual[1:] in self.table.enum_values(expected)
        if expected == "real":
            return actual in ("bool", "int")
        if expected == "int":
            return actual == "bool"
        return self.table.is_subtype(actual, expected)

    def join(self, a: str, b: str, node: object, what: str) -> str:
        """The type of a value that is either an `a` or a `b` (the branches of an `if`)."""
        if a == UNKNOWN or b == UNKNOWN:
            return UNKNOWN
        if a in _NUMERIC and b in _NUMERIC:
            return a if _NUMERIC.index(a) >= _NUMERIC.index(b) else b
        if self.fits(a, b):
            return b
        if self.fits(b, a):
            return a
        if a.startswith("@") and b.startswith("@"):
            return a
        self.report("R206", f"{what} mix {_describe(a)} and {_describe(b)}", node)
        return UNKNOWN

    def expect_bool(self, actual: str, node: object, where: str) -> None:
        if actual not in ("bool", UNKNOWN):
            self.report("R206", f"{where} must be a boolean, not {_describe(actual)}", node)

    def expect_number(self, actual: str, node: object, where: str) -> None:
        if actual not in (*_NUMERIC, UNKNOWN):
            self.report("R206", f"{where} must be a number, not {_describe(actual)}", node)

    # --- inference ------------------------------------------------------------------------------

    def infer(self, expr: ast.Expr, scope: dict[str, str]) -> str:
        if isinstance(expr, ast.Boolean):
            return "bool"
        if isinstance(expr, ast.Integer):
            return "int"
        if isinstance(expr, ast.Real):
            return "real"
        if isinstance(expr, ast.Variable):
            if expr.name not in scope:
                self.report("R212", f"variable {expr.name} is not bound here: add it to the CPF's "
                            "parameters or to an aggregation's _{...}", expr)
                return UNKNOWN
            return scope[expr.name]
        if isinstance(expr, ast.EnumValue):
            return self.enum_value(expr)
        if isinstance(expr, ast.ObjectValue):
            return self.object_value(expr.name, expr)
        if isinstance(expr, ast.PVariable):
            return self.pvariable(expr, scope)
        if isinstance(expr, ast.Unary):
            operand = self.infer(expr.operand, scope)
            if expr.op == "~":
                self.expect_bool(operand, expr.operand, "the operand of ~")
                return "bool"
            self.expect_number(operand, expr.operand, f"the operand of unary {expr.op}")
            return "int" if operand == "bool" else operand if operand in _NUMERIC else UNKNOWN
        if isinstance(expr, ast.Binary):
            return self.binary(expr, scope)
        if isinstance(expr, ast.Aggregation):
            return self.aggregation(expr, scope)
        if isinstance(expr, ast.IfThenElse):
            self.expect_bool(self.infer(expr.condition, scope), expr.condition, "an if condition")
            return self.join(self.infer(expr.then, scope), self.infer(expr.otherwise, scope), expr,
                             "the branches of this if")
        if isinstance(expr, ast.Switch):
            return self.switch(expr, scope)
        if isinstance(expr, ast.Function):
            return self.function(expr, scope)
        if isinstance(expr, ast.Distribution):
            return self.distribution(expr, scope)
        if isinstance(expr, ast.Discrete):
            return self.discrete(expr, scope)
        if isinstance(expr, ast.VectorDistribution):
            return UNKNOWN  # its arguments range over the vector's indices: the simulator's business
        if isinstance(expr, ast.MatrixOperation):
            self.infer(expr.body, scope)
            return UNKNOWN
        raise TypeError(f"not an expression: {expr!r}")  # pragma: no cover

    def enum_value(self, expr: ast.EnumValue) -> str:
        enums = self.table.enums_of_value.get(expr.name)
        if not enums:
            self.report("R205", f"unknown enum value {expr.name}: no enum type of domain "
                        f"{self.table.domain.name} has it", expr)
            return UNKNOWN
        return enums[0] if len(enums) == 1 else _enum_literal(expr.name)

    def object_value(self, name: str, node: object) -> str:
        if name in self.objects:
            return self.objects[name]
        if self.objects:
            self.report("R216", f"unknown object {name}", node)
        return UNKNOWN

    def pvariable(self, expr: ast.PVariable, scope: dict[str, str]) -> str:
        decl = self.table.pvariables.get(expr.name)
        if decl is None:
            if not expr.args and not expr.primed:
                if expr.name in self.objects:
                    return self.objects[expr.name]
                if not self.objects and expr.name not in scope:
                    pass  # may be an object of an instance not given: cannot tell
            self.report("R202", f"undefined pvariable {expr.name}", expr)
            for arg in expr.args:
                self.infer(arg, scope)
            return UNKNOWN
        if expr.primed and decl.kind != "state-fluent":
            self.report("R215", f"{expr.name}' : only a state fluent has a next-state value, and "
                        f"{expr.name} is {_a(decl.kind)}", expr)
        self.arguments(expr.name, decl.params, expr.args, expr, scope)
        return decl.range

    def arguments(self, name: str, params: tuple[str, ...], args: tuple[ast.Expr, ...], node: object,
                  scope: dict[str, str]) -> None:
        if len(args) != len(params):
            self.report("R203", f"{name} takes {_count(len(params), 'argument')} "
                        f"({', '.join(params) or 'none'}), not {len(args)}", node)
        for index, arg in enumerate(args):
            actual = self.infer(arg, scope)
            if index < len(params) and not self.fits(actual, params[index]):
                if isinstance(arg, ast.EnumValue) and self.table.is_enum(params[index]):
                    self.report("R205", f"{arg.name} is not a value of enum {params[index]} "
                                f"(argument {index + 1} of {name})", arg)
                else:
                    self.report("R204", f"argument {index + 1} of {name} must be a {params[index]}, "
                                f"not {_describe(actual)}", arg)

    def binary(self, expr: ast.Binary, scope: dict[str, str]) -> str:
        left = self.infer(expr.left, scope)
        right = self.infer(expr.right, scope)
        op = expr.op
        if op in ast.LOGICAL_OPERATORS:
            self.expect_bool(left, expr.left, f"an operand of {op}")
            self.expect_bool(right, expr.right, f"an operand of {op}")
            return "bool"
        if op in ("==", "~="):
            if left in _NUMERIC and right in _NUMERIC:
                return "bool"
            if not (self.fits(left, right) or self.fits(right, left)):
                self.report("R206", f"{op} compares {_describe(left)} with {_describe(right)}", expr)
            return "bool"
        self.expect_number(left, expr.left, f"an operand of {op}")
        self.expect_number(right, expr.right, f"an operand of {op}")
        if op in ast.COMPARISON_OPERATORS:
            return "bool"
        if UNKNOWN in (left, right) or left not in _NUMERIC or right not in _NUMERIC:
            return UNKNOWN
        if op == "/" or "real" in (left, right):
            return "real"
        return "int"

    def bind(self, bindings: tuple[ast.Binding, ...], scope: dict[str, str]) -> dict[str, str]:
        inner = dict(scope)
        for binding in bindings:
            if not self.table.is_entity(binding.type):
                self.report("R201", f"undefined type {binding.type}", binding)
                inner[binding.variable] = UNKNOWN
            else:
                inner[binding.variable] = binding.type
        return inner

    def aggregation(self, expr: ast.Aggregation, scope: dict[str, str]) -> str:
        inner = self.bind(expr.bindings, scope)
        body = self.infer(expr.body, inner)
        op = expr.op
        if op in ast.QUANTIFIERS:
            self.expect_bool(body, expr.body, f"the body of {op}")
            return "bool"
        if op in ("argmax", "argmin", "Discrete", "UnnormDiscrete"):
            self.expect_number(body, expr.body, f"the body of {op}")
            if len(expr.bindings) != 1:
                self.report("R203", f"{op} ranges over one variable, not {len(expr.bindings)}", expr)
            return inner[expr.bindings[0].variable] if expr.bindings else UNKNOWN
        if op == "det":
            return "real"
        self.expect_number(body, expr.body, f"the body of {op}")
        if body not in _NUMERIC:
            return UNKNOWN
        if op == "avg":
            return "real"
        if op in ("sum", "prod"):
            return "int" if body == "bool" else body
        return body

    def switch(self, expr: ast.Switch, scope: dict[str, str]) -> str:
        subject = self.infer(expr.subject, scope)
        result: str | None = None
        for case in expr.cases:
            if case.value is not None:
                value = self.infer(case.value, scope)
                if not (self.fits(value, subject) or (value in _NUMERIC and subject in _NUMERIC)):
                    if isinstance(case.value, ast.EnumValue) and self.table.is_enum(subject):
                        self.report("R205", f"{case.value.name} is not a value of enum {subject}", case.value)
                    else:
                        self.report("R206", f"case {case.value} is {_describe(value)}, but the switch is "
                                    f"on {_describe(subject)}", case.value)
            outcome = self.infer(case.result, scope)
            result = outcome if result is None else self.join(result, outcome, case.result,
                                                                "the cases of this switch")
        return result or UNKNOWN

    def function(self, expr: ast.Function, scope: dict[str, str]) -> str:
        signature = FUNCTIONS.get(expr.name)
        types = [self.infer(arg, scope) for arg in expr.args]
        if signature is None:
            self.report("R214", f"unknown function {expr.name}[...]; RDDL has "
                        f"{', '.join(sorted(FUNCTIONS))}", expr)
            return UNKNOWN
        arity, result = signature
        if len(expr.args) != arity:
            self.report("R203", f"{expr.name}[...] takes {_count(arity, 'argument')}, not {len(expr.args)}",
                        expr)
        for arg, actual in zip(expr.args, types, strict=False):
            self.expect_number(actual, arg, f"an argument of {expr.name}")
        if result is not None:
            return result
        if any(t not in _NUMERIC for t in types):
            return UNKNOWN
        return "real" if "real" in types else "int"

    def distribution(self, expr: ast.Distribution, scope: dict[str, str]) -> str:
        types = [self.infer(arg, scope) for arg in expr.args]
        if expr.name in ("Dirichlet", "Multinomial"):
            return UNKNOWN  # draws a vector: typed by the simulator, not here
        arity, result = DISTRIBUTIONS[expr.name]
        if len(expr.args) != arity:
            self.report("R203", f"{expr.name} takes {_count(arity, 'parameter')}, not {len(expr.args)}", expr)
            return result or UNKNOWN
        if result is None:
            return types[0]
        for arg, actual in zip(expr.args, types, strict=False):
            self.expect_number(actual, arg, f"a parameter of {expr.name}")
        return result

    def discrete(self, expr: ast.Discrete, scope: dict[str, str]) -> str:
        if not self.table.is_entity(expr.type):
            self.report("R201", f"undefined type {expr.type}", expr)
            return UNKNOWN
        enum = self.table.is_enum(expr.type)
        for case in expr.cases:
            if enum and case.value not in self.table.enum_values(expr.type):
                self.report("R205", f"{case.value} is not a value of enum {expr.type}", case)
            elif not enum and self.objects and not self.table.is_subtype(
                    self.objects.get(case.value.lstrip("$"), UNKNOWN), expr.type):
                self.report("R204", f"{case.value} is not an object of type {expr.type}", case)
            if case.probability is not None:
                self.expect_number(self.infer(case.probability, scope), case.probability, "a probability")
        return expr.type


def _describe(type_name: str) -> str:
    if type_name == "bool":
        return "a boolean"
    if type_name in ("int", "real"):
        return "an int" if type_name == "int" else "a real"
    if type_name.startswith("@"):
        return f"the enum value {type_name[1:]}"
    if type_name == UNKNOWN:
        return "an unknown type"
    return _a(type_name)


def _a(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


# ---------------------------------------------------------------------------------------------------
# domains


class _DomainChecker:
    def __init__(self, table: _Table, objects: dict[str, str], diagnostics: list[Diagnostic]) -> None:
        self.table = table
        self.diagnostics = diagnostics
        self.expressions = _Expressions(table, objects, diagnostics)

    def run(self) -> None:
        self.declarations()
        self.cpfs()
        domain = self.table.domain
        if domain.reward is not None:
            self.expressions.expect_number(self.expressions.infer(domain.reward, {}), domain.reward,
                                           "the reward")
        for constraints in (domain.state_action_constraints, domain.action_preconditions,
                            domain.state_invariants, domain.termination):
            for constraint in constraints:
                self.expressions.expect_bool(self.expressions.infer(constraint, {}), constraint,
                                             "a constraint")

    def declarations(self) -> None:
        table = self.table
        for decl in table.pvariables.values():
            for param in decl.params:
                if not table.is_entity(param):
                    self.diagnostics.append(error("R201", f"undefined type {param} in the parameters of "
                                                  f"{decl.name}", decl.span))
            if decl.range not in _NUMERIC and not table.is_entity(decl.range):
                self.diagnostics.append(error("R201", f"undefined type {decl.range} as the range of "
                                              f"{decl.name}", decl.span))
            elif decl.default is not None:
                _check_value(self.expressions, decl.range, decl.default, f"the default of {decl.name}")

    def cpfs(self) -> None:
        table = self.table
        seen: dict[str, ast.Cpf] = {}
        dependencies: dict[str, set[str]] = {}
        for cpf in table.domain.cpfs:
            decl = table.pvariables.get(cpf.name)
            if decl is None:
                self.diagnostics.append(error("R202", f"CPF for undefined pvariable {cpf.name}", cpf.span))
                continue
            if cpf.name in seen:
                self.diagnostics.append(Diagnostic("R218", Severity.ERROR,
                                                   f"{cpf.name} has two CPFs", cpf.span,
                                                   (("the first is here", seen[cpf.name].span),)))
                continue
            seen[cpf.name] = cpf
            if decl.kind in _NO_CPF:
                giver = "planner" if decl.kind == "action-fluent" else "instance"
                self.diagnostics.append(error("R208", f"{cpf.name} is {_a(decl.kind)}: it takes its value "
                                              f"from the {giver}, not from a CPF", cpf.span))
                continue
            if decl.kind == "state-fluent" and not cpf.primed:
                self.diagnostics.append(error("R215", f"the CPF of state fluent {cpf.name} must be "
                                              f"written {cpf.name}'", cpf.span))
            elif decl.kind != "state-fluent" and cpf.primed:
                self.diagnostics.append(error("R215", f"{cpf.name} is {_a(decl.kind)}: write its CPF "
                                              f"without a prime", cpf.span))
            if len(cpf.params) != len(decl.params):
                self.diagnostics.append(error("R203", f"{cpf.name} takes "
                                              f"{_count(len(decl.params), 'parameter')}, "
                                              f"but its CPF names {len(cpf.params)}", cpf.span))
            scope = dict(zip(cpf.params, decl.params, strict=False))
            actual = self.expressions.infer(cpf.expr, scope)
            if not self.expressions.fits(actual, decl.range):
                self.diagnostics.append(error("R206", f"the CPF of {cpf.name} gives {_describe(actual)}, "
                                              f"but {cpf.name} is {_describe(decl.range)}", cpf.span))
            if decl.kind in ("interm-fluent", "derived-fluent"):
                dependencies[cpf.name] = {
                    name for name in _pvariables_in(cpf.expr)
                    if getattr(table.pvariables.get(name), "kind", None) in _LEVELLED
                }
        for decl in table.pvariables.values():
            if decl.kind in _NEEDS_CPF and decl.name not in seen:
                self.diagnostics.append(error("R207", f"{decl.kind} {decl.name} has no CPF", decl.span))
        self.levels(dependencies, seen)
        for cycle in _cycles(dependencies):
            first = seen[cycle[0]]
            self.diagnostics.append(error("R209", "intermediate fluents depend on each other in a cycle: "
                                          + " -> ".join([*cycle, cycle[0]]), first.span))


    def levels(self, dependencies: dict[str, set[str]], cpfs: dict[str, ast.Cpf]) -> None:
        """RDDLSim computes interm fluents level by level, so each may only read lower levels."""
        pvariables = self.table.pvariables
        for name, used in sorted(dependencies.items()):
            level = pvariables[name].level
            if not isinstance(level, ast.Integer):
                continue
            for other in sorted(used):
                other_level = pvariables[other].level
                if other == name or not isinstance(other_level, ast.Integer):
                    continue  # reading itself is a cycle, reported as one
                if other_level.value >= level.value:
                    self.diagnostics.append(warning(
                        "R220", f"{name} (level {level.value}) reads {other} (level {other_level.value}): "
                        "an interm fluent may only read those of lower levels", cpfs[name].span))


def _pvariables_in(expr: ast.Expr) -> Iterable[str]:
    stack: list[object] = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.PVariable):
            yield node.name
        for name in getattr(node, "__slots__", ()):
            if name == "span":
                continue
            value = getattr(node, name)
            if isinstance(value, ast.Node):
                stack.append(value)
            elif isinstance(value, tuple):
                stack.extend(v for v in value if isinstance(v, ast.Node))


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle per strongly connected knot, found by depth-first search (without recursion)."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    cycles: list[list[str]] = []
    for root in sorted(graph):
        if root in state:
            continue
        path: list[str] = [root]
        iterators = [iter(sorted(graph.get(root, ())))]
        state[root] = 1
        while iterators:
            successor = next(iterators[-1], None)
            if successor is None:
                state[path.pop()] = 2
                iterators.pop()
            elif state.get(successor) == 1:
                cycles.append(path[path.index(successor):])
            elif successor not in state:
                state[successor] = 1
                path.append(successor)
                iterators.append(iter(sorted(graph.get(successor, ()))))
    return cycles


# ---------------------------------------------------------------------------------------------------
# non-fluents and instances


def _domain_of(block: ast.NonFluents | ast.Instance, table: _Table | None,
               diagnostics: list[Diagnostic], known: Iterable[str] = ()) -> _Table | None:
    kind = "non-fluents block" if isinstance(block, ast.NonFluents) else "instance"
    if block.domain is None:
        diagnostics.append(error("R210", f"{kind} {block.name} does not say its domain (domain = ...;)",
                                 block.span))
        return None
    if table is None:
        hint = next((f" (there is a domain {name}: RDDL names are case sensitive)" for name in known
                     if name.lower() == block.domain.lower()), "")
        diagnostics.append(error("R210", f"{kind} {block.name} names domain {block.domain}, which is not "
                                 f"among the files given{hint}", block.span))
    return table


def _declare_objects(table: _Table, decls: tuple[ast.ObjectsDecl, ...], objects: dict[str, str],
                     diagnostics: list[Diagnostic]) -> dict[str, str]:
    objects = dict(objects)
    for decl in decls:
        type_def = table.types.get(decl.type)
        if type_def is None:
            diagnostics.append(error("R201", f"objects of undefined type {decl.type}", decl.span))
            continue
        for name in decl.names:
            if name in objects and objects[name] != decl.type:
                diagnostics.append(error("R213", f"object {name} is declared as a {objects[name]} and as a "
                                         f"{decl.type}", decl.span))
            objects[name] = decl.type
    return objects


def _check_value(expressions: _Expressions, range_type: str, value: ast.Constant, what: str) -> None:
    if isinstance(value, ast.ObjectValue):
        actual = expressions.object_value(value.name, value)
    elif isinstance(value, ast.EnumValue):
        actual = expressions.enum_value(value)
    else:
        actual = expressions.infer(value, {})
    if not expressions.fits(actual, range_type):
        if isinstance(value, ast.EnumValue) and expressions.table.is_enum(range_type):
            expressions.report("R205", f"{value.name} is not a value of enum {range_type} ({what})", value)
        else:
            expressions.report("R206", f"{what} must be {_describe(range_type)}, not {_describe(actual)}",
                               value)


def _check_assignments(table: _Table, objects: dict[str, str], assignments: tuple[ast.Assignment, ...],
                       kind: str, diagnostics: list[Diagnostic]) -> None:
    expressions = _Expressions(table, objects, diagnostics)
    where = "non-fluents" if kind == "non-fluent" else "init-state"
    for assignment in assignments:
        decl = table.pvariables.get(assignment.name)
        if decl is None:
            diagnostics.append(error("R202", f"undefined pvariable {assignment.name}", assignment.span))
            continue
        if decl.kind != kind:
            diagnostics.append(error("R217", f"{assignment.name} is {_a(decl.kind)}; {where} may only set "
                                     f"{kind}s", assignment.span))
            continue
        args = tuple(ast.EnumValue(a, span=assignment.span) if a.startswith("@")
                     else ast.ObjectValue(a, span=assignment.span) for a in assignment.args)
        expressions.arguments(assignment.name, decl.params, args, assignment, {})
        _check_value(expressions, decl.range, assignment.value, f"the value of {assignment.name}")


def _check_instance(instance: ast.Instance, table: _Table | None, nf: ast.NonFluents | None,
                    diagnostics: list[Diagnostic]) -> None:
    objects: dict[str, str] = {}
    if instance.non_fluents is not None:
        if nf is None:
            diagnostics.append(error("R211", f"instance {instance.name} names non-fluents "
                                     f"{instance.non_fluents}, which is not among the files given",
                                     instance.span))
        elif table is not None:
            if nf.domain is not None and nf.domain != instance.domain:
                diagnostics.append(error("R211", f"instance {instance.name} is of domain {instance.domain}, "
                                         f"but its non-fluents {nf.name} are of domain {nf.domain}",
                                         instance.span))
            objects = _declare_objects(table, nf.objects, {}, [])
    horizon = instance.horizon
    if isinstance(horizon, ast.Integer) and horizon.value <= 0:
        diagnostics.append(error("R219", "the horizon must be a positive number of steps", horizon.span))
    elif horizon is not None and not isinstance(horizon, ast.Integer) and horizon != ast.Real(float("inf")):
        diagnostics.append(error("R219", "the horizon must be a whole number of steps", horizon.span))
    discount = instance.discount
    if discount is not None and not (
            isinstance(discount, (ast.Integer, ast.Real)) and 0 <= discount.value <= 1):
        diagnostics.append(error("R219", "the discount must be a number from 0 to 1", discount.span))
    limit = instance.max_nondef_actions
    if limit is not None and not (
            (isinstance(limit, ast.Integer) and limit.value >= 0)
            or (isinstance(limit, ast.Real) and limit.value == float("inf"))):
        diagnostics.append(warning("R219", "max-nondef-actions should be a whole number or pos-inf",
                                   limit.span))
    if table is None:
        return
    objects = _declare_objects(table, instance.objects, objects, diagnostics)
    _check_assignments(table, objects, instance.non_fluent_values, "non-fluent", diagnostics)
    _check_assignments(table, objects, instance.init_state, "state-fluent", diagnostics)
