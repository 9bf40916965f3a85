"""Parse RDDL text into the AST of `pddltools.rddl.ast`.

`grammars/rddl.lark` is the language; this module only sets Lark up (LALR, the shared fast
`GrammarLexer`, the analysed grammar cached on disk so that start-up stays short). AST nodes are built
straight from the parser's reductions by `pddltools.rddl.builder`, so no parse tree is ever kept.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from lark import Lark
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

from pddltools.diagnostics import Diagnostic, Error, InputError, Source, Span, decode_source, error, warning
from pddltools.rddl import ast
from pddltools.rddl.builder import Builder, BuildError
from pddltools.syntax.errors import ParseError
from pddltools.syntax.larkcache import cache_file
from pddltools.syntax.lexing import GrammarLexer, UnexpectedCharacter
from pddltools.syntax.testing import Variant, current_variant


class RDDLLexer(GrammarLexer):
    """The shared one-regular-expression lexer over rddl.lark's terminals, with the fast path for
    runs of ground assignments (`pddltools.rddl.fastpath`)."""

    fast_trigger = "NAME"


class GrammarPathLexer(GrammarLexer):
    """The same lexer without the fast path: the grammar alone decides (used to prove them equal)."""


# ---------------------------------------------------------------------------------------------------
# Lark set-up


def grammar_text() -> str:
    return (files("pddltools.grammars") / "rddl.lark").read_text(encoding="utf-8")


class _Parser:
    def __init__(self, lexer: type[GrammarLexer] | str) -> None:
        self.builder = Builder()
        self.lark = Lark(
            grammar_text(), parser="lalr", lexer=lexer if isinstance(lexer, str) else lexer.for_lark(),
            transformer=self.builder,
            maybe_placeholders=False,
            cache=cache_file("rddl-" + lexer.__name__.lower()) if not isinstance(lexer, str) else False,
        )
        self.lock = threading.Lock()
        #: the shared lean LALR loop over the same tables and callbacks, when pddltools has one,
        #: with the errors it raises for text that is not RDDL
        self.driver: tuple[Any, tuple[type[Exception], ...]] | None = None

    def expected_at(self, source: Source, offset: int) -> set[str]:
        """The terminals the lean driver would shift at `offset` (empty without it, or when the text
        before `offset` does not parse)."""
        if self.driver is None:
            return set()
        with self.lock:  # the builder's callbacks run during the replay and need their source
            self.builder.source = source
            try:
                found: set[str] = self.driver[0].expected_at(source, "start", offset)
            except Exception:  # a replay that fails is no reason to fail completion
                found = set()
        return found

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
def _parser(lexer: str = "fast", compiled: bool = True) -> _Parser:
    """The parser, built once per process.

    `lexer` is "fast" (the shared lexer with the fast path, driven by `pddltools.syntax.lalr` when present),
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
            parser.driver = _lean_driver(parser.lark, scanners, compiled)
        return parser
    return _Parser(GrammarPathLexer if lexer == "grammar" else lexer)


def _lean_driver(
    lark_parser: Lark, scanners: dict[str, Any], compiled: bool = True
) -> tuple[Any, tuple[type[Exception], ...]] | None:
    """`pddltools.syntax.lalr.FastParser` over our tables, or None where that module is not available."""
    try:
        from pddltools.syntax.lalr import FastParser, UnexpectedInput
    except ImportError:
        return None
    from pddltools.syntax.lexing import UnexpectedCharacter as LexError

    driver = FastParser(lark_parser, trigger=RDDLLexer.fast_trigger, fast_paths=scanners, compiled=compiled)
    return driver, (UnexpectedInput, LexError, BuildError)


# ---------------------------------------------------------------------------------------------------
# Public API


def parse(source: Source) -> ast.RDDLFile:
    """Parse one RDDL text: any number of domain, non-fluents and instance blocks, in any order.

    Raises `ParseError` when the text is not RDDL, or holds no block at all. (Tests choose among
    the equivalent implementations with `pddltools.syntax.testing.parser_variant`.)
    """
    from pddltools.rddl.syntax_errors import explain

    variant = current_variant()
    parser = _parser(_lexer_of(variant), variant.compiled)
    try:
        result = parser.parse(source)
    except (UnexpectedToken, UnexpectedCharacters, UnexpectedCharacter, UnexpectedEOF) as exc:
        raise ParseError([explain(source, exc, parser.lark)]) from None
    except BuildError as exc:
        raise ParseError([error(exc.code, exc.message, Span(source, exc.start, exc.end))]) from None
    if not result.blocks:
        raise ParseError([error(
            "R103", "no RDDL here: expected a domain, non-fluents or instance block",
            Span(source, 0, min(1, len(source.text))),
        )])
    return result


def _lexer_of(variant: Variant) -> str:
    """`_parser`'s name for the implementation the testing hook chose."""
    if variant.lark_lexer is not None:
        return variant.lark_lexer
    if not variant.fast:
        return "grammar"
    return "lark-loop" if variant.via_lark else "fast"


def parse_text(text: str, name: str = "<string>") -> ast.RDDLFile:
    return parse(Source(text, name))


def read_rddl_source(path: str | Path, warnings: list[Diagnostic] | None = None) -> Source:
    """Read an RDDL file. Text that is not UTF-8 but has no NUL byte is read as Windows-1252 (older
    IPPC files have accented names in comments), with a warning appended to `warnings`."""
    from pddltools.reading import read_input, read_source

    try:
        return read_source(path)
    except InputError as exc:
        if not exc.diagnostics or "not UTF-8" not in exc.diagnostics[0].message:
            raise
        data = read_input(path)
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
    "GrammarPathLexer",
    "RDDLLexer",
    "decode_source",
    "grammar_text",
    "parse",
    "parse_file",
    "parse_files",
    "parse_text",
    "read_rddl_source",
]


def name_pattern() -> str:
    """The regular expression of RDDL's NAME terminal, as the grammar writes it (the language server's
    rename checks a new name with it)."""
    return next(t.pattern.to_regexp() for t in _parser("fast").lark.terminals if t.name == "NAME")
