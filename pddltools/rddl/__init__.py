"""RDDL: parse, type-check and print RDDL domains, non-fluents and instances.

    from pddltools.rddl import parse_file, check, format_file
    rddl = parse_file("domain.rddl")          # an RDDLFile: its blocks, frozen dataclasses with spans
    diagnostics = check([rddl, parse_file("instance0.rddl")])
    print(format_file(rddl))                   # the same as str(rddl)
"""

from __future__ import annotations

from pddltools.rddl.parser import parse, parse_file, parse_text, read_rddl_source
from pddltools.rddl.printer import format_expr, format_file
from pddltools.rddl.typecheck import check
from pddltools.syntax.errors import ParseError

__all__ = [
    "ParseError", "check", "format_expr", "format_file", "parse", "parse_file", "parse_text",
    "read_rddl_source",
]
