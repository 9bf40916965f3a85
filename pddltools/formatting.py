"""The formatters' one entry point, for `fmt` and the language server: a source in, its text in the
standard layout out, with every comment and blank-line group the author wrote (see `comments`).

The comments come from the parser's own lexer (`Language.trivia`); a comment the layout cannot keep
at its place is moved next to it and reported (W120), never dropped.
"""

from __future__ import annotations

from typing import Any

from pddltools.diagnostics import Diagnostic, Source


def parse_pddl(source: Source, warnings: list[Diagnostic] | None = None, hddl: bool | None = None) -> Any:
    """The tree of a PDDL or HDDL file: HDDL when `hddl`, or (None) by its suffix as `parse_either` decides."""
    from pddltools.hddl.files import is_hddl

    if hddl if hddl is not None else is_hddl(source.name):
        from pddltools.hddl.parser import parse as parse_hddl

        return parse_hddl(source, warnings=warnings)
    from pddltools.pddl.parser import parse

    return parse(source, warnings=warnings)


def format_pddl(source: Source, warnings: list[Diagnostic], hddl: bool | None = None) -> str:
    """A PDDL or HDDL file (`hddl` as for `parse_pddl`) in the standard layout; raises the parser's
    error for text that is not the language. An in-package form (W104) is kept."""
    from pddltools.hddl import ast as hddl_ast

    found: list[Diagnostic] = []
    node = parse_pddl(source, found, hddl)
    warnings.extend(found)
    before = [(w.span.start, w.span.end) for w in found if w.code == "W104" and w.span is not None]
    parsed = node.span.source if node.span is not None else source
    if isinstance(node, hddl_ast.HTNDomain | hddl_ast.HTNProblem):
        from pddltools.hddl import printer as hddl_printer
        from pddltools.hddl.language import LANGUAGE as HDDL

        text, moved = hddl_printer.format_source(node, source, HDDL.trivia(parsed), before)
    else:
        from pddltools.pddl import printer
        from pddltools.pddl.language import LANGUAGE as PDDL

        text, moved = printer.format_source(node, source, PDDL.trivia(parsed), before=before)
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
