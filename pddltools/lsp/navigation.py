"""Go to definition, find references and hover for PDDL names, within a document and across the open
problems of a domain (and the domain of a problem); and for RDDL pvariables, types and objects."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pddltools.diagnostics import Span
from pddltools.lsp.pddl_index import Symbol, Table, Use, build_table, use_at, uses
from pddltools.lsp.rddl_index import RUse
from pddltools.lsp.rddl_index import declarations as rddl_declarations
from pddltools.lsp.rddl_index import describe as rddl_describe
from pddltools.lsp.rddl_index import use_at as rddl_use_at
from pddltools.lsp.rddl_index import uses as rddl_uses
from pddltools.lsp.workspace import Document, Workspace
from pddltools.pddl import ast
from pddltools.pddl.type_hierarchy import OBJECT, TypeHierarchy, type_names
from pddltools.rddl import ast as rast

_DOMAIN_HEAD = re.compile(r"\(\s*define\s*\(\s*domain\b", re.IGNORECASE)


@dataclass(frozen=True)
class Found:
    use: Use
    symbol: Symbol | None
    table: Table


def name_at(workspace: Workspace, doc: Document, offset: int) -> Found | None:
    node = workspace.pddl(doc).node
    if node is None:
        return None
    table = workspace.table(doc)
    use = use_at(node, offset, frozenset(table.functions))
    if use is None:
        return None
    symbol = table.lookup(use)
    if use.kind == "domain" and isinstance(node, ast.Problem):
        found = workspace.domain_for(doc, node)
        domain = found[1].node if found else None
        symbol = build_domain_symbol(domain) if isinstance(domain, ast.Domain) else None
    return Found(use, symbol, table)


def build_domain_symbol(domain: ast.Domain) -> Symbol | None:
    return build_table(domain).domain_name


def references(workspace: Workspace, doc: Document, found: Found, include_declaration: bool) -> list[Span]:
    """Every use of the symbol under the cursor: in this document, its domain, and the open problems
    of that domain (parameters only in their own action)."""
    target = found.use.key()
    if found.use.kind == "parameter":
        roots = [workspace.pddl(doc).node]
    else:
        roots = [workspace.pddl(d).node for d in _related(workspace, doc)]
    spans: list[Span] = []
    seen: set[tuple[str, int]] = set()
    declared = found.symbol.span if found.symbol is not None else None
    for root in roots:
        if root is None:
            continue
        for use in uses(root, frozenset(found.table.functions)):
            if use.kind != found.use.kind or use.name != found.use.name or use.key() != target:
                continue
            is_declaration = use.declaration or (declared is not None and use.span == declared)
            if is_declaration and not include_declaration:
                continue
            where = (use.span.file, use.span.start)
            if where not in seen:
                seen.add(where)
                spans.append(use.span)
    if include_declaration and declared is not None and (declared.file, declared.start) not in seen:
        spans.append(declared)
    return sorted(spans, key=lambda s: (s.file != doc.name, s.file, s.start))


def _related(workspace: Workspace, doc: Document) -> list[Document]:
    """`doc`, its domain when it is a problem, and the open problems of that domain."""
    node = workspace.pddl(doc).node
    docs = [doc]
    domain: ast.Domain | None = node if isinstance(node, ast.Domain) else None
    if isinstance(node, ast.Problem):
        found = workspace.domain_for(doc, node)
        if found is not None and isinstance(found[1].node, ast.Domain):
            domain = found[1].node
            opened = workspace.documents.get(found[0])
            if opened is not None:
                docs.append(opened)
            else:
                docs.append(Document(found[0], domain.span.source.text if domain.span else "", -1, "pddl"))
    if domain is not None:
        docs += [d for d in workspace.problems_of(domain, doc.uri) if d not in docs]
    return docs


# -------------------------------------------------------------------------------------------------
# Hover


def hover_text(found: Found) -> str:
    use, symbol, table = found.use, found.symbol, found.table
    if symbol is None:
        if use.kind == "parameter":
            return f"`{use.name}` is not bound here (not a parameter or quantified variable)"
        return f"{use.kind} `{use.name}` is not declared"
    lines = [f"```pddl\n{signature(symbol, table)}\n```", f"{_describe(symbol)}, declared at "
             f"{_place(symbol.span)}"]
    if symbol.kind == "type":
        lines.append(_supertypes(symbol.name, table.hierarchy))
    elif symbol.kind == "object" and isinstance(symbol.node, ast.TypedName):
        above: list[str] = []
        for name in type_names(symbol.node.type):
            above += [t for t in _chain(name, table.hierarchy) if t not in above]
        lines.append("of types: " + ", ".join(above))
    return "\n\n".join(lines)


def _describe(symbol: Symbol) -> str:
    if symbol.kind == "parameter" and symbol.binder is not None:
        owner = symbol.binder
        if isinstance(owner, ast.Action | ast.DurativeAction | ast.DerivedPredicate):
            what = {ast.Action: "action", ast.DurativeAction: "durative action",
                    ast.DerivedPredicate: "derived predicate"}[type(owner)]
            return f"parameter of {what} {owner.name}"
        return "quantified variable"
    if symbol.kind == "object" and symbol.node.span is not None and _in_domain(symbol):
        return "constant"
    return {"predicate": "predicate", "function": "function", "type": "type", "object": "object",
            "action": "action", "domain": "domain", "parameter": "parameter"}[symbol.kind]


def _in_domain(symbol: Symbol) -> bool:
    text = symbol.span.source.text
    return _DOMAIN_HEAD.search(text[:4096]) is not None


def _place(span: Span) -> str:
    return f"{span.file}:{span.line}:{span.column}"


def signature(symbol: Symbol, table: Table) -> str:
    node = symbol.node
    if isinstance(node, ast.PredicateDecl):
        return f"({node.name}{parameters_text(node.parameters)})"
    if isinstance(node, ast.FunctionDecl):
        value = f" - {_type_text(node.type)}" if node.type is not None else ""
        return f"({node.name}{parameters_text(node.parameters)}){value}"
    if isinstance(node, ast.Action | ast.DurativeAction):
        keyword = ":action" if isinstance(node, ast.Action) else ":durative-action"
        return f"({keyword} {node.name}\n  :parameters ({parameters_text(node.parameters).strip()}))"
    if isinstance(node, ast.TypedName):
        return f"{node.name} - {_type_text(node.type)}" if node.type is not None else node.name
    if isinstance(node, ast.TypeName):
        return node.name
    if isinstance(node, ast.Domain):
        return f"(define (domain {node.name}))"
    return symbol.name


def parameters_text(parameters: tuple[ast.TypedName, ...]) -> str:
    """` ?a - t1 ?b - t2`: each parameter after one space, as a signature writes them."""
    return "".join(f" {p.name}" + (f" - {_type_text(p.type)}" if p.type is not None else "") for p in parameters)


def _type_text(ref: ast.TypeRef | None) -> str:
    if ref is None:
        return OBJECT
    if isinstance(ref, ast.TypeName):
        return ref.name
    return "(either " + " ".join(t.name for t in ref.types) + ")"


def _chain(name: str, hierarchy: TypeHierarchy) -> list[str]:
    """`name` and its supertypes, nearest first (breadth first up the hierarchy)."""
    out = [name]
    at = 0
    while at < len(out):
        for parent in hierarchy.parents.get(out[at], (OBJECT,) if out[at] != OBJECT else ()):
            if parent not in out:
                out.append(parent)
        at += 1
    return out


def _supertypes(name: str, hierarchy: TypeHierarchy) -> str:
    above = _chain(name, hierarchy)[1:]
    below = sorted(hierarchy.subtypes(name) - {name})
    text = "supertypes: " + (", ".join(above) if above else "none (the root type)")
    if below:
        text += "\n\nsubtypes: " + ", ".join(below)
    return text


# -------------------------------------------------------------------------------------------------
# RDDL


@dataclass(frozen=True)
class RDDLFound:
    use: RUse
    declaration: RUse | None
    files: tuple[rast.RDDLFile, ...]  # this document, the blocks it names, and the other open RDDL files


def rddl_name_at(workspace: Workspace, doc: Document, offset: int) -> RDDLFound | None:
    node = workspace.rddl(doc).node
    if node is None:
        return None
    files = [node, *workspace.rddl_companions(doc, node)]
    for other in list(workspace.documents.values()):
        if other.language == "rddl" and other.uri != doc.uri:
            parsed = workspace.rddl(other).node
            if parsed is not None and all(parsed is not f for f in files):  # identity: == compares trees
                files.append(parsed)
    declared = rddl_declarations(files)
    use = rddl_use_at(node, offset, declared)
    if use is None:
        return None
    return RDDLFound(use, declared.get((use.kind, use.name)), tuple(files))


def rddl_references(found: RDDLFound, include_declaration: bool) -> list[Span]:
    spans: list[Span] = []
    seen: set[tuple[str, int]] = set()
    for rddl in found.files:
        for use in rddl_uses(rddl):
            if (use.kind, use.name) != (found.use.kind, found.use.name):
                continue
            if use.declaration and not include_declaration:
                continue
            if (use.span.file, use.span.start) not in seen:
                seen.add((use.span.file, use.span.start))
                spans.append(use.span)
    return spans


def rddl_hover_text(found: RDDLFound) -> str:
    if found.declaration is None:
        return f"{found.use.kind} `{found.use.name}` is not declared in the open files or beside this one"
    return rddl_describe(found.declaration)
