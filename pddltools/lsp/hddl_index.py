"""HDDL in the language server: parses, findings, and the names of the hierarchy (tasks, methods,
subtask ids) for hover, definition, references, completion and the outline.

An HDDL document is parsed whole through `pddltools.hddl.language.LANGUAGE` (cached by version) and
checked with `pddltools.hddl.check`; a problem is checked against the `.hddl` domain the domain finder
finds (open documents are read as the editor has them). Names that are PDDL's (predicates, types,
objects, parameters of actions and methods) are looked up by PDDL's index (`pddl_index`) in the domain
with its methods standing in as actions, as the checker sees it; the hierarchy's names here.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from lsprotocol import types as lsp

from pddltools.diagnostics import Diagnostic, Error, Severity, Source, Span, decode_source
from pddltools.domain_finder import HEAD_BYTES, DomainFinder, classify, classify_file
from pddltools.hddl import ast
from pddltools.hddl.check import as_action, check_htn
from pddltools.hddl.language import LANGUAGE
from pddltools.lsp.navigation import Found, hover_text
from pddltools.lsp.pddl_index import build_table, use_at, uses, word_span
from pddltools.lsp.recovery import blank
from pddltools.lsp.workspace import Document, Workspace
from pddltools.pddl import ast as pddl
from pddltools.reading import read_input

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pddltools.domain_finder import Kind

HKind = Literal["task", "method", "id"]
_WORD = re.compile(r"[^\s()]*\Z")
_SECTION = re.compile(r"\(\s*(:[\w\-]+)")


@dataclass(frozen=True)
class HDDLParsed:
    node: ast.HTNDomain | ast.HTNProblem | None
    syntax: tuple[Diagnostic, ...]
    warnings: tuple[Diagnostic, ...]


@dataclass(frozen=True)
class HUse:
    """One place a task, method or subtask id is named; `network` scopes an id to its task network."""

    kind: HKind
    name: str
    span: Span
    declaration: bool = False
    network: ast.TaskNetwork | None = None


_cache: dict[str, tuple[tuple[int, int], HDDLParsed]] = {}
_lock = threading.Lock()


def parsed(doc: Document) -> HDDLParsed:
    key = (doc.version, len(doc.text))
    with _lock:
        hit = _cache.get(doc.uri)
    if hit is not None and hit[0] == key:
        return hit[1]
    value = _parse(Source(doc.text, doc.name))
    with _lock:
        _cache[doc.uri] = (key, value)
    return value


def _parse(source: Source) -> HDDLParsed:
    warnings: list[Diagnostic] = []
    try:
        node = LANGUAGE.parse(source, warnings)
    except Error as exc:
        return HDDLParsed(None, tuple(exc.diagnostics), tuple(warnings))
    except RecursionError:
        return HDDLParsed(None, (), tuple(warnings))
    return HDDLParsed(node, (), tuple(warnings))


def domain_of(workspace: Workspace, doc: Document) -> ast.HTNDomain | None:
    """The domain of the problem in `doc`: the .hddl file the domain finder finds, as the editor has it
    when it is open."""
    path = doc.path
    if path is None:
        return None
    opened = {d.path: d for d in list(workspace.documents.values())
              if d.language == "hddl" and d.path is not None and d.path != path}

    def classify_path(candidate: Path) -> tuple[Kind | None, str | None]:
        other = opened.get(candidate)
        return classify(other.text[:HEAD_BYTES]) if other is not None else classify_file(candidate)

    found = DomainFinder(given=sorted(opened), classify_path=classify_path).find(path).domain
    if found is None:
        return None
    other = opened.get(found)
    if other is not None:
        node = parsed(other).node
    else:
        try:
            node = _parse(decode_source(read_input(found), str(found))).node
        except (OSError, Error):
            return None
    return node if isinstance(node, ast.HTNDomain) else None


# -------------------------------------------------------------------------------------------------
# Diagnostics


def findings(workspace: Workspace, doc: Document) -> list[Diagnostic]:
    result = parsed(doc)
    out = [*result.syntax, *result.warnings]
    node = result.node
    if isinstance(node, ast.HTNDomain):
        report = check_htn(node)
    elif isinstance(node, ast.HTNProblem):
        domain = domain_of(workspace, doc)
        where = word_span(node.problem.span, node.problem.domain, 1, 8)
        if domain is None:
            out.append(Diagnostic("L001", Severity.INFO, f"domain {node.problem.domain} was not found beside the "
                                  "problem; only the problem's syntax is checked", where))
            return out
        report = check_htn(domain, [node])
    else:
        return out
    return out + [f for f in report.findings if f.span is None or f.span.file == doc.name]


# -------------------------------------------------------------------------------------------------
# Names


def hierarchy_uses(node: ast.HTNDomain | ast.HTNProblem) -> Iterator[HUse]:
    """Every place a task, method or subtask id is named in `node`."""
    if isinstance(node, ast.HTNProblem):
        if node.htn is not None:
            yield from _network_uses(node.htn.network)
        return
    for task in node.tasks:
        yield from _use("task", task.name, word_span(task.span, task.name, 1, 3), declaration=True)
    for action in node.actions:
        yield from _use("task", action.name, word_span(action.span, action.name, 1, 3), declaration=True)
    for method in node.methods:
        yield from _use("method", method.name, word_span(method.span, method.name, 1, 3), declaration=True)
        yield from _use("task", method.task.name, word_span(method.task.span, method.task.name, 1, 2))
        yield from _network_uses(method.network)


def _network_uses(network: ast.TaskNetwork) -> Iterator[HUse]:
    for subtask in network.subtasks:
        skip = 1
        if subtask.id is not None:
            found = word_span(subtask.span, subtask.id, 1, 2)
            yield from _use("id", subtask.id, found, declaration=True, network=network)
            skip = found.end - subtask.span.start if found is not None and subtask.span is not None else 1
        yield from _use("task", subtask.task, word_span(subtask.span, subtask.task, skip, 2))
    for order in network.ordering:
        for name in (order.before, order.after):
            yield from _use("id", name, word_span(order.span, name, 1, 3), network=network)


def _use(kind: HKind, name: str, span: Span | None, *, declaration: bool = False,
         network: ast.TaskNetwork | None = None) -> Iterator[HUse]:
    if span is not None:
        yield HUse(kind, name, span, declaration, network)


@dataclass(frozen=True)
class HFound:
    use: HUse
    declaration: HUse | None
    roots: tuple[ast.HTNDomain | ast.HTNProblem, ...]  # where references are looked for


def hierarchy_at(workspace: Workspace, doc: Document, offset: int) -> HFound | None:
    node = parsed(doc).node
    if node is None:
        return None
    use = next((u for u in hierarchy_uses(node) if u.span.start <= offset <= u.span.end), None)
    if use is None:
        return None
    domain = node if isinstance(node, ast.HTNDomain) else domain_of(workspace, doc)
    roots: tuple[ast.HTNDomain | ast.HTNProblem, ...] = (node,) if domain is None or domain is node else (node, domain)
    declaration = next((u for root in roots for u in hierarchy_uses(root)
                        if u.declaration and _same(u, use)), None)
    return HFound(use, declaration, roots)


def _same(a: HUse, b: HUse) -> bool:
    return a.kind == b.kind and a.name == b.name and (a.kind != "id" or a.network is b.network)


def references(found: HFound, include_declaration: bool) -> list[Span]:
    spans = [u.span for root in found.roots for u in hierarchy_uses(root)
             if _same(u, found.use) and (include_declaration or not u.declaration)]
    return sorted(set(spans), key=lambda s: (s.file, s.start))


def hover(found: HFound) -> str:
    use, declaration = found.use, found.declaration
    if declaration is None:
        return f"{use.kind} `{use.name}` is not declared"
    text = declaration.span.source.text
    if use.kind == "id":
        subtask = next(s for s in declaration.network.subtasks if s.id == use.name) if declaration.network else None
        shown = f"({subtask.task} {' '.join(str(a) for a in subtask.args)})".replace(" )", ")") if subtask else ""
        return f"subtask `{use.name}`: `{shown}`"
    line_end = text.find("\n", declaration.span.start)
    head = text[text.rfind("(", 0, declaration.span.start):line_end if line_end >= 0 else None].strip()
    where = f"{declaration.span.file}:{declaration.span.line}:{declaration.span.column}"
    what = "method" if use.kind == "method" else "task"
    return f"```hddl\n{head}\n```\n\n{what} declared at {where}"


def pddl_found(workspace: Workspace, doc: Document, offset: int) -> Found | None:
    """A PDDL name (predicate, type, object, parameter) under the cursor, as PDDL's index finds it in the
    domain with its methods as actions."""
    node = parsed(doc).node
    if node is None:
        return None
    domain = node if isinstance(node, ast.HTNDomain) else domain_of(workspace, doc)
    stand_in = _stand_in(domain) if domain is not None else None
    root: pddl.Domain | pddl.Problem = node.problem if isinstance(node, ast.HTNProblem) else stand_in  # type: ignore[assignment]
    table = build_table(stand_in, node.problem if isinstance(node, ast.HTNProblem) else None)
    use = use_at(root, offset, frozenset(table.functions))
    if use is None:
        return None
    return Found(use, table.lookup(use), table)


def pddl_references(workspace: Workspace, doc: Document, found: Found, include_declaration: bool) -> list[Span]:
    node = parsed(doc).node
    if node is None:
        return []
    domain = node if isinstance(node, ast.HTNDomain) else domain_of(workspace, doc)
    roots: list[pddl.Domain | pddl.Problem] = [_stand_in(domain)] if domain is not None else []
    if isinstance(node, ast.HTNProblem):
        roots.append(node.problem)
    target = found.use.key()
    spans = {u.span for root in roots for u in uses(root, frozenset(found.table.functions))
             if u.key() == target and (include_declaration or not u.declaration)}
    return sorted(spans, key=lambda s: (s.file, s.start))


def _stand_in(domain: ast.HTNDomain) -> pddl.Domain:
    return replace(domain.domain, structures=domain.domain.structures + tuple(as_action(m) for m in domain.methods))


def hover_markdown(workspace: Workspace, doc: Document, offset: int) -> tuple[str, Span] | None:
    found = hierarchy_at(workspace, doc, offset)
    if found is not None:
        return hover(found), found.use.span
    pddl_name = pddl_found(workspace, doc, offset)
    if pddl_name is None:
        return None
    return hover_text(pddl_name), pddl_name.use.span


def definition(workspace: Workspace, doc: Document, offset: int) -> Span | None:
    found = hierarchy_at(workspace, doc, offset)
    if found is not None:
        return found.declaration.span if found.declaration is not None else None
    pddl_name = pddl_found(workspace, doc, offset)
    return pddl_name.symbol.span if pddl_name is not None and pddl_name.symbol is not None else None


def all_references(workspace: Workspace, doc: Document, offset: int, include_declaration: bool) -> list[Span]:
    found = hierarchy_at(workspace, doc, offset)
    if found is not None:
        return references(found, include_declaration)
    pddl_name = pddl_found(workspace, doc, offset)
    return pddl_references(workspace, doc, pddl_name, include_declaration) if pddl_name is not None else []


# -------------------------------------------------------------------------------------------------
# Completion and outline


def complete(workspace: Workspace, doc: Document, offset: int) -> list[lsp.CompletionItem]:
    """The keywords HDDL's grammar accepts at the cursor; after `(`, the tasks, actions and predicates;
    elsewhere the subtask ids of the method around the cursor and the objects."""
    text = doc.text
    typed = _WORD.search(text, 0, offset)
    start = typed.start() if typed is not None else offset
    word = text[start:offset].lower()
    expected = LANGUAGE.expected_terminals(Source(text, doc.name), start)
    literals, soft = LANGUAGE.keywords(), LANGUAGE.soft_keywords()
    items = [lsp.CompletionItem(label=literals[t], kind=lsp.CompletionItemKind.Keyword)
             for t in sorted(expected) if t in literals and not ("NAME" in expected and t in soft)]
    node = parsed(doc).node or _without_section_at(doc, offset)
    domain = node if isinstance(node, ast.HTNDomain) else domain_of(workspace, doc) if node is not None else None
    if domain is not None and ("NAME" in expected or not expected):
        before = text[:start].rstrip()
        if before.endswith("("):
            items += [lsp.CompletionItem(label=t.name, kind=lsp.CompletionItemKind.Method) for t in domain.tasks]
            items += [lsp.CompletionItem(label=a.name, kind=lsp.CompletionItemKind.Function)
                      for a in domain.actions]
            items += [lsp.CompletionItem(label=p.name, kind=lsp.CompletionItemKind.Function)
                      for p in domain.domain.predicates]
        else:
            networks = [m.network for m in domain.methods
                        if m.span is not None and m.span.start <= offset <= m.span.end]
            if isinstance(node, ast.HTNProblem) and node.htn is not None:
                networks.append(node.htn.network)
            items += [lsp.CompletionItem(label=s.id, kind=lsp.CompletionItemKind.Reference)
                      for n in networks for s in n.subtasks if s.id is not None]
            objects = [*domain.domain.constants, *(node.problem.objects if isinstance(node, ast.HTNProblem) else ())]
            items += [lsp.CompletionItem(label=o.name, kind=lsp.CompletionItemKind.Constant) for o in objects]
    seen: set[str] = set()
    out = []
    for item in items:
        if item.label.lower().startswith(word) and item.label not in seen:
            seen.add(item.label)
            out.append(item)
    return out


def _without_section_at(doc: Document, offset: int) -> ast.HTNDomain | ast.HTNProblem | None:
    """The parse of the document with the top-level section being typed in blanked out: what the
    rest declares, while the cursor's section does not parse yet."""
    text = doc.text
    keywords = LANGUAGE.section_keywords()
    starts = [m.start() for m in _SECTION.finditer(text) if m.group(1).lower() in keywords]
    begin = max((s for s in starts if s <= offset), default=None)
    if begin is None:
        return None
    # to the next section, or to the parenthesis that closes (define ...)
    end = min((s for s in starts if s > offset), default=max(text.rfind(")"), offset))
    return _parse(Source(blank(text, begin, end), doc.name)).node



