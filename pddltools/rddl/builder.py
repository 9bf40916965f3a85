"""Building RDDL AST nodes straight from the LALR parser's reductions (an inline transformer).

Lark calls one method of `Builder` per grammar rule (or alias) with that rule's kept children: tokens
for terminals, nodes for the rules below. No parse tree is ever built. Spans come from the tokens'
offsets; line and column are worked out only when a diagnostic asks (`pddltools.diagnostics.Source`).
"""

from __future__ import annotations

from typing import Any

from lark import Token, Transformer

from pddltools.code_ids import CodeId
from pddltools.diagnostics import Source, Span
from pddltools.rddl import ast


class BuildError(Exception):
    """Raised inside the transformer; turned into an `ParseError` with the right source."""

    def __init__(self, code: CodeId, message: str, start: int, end: int) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.start = start
        self.end = end


_Children = list[Any]


def _strip(children: _Children) -> list[Any]:
    return [c for c in children if c is not None]


class Builder(Transformer[Token, Any]):
    """One method per grammar rule or alias; each gets the rule's kept children."""

    source: Source = Source("", "<string>")

    def _span(self, start: int, end: int) -> Span:
        return Span(self.source, start, end)

    def _token_span(self, token: Token) -> Span:
        return Span(self.source, token.start_pos, token.end_pos)  # type: ignore[arg-type]

    def _node_span(self, first: Any, last: Any) -> Span:
        return Span(self.source, _start(first), _end(last))

    # --- file and blocks -------------------------------------------------------------------------

    def start(self, children: _Children) -> ast.RDDLFile:
        span = self._node_span(children[0], children[-1]) if children else self._span(0, 0)
        return ast.RDDLFile(tuple(children), span=span)

    def domain(self, children: _Children) -> ast.Domain:
        keyword, name, *sections = children
        fields: dict[str, Any] = {}
        lists: dict[str, list[Any]] = {}
        for kind, value in sections:
            if kind == "reward":
                fields[kind] = value
            elif kind == "cpfs":
                fields["cpfs_keyword"], cpfs = value
                lists.setdefault(kind, []).extend(cpfs)
            else:
                lists.setdefault(kind, []).extend(value)
        fields.update({kind: tuple(values) for kind, values in lists.items()})
        return ast.Domain(name.value, **fields, span=self._node_span(keyword, name))

    def requirements(self, children: _Children) -> tuple[str, list[str]]:
        return "requirements", [c.value for c in children if c is not None]

    def types_section(self, children: _Children) -> tuple[str, list[ast.TypeDef]]:
        return "types", children

    def object_type(self, children: _Children) -> ast.ObjectType:
        (name,) = children
        return ast.ObjectType(name.value, span=self._token_span(name))

    def subtype(self, children: _Children) -> ast.ObjectType:
        name, parent = children
        return ast.ObjectType(name.value, parent.value, span=self._node_span(name, parent))

    def enum_type(self, children: _Children) -> ast.EnumType:
        name, *values = children
        return ast.EnumType(name.value, tuple(v.value for v in values if v is not None),
                            span=self._token_span(name))

    def enum_range(self, children: _Children) -> ast.EnumType:
        name, first, last = children
        low, high = first.value[1:], last.value[1:]
        if not (low.isdigit() and high.isdigit()) or _digits_value(low) > _digits_value(high):
            raise BuildError("R107", f"an enum range runs from one integer to a larger one, not {first}..{last}",
                              first.start_pos, last.end_pos)
        if _digits_value(high) - _digits_value(low) >= MAX_ENUM_RANGE:
            raise BuildError("R109", f"an enum range has at most {MAX_ENUM_RANGE:,} values, not {first}..{last}: "
                             "each value is a name of its own", first.start_pos, last.end_pos)
        values = tuple(f"@{i}" for i in range(int(low), int(high) + 1))
        return ast.EnumType(name.value, values, span=self._node_span(name, last))

    def vector_type(self, children: _Children) -> ast.TupleType:
        name, index, _lt, range_type, gt = children
        return ast.TupleType(name.value, (("?", range_type.value),), index.value,
                             span=self._node_span(name, gt))

    def tuple_type(self, children: _Children) -> ast.TupleType:
        name, _lt, *members, gt = children
        return ast.TupleType(name.value, tuple(members), span=self._node_span(name, gt))

    def tuple_member_type(self, children: _Children) -> tuple[str, str]:
        label, range_type = children
        return label.value, range_type.value

    def pvariables_section(self, children: _Children) -> tuple[str, list[ast.PVariableDecl]]:
        return "pvariables", children

    def pvariable_decl(self, children: _Children) -> ast.PVariableDecl:
        name = children[0]
        index = 1
        params: tuple[str, ...] = ()
        if isinstance(children[1], tuple):
            params = children[1]
            index = 2
        kind, range_type, *options = children[index:]
        fields = dict(options)
        if len(fields) < len(options):
            option = next(o for o in options if sum(1 for p in options if p[0] == o[0]) > 1)
            raise BuildError("R104", f"{name} gives its {option[0]} twice",
                              _start(option[1]), _end(option[1]))
        return ast.PVariableDecl(name.value, params, kind.value, range_type.value, **fields,
                                 span=self._token_span(name))

    def parameter_types(self, children: _Children) -> tuple[str, ...]:
        return tuple(c.value for c in children if c is not None)

    def fluent_kind(self, children: _Children) -> Token:
        return children[0]  # type: ignore[no-any-return]

    range_type = fluent_kind
    cpfs_keyword = fluent_kind
    constraint_kind = fluent_kind
    discrete_name = fluent_kind
    distribution_name = fluent_kind
    vector_distribution_name = fluent_kind
    matrix_operation_name = fluent_kind
    vector_index = fluent_kind

    def default_option(self, children: _Children) -> tuple[str, ast.Constant]:
        return "default", children[1]

    def level_option(self, children: _Children) -> tuple[str, ast.Constant]:
        return "level", children[0]

    def cpfs_section(self, children: _Children) -> tuple[str, Any]:
        keyword, *cpfs = children
        return "cpfs", (keyword.value, cpfs)

    def cpf(self, children: _Children) -> ast.Cpf:
        (name, primed, params, span), expr = children
        return ast.Cpf(name, params, expr, primed, span=Span(self.source, span, _end(expr)))

    def cpf_head(self, children: _Children) -> tuple[str, bool, tuple[str, ...], int]:
        name_token = children[0]
        name = name_token.value
        primed = name_token.type == "PRIMED_NAME"
        if primed:
            name = name[:-1]
        params = tuple(c.value for c in children[1:] if c is not None)
        return name, primed, params, name_token.start_pos

    def reward_section(self, children: _Children) -> tuple[str, ast.Expr]:
        return "reward", children[1]

    def constraint_section(self, children: _Children) -> tuple[str, list[ast.Expr]]:
        kind, *constraints = children
        return kind.value.replace("-", "_"), constraints

    # --- non-fluents and instances ---------------------------------------------------------------

    def non_fluents_block(self, children: _Children) -> ast.NonFluents:
        keyword, name, *sections = children
        fields = self._instance_fields(sections, {"non_fluent_values": "values"})
        return ast.NonFluents(name.value, **fields, span=self._node_span(keyword, name))

    def instance(self, children: _Children) -> ast.Instance:
        keyword, name, *sections = children
        fields = self._instance_fields(sections, {})
        return ast.Instance(name.value, **fields, span=self._node_span(keyword, name))

    def _instance_fields(self, sections: list[tuple[str, Any]], rename: dict[str, str]) -> dict[str, Any]:
        fields: dict[str, Any] = {}
        lists: dict[str, list[Any]] = {}
        for kind, value in sections:
            kind = rename.get(kind, kind)
            if isinstance(value, list):
                lists.setdefault(kind, []).extend(value)
            else:
                fields[kind] = value
        fields.update({kind: tuple(values) for kind, values in lists.items()})
        return fields

    def domain_ref(self, children: _Children) -> tuple[str, str]:
        return "domain", children[1].value

    def non_fluents_ref(self, children: _Children) -> tuple[str, str]:
        return "non_fluents", children[1].value

    def objects_section(self, children: _Children) -> tuple[str, list[ast.ObjectsDecl]]:
        return "objects", children

    def objects_decl(self, children: _Children) -> ast.ObjectsDecl:
        type_name, *names = children
        return ast.ObjectsDecl(
            type_name.value, tuple(_object_name(n) for n in names if n is not None),
            span=self._token_span(type_name),
        )

    def non_fluent_values(self, children: _Children) -> tuple[str, list[ast.Assignment]]:
        return "non_fluent_values", _assignments(children[1:])

    def init_state(self, children: _Children) -> tuple[str, list[ast.Assignment]]:
        return "init_state", _assignments(children)

    def max_nondef_actions(self, children: _Children) -> tuple[str, ast.Constant]:
        return "max_nondef_actions", children[0]

    def terminate_when(self, children: _Children) -> tuple[str, ast.TerminateWhen]:
        (condition,) = children
        return "horizon", ast.TerminateWhen(condition, span=getattr(condition, "span", None))

    def horizon(self, children: _Children) -> tuple[str, ast.Constant]:
        return "horizon", children[0]

    def discount(self, children: _Children) -> tuple[str, ast.Constant]:
        return "discount", children[0]

    def assignment(self, children: _Children) -> ast.Assignment:
        name = children[0]
        args: tuple[str, ...] = ()
        value: ast.Constant = _TRUE
        for child in children[1:]:
            if isinstance(child, tuple):
                args = child
            else:
                value = child
        return ast.Assignment(name.value, args, value, span=self._token_span(name))

    def negated_assignment(self, children: _Children) -> ast.Assignment:
        name = children[1]
        args = children[2] if len(children) > 2 else ()
        return ast.Assignment(name.value, args, _FALSE, span=self._node_span(children[0], name))

    def ground_arguments(self, children: _Children) -> tuple[str, ...]:
        return tuple(_object_name(c) for c in children if c is not None)

    # --- constants and atoms ---------------------------------------------------------------------

    def true(self, children: _Children) -> ast.Boolean:
        return ast.Boolean(True, span=self._token_span(children[0]))

    def false(self, children: _Children) -> ast.Boolean:
        return ast.Boolean(False, span=self._token_span(children[0]))

    def number(self, children: _Children) -> ast.Integer | ast.Real:
        token = children[0]
        return _number(token.value, self._token_span(token))

    def negative_number(self, children: _Children) -> ast.Integer | ast.Real:
        minus, token = children
        number = _number(token.value, self._node_span(minus, token))
        return type(number)(-number.value, span=number.span)  # type: ignore[arg-type]

    def positive_infinity(self, children: _Children) -> ast.Real:
        return ast.Real(float("inf"))

    def tuple_constant(self, children: _Children) -> ast.TupleExpr:
        first, *entries, last = children
        return ast.TupleExpr(tuple(entries), span=self._node_span(first, last))

    tuple_expr = tuple_constant

    def tuple_constant_entry(self, children: _Children) -> tuple[str, ast.Expr]:
        label, value = children
        return _object_name(label), value

    tuple_entry = tuple_constant_entry

    def member(self, children: _Children) -> ast.Member:
        base, token = children
        label: ast.Expr
        if token.type == "OBJECT_REF":
            label = ast.ObjectValue(token.value[1:], span=self._token_span(token))
        elif token.type == "ENUM_VALUE":
            label = ast.EnumValue(token.value, span=self._token_span(token))
        else:
            label = ast.Variable(token.value, span=self._token_span(token))
        return ast.Member(base, label, span=self._node_span(base, token))

    def negative_infinity(self, children: _Children) -> ast.Real:
        return ast.Real(float("-inf"))

    def enum_value(self, children: _Children) -> ast.EnumValue:
        token = children[0]
        return ast.EnumValue(token.value, span=self._token_span(token))

    def object_name(self, children: _Children) -> ast.ObjectValue:
        token = children[0]
        return ast.ObjectValue(token.value, span=self._token_span(token))

    def object_value(self, children: _Children) -> ast.ObjectValue:
        token = children[0]
        return ast.ObjectValue(token.value[1:], span=self._token_span(token))

    def variable(self, children: _Children) -> ast.Variable:
        token = children[0]
        return ast.Variable(token.value, span=self._token_span(token))

    def pvariable(self, children: _Children) -> ast.PVariable:
        token = children[0]
        name = token.value
        primed = token.type == "PRIMED_NAME"
        if primed:
            name = name[:-1]
        args = tuple(c for c in children[1:] if c is not None)
        end = _end(args[-1]) + 1 if args else token.end_pos
        return ast.PVariable(name, args, primed, span=Span(self.source, token.start_pos, end))

    # --- operators -------------------------------------------------------------------------------

    def _binary(self, op: str, left: ast.Expr, right: ast.Expr) -> ast.Binary:
        return ast.Binary(op, left, right, span=self._node_span(left, right))

    def equiv(self, children: _Children) -> ast.Binary:
        return self._binary("<=>", children[0], children[1])

    def imply(self, children: _Children) -> ast.Binary:
        return self._binary("=>", children[0], children[1])

    def or_(self, children: _Children) -> ast.Binary:
        return self._binary("|", children[0], children[1])

    def and_(self, children: _Children) -> ast.Binary:
        return self._binary("^", children[0], children[1])

    def compare(self, children: _Children) -> ast.Binary:
        return self._binary(children[1].value, children[0], children[2])

    arithmetic = compare

    def negate(self, children: _Children) -> ast.Unary:
        return ast.Unary("-", children[1], span=self._node_span(children[0], children[1]))

    def unary_plus(self, children: _Children) -> ast.Unary:
        return ast.Unary("+", children[1], span=self._node_span(children[0], children[1]))

    def not_(self, children: _Children) -> ast.Unary:
        return ast.Unary("~", children[1], span=self._node_span(children[0], children[1]))

    def function(self, children: _Children) -> ast.Function:
        name, *args = children
        return ast.Function(name.value, tuple(args), span=self._node_span(name, args[-1]))

    # --- aggregations and control ----------------------------------------------------------------

    def aggregation(self, children: _Children) -> ast.Aggregation:
        name, bindings, body = children
        if name.value not in ast.AGGREGATIONS:
            known = ", ".join(sorted(ast.AGGREGATIONS - {"det"}))
            raise BuildError("R105", f"unknown aggregation {name!s}_{{...}}; RDDL has {known}",
                              name.start_pos, name.end_pos)
        return ast.Aggregation(name.value, bindings, body, span=self._node_span(name, body))

    def discrete_over(self, children: _Children) -> ast.Aggregation:
        name, bindings, body = children
        return ast.Aggregation(name.value, bindings, body, span=self._node_span(name, body))

    def bindings(self, children: _Children) -> tuple[ast.Binding, ...]:
        return tuple(children)

    def binding(self, children: _Children) -> ast.Binding:
        variable, type_name = children
        return ast.Binding(variable.value, type_name.value, span=self._node_span(variable, type_name))

    def if_then_else(self, children: _Children) -> ast.IfThenElse:
        keyword, condition, then, otherwise = children
        return ast.IfThenElse(condition, then, otherwise, span=self._node_span(keyword, otherwise))

    def switch(self, children: _Children) -> ast.Switch:
        keyword, subject, *cases = children
        return ast.Switch(subject, tuple(cases), span=self._node_span(keyword, cases[-1]))

    def case(self, children: _Children) -> ast.SwitchCase:
        value, result = children
        return ast.SwitchCase(value, result, span=self._node_span(value, result))

    def default_case(self, children: _Children) -> ast.SwitchCase:
        keyword, result = children
        return ast.SwitchCase(None, result, span=self._node_span(keyword, result))

    # --- distributions ---------------------------------------------------------------------------

    def distribution(self, children: _Children) -> ast.Distribution:
        name, *args = children
        args = _strip(args)
        end = _end(args[-1]) + 1 if args else name.end_pos + 2
        return ast.Distribution(name.value, tuple(args), span=Span(self.source, name.start_pos, end))

    def discrete(self, children: _Children) -> ast.Discrete:
        name, type_name, *cases = children
        return ast.Discrete(name.value, type_name.value, tuple(cases), span=self._node_span(name, cases[-1]))

    def discrete_case(self, children: _Children) -> ast.DiscreteCase:
        value, probability = children
        return ast.DiscreteCase(value.value, probability, span=self._node_span(value, probability))

    def discrete_otherwise(self, children: _Children) -> ast.DiscreteCase:
        (value,) = children
        return ast.DiscreteCase(value.value, None, span=self._token_span(value))

    def multinomial(self, children: _Children) -> ast.Multinomial:
        type_name, count, *cases = _strip(children)
        return ast.Multinomial(type_name.value, count, tuple(cases), span=self._node_span(type_name, cases[-1]))

    def dirichlet(self, children: _Children) -> ast.Dirichlet:
        type_name, alpha = _strip(children)
        return ast.Dirichlet(type_name.value, alpha, span=self._node_span(type_name, alpha))

    def vector_distribution(self, children: _Children) -> ast.VectorDistribution:
        name, *rest = _strip(children)
        indices = tuple(r.value for r in rest if not isinstance(r, ast.Node))
        args: tuple[ast.Expr, ...] = tuple(r for r in rest if isinstance(r, ast.Node))  # type: ignore[misc]
        return ast.VectorDistribution(name.value, indices, args, span=self._node_span(name, args[-1]))

    def matrix_operation(self, children: _Children) -> ast.MatrixOperation:
        name, row, column, body = children
        return ast.MatrixOperation(name.value, row.value, column.value, body,
                                   span=self._node_span(name, body))


