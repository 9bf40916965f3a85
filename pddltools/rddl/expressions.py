"""Typing RDDL expressions: each expression's type, and a diagnostic for each ill-typed part.

Logical operators, conditions and quantifier bodies take booleans; arithmetic takes numbers, where a
boolean counts as 0 or 1, as in RDDLSim; comparisons take two numbers or two values of one type;
pvariables take arguments of their parameters' types (a subtype stands for its supertype).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from pddltools.code_ids import CodeId
from pddltools.diagnostics import Diagnostic, error
from pddltools.rddl import ast
from pddltools.rddl.symbols import NUMERIC, TUPLE, UNKNOWN, SymbolTable, article, count, describe, enum_literal

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


class ExpressionTyper:
    """Infers and checks the types of expressions in one domain, with the objects known for it."""

    def __init__(self, table: SymbolTable, objects: dict[str, str], diagnostics: list[Diagnostic]) -> None:
        self.table = table
        self.objects = objects
        self.diagnostics = diagnostics

    def report(self, code: CodeId, message: str, node: object) -> None:
        self.diagnostics.append(error(code, message, getattr(node, "span", None)))

    # --- compatibility --------------------------------------------------------------------------

    def fits(self, actual: str, expected: str) -> bool:
        """Can a value of type `actual` stand where `expected` is required?"""
        if UNKNOWN in (actual, expected) or actual == expected:
            return True
        if actual == TUPLE:
            return isinstance(self.table.types.get(expected), ast.TupleType)
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
        if a in NUMERIC and b in NUMERIC:
            return a if NUMERIC.index(a) >= NUMERIC.index(b) else b
        if self.fits(a, b):
            return b
        if self.fits(b, a):
            return a
        if a.startswith("@") and b.startswith("@"):
            return a
        self.report("R206", f"{what} mix {describe(a)} and {describe(b)}", node)
        return UNKNOWN

    def expect_bool(self, actual: str, node: object, where: str) -> None:
        if actual not in ("bool", UNKNOWN):
            self.report("R206", f"{where} must be a boolean, not {describe(actual)}", node)

    def expect_number(self, actual: str, node: object, where: str) -> None:
        if actual not in (*NUMERIC, UNKNOWN):
            self.report("R206", f"{where} must be a number, not {describe(actual)}", node)

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
            return "int" if operand == "bool" else operand if operand in NUMERIC else UNKNOWN
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
        if isinstance(expr, ast.TupleExpr):
            for _, value in expr.entries:
                self.infer(value, scope)
            return TUPLE
        if isinstance(expr, ast.Member):
            return self.member(expr, scope)
        if isinstance(expr, ast.Multinomial):
            self.expect_number(self.infer(expr.count, scope), expr.count, "the count of a Multinomial")
            self.discrete(ast.Discrete("Discrete", expr.type, expr.cases, span=expr.span), scope)
            return TUPLE
        if isinstance(expr, ast.Dirichlet):
            if not self.table.is_enum(expr.type):
                self.report("R201", f"Dirichlet needs an enum type, not {expr.type}", expr)
            self.expect_number(self.infer(expr.alpha, scope), expr.alpha, "the concentration of a Dirichlet")
            return TUPLE
        raise TypeError(f"not an expression: {expr!r}")  # pragma: no cover

    def member(self, expr: ast.Member, scope: dict[str, str]) -> str:
        """The range of the member `expr.label` of a tuple-typed `expr.base`."""
        base = self.infer(expr.base, scope)
        tuple_type = self.table.types.get(base)
        if not isinstance(tuple_type, ast.TupleType):
            if base not in (UNKNOWN, TUPLE):
                self.report("R206", f"only a tuple has members, not {describe(base)}", expr)
            if isinstance(expr.label, ast.Variable):
                self.infer(expr.label, scope)
            return UNKNOWN
        label = expr.label
        if tuple_type.index is not None:
            labels = self.table.enum_values(tuple_type.index) or None
            wanted = tuple_type.index
            member_range = tuple_type.members[0][1]
        else:
            labels = tuple(name for name, _ in tuple_type.members)
            wanted = None
            member_range = UNKNOWN
        if isinstance(label, ast.Variable):
            actual = self.infer(label, scope)
            if wanted is not None and not self.fits(actual, wanted):
                self.report("R206", f"a member of {base} is named by {describe(wanted)}, not {describe(actual)}",
                            label)
            return member_range if wanted is not None else UNKNOWN
        name = label.name if isinstance(label, (ast.EnumValue, ast.ObjectValue)) else str(label)
        if wanted is None:
            ranges = dict(tuple_type.members)
            if name not in ranges:
                self.report("R205", f"{base} has no member {label}", label)
                return UNKNOWN
            return ranges[name]
        if labels is not None and name not in labels:
            self.report("R205", f"{base} has no member {label}", label)
        elif labels is None and isinstance(label, ast.ObjectValue):
            actual = self.object_value(name, label)
            if not self.fits(actual, wanted):
                self.report("R206", f"a member of {base} is named by {describe(wanted)}, not {describe(actual)}",
                            label)
        return member_range

    def check_tuple(self, expr: ast.Expr, range_name: str, scope: dict[str, str], what: str) -> None:
        """A tuple-valued expression against the tuple type `range_name`: each literal `< ... >` in it
        (summed, scaled, ...) has that type's members, each of a value that fits its member's range."""
        tuple_type = self.table.types.get(range_name)
        if not isinstance(tuple_type, ast.TupleType):
            return
        if isinstance(expr, ast.Binary) and expr.op in ast.ARITHMETIC_OPERATORS:
            for side in (expr.left, expr.right):
                self.check_tuple(side, range_name, scope, what)
            return
        if isinstance(expr, ast.Unary):
            self.check_tuple(expr.operand, range_name, scope, what)
            return
        if not isinstance(expr, ast.TupleExpr):
            return
        if tuple_type.index is not None:
            known = self.table.enum_values(tuple_type.index) or tuple(
                name for name, type_name in self.objects.items() if self.table.is_subtype(type_name, tuple_type.index))
            members = [(label, tuple_type.members[0][1]) for label in known]
        else:
            members = list(tuple_type.members)
        ranges = dict(members)
        given = [label for label, _ in expr.entries]
        for label in given:
            if label not in ranges:
                self.report("R205", f"{label} is not a member of {range_name} ({what})", expr)
        left_out = [label for label, _ in members if label not in given]
        if left_out and given:
            self.report("R205", f"{what} leaves out the member{'s' if len(left_out) > 1 else ''} "
                        f"{', '.join(left_out)} of {range_name}", expr)
        for label, value in expr.entries:
            member_range = ranges.get(label)
            if member_range is None:
                continue
            if isinstance(self.table.types.get(member_range), ast.TupleType):
                self.check_tuple(value, member_range, scope, what)
                continue
            # the member was typed when the whole expression was: type it again without reporting twice
            actual = ExpressionTyper(self.table, self.objects, []).infer(value, scope)
            if not self.fits(actual, member_range):
                self.report("R206", f"member {label} of {what} must be {describe(member_range)}, "
                            f"not {describe(actual)}", value)

    def enum_value(self, expr: ast.EnumValue) -> str:
        enums = self.table.enums_of_value.get(expr.name)
        if not enums:
            self.report("R205", f"unknown enum value {expr.name}: no enum type of domain "
                        f"{self.table.domain.name} has it", expr)
            return UNKNOWN
        return enums[0] if len(enums) == 1 else enum_literal(expr.name)

    def object_value(self, name: str, node: object) -> str:
        if name in self.objects:
            return self.objects[name]
        if self.objects:
            self.report("R216", f"unknown object {name}", node)
        return UNKNOWN

    def pvariable(self, expr: ast.PVariable, scope: dict[str, str]) -> str:
        decl = self.table.pvariables.get(expr.name)
        if decl is None:
            bare = not expr.args and not expr.primed
            if bare and expr.name in self.objects:
                return self.objects[expr.name]  # an object named without its `$`
            self.report("R202", f"undefined pvariable {expr.name}", expr)
            for arg in expr.args:
                self.infer(arg, scope)
            return UNKNOWN
        if expr.primed and decl.kind != "state-fluent":
            self.report("R215", f"{expr.name}' : only a state fluent has a next-state value, and "
                        f"{expr.name} is {article(decl.kind)}", expr)
        self.arguments(expr.name, decl.params, expr.args, expr, scope)
        return decl.range

    def arguments(self, name: str, params: tuple[str, ...], args: tuple[ast.Expr, ...], node: object,
                  scope: dict[str, str]) -> None:
        if len(args) != len(params):
            self.report("R203", f"{name} takes {count(len(params), 'argument')} "
                        f"({', '.join(params) or 'none'}), not {len(args)}", node)
        for index, arg in enumerate(args):
            actual = self.infer(arg, scope)
            if index < len(params) and not self.fits(actual, params[index]):
                if isinstance(arg, ast.EnumValue) and self.table.is_enum(params[index]):
                    self.report("R205", f"{arg.name} is not a value of enum {params[index]} "
                                f"(argument {index + 1} of {name})", arg)
                else:
                    self.report("R204", f"argument {index + 1} of {name} must be a {params[index]}, "
                                f"not {describe(actual)}", arg)

    def binary(self, expr: ast.Binary, scope: dict[str, str]) -> str:
        # `a + b + c + ...` is a left-deep tree as long as the sum: walk down its left spine in a loop
        # and type it bottom-up, so that a flat 3,000-term sum is not 3,000 levels of recursion.
        spine: list[ast.Binary] = []
        node: ast.Expr = expr
        while isinstance(node, ast.Binary):
            spine.append(node)
            node = node.left
        left = self.infer(node, scope)
        for step in reversed(spine):
            left = self._binary(step, left, self.infer(step.right, scope))
        return left

    def _binary(self, expr: ast.Binary, left: str, right: str) -> str:
        """The type of `expr`, whose operands have the types `left` and `right`."""
        op = expr.op
        if op in ast.ARITHMETIC_OPERATORS or op in ast.COMPARISON_OPERATORS - {"==", "~="}:
            left, right = (self.numeric(t) for t in (left, right))
        if op in ast.LOGICAL_OPERATORS:
            self.expect_bool(left, expr.left, f"an operand of {op}")
            self.expect_bool(right, expr.right, f"an operand of {op}")
            return "bool"
        if op in ("==", "~="):
            if left in NUMERIC and right in NUMERIC:
                return "bool"
            if not (self.fits(left, right) or self.fits(right, left)):
                self.report("R206", f"{op} compares {describe(left)} with {describe(right)}", expr)
            return "bool"
        if op in ast.ARITHMETIC_OPERATORS and (TUPLE in (left, right) or self._is_tuple(left)
                                               or self._is_tuple(right)):
            return TUPLE  # RDDL2: arithmetic on tuples is member by member
        self.expect_number(left, expr.left, f"an operand of {op}")
        self.expect_number(right, expr.right, f"an operand of {op}")
        if op in ast.COMPARISON_OPERATORS:
            return "bool"
        if UNKNOWN in (left, right) or left not in NUMERIC or right not in NUMERIC:
            return UNKNOWN
        if op == "/" or "real" in (left, right):
            return "real"
        return "int"

    def numeric(self, type_name: str) -> str:
        """`type_name`, or int for an enum of integers (`{@1..@4}`), which arithmetic reads as numbers."""
        return "int" if self.table.is_int_enum(type_name) else type_name

    def _is_tuple(self, type_name: str) -> bool:
        return isinstance(self.table.types.get(type_name), ast.TupleType)

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
        if body not in NUMERIC:
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
                if not (self.fits(value, subject) or (value in NUMERIC and subject in NUMERIC)):
                    if isinstance(case.value, ast.EnumValue) and self.table.is_enum(subject):
                        self.report("R205", f"{case.value.name} is not a value of enum {subject}", case.value)
                    else:
                        self.report("R206", f"case {case.value} is {describe(value)}, but the switch is "
                                    f"on {describe(subject)}", case.value)
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
            self.report("R203", f"{expr.name}[...] takes {count(arity, 'argument')}, not {len(expr.args)}",
                        expr)
        for arg, actual in zip(expr.args, types, strict=False):
            self.expect_number(actual, arg, f"an argument of {expr.name}")
        if result is not None:
            return result
        if any(t not in NUMERIC for t in types):
            return UNKNOWN
        return "real" if "real" in types else "int"

    def distribution(self, expr: ast.Distribution, scope: dict[str, str]) -> str:
        types = [self.infer(arg, scope) for arg in expr.args]
        if expr.name in ("Dirichlet", "Multinomial"):
            return UNKNOWN  # draws a vector: typed by the simulator, not here
        arity, result = DISTRIBUTIONS[expr.name]
        if len(expr.args) != arity:
            self.report("R203", f"{expr.name} takes {count(arity, 'parameter')}, not {len(expr.args)}", expr)
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


def pvariable_uses(expr: ast.Expr) -> Iterator[ast.PVariable]:
    """Every pvariable read anywhere in `expr` (tuple entries included)."""
    return (node for node in expr.walk() if isinstance(node, ast.PVariable))


def pvariables_in(expr: ast.Expr) -> Iterable[str]:
    return (use.name for use in pvariable_uses(expr))
