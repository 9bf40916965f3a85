"""RDDL names for hover, go to definition and references: pvariables, types and objects.

The RDDL AST spans a declaration by its name (`on` of `on(room) : {...}`), a CPF and a pvariable use
from their name on, and a binding `?r : room` whole; where a name has no span of its own (the objects
listed in `room : {kitchen, hall};`), it is read from the text after the span.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from pddltools.diagnostics import Span
from pddltools.rddl import ast
from pddltools.rddl.printer import format_constant

_NAME = re.compile(r"[A-Za-z_][\w\-]*")


@dataclass(frozen=True)
class RUse:
    kind: str  # "pvariable", "type" or "object"
    name: str
    span: Span
    declaration: bool = False
    node: ast.Node | None = None


def _head(span: Span | None, name: str) -> Span | None:
    """The name at the start of `span`."""
    if span is None or not span.text.startswith(name):
        return None
    return Span(span.source, span.start, span.start + len(name))


def uses(rddl: ast.RDDLFile) -> Iterator[RUse]:
    for node in rddl.walk():
        if isinstance(node, ast.PVariableDecl | ast.ObjectType | ast.EnumType):
            head = _head(node.span, node.name)
            if head is not None:
                kind = "pvariable" if isinstance(node, ast.PVariableDecl) else "type"
                yield RUse(kind, node.name, head, True, node)
        elif isinstance(node, ast.Cpf | ast.PVariable | ast.Assignment):
            head = _head(node.span, node.name)
            if head is not None:
                yield RUse("pvariable", node.name, head)
                if isinstance(node, ast.Assignment) and node.args:
                    yield from _arguments(head, node.args)
        elif isinstance(node, ast.Binding) and node.span is not None and node.span.text.endswith(node.type):
            yield RUse("type", node.type, Span(node.span.source, node.span.end - len(node.type), node.span.end))
        elif isinstance(node, ast.ObjectsDecl) and node.span is not None:
            head = _head(node.span, node.type)
            if head is not None:
                yield RUse("type", node.type, head)
            yield from _listed_objects(node)


def _arguments(head: Span, args: tuple[str, ...]) -> Iterator[RUse]:
    """The objects of `p(a, b) = v;` (its span is the name; the arguments follow in parentheses)."""
    text = head.source.text
    opening = head.end if text.startswith("(", head.end) else -1
    closing = text.find(")", opening, opening + 2000) if opening >= 0 else -1
    if closing < 0:
        return
    wanted = {a for a in args if not a.startswith("@")}
    for match in _NAME.finditer(text, opening + 1, closing):
        if match.group() in wanted:
            yield RUse("object", match.group(), Span(head.source, match.start(), match.end()))


def _listed_objects(decl: ast.ObjectsDecl) -> Iterator[RUse]:
    assert decl.span is not None
    text = decl.span.source.text
    opening = text.find("{", decl.span.end, decl.span.end + 200)
    closing = text.find("}", opening) if opening >= 0 else -1
    if closing < 0:
        return
    wanted = set(decl.names)
    for match in _NAME.finditer(text, opening + 1, closing):
        if match.group() in wanted:
            yield RUse("object", match.group(), Span(decl.span.source, match.start(), match.end()), True, decl)


def declarations(files: list[ast.RDDLFile]) -> dict[tuple[str, str], RUse]:
    found: dict[tuple[str, str], RUse] = {}
    for rddl in files:
        for use in uses(rddl):
            if use.declaration:
                found.setdefault((use.kind, use.name), use)
    return found


def use_at(rddl: ast.RDDLFile, offset: int, declared: dict[tuple[str, str], RUse]) -> RUse | None:
    for use in uses(rddl):
        if use.span.start <= offset <= use.span.end:
            if use.kind == "pvariable" and ("pvariable", use.name) not in declared \
                    and ("object", use.name) in declared:
                return RUse("object", use.name, use.span)  # a bare name in an expression: an object
            return use
    return None


def describe(use: RUse) -> str:
    node = use.node
    if isinstance(node, ast.PVariableDecl):
        params = f"({', '.join(node.params)})" if node.params else ""
        extra = f", default = {format_constant(node.default)}" if node.default is not None else ""
        extra += f", level = {format_constant(node.level)}" if node.level is not None else ""
        signature = f"{node.name}{params} : {{ {node.kind}, {node.range}{extra} }};"
    elif isinstance(node, ast.ObjectType):
        signature = f"{node.name} : {node.parent};"
    elif isinstance(node, ast.EnumType):
        signature = f"{node.name} : {{{', '.join(node.values)}}};"
    elif isinstance(node, ast.ObjectsDecl):
        signature = f"{use.name} : {node.type}"
    else:
        signature = use.name
    return (f"```rddl\n{signature}\n```\n\n{use.kind}, declared at {use.span.file}:{use.span.line}:"
            f"{use.span.column}")
