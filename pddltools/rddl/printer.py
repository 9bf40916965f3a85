"""Print an RDDL AST back as RDDL text that parses to the same AST (`pddltools rddl fmt`).

Parentheses are printed only where precedence needs them, with one exception made for safety: the
prefix forms (`if`, `sum_{..}`, `exists_{..}`, `Discrete_{..}`) swallow everything to their right,
so as an operand of an operator they are always parenthesised.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal
from functools import partial
from typing import Any

from pddltools.comments import Comments, Item, active, keep
from pddltools.diagnostics import Diagnostic, Source
from pddltools.rddl import ast
from pddltools.syntax.lexing import Trivia

INDENT = "    "
WIDTH = 100  # lines longer than this are broken at `else`, at the loosest operator, inside `[...]`


def format_node(node: object) -> str:
    """RDDL text for any node: a whole file, a block, a declaration or an expression."""
    if isinstance(node, ast.RDDLFile):
        return format_file(node)
    if isinstance(node, (ast.Domain, ast.NonFluents, ast.Instance)):
        return _BLOCK_PRINTERS[type(node)](node) + "\n"
    if isinstance(node, ast.PVariableDecl):
        return _pvariable_decl(node)
    if isinstance(node, ast.Cpf):
        return _cpf(node)
    if isinstance(node, ast.Assignment):
        return _assignment(node)
    if isinstance(node, ast.ObjectsDecl):
        return _objects_decl(node)
    if isinstance(node, (ast.ObjectType, ast.EnumType, ast.TupleType)):
        return _type_def(node)
    if isinstance(node, ast.Binding):
        return f"{node.variable} : {node.type}"
    if isinstance(node, ast.SwitchCase):
        return _switch_case(node)
    if isinstance(node, ast.DiscreteCase):
        return _discrete_case(node)
    return format_expr(node)  # type: ignore[arg-type]


def format_file(rddl: ast.RDDLFile) -> str:
    return "\n".join(_BLOCK_PRINTERS[type(block)](block) + "\n" for block in rddl.blocks)


def format_source(rddl: ast.RDDLFile, source: Source, trivia: Trivia) -> tuple[str, list[Diagnostic]]:
    """`rddl` (parsed from `source`) printed with the comments and blank lines of `source` kept (see
    `pddltools.comments`), and a W121 warning for each comment that had to move."""
    def blocks(node: ast.RDDLFile) -> str:
        comments = active()
        assert comments is not None
        items = [Item(_block_region(comments, block), partial(_BLOCK_PRINTERS[type(block)], block), blank=True)
                 for block in node.blocks]
        return "\n".join(comments.lay_out(items, None, ""))

    spans = [(block.span.start, len(source.text)) for block in rddl.blocks if block.span is not None]
    return keep(source, trivia, ends_in_comment, rddl, blocks, span=spans[0] if spans else None)


def ends_in_comment(line: str) -> bool:
    # RDDL has no strings: `//` opens a comment wherever it is
    return "//" in line or line.rstrip().endswith("*/")


# ---------------------------------------------------------------------------------------------------
# comments (see `pddltools.comments`): without comments in force, the canonical layout


def _span(node: Any) -> tuple[int, int] | None:
    span = getattr(node, "span", None)
    return None if span is None else (span.start, span.end)


def _block_region(comments: Comments, block: Any) -> tuple[int, int] | None:
    if block.span is None:
        return None
    return block.span.start, comments.block_end(block.span.start)


def _lay(items: list[Item], region: tuple[int, int] | None, pad: str) -> list[str]:
    comments = active()
    if comments is None:
        out: list[str] = []
        for item in items:
            if item.blank and out:
                out.append("")
            out.append(pad + item.render())
        return out
    return comments.lay_out(items, region, pad)


def _head(items: list[Item], region: tuple[int, int] | None) -> str:
    comments = active()
    return "" if comments is None else comments.head(items, region)


def _statement_region(node: Any, head: int = 0) -> tuple[int, int] | None:
    """A statement's source: from `head` tokens before `node` to its `;`."""
    comments = active()
    if comments is None or getattr(node, "span", None) is None:
        return None
    start = comments.extend(node.span.start, node.span.end, head)[0]
    return start, comments.statement_end(start)


