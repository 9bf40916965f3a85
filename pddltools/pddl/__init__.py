"""PDDL: the grammar-driven parser, the AST and the printer."""

from __future__ import annotations

from pddltools.pddl import ast
from pddltools.pddl.parser import (
    parse,
    parse_domain,
    parse_domain_file,
    parse_file,
    parse_problem,
    parse_problem_file,
    parse_text,
)
from pddltools.syntax.errors import ParseError

__all__ = [
    "ParseError",
    "ast",
    "parse",
    "parse_domain",
    "parse_domain_file",
    "parse_file",
    "parse_problem",
    "parse_problem_file",
    "parse_text",
]