_TRUE = ast.Boolean(True)
_FALSE = ast.Boolean(False)


# Tokens are Lark's `Token` or any object with the same `type`, `value`, `start_pos` and `end_pos`
# (a leaner LALR driver may hand over its own), so the builder tells them from nodes by `ast.Node`.


def _start(item: Any) -> int:
    if not isinstance(item, ast.Node):
        return item.start_pos  # type: ignore[no-any-return]
    span = getattr(item, "span", None)
    return span.start if span is not None else 0


def _end(item: Any) -> int:
    if not isinstance(item, ast.Node):
        return item.end_pos  # type: ignore[no-any-return]
    span = getattr(item, "span", None)
    return span.end if span is not None else 0


def _assignments(children: _Children) -> list[ast.Assignment]:
    """Assignments from the grammar path and the runs the fast path built, in text order."""
    result: list[ast.Assignment] = []
    for child in children:
        if isinstance(child, ast.Assignment):
            result.append(child)
        else:
            result.extend(child.value)
    return result


def _object_name(token: Token) -> str:
    text: str = token.value
    return text[1:] if token.type == "OBJECT_REF" else text


def _number(text: str, span: Span) -> ast.Integer | ast.Real:
    if "." in text or "e" in text or "E" in text:
        # a double, as RDDLSim reads it: `1e999` is infinite, `1e-999` zero
        return ast.Real(float(text), span=span)
    if len(text) > MAX_INTEGER_DIGITS:
        shown = text[:12] + "..." + text[-8:]
        raise BuildError("R110", f"the integer {shown} is out of range: pddltools reads integers of up to "
                         f"{MAX_INTEGER_DIGITS:,} digits (RDDLSim's are 32 bits)", span.start, span.end)
    return ast.Integer(int(text), span=span)


def _digits_value(digits: str) -> int:
    """The value of a run of digits, capped past anything an enum range may span (so that `int()` of
    thousands of digits neither fails nor costs)."""
    return int(digits) if len(digits) <= 18 else 10**18


#: The most values an enum range `{@a..@b}` may have: every value becomes a name of its own (the
#: IPPC and RDDLSim examples have a handful).
MAX_ENUM_RANGE = 100_000
#: The longest integer literal read, as for PDDL numbers (`pddltools.pddl.exact_numbers.MAX_DIGITS`): far
#: below Python's int-to-text limit of 4,300 digits, far above anything a model means.
MAX_INTEGER_DIGITS = 1000
