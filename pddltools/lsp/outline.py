"""Document symbols (the editor's outline).

PDDL: the domain with its types, constants, predicates, functions, actions and axioms; a problem with
its objects and sections. RDDL: each block, with types, pvariables and CPFs.
"""

from __future__ import annotations

from lsprotocol import types as lsp

from pddltools.diagnostics import Span
from pddltools.dialects import language_server
from pddltools.lsp.navigation import parameters_text, signature
from pddltools.lsp.pddl_index import Symbol, Table, build_table, word_span
from pddltools.lsp.positions import Positions
from pddltools.lsp.workspace import Document, Workspace
from pddltools.pddl import ast
from pddltools.rddl import ast as rast

K = lsp.SymbolKind


def document_symbols(workspace: Workspace, doc: Document, encoding: str = "utf-16") -> list[lsp.DocumentSymbol]:
    positions = Positions(doc.text, encoding)
    if doc.language == "rddl":
        node = workspace.rddl(doc).node
        return [] if node is None else [_rddl_block(b, positions) for b in node.blocks if b.span is not None]
    extension = language_server(doc.language, doc.text)
    parsed = extension.outline_node(doc) if extension is not None else workspace.pddl(doc).node  # its PDDL part
    if isinstance(parsed, ast.Domain):
        return [_domain(parsed, positions)]
    if isinstance(parsed, ast.Problem):
        return [_problem(parsed, positions)]
    return []


def _symbol(name: str, kind: lsp.SymbolKind, span: Span | None, selection: Span | None, positions: Positions,
            detail: str | None = None, children: list[lsp.DocumentSymbol] | None = None) -> lsp.DocumentSymbol:
    whole = positions.span_range(span)
    chosen = positions.span_range(selection) if selection is not None else whole
    return lsp.DocumentSymbol(name=name, kind=kind, range=whole, selection_range=chosen, detail=detail,
                              children=children or None)


def _domain(domain: ast.Domain, positions: Positions) -> lsp.DocumentSymbol:
    table = build_table(domain)
    children: list[lsp.DocumentSymbol] = []

    def add(symbols: dict[str, Symbol], kind: lsp.SymbolKind) -> None:
        for name, symbol in symbols.items():
            children.append(_symbol(name, kind, symbol.node.span or symbol.span, symbol.span, positions,
                                    _detail(symbol, table)))

    add(table.types, K.Class)
    add({k: v for k, v in table.objects.items()}, K.Constant)
    add(table.predicates, K.Function)
    add(table.functions, K.Field)
    add(table.actions, K.Method)
    name = word_span(domain.span, domain.name, 1, 5)
    return _symbol(domain.name, K.Module, domain.span, name, positions, "domain", children)


def _detail(symbol: Symbol, table: Table) -> str:
    """One line for the outline: an action's keyword and parameters (its name is the symbol's), else the
    signature a hover shows, which is one line for everything but actions."""
    node = symbol.node
    if isinstance(node, ast.Action | ast.DurativeAction):
        keyword = ":action" if isinstance(node, ast.Action) else ":durative-action"
        return f"{keyword} ({parameters_text(node.parameters).strip()})"
    return signature(symbol, table)


def _problem(problem: ast.Problem, positions: Positions) -> lsp.DocumentSymbol:
    children = [_symbol(o.name, K.Constant, o.span, o.span, positions,
                        f"{o.name} - {o.type}" if o.type is not None else None) for o in problem.objects]
    if problem.goal is not None:
        children.append(_symbol(":goal", K.Event, problem.goal.span, None, positions))
    if problem.metric is not None:
        children.append(_symbol(":metric", K.Event, problem.metric.span, None, positions))
    name = word_span(problem.span, problem.name, 1, 5)
    return _symbol(problem.name, K.Module, problem.span, name, positions, f"problem for {problem.domain}", children)


def _rddl_block(block: rast.Block, positions: Positions) -> lsp.DocumentSymbol:
    children: list[lsp.DocumentSymbol] = []
    if isinstance(block, rast.Domain):
        children += [_symbol(t.name, K.Enum if isinstance(t, rast.EnumType) else K.Class, t.span, None, positions)
                     for t in block.types]
        children += [_symbol(p.name, K.Field, p.span, None, positions, f"{p.kind}, {p.range}")
                     for p in block.pvariables]
        children += [_symbol(c.name + ("'" if c.primed else ""), K.Function, c.span, None, positions, "cpf")
                     for c in block.cpfs]
        kind = "domain"
    elif isinstance(block, rast.NonFluents):
        children += [_symbol(o.type, K.Constant, o.span, None, positions, ", ".join(o.names)) for o in block.objects]
        kind = "non-fluents"
    else:
        children += [_symbol(o.type, K.Constant, o.span, None, positions, ", ".join(o.names)) for o in block.objects]
        kind = "instance"
    return _symbol(block.name, K.Module, block.span, None, positions, kind, children)