def _statement_item(node: Any, render: Callable[[], str], head: int = 0) -> Item:
    return Item(_statement_region(node, head), render)


# ---------------------------------------------------------------------------------------------------
# blocks


def _section(keyword: str, items: list[Item], nodes: Sequence[Any]) -> Item:
    region = _statement_region(nodes[0], 2) if nodes else None

    def render() -> str:
        comment = _head(items, region)
        body = _lay(items, region, INDENT * 2)
        return "\n".join([f"{keyword} {{{comment}", *body, f"{INDENT}}};"])

    return Item(region, render)


def _statements(nodes: Sequence[Any], render: Callable[[Any], str]) -> list[Item]:
    return [_statement_item(node, partial(render, node)) for node in nodes]


def _block(head: str, parts: list[Item], block: Any) -> str:
    comments = active()
    region = _block_region(comments, block) if comments is not None else None
    head += _head(parts, region)
    body = _lay(parts, region, INDENT)
    return "\n".join([head, *body, "}"])


def _domain(domain: ast.Domain) -> str:
    parts: list[Item] = []
    if domain.requirements:
        parts.append(Item(None, lambda: f"requirements = {{ {', '.join(domain.requirements)} }};"))
    if domain.types:
        parts.append(_section("types", _statements(domain.types, _type_def), domain.types))
    if domain.objects:
        parts.append(_objects(domain.objects))
    if domain.pvariables:
        parts.append(_section("pvariables", _statements(domain.pvariables, _pvariable_decl), domain.pvariables))
    if domain.cpfs:
        parts.append(_section(domain.cpfs_keyword, _statements(domain.cpfs, _cpf), domain.cpfs))
    if domain.reward is not None:
        reward = domain.reward
        parts.append(_statement_item(reward, lambda: _statement("reward = ", reward, 1), 2))
    for keyword, constraints in (
        ("state-action-constraints", domain.state_action_constraints),
        ("action-preconditions", domain.action_preconditions),
        ("state-invariants", domain.state_invariants),
        ("termination", domain.termination),
    ):
        if constraints:
            parts.append(_section(keyword, _statements(constraints, partial(_statement, "", depth=2)), constraints))
    for part in parts[1:]:
        part.blank = True
    return _block(f"domain {domain.name} {{", parts, domain)


def _type_def(type_def: ast.TypeDef) -> str:
    if isinstance(type_def, ast.EnumType):
        return f"{type_def.name} : {{{', '.join(type_def.values)}}};"
    if isinstance(type_def, ast.TupleType):
        members = ", ".join(f"{label} : {range_name}" for label, range_name in type_def.members)
        index = f"[{type_def.index}]" if type_def.index is not None else ""
        return f"{type_def.name} : {index}<{members}>;"
    return f"{type_def.name} : {type_def.parent};"


def _pvariable_decl(decl: ast.PVariableDecl) -> str:
    params = f"({', '.join(decl.params)})" if decl.params else ""
    options = [decl.kind, decl.range]
    if decl.default is not None:
        options.append(f"default = {format_constant(decl.default)}")
    if decl.level is not None:
        options.append(f"level = {format_constant(decl.level)}")
    return f"{decl.name}{params} : {{ {', '.join(options)} }};"


def _cpf(cpf: ast.Cpf) -> str:
    params = f"({', '.join(cpf.params)})" if cpf.params else ""
    prime = "'" if cpf.primed else ""
    return _statement(f"{cpf.name}{prime}{params} = ", cpf.expr, 2)