def outline_node(doc: Document) -> pddl.Domain | pddl.Problem | None:
    """The PDDL part of the document, whose outline the language server shows."""
    node = parsed(doc).node
    if isinstance(node, ast.HTNDomain):
        return node.domain
    return node.problem if isinstance(node, ast.HTNProblem) else None


def semantic_parts(doc: Document) -> tuple[list[Any], pddl.Domain | pddl.Problem] | None:
    """For semantic tokens: the uses of tasks and methods, and the PDDL part (methods standing in as
    actions) whose uses PDDL's index gives; None when the document does not parse."""
    node = parsed(doc).node
    if node is None:
        return None
    return list(hierarchy_uses(node)), (_stand_in(node) if isinstance(node, ast.HTNDomain) else node.problem)


def task_signature(workspace: Workspace, doc: Document, head: str
                   ) -> tuple[pddl.Domain, tuple[pddl.TypedName, ...] | None, str] | None:
    """For signature help: the PDDL part of the document's domain, and the parameters of the task named
    `head` (None when it names no task: a predicate, function or action of the PDDL part then)."""
    node = parsed(doc).node
    domain = node if isinstance(node, ast.HTNDomain) else domain_of(workspace, doc)
    if domain is None:
        return None
    task = next((t for t in domain.tasks if t.name == head), None)
    return (domain.domain, task.parameters, "task") if task is not None else (domain.domain, None, "")
