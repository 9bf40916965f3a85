"""Quick fixes for the findings users meet most, offered as code actions on their diagnostics:

- a feature used without its requirement (W501): add the flag to `:requirements`;
- an undeclared predicate, function, type or constant (E202, E203, E201, E204): declare it, with the
  arity and the types its use shows (a variable's type from the parameters in scope, a constant's
  from the declaration of the predicate it is an argument of), in the domain even when the use is in
  a problem; and the "did you mean" name of the finding, when it gives one;
- a problem's `(:domain ...)` naming another domain (E301): the name of the domain it is checked against;
- an unused predicate (I403) or requirement (W503): remove the declaration.

Every edit is computed on the tree the server has for the document, and inserted where the section
already is (or as a new section after the domain's name).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lsprotocol import types as lsp

from pddltools.lsp.pddl_index import enclosing_scope, path_at, word_span
from pddltools.lsp.positions import Positions
from pddltools.lsp.workspace import Document, Workspace
from pddltools.pddl import ast
from pddltools.pddl.type_hierarchy import OBJECT

_DID_YOU_MEAN = re.compile(r"\(did you mean ([^\s?]+)\?\)")
_FLAG = re.compile(r"(:[\w\-]+) is not declared in :requirements")
_DOMAIN_IS = re.compile(r"but the domain is (\S+)")
INDENT = "    "


@dataclass(frozen=True)
class Edit:
    uri: str
    start: int
    end: int
    text: str


def code_actions(workspace: Workspace, doc: Document, diagnostics: list[lsp.Diagnostic], encoding: str
                 ) -> list[lsp.CodeAction]:
    positions = Positions(doc.text, encoding)
    out: list[lsp.CodeAction] = []
    for diagnostic in diagnostics:
        code = str(diagnostic.code or "")
        start, end = positions.offset(diagnostic.range.start), positions.offset(diagnostic.range.end)
        for title, edits in _fixes(workspace, doc, code, diagnostic.message, start, end):
            out.append(lsp.CodeAction(title=title, kind=lsp.CodeActionKind.QuickFix, diagnostics=[diagnostic],
                                      edit=_workspace_edit(workspace, doc, edits, encoding),
                                      is_preferred=title.startswith("Change to")))
    return out


def _workspace_edit(workspace: Workspace, doc: Document, edits: list[Edit], encoding: str) -> lsp.WorkspaceEdit:
    changes: dict[str, list[lsp.TextEdit]] = {}
    for edit in edits:
        text = _text_of(workspace, doc, edit.uri)
        positions = Positions(text, encoding)
        changes.setdefault(edit.uri, []).append(lsp.TextEdit(range=positions.range(edit.start, edit.end),
                                                             new_text=edit.text))
    return lsp.WorkspaceEdit(changes=changes)


def _text_of(workspace: Workspace, doc: Document, uri: str) -> str:
    if uri == doc.uri:
        return doc.text
    opened = workspace.documents.get(uri)
    if opened is not None:
        return opened.text
    found = _domain(workspace, doc)
    return found[2] if found is not None else ""


def _fixes(workspace: Workspace, doc: Document, code: str, message: str, start: int, end: int
           ) -> list[tuple[str, list[Edit]]]:
    fixes: list[tuple[str, list[Edit]]] = []
    meant = _DID_YOU_MEAN.search(message)
    if meant is not None:
        word = _name_in(doc.text, start, end)
        if word is not None:
            fixes.append((f"Change to {meant.group(1)}", [Edit(doc.uri, word[0], word[1], meant.group(1))]))
    if doc.language != "pddl":
        return fixes
    node = workspace.pddl(doc).node
    if node is None:
        return fixes
    if code == "W501":
        flag = _FLAG.search(message)
        found = _domain(workspace, doc)
        if flag is not None and found is not None:
            fixes.append((f"Add {flag.group(1)} to :requirements", [_add_requirement(found, flag.group(1))]))
    elif code in ("E202", "E203", "E201", "E204"):
        fix = _declare(workspace, doc, node, code, start, end)
        if fix is not None:
            fixes.append(fix)
    elif code == "E301" and isinstance(node, ast.Problem):
        name = _DOMAIN_IS.search(message)
        if name is not None:
            fixes.append((f"Change the domain name to {name.group(1)}", [Edit(doc.uri, start, end, name.group(1))]))
    elif code in ("I403", "W503"):
        what = "predicate" if code == "I403" else "requirement"
        fixes.append((f"Remove the unused {what}", [Edit(doc.uri, *_removal(doc.text, start, end), "")]))
    return fixes


def _name_in(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The name the diagnostic's range shows: the range itself, or the head of the atom it covers."""
    match = re.compile(r"\(?\s*([^\s()]+)").match(text, start, end)
    if match is None:
        return None
    return match.start(1), match.end(1)


def _domain(workspace: Workspace, doc: Document) -> tuple[str, ast.Domain, str] | None:
    """The domain of `doc` (itself, or the one its problem is checked against): uri, tree and text."""
    node = workspace.pddl(doc).node
    if isinstance(node, ast.Domain):
        return doc.uri, node, doc.text
    if isinstance(node, ast.Problem):
        found = workspace.domain_for(doc, node)
        if found is not None and isinstance(found[1].node, ast.Domain):
            opened = workspace.documents.get(found[0])
            domain = found[1].node
            text = opened.text if opened is not None else (domain.span.source.text if domain.span else "")
            return found[0], domain, text
    return None