def _statement(head: str, expr: ast.Expr, depth: int) -> str:
    """`head` + `expr` + `;`, on one line when it fits, else laid out over several."""
    if _has(_expression_region(expr)):
        commented = _commented_statement(head, expr, depth)
        if commented is not None:
            return commented
    one_line = f"{head}{format_expr(expr)};"
    if len(one_line) + len(INDENT) * depth <= WIDTH:
        return one_line
    if not head:  # a constraint: its lines start where the statement does
        lines = layout(expr, WIDTH - len(INDENT) * depth)
        return "\n".join([lines[0], *(f"{INDENT * depth}{line}" for line in lines[1:])]) + ";"
    lines = layout(expr, WIDTH - len(INDENT) * (depth + 1))
    body = "\n".join(f"{INDENT * (depth + 1)}{line}" for line in lines)
    return f"{head.rstrip()}\n{body};"


def _commented_statement(head: str, expr: ast.Expr, depth: int) -> str | None:
    """A statement whose expression holds comments, broken where they can stay: an `if` chain a branch
    per line, an operator chain an operand per line, each comment before or after the line it was at.
    None for other expressions (their comments go before the statement)."""
    comments = active()
    assert comments is not None
    pad = INDENT * (depth + 1) if head else INDENT * depth
    items = _chain_items(expr, WIDTH - len(pad), pad)
    if items is None:
        return None
    chunks = comments.lay_out(items, _expression_region(expr), pad)
    body = comments.close(chunks, pad, ";")
    if head:
        return f"{head.rstrip()}\n{body}"
    return body[len(pad):]


def _expression_region(expr: ast.Expr) -> tuple[int, int] | None:
    """A statement's expression, from the end of the token before it (`=`): a comment after that
    token leads the expression's first line."""
    comments, span = active(), _span(expr)
    if comments is None or span is None:
        return None
    start = span[0]
    while True:  # brackets around the expression's start belong to it
        before = comments.extend(start, span[1], 1)[0]
        if before == start or comments.text[before:comments.token_end(before)] not in ("(", "["):
            return comments.token_end(before), span[1]
        start = before


def _chain_items(expr: ast.Expr, width: int, pad: str) -> list[Item] | None:
    if isinstance(expr, ast.IfThenElse):
        items: list[Item] = []
        node: ast.Expr = expr
        prefix = "if"
        while isinstance(node, ast.IfThenElse):
            condition, then = node.condition, node.then
            start, end = _span(condition), _span(then)
            span = (start[0], end[1]) if start is not None and end is not None else None
            items.append(Item(span, partial(_branch, f"{prefix} ({format_expr(condition)})", then, width, pad)))
            prefix = "else if"
            node = node.otherwise
        items.append(Item(_span(node), partial(_else, node)))
        return items
    if isinstance(expr, ast.Binary):
        level = ast.BINARY_PRECEDENCE[expr.op]
        chain: list[tuple[str, ast.Expr]] = []
        left: ast.Expr = expr
        while isinstance(left, ast.Binary) and ast.BINARY_PRECEDENCE[left.op] == level:
            chain.append((left.op, left.right))
            left = left.left
        items = [Item(_span(left), partial(_operand, left, level))]
        items += [Item(_span(right), partial(_operator_operand, op, right, level + 1)) for op, right in reversed(chain)]
        return items
    return None


def _branch(condition: str, then: ast.Expr, width: int, pad: str) -> str:
    return f"\n{pad}{INDENT}".join(_if_then(condition, then, width))


def _else(otherwise: ast.Expr) -> str:
    return f"else {format_expr(otherwise)}"


def _operator_operand(op: str, operand: ast.Expr, minimum: int) -> str:
    return f"{op} {_operand(operand, minimum)}"


def _has(span: tuple[int, int] | None) -> bool:
    comments = active()
    return comments is not None and span is not None and comments.inside(*span)


def _objects_decl(decl: ast.ObjectsDecl) -> str:
    return f"{decl.type} : {{{', '.join(decl.names)}}};"


def _assignment(assignment: ast.Assignment) -> str:
    args = f"({', '.join(assignment.args)})" if assignment.args else ""
    if assignment.value == ast.Boolean(True):
        return f"{assignment.name}{args};"
    return f"{assignment.name}{args} = {format_constant(assignment.value)};"


