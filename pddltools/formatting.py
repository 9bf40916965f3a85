"""The formatters' one entry point, for `fmt` and the language server: a source in, its text in the
standard layout out, with every comment and blank-line group the author wrote (see `comments`).

The comments come from the parser's own lexer (`Language.trivia`); a comment the layout cannot keep
at its place is moved next to it and reported (W121), never dropped.
"""

from __future__ import annotations

from typing import Any

from pddltools.diagnostics import Diagnostic, Source


def parse_pddl(source: Source, warnings: list[Diagnostic] | None = None, language: str | None = None) -> Any:
    """The tree of a file in PDDL or a language on it: `language` (an editor's language id) or, None, the
    one its file name chooses (`pddltools.dialects`)."""
    from pddltools import dialects

    return dialects.parse_as(source, language, None, warnings)


def format_pddl(source: Source, warnings: list[Diagnostic], language: str | None = None) -> str:
    """A file in PDDL or a language on it (`language` as for `parse_pddl`) in the standard layout; raises
    the parser's error for text that is not the language. An in-package form (W104) is kept."""
    from pddltools import dialects

    found: list[Diagnostic] = []
    node = parse_pddl(source, found, language)
    warnings.extend(found)
    before = [(w.span.start, w.span.end) for w in found if w.code == "W104" and w.span is not None]
    text, moved = dialects.format_node(node, source, before)
    warnings.extend(moved)
    return text


def format_rddl_source(source: Source, node: object, warnings: list[Diagnostic]) -> str:
    """An RDDL file, parsed from `source` as `node` (an `RDDLFile`), in the standard layout."""
    from pddltools.rddl import ast
    from pddltools.rddl.language import LANGUAGE as RDDL
    from pddltools.rddl.printer import format_source

    assert isinstance(node, ast.RDDLFile)
    text, moved = format_source(node, source, RDDL.trivia(source))
    warnings.extend(moved)
    return text
