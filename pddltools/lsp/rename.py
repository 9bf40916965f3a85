"""Rename and document highlight: every place of the name under the cursor, across the domain and its
open problems (PDDL, HDDL) or the RDDL files that name one another, from the same indexes as
references; a rename is refused, with the reason, when the new name is not a name of the language, is
one of its keywords, or is already declared where it would clash (a predicate renamed onto another
predicate, a parameter onto a variable of the same action)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from pddltools.diagnostics import Span
from pddltools.dialects import language_server
from pddltools.hddl import ast as hddl
from pddltools.lsp import hddl_index
from pddltools.lsp.navigation import _related, name_at, rddl_name_at, rddl_references, references
from pddltools.lsp.workspace import Document, Workspace
from pddltools.pddl import ast


class RenameRefused(Exception):
    """The rename would not be safe; the message says why."""


@dataclass(frozen=True)
class Places:
    """The name under the cursor (`at`), its kind, and every place it is written (`spans`, the
    declaration among them unless left out)."""

    at: Span
    kind: str
    spans: list[Span]
    language: str


@cache
def _pddl_words() -> tuple[re.Pattern[str], re.Pattern[str], frozenset[str]]:
    from pddltools.pddl.parser import terminals as pddl_terminals

    terminals = pddl_terminals()
    return (re.compile(terminals.name, re.IGNORECASE), re.compile(terminals.variable, re.IGNORECASE),
            frozenset(terminals.hard_keywords))


@cache
def _rddl_words() -> tuple[re.Pattern[str], frozenset[str]]:
    from pddltools.rddl.language import LANGUAGE
    from pddltools.rddl.parser import name_pattern

    return re.compile(name_pattern()), frozenset(LANGUAGE.keywords().values())


def places(workspace: Workspace, doc: Document, offset: int, declaration: bool = True) -> Places | None:
    """The places of the declared name under the cursor, or None where there is none (or it is not declared)."""
    if doc.language == "rddl":
        r = rddl_name_at(workspace, doc, offset)
        if r is None or r.declaration is None:
            return None
        return Places(r.use.span, r.use.kind, rddl_references(r, declaration), "rddl")
    extension = language_server(doc.language)  # a language on PDDL with names of its own (HDDL's tasks)
    if extension is not None:
        h = extension.hierarchy_at(workspace, doc, offset)
        if h is not None:
            if h.declaration is None:
                return None
            return Places(h.use.span, h.use.kind, extension.references(h, declaration), doc.language)
        p = extension.pddl_found(workspace, doc, offset)
        if p is None or p.symbol is None:
            return None
        return Places(p.use.span, p.use.kind, extension.pddl_references(workspace, doc, p, declaration), doc.language)
    found = name_at(workspace, doc, offset)
    if found is None or found.symbol is None:
        return None
    return Places(found.use.span, found.use.kind, references(workspace, doc, found, declaration), "pddl")


def rename(workspace: Workspace, doc: Document, offset: int, new: str) -> list[Span]:
    """The spans to replace by `new`; raises `RenameRefused` (or returns [] where nothing is named)."""
    found = places(workspace, doc, offset)
    if found is None:
        raise RenameRefused("nothing to rename here: put the cursor on a declared name")
    if new.lower() == found.at.text.lower():
        return []
    _check_word(found, new)
    why = _clash(workspace, doc, offset, found, new)
    if why is not None:
        raise RenameRefused(why)
    return found.spans


def _check_word(found: Places, new: str) -> None:
    if found.language == "rddl":
        name, keywords = _rddl_words()
        if not name.fullmatch(new) or new in keywords:
            raise RenameRefused(f"{new!r} is not an RDDL name (or is a keyword)")
        return
    name, variable, keywords = _pddl_words()
    if found.kind == "parameter":
        if not variable.fullmatch(new):
            raise RenameRefused(f"{new!r} is not a variable: a parameter is written ?name")
    elif not name.fullmatch(new) or new.lower() in keywords:
        raise RenameRefused(f"{new!r} is not a {found.language.upper()} name (or is a keyword)")


def _clash(workspace: Workspace, doc: Document, offset: int, found: Places, new: str) -> str | None:
    wanted = new.lower()
    if found.language == "rddl":
        rddl = rddl_name_at(workspace, doc, offset)
        assert rddl is not None
        from pddltools.lsp.rddl_index import declarations

        taken = next((kind for kind, name in declarations(list(rddl.files)) if name == new), None)
        return None if taken is None else f"{new} is already declared as a {taken}"
    if language_server(found.language) is not None:
        return _hddl_clash(workspace, doc, offset, found, wanted)
    pddl = name_at(workspace, doc, offset)
    assert pddl is not None and pddl.symbol is not None
    if found.kind == "parameter":
        binder = pddl.symbol.binder
        if binder is not None and any(getattr(node, "name", None) == wanted for node in binder.walk()
                                      if isinstance(node, ast.Variable | ast.TypedName)):
            return f"{wanted} is already a variable of this {type(binder).__name__.lower()}"
        return None
    if found.kind == "domain":
        return None
    kinds = ("predicate", "function") if found.kind in ("predicate", "function") else (found.kind,)
    for other in _related(workspace, doc):
        table = workspace.table(other)
        for kind in kinds:
            if wanted in table.of_kind(kind):
                return f"{wanted} is already declared as a {kind}"
    return None


def _hddl_clash(workspace: Workspace, doc: Document, offset: int, found: Places, wanted: str) -> str | None:
    node = hddl_index.parsed(doc).node
    if node is None:
        return None
    domain = node if isinstance(node, hddl.HTNDomain) else hddl_index.domain_of(workspace, doc)
    roots = [r for r in (node, domain) if r is not None]
    if found.kind in ("task", "method", "action"):
        names = {u.name for root in roots for u in hddl_index.hierarchy_uses(root) if u.declaration
                 and u.kind in ("task", "method")}
        if domain is not None:
            names |= {a.name for a in domain.domain.actions}
        return f"{wanted} is already the name of a task, method or action" if wanted in names else None
    if found.kind == "id":
        h = hddl_index.hierarchy_at(workspace, doc, offset)
        network = h.use.network if h is not None else None
        if network is not None and any(s.id == wanted for s in network.subtasks):
            return f"{wanted} is already a subtask id of this network"
        return None
    p = hddl_index.pddl_found(workspace, doc, offset)
    if p is None or p.symbol is None:
        return None
    if found.kind == "parameter":
        binder = p.symbol.binder
        if binder is not None and any(getattr(n, "name", None) == wanted for n in binder.walk()
                                      if isinstance(n, ast.Variable | ast.TypedName)):
            return f"{wanted} is already a variable here"
        return None
    kinds = ("predicate", "function") if found.kind in ("predicate", "function") else (found.kind,)
    if any(wanted in p.table.of_kind(kind) for kind in kinds):
        return f"{wanted} is already declared as a {found.kind}"
    return None


def highlights(workspace: Workspace, doc: Document, offset: int) -> list[tuple[Span, bool]]:
    """The places of the name under the cursor in this document, each with whether it declares it."""
    found = places(workspace, doc, offset)
    if found is None:
        return []
    declared = {s.start for s in (places(workspace, doc, offset, declaration=False) or found).spans}
    return [(span, span.start not in declared) for span in found.spans if span.file == doc.name]
