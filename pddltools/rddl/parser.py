"""Parse RDDL text into the AST of `pddltools.rddl.ast`.

`grammars/rddl.lark` is the language; this module only sets Lark up (LALR, the shared fast
`GrammarLexer`, the analysed grammar cached on disk so that start-up stays short) and builds AST nodes
straight from the parser's reductions with an inline transformer, so no parse tree is ever kept.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import lark
from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

from pddltools.diagnostics import Diagnostic, Error, InputError, Source, Span, decode_source, error, warning
from pddltools.lexing import GrammarLexer, UnexpectedCharacter
from pddltools.rddl import ast


class RDDLSyntaxError(Error):
    """The text is not RDDL: the diagnostics say where and what was expected there."""


class _BuildError(Exception):
    """Raised inside the transformer; turned into an `RDDLSyntaxError` with the right source."""

    def __init__(self, code: str, message: str, start: int, end: int) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.start = start
        self.end = end


class RDDLLexer(GrammarLexer):
    """The shared one-regular-expression lexer over rddl.lark's terminals, with the fast path for
    runs of ground assignments (`pddltools.rddl.fastpath`)."""

    fast_trigger = "NAME"


class GrammarPathLexer(GrammarLexer):
    """The same lexer without the fast path: the grammar alone decides (used to prove them equal)."""


# ---------------------------------------------------------------------------------------------------
# Building the AST from reductions

_Children = list[Any]


def _strip(children: _Children) -> list[Any]:
    return [c for c in children if c is not None]


class _Builder(Transformer[Token, Any]):
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
            raise _BuildError("R104", f"{name} gives its {option[0]} twice",
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
            raise _BuildError("R105", f"unknown aggregation {name!s}_{{...}}; RDDL has {known}",
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
        return ast.Real(float(text), span=span)
    return ast.Integer(int(text), span=span)


# ---------------------------------------------------------------------------------------------------
# Lark set-up


def _cache_file(tag: str) -> str | bool:
    """Where the analysed grammar is kept between runs: the user's cache folder, else Lark's default."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = Path(base) / "pddltools"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return True
    if not os.access(folder, os.W_OK):
        return True
    # Lark checks the grammar's hash stored inside the file, so a stale cache is rebuilt, not used
    return str(folder / f"rddl-{tag}-lark{lark.__version__}.cache")


def grammar_text() -> str:
    return (files("pddltools.grammars") / "rddl.lark").read_text(encoding="utf-8")


class _Parser:
    def __init__(self, lexer: type[GrammarLexer] | str) -> None:
        self.builder = _Builder()
        self.lark = Lark(
            grammar_text(), parser="lalr", lexer=lexer, transformer=self.builder,
            maybe_placeholders=False,
            cache=_cache_file(lexer.__name__.lower()) if not isinstance(lexer, str) else False,
        )
        self.lock = threading.Lock()
        #: the shared lean LALR loop over the same tables and callbacks, when pddltools has one,
        #: with the errors it raises for text that is not RDDL
        self.driver: tuple[Any, tuple[type[Exception], ...]] | None = None

    def parse(self, source: Source) -> ast.RDDLFile:
        with self.lock:
            self.builder.source = source
            if self.driver is not None:
                driver, errors = self.driver
                try:
                    fast: ast.RDDLFile = driver.parse(source, "start")
                    return fast
                except errors:
                    pass  # not RDDL: Lark's own loop below finds the same error and explains it in full
            token = RDDLLexer.source.set(source)
            try:
                result: ast.RDDLFile = self.lark.parse(source.text)  # type: ignore[assignment]
            finally:
                RDDLLexer.source.reset(token)
            return result


