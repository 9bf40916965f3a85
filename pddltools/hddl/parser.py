"""Parse HDDL domains and problems into `pddltools.hddl.ast`.

The grammar `grammars/hddl.lark` imports PDDL's and adds the hierarchy; the parser is PDDL's (its
lexer, fast paths, lean LALR loop and syntax-error explanations) run over that grammar with
`HDDLBuilder`, which is PDDL's builder plus callbacks for the new rules. So an HDDL domain's actions
and formulas are built by the very code that builds PDDL's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any, Literal, cast, overload

from pddltools.diagnostics import Diagnostic, Source, Span, error
from pddltools.hddl import ast
from pddltools.pddl import ast as pddl
from pddltools.pddl.parser import (
    Builder,
    BuildError,
    GrammarPathLexer,
    Parser,
    PDDLLexer,
    assemble_domain,
    assemble_problem,
    requirement_warnings,
    run_parser,
    section_value,
)
from pddltools.reading import read_source
from pddltools.syntax.errors import ParseError as SyntaxParseError
from pddltools.syntax.lalr import Tok

#: The requirement flags HDDL adds to PDDL's (the paper's `:hierarchy`, and `:method-preconditions`
#: of the IPC-2020 files).
HDDL_REQUIREMENTS = frozenset({":hierarchy", ":method-preconditions"})


#: The text is not HDDL: PDDL's one syntax error, whose diagnostics say where and what was expected.
ParseError = SyntaxParseError


class HDDLBuilder(Builder):
    """PDDL's builder, with the callbacks of the rules hddl.lark adds."""

    # -- compound tasks ------------------------------------------------------------------------
    def task_declaration(self, c: list[Any]) -> ast.Task:
        return ast.Task(c[1].value, c[2] or (), c[3], c[4], span=self._span(c[0], c[-1]))

    def task_declarations(self, c: list[Any]) -> tuple[str, Any, int]:
        tasks = tuple(ast.Task(p.name, p.parameters, span=p.span) for p in c[1:-1])
        return section_value("tasks", tasks, c[0].start_pos)

    # -- methods -------------------------------------------------------------------------------
    def method_task(self, c: list[Any]) -> ast.TaskHead:
        return ast.TaskHead(c[1].value, tuple(c[2:-1]), span=self._span(c[0], c[-1]))

    def method(self, c: list[Any]) -> ast.Method:
        network = _network(c[5], c[6], c[7], c[8])
        return ast.Method(c[1].value, c[2] or (), c[3], c[4], network, span=self._span(c[0], c[-1]))

    def method_constraints(self, c: list[Any]) -> Any:
        return c[1]

    def sortof(self, c: list[Any]) -> ast.SortOf:
        variable = pddl.Variable(c[1].value, span=self._tok(c[1]))
        return ast.SortOf(variable, c[2], span=self._span(c[0], c[-1]))

    # -- task networks -------------------------------------------------------------------------
    def subtasks_keyword(self, c: list[Tok]) -> Tok:
        return c[0]

    def subtasks(self, c: list[Any]) -> tuple[bool, tuple[ast.Subtask, ...]]:
        return c[0].value.startswith(":ordered"), _listed(c[1])

    def subtask_and(self, c: list[Any]) -> tuple[ast.Subtask, ...]:
        return tuple(c[1:-1])

    def bare_subtask(self, c: list[Any]) -> ast.Subtask:
        return ast.Subtask(None, c[1].value, tuple(c[2:-1]), span=self._span(c[0], c[-1]))

    def named_subtask(self, c: list[Any]) -> ast.Subtask:
        return ast.Subtask(c[1].value, c[3].value, tuple(c[4:-2]), span=self._span(c[0], c[-1]))

    def ordering(self, c: list[Any]) -> tuple[ast.Ordering, ...]:
        return _listed(c[0])

    def ordering_and(self, c: list[Any]) -> tuple[ast.Ordering, ...]:
        out: list[ast.Ordering] = []
        for item in c[1:-1]:
            if isinstance(item, ast.Ordering):
                out.append(item)
            elif isinstance(item, tuple):  # a nested (and ...)
                out.extend(item)
        return tuple(out)

    def precedes(self, c: list[Any]) -> ast.Ordering:
        return ast.Ordering(c[1].value, c[2].value, span=self._span(c[0], c[-1]))

    def follows(self, c: list[Any]) -> ast.Ordering:
        return ast.Ordering(c[2].value, c[1].value, span=self._span(c[0], c[-1]))

    def causal_links(self, c: list[Any]) -> tuple[ast.CausalLink, ...]:
        return _listed(c[0])

    def causal_link_and(self, c: list[Any]) -> tuple[ast.CausalLink, ...]:
        return tuple(c[1:-1])

    def causal_link(self, c: list[Any]) -> ast.CausalLink:
        return ast.CausalLink(c[1].value, c[2], c[3].value, span=self._span(c[0], c[-1]))

    def htn(self, c: list[Any]) -> tuple[str, Any, int]:
        network = _network(c[2], c[3], c[4])
        return section_value("htn", ast.HTN(c[1] or (), network, span=self._span(c[0], c[-1])), c[0].start_pos)

    # -- files ---------------------------------------------------------------------------------
    def domain(self, c: list[Any]) -> ast.HTNDomain:  # type: ignore[override]
        return assemble_htn_domain(c[2].value, c[4:-1], self._span(c[0], c[-1]))

    def problem(self, c: list[Any]) -> ast.HTNProblem:  # type: ignore[override]
        return assemble_htn_problem(c[2].value, c[4:-1], self._span(c[0], c[-1]), self.warnings,
                                    (c[0].start_pos, c[3].end_pos))