def _objects(objects: tuple[ast.ObjectsDecl, ...]) -> Item:
    return _section("objects", _statements(objects, _objects_decl), objects)


def _non_fluents(block: ast.NonFluents) -> str:
    parts: list[Item] = []
    if block.domain is not None:
        parts.append(Item(None, lambda: f"domain = {block.domain};"))
    if block.objects:
        parts.append(_objects(block.objects))
    if block.values:
        parts.append(_section("non-fluents", _statements(block.values, _assignment), block.values))
    return _block(f"non-fluents {block.name} {{", parts, block)


def _instance(block: ast.Instance) -> str:
    parts: list[Item] = []
    if block.domain is not None:
        parts.append(Item(None, lambda: f"domain = {block.domain};"))
    if block.non_fluents is not None:
        parts.append(Item(None, lambda: f"non-fluents = {block.non_fluents};"))
    if block.objects:
        parts.append(_objects(block.objects))
    if block.non_fluent_values:
        parts.append(_section("non-fluents", _statements(block.non_fluent_values, _assignment),
                              block.non_fluent_values))
    if block.init_state:
        parts.append(_section("init-state", _statements(block.init_state, _assignment), block.init_state))
    for keyword, value in (
        ("max-nondef-actions", block.max_nondef_actions),
        ("horizon", block.horizon),
        ("discount", block.discount),
    ):
        if isinstance(value, ast.TerminateWhen):
            parts.append(_statement_item(value, partial(_terminate_when, keyword, value), 2))
        elif value is not None:
            parts.append(_statement_item(value, partial(_setting, keyword, value), 2))
    return _block(f"instance {block.name} {{", parts, block)


def _terminate_when(keyword: str, value: ast.TerminateWhen) -> str:
    return f"{keyword} = terminate-when ({format_expr(value.condition)});"


def _setting(keyword: str, value: ast.Constant) -> str:
    return f"{keyword} = {format_constant(value)};"


_BLOCK_PRINTERS: dict[type, Callable[[Any], str]] = {
    ast.Domain: _domain,
    ast.NonFluents: _non_fluents,
    ast.Instance: _instance,
}


# ---------------------------------------------------------------------------------------------------
# expressions


def format_number(value: float) -> str:
    if isinstance(value, bool):
        raise TypeError("a boolean is not a number")
    if isinstance(value, int):
        return str(value)
    if math.isinf(value):
        return "pos-inf" if value > 0 else "neg-inf"
    text = repr(value)
    if "e" in text or "E" in text:
        # RDDL has no exponent notation: write the same shortest decimal out in full
        text = format(Decimal(text), "f")
    if "." not in text:
        text += ".0"
    return text


#: An infinite real inside an expression, where `pos-inf` is not allowed (only constants have it): a
#: decimal past the largest double, which RDDLSim, as we do, reads as infinity.
_INFINITE_DECIMAL = "1" + "0" * 309 + ".0"


def _expression_number(value: float) -> str:
    if isinstance(value, float) and math.isinf(value):
        return _INFINITE_DECIMAL if value > 0 else "-" + _INFINITE_DECIMAL
    return format_number(value)


def format_constant(value: ast.Constant) -> str:
    """A constant as instance files and defaults write it: objects bare, without `$`; infinities as
    `pos-inf` and `neg-inf`."""
    if isinstance(value, ast.Integer | ast.Real):
        return format_number(value.value)
    if isinstance(value, ast.ObjectValue):
        return value.name
    if isinstance(value, ast.TupleExpr):
        return "< " + ", ".join(f"{label} : {format_constant(v)}" for label, v in value.entries) + " >"  # type: ignore[arg-type]
    return format_expr(value)


_PREFIX_FORMS = (ast.Aggregation, ast.IfThenElse)
_ATOMIC_PRECEDENCE = len(ast.BINARY_LEVELS) + 1  # unary operators and everything tighter


def _precedence(expr: ast.Expr) -> int:
    if isinstance(expr, ast.Binary):
        return ast.BINARY_PRECEDENCE[expr.op]
    if isinstance(expr, _PREFIX_FORMS):
        return -1
    return _ATOMIC_PRECEDENCE