def _after_header(root: ast.Domain | ast.Problem, text: str) -> int:
    """Where a new section goes: after `(define (domain NAME)` (or the problem's `(:domain NAME)`)."""
    assert root.span is not None
    if isinstance(root, ast.Domain):
        word = word_span(root.span, root.name, 1, 5)
        at = word.end if word is not None else root.span.start
    else:
        at = text.lower().find("(:domain", root.span.start)
        at = root.span.start if at < 0 else at
    closing = text.find(")", at)
    return closing + 1 if closing >= 0 else root.span.start


def _add_requirement(found: tuple[str, ast.Domain, str], flag: str) -> Edit:
    uri, domain, text = found
    if domain.requirements and domain.requirements[-1].span is not None:
        at = domain.requirements[-1].span.end
        return Edit(uri, at, at, f" {flag}")
    at = _after_header(domain, text)
    return Edit(uri, at, at, f"\n  (:requirements {flag})")


def _append(uri: str, root: ast.Domain | ast.Problem, text: str, keyword: str, items: tuple[ast.Node, ...],
            line: str, separate: str = "\n" + INDENT) -> Edit:
    """`line` added to the section `keyword` (after its last item), or a new section holding it."""
    last = items[-1] if items else None
    if last is not None and last.span is not None:
        return Edit(uri, last.span.end, last.span.end, separate + line)
    at = _after_header(root, text)
    return Edit(uri, at, at, f"\n  ({keyword} {line})")


def _declare(workspace: Workspace, doc: Document, node: ast.Domain | ast.Problem, code: str, start: int,
             end: int) -> tuple[str, list[Edit]] | None:
    found = _domain(workspace, doc)
    if found is None:
        return None
    uri, domain, text = found
    path = path_at(node, start + 1)
    if code in ("E202", "E203"):
        wanted: type = ast.Atom if code == "E202" else ast.FunctionTerm
        used = next((n for n in reversed(path) if isinstance(n, wanted)), None)
        if not isinstance(used, ast.Atom | ast.FunctionTerm):
            return None
        name = used.predicate if isinstance(used, ast.Atom) else used.function
        typed = _argument_types(workspace, doc, node, used.args, start)
        declaration = f"({name}{''.join(f' {v} - {t}' for v, t in typed)})"
        if code == "E202":
            return (f"Declare predicate {declaration}",
                    [_append(uri, domain, text, ":predicates", domain.predicates, declaration)])
        return (f"Declare function {declaration}",
                [_append(uri, domain, text, ":functions", domain.functions, declaration)])
    word = doc.text[start:end]
    if code == "E201":
        return (f"Declare type {word}", [_append(uri, domain, text, ":types", domain.types, word, " ")])
    type_ = _constant_type(workspace, doc, node, word, path)
    declaration = f"{word} - {type_}"
    if isinstance(node, ast.Problem):
        return (f"Declare object {declaration}",
                [_append(doc.uri, node, doc.text, ":objects", node.objects, declaration)])
    return (f"Declare constant {declaration}",
            [_append(uri, domain, text, ":constants", domain.constants, declaration)])


def _argument_types(workspace: Workspace, doc: Document, node: ast.Domain | ast.Problem,
                    args: tuple[ast.Node, ...], offset: int) -> list[tuple[str, str]]:
    """A variable name and a type per argument: the variable's declared type, or the constant's."""
    scope = {v.name: v for v in enclosing_scope(node, offset)}
    objects = workspace.table(doc).objects
    out: list[tuple[str, str]] = []
    for index, arg in enumerate(args):
        type_ = OBJECT
        if isinstance(arg, ast.Variable) and arg.name in scope:
            type_ = _type_text(scope[arg.name].type)
        elif isinstance(arg, ast.Constant) and arg.name in objects:
            declared = objects[arg.name].node
            type_ = _type_text(declared.type) if isinstance(declared, ast.TypedName) else OBJECT
        name = arg.name if isinstance(arg, ast.Variable) and arg.name not in {n for n, _ in out} else f"?a{index + 1}"
        out.append((name, type_))
    return out


def _constant_type(workspace: Workspace, doc: Document, node: ast.Domain | ast.Problem, word: str,
                   path: list[ast.Node]) -> str:
    """The type of the parameter the constant fills in the atom around it, or object."""
    atom = next((n for n in reversed(path) if isinstance(n, ast.Atom)), None)
    if atom is None:
        return OBJECT
    declared = workspace.table(doc).predicates.get(atom.predicate)
    if declared is None or not isinstance(declared.node, ast.PredicateDecl):
        return OBJECT
    for arg, parameter in zip(atom.args, declared.node.parameters, strict=False):
        if isinstance(arg, ast.Constant) and arg.name == word.lower():
            return _type_text(parameter.type)
    return OBJECT


def _type_text(ref: ast.TypeRef | None) -> str:
    if ref is None:
        return OBJECT
    if isinstance(ref, ast.TypeName):
        return ref.name
    return "(either " + " ".join(t.name for t in ref.types) + ")"


def _removal(text: str, start: int, end: int) -> tuple[int, int]:
    """[start, end) widened to its whole line when nothing else is on it, else to the blanks before it."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    if not text[line_start:start].strip() and not text[end:line_end].strip():
        return line_start, min(line_end + 1, len(text))
    while start > 0 and text[start - 1] in " \t":
        start -= 1
    return start, end