def _listed(value: Any) -> tuple[Any, ...]:
    """The entries of a network's list: `()` (parsed as an empty `and`), one entry, or `(and ...)`'s."""
    if isinstance(value, pddl.And):
        return ()
    return value if isinstance(value, tuple) else (value,)


def _network(subtasks: tuple[bool, tuple[ast.Subtask, ...]] | None, ordering: tuple[ast.Ordering, ...] | None,
             constraints: Any, causal_links: tuple[ast.CausalLink, ...] | None = None) -> ast.TaskNetwork:
    ordered, listed = subtasks if subtasks is not None else (False, ())
    return ast.TaskNetwork(listed, ordered, ordering or (), constraints, causal_links or ())


def assemble_htn_domain(name: str, items: Sequence[Any], span: Span) -> ast.HTNDomain:
    """The domain from its sections' values in order (see `pddl.parser.assemble_domain`, which
    builds the PDDL part); the builder and `language.HDDL.assemble` both build domains here."""
    tasks: list[ast.Task] = []
    methods: list[ast.Method] = []
    rest: list[Any] = []
    for item in items:
        if isinstance(item, ast.Task):
            tasks.append(item)
        elif isinstance(item, ast.Method):
            methods.append(item)
        elif isinstance(item, tuple) and item[0] == "tasks":
            tasks.extend(item[1])
        else:
            rest.append(item)
    return ast.HTNDomain(assemble_domain(name, rest, span), tuple(tasks), tuple(methods), span=span)


def assemble_htn_problem(name: str, items: Sequence[tuple[str, Any, int]], span: Span,
                         warnings: list[Diagnostic], header: tuple[int, int]) -> ast.HTNProblem:
    htn: ast.HTN | None = None
    rest: list[tuple[str, Any, int]] = []
    for item in items:
        if item[0] != "htn":
            rest.append(item)
        elif htn is not None:
            raise BuildError("a problem has at most one :htn section", item[2], item[2] + 1)
        else:
            htn = item[1]
    return ast.HTNProblem(assemble_problem(name, rest, span, warnings, header), htn, span=span)


class HDDLLexer(PDDLLexer):
    """PDDL's lexer, with HDDL's own fast-path scanners (they are set on the class)."""


class HDDLGrammarPathLexer(GrammarPathLexer):
    """The lexer with the fast path switched off."""


@cache
def _parser(fast: bool, compiled: bool = True) -> Parser:
    return Parser(fast, compiled, language="hddl", builder=HDDLBuilder(), lexers=(HDDLLexer, HDDLGrammarPathLexer))


# -------------------------------------------------------------------------------------------------
# Public API

Kind = Literal["domain", "problem"]


@overload
def parse(source: Source, kind: Literal["domain"], *, warnings: list[Diagnostic] | None = ...) -> ast.HTNDomain: ...
@overload
def parse(source: Source, kind: Literal["problem"], *, warnings: list[Diagnostic] | None = ...) -> ast.HTNProblem: ...
@overload
def parse(source: Source, kind: None = ..., *,
          warnings: list[Diagnostic] | None = ...) -> ast.HTNDomain | ast.HTNProblem: ...
def parse(source: Source, kind: Kind | None = None, *,
          warnings: list[Diagnostic] | None = None) -> ast.HTNDomain | ast.HTNProblem:
    """Parse a whole HDDL file. Raises `ParseError` with every syntax error found; appends warnings
    to `warnings` when given."""
    source, result, build_warnings, prelude = run_parser(_parser, source, ParseError)
    if kind is not None and not isinstance(result, ast.HTNDomain if kind == "domain" else ast.HTNProblem):
        other = "problem" if kind == "domain" else "domain"
        raise ParseError([error("E110", f"expected a {kind} file, but this is a {other}: "
                                f"(define ({other} {result.name}) ...)", result.span)])
    if warnings is not None:
        warnings.extend([prelude] if prelude is not None else [])
        warnings.extend(build_warnings)
        warnings.extend(hddl_requirement_warnings(result))
    return cast("ast.HTNDomain | ast.HTNProblem", result)


def hddl_requirement_warnings(node: ast.HTNDomain | ast.HTNProblem) -> list[Diagnostic]:
    """PDDL's warnings for unknown requirement flags, less those HDDL defines."""
    inner: pddl.Domain | pddl.Problem = node.domain if isinstance(node, ast.HTNDomain) else node.problem
    pddl_flags = tuple(r for r in inner.requirements if r.name not in HDDL_REQUIREMENTS)
    return requirement_warnings(replace(inner, requirements=pddl_flags))

def parse_text(text: str, filename: str = "<string>", kind: Kind | None = None) -> ast.HTNDomain | ast.HTNProblem:
    return parse(Source(text, filename), kind)


def parse_file(path: str | Path, kind: Kind | None = None, *,
               warnings: list[Diagnostic] | None = None) -> ast.HTNDomain | ast.HTNProblem:
    return parse(read_source(path), kind, warnings=warnings)


__all__ = ["HDDL_REQUIREMENTS", "HDDLBuilder", "ParseError", "parse", "parse_file", "parse_text"]