def _operand(expr: ast.Expr, minimum: int) -> str:
    text = format_expr(expr)
    return f"({text})" if _precedence(expr) < minimum else text


def format_expr(expr: ast.Expr) -> str:
    printer = _EXPR_PRINTERS.get(type(expr))
    if printer is None:
        raise TypeError(f"not an RDDL expression: {expr!r}")
    return printer(expr)


def _binary(expr: ast.Binary) -> str:
    level = ast.BINARY_PRECEDENCE[expr.op]
    # All binary operators are left associative: an equal level needs brackets only on the right.
    # A chain of one level (`a + b + c + ...`, a left-deep tree) is printed in a loop down its left
    # spine, so that a flat sum of thousands of terms is not as many levels of recursion.
    spine: list[ast.Binary] = []
    node: ast.Expr = expr
    while isinstance(node, ast.Binary) and ast.BINARY_PRECEDENCE[node.op] == level:
        spine.append(node)
        node = node.left
    parts = [_operand(node, level)]
    parts.extend(f" {step.op} {_operand(step.right, level + 1)}" for step in reversed(spine))
    return "".join(parts)


def _unary(expr: ast.Unary) -> str:
    operand = _operand(expr.operand, _ATOMIC_PRECEDENCE)
    if expr.op in "+-" and operand[:1] in "+-":
        operand = " " + operand  # keep `- -x` from reading as one token in other tools
    return f"{expr.op}{operand}"


def _arguments(args: Iterable[ast.Expr]) -> str:
    return ", ".join(format_expr(a) for a in args)


def _pvariable(expr: ast.PVariable) -> str:
    prime = "'" if expr.primed else ""
    if not expr.args:
        return expr.name + prime
    return f"{expr.name}{prime}({_arguments(expr.args)})"


def _aggregation(expr: ast.Aggregation) -> str:
    bindings = ", ".join(f"{b.variable} : {b.type}" for b in expr.bindings)
    body = format_expr(expr.body)
    if isinstance(expr.body, ast.Binary):
        body = f"[{body}]"  # not needed, but shows the reader where the body ends
    return f"{expr.op}_{{{bindings}}} {body}"


def _if_then_else(expr: ast.IfThenElse) -> str:
    return (
        f"if ({format_expr(expr.condition)}) then {format_expr(expr.then)} "
        f"else {format_expr(expr.otherwise)}"
    )


def _switch_case(case: ast.SwitchCase) -> str:
    if case.value is None:
        return f"default : {format_expr(case.result)}"
    return f"case {format_expr(case.value)} : {format_expr(case.result)}"


def _switch(expr: ast.Switch) -> str:
    cases = ", ".join(_switch_case(c) for c in expr.cases)
    return f"switch ({format_expr(expr.subject)}) {{ {cases} }}"


def _discrete_case(case: ast.DiscreteCase) -> str:
    probability = "otherwise" if case.probability is None else format_expr(case.probability)
    return f"{case.value} : {probability}"


def _discrete(expr: ast.Discrete) -> str:
    cases = ", ".join(_discrete_case(c) for c in expr.cases)
    return f"{expr.name}({expr.type}, {cases})"


def _tuple(expr: ast.TupleExpr) -> str:
    # a member is read as a closed sum (see the grammar): anything looser, or a prefix form, is bracketed
    level = ast.BINARY_PRECEDENCE["+"]
    entries = ", ".join(f"{label} : {_closed(value, level)}" for label, value in expr.entries)
    return f"< {entries} >"


def _closed(expr: ast.Expr, minimum: int) -> str:
    text = format_expr(expr)
    return f"({text})" if _precedence(expr) < minimum or _ends_open(expr) else text


def _ends_open(expr: ast.Expr) -> bool:
    """Whether `expr` prints ending in a prefix form, which would swallow what follows it."""
    while True:
        if isinstance(expr, _PREFIX_FORMS):
            return True
        if isinstance(expr, ast.Unary):
            expr = expr.operand
        elif isinstance(expr, ast.Binary):
            expr = expr.right
        else:
            return False