@cache
def _parser(lexer: str = "fast") -> _Parser:
    """The parser, built once per process.

    `lexer` is "fast" (the shared lexer with the fast path, driven by `pddltools.lalr` when present),
    "lark-loop" (the same, driven by Lark's own parse loop), "grammar" (the shared lexer, grammar path
    only) or a Lark lexer name such as "contextual" (Lark's own lexer, for comparison in tests).
    """
    if lexer in ("fast", "lark-loop"):
        parser = _Parser(RDDLLexer)
        from pddltools.rddl.fastpath import build_scanner

        scanners = {"GROUND_ASSIGNMENTS": build_scanner(parser.lark)}
        if not RDDLLexer.fast_paths:
            RDDLLexer.fast_paths = scanners
        if lexer == "fast":
            parser.driver = _lean_driver(parser.lark, scanners)
        return parser
    return _Parser(GrammarPathLexer if lexer == "grammar" else lexer)


def _lean_driver(
    lark_parser: Lark, scanners: dict[str, Any]
) -> tuple[Any, tuple[type[Exception], ...]] | None:
    """`pddltools.lalr.FastParser` over our tables, or None where that module is not available."""
    try:
        from pddltools.lalr import FastParser, UnexpectedInput
    except ImportError:
        return None
    from pddltools.lexing import UnexpectedCharacter as LexError

    driver = FastParser(lark_parser, trigger=RDDLLexer.fast_trigger, fast_paths=scanners)
    return driver, (UnexpectedInput, LexError, _BuildError)


# ---------------------------------------------------------------------------------------------------
# Public API


def parse(source: Source, *, lexer: str = "fast") -> ast.RDDLFile:
    """Parse one RDDL text: any number of domain, non-fluents and instance blocks, in any order.

    Raises `RDDLSyntaxError` when the text is not RDDL, or holds no block at all.
    """
    from pddltools.rddl.errors import explain

    parser = _parser(lexer)
    try:
        result = parser.parse(source)
    except (UnexpectedToken, UnexpectedCharacters, UnexpectedCharacter, UnexpectedEOF) as exc:
        raise RDDLSyntaxError([explain(source, exc, parser.lark)]) from None
    except _BuildError as exc:
        raise RDDLSyntaxError([error(exc.code, exc.message, Span(source, exc.start, exc.end))]) from None
    if not result.blocks:
        raise RDDLSyntaxError([error(
            "R103", "no RDDL here: expected a domain, non-fluents or instance block",
            Span(source, 0, min(1, len(source.text))),
        )])
    return result


def parse_text(text: str, name: str = "<string>", *, lexer: str = "fast") -> ast.RDDLFile:
    return parse(Source(text, name), lexer=lexer)


def read_rddl_source(path: str | Path, warnings: list[Diagnostic] | None = None) -> Source:
    """Read an RDDL file. Text that is not UTF-8 but has no NUL byte is read as Windows-1252 (older
    IPPC files have accented names in comments), with a warning appended to `warnings`."""
    from pddltools.diagnostics import read_source

    try:
        return read_source(path)
    except InputError as exc:
        if not exc.diagnostics or "not UTF-8" not in exc.diagnostics[0].message:
            raise
        data = Path(path).read_bytes()
        source = Source(data.decode("cp1252", errors="replace"), str(path))
        if warnings is not None:
            first = exc.diagnostics[0]
            offset = first.span.start if first.span else 0
            warnings.append(warning(
                "R001", "this file is not UTF-8; read as Windows-1252", Span(source, offset, offset + 1)
            ))
        return source


def parse_file(path: str | Path, *, warnings: list[Diagnostic] | None = None) -> ast.RDDLFile:
    return parse(read_rddl_source(path, warnings))


def parse_files(
    paths: list[Path], on_error: Callable[[Path, Error], None] | None = None
) -> dict[Path, ast.RDDLFile]:
    """Parse many files; with `on_error`, a file that fails is reported and the others still parsed."""
    results: dict[Path, ast.RDDLFile] = {}
    for path in paths:
        try:
            results[path] = parse_file(path)
        except Error as exc:
            if on_error is None:
                raise
            on_error(path, exc)
    return results


__all__ = [
    "GrammarPathLexer", "RDDLLexer", "RDDLSyntaxError", "decode_source", "grammar_text", "parse",
    "parse_file", "parse_files", "parse_text", "read_rddl_source",
]