def _member(expr: ast.Member) -> str:
    base = format_expr(expr.base)
    if isinstance(expr.base, (ast.Unary, ast.Binary, *_PREFIX_FORMS)):
        base = f"({base})"
    return f"{base}.{format_expr(expr.label)}"


def _multinomial(expr: ast.Multinomial) -> str:
    cases = ", ".join(_discrete_case(c) for c in expr.cases)
    return f"Multinomial({expr.type}, {format_expr(expr.count)}, {cases})"


def layout(expr: ast.Expr, width: int) -> list[str]:
    """`expr` as lines of at most about `width` characters, indented relative to the first.

    The lines hold exactly the tokens of `format_expr(expr)`, so the text parses to the same AST;
    only whitespace differs. Breaks go before `else`, before each operand of the loosest operator,
    and inside the brackets of an aggregation's body.
    """
    one_line = format_expr(expr)
    if len(one_line) <= width:
        return [one_line]
    if isinstance(expr, ast.IfThenElse):
        lines = _if_then(f"if ({format_expr(expr.condition)})", expr.then, width)
        rest: ast.Expr = expr.otherwise
        while isinstance(rest, ast.IfThenElse):
            lines += _if_then(f"else if ({format_expr(rest.condition)})", rest.then, width)
            rest = rest.otherwise
        tail = layout(rest, width - len(INDENT))
        return [*lines, f"else {tail[0]}", *(INDENT + line for line in tail[1:])]
    if isinstance(expr, ast.Binary):
        level = ast.BINARY_PRECEDENCE[expr.op]
        chain: list[tuple[str, ast.Expr]] = []
        left: ast.Expr = expr
        while isinstance(left, ast.Binary) and ast.BINARY_PRECEDENCE[left.op] == level:
            chain.append((left.op, left.right))
            left = left.left
        lines = [_operand(left, level)]
        for op, right in reversed(chain):
            lines.append(f"{op} {_operand(right, level + 1)}")
        return lines
    if isinstance(expr, ast.Aggregation) and isinstance(expr.body, ast.Binary):
        bindings = ", ".join(f"{b.variable} : {b.type}" for b in expr.bindings)
        body = layout(expr.body, width - len(INDENT))
        return [f"{expr.op}_{{{bindings}}} [", *(INDENT + line for line in body), "]"]
    return [one_line]


def _if_then(condition: str, then: ast.Expr, width: int) -> list[str]:
    both = f"{condition} then {format_expr(then)}"
    return [both] if len(both) <= width else [condition, f"then {format_expr(then)}"]


_EXPR_PRINTERS: dict[type, Callable[[Any], str]] = {
    ast.Boolean: lambda e: "true" if e.value else "false",
    ast.Integer: lambda e: format_number(e.value),
    ast.Real: lambda e: _expression_number(e.value),
    ast.Variable: lambda e: e.name,
    ast.EnumValue: lambda e: e.name,
    ast.ObjectValue: lambda e: f"${e.name}",
    ast.PVariable: _pvariable,
    ast.Unary: _unary,
    ast.Binary: _binary,
    ast.Aggregation: _aggregation,
    ast.IfThenElse: _if_then_else,
    ast.Switch: _switch,
    ast.Function: lambda e: f"{e.name}[{_arguments(e.args)}]",
    ast.Distribution: lambda e: f"{e.name}({_arguments(e.args)})",
    ast.Discrete: _discrete,
    ast.VectorDistribution: lambda e: f"{e.name}[{', '.join(e.indices)}]({_arguments(e.args)})",
    ast.TupleExpr: _tuple,
    ast.Member: _member,
    ast.Multinomial: _multinomial,
    ast.Dirichlet: lambda e: f"Dirichlet({e.type}, {format_expr(e.alpha)})",
    ast.MatrixOperation: lambda e: f"{e.name}[row={e.row}, col={e.column}][{format_expr(e.body)}]",
}
