"""FOND PDDL in the language registry: the grammar (`grammars/fond.lark`: PDDL plus `oneof`), its
node and builder, printer rules, checks (E925-W926) and the IPC's FOND tracks.

PDDL's checker reads a FOND domain through its deterministic stand-in, each `oneof` read as an `and` of
its outcomes: the names, arity and types of every outcome are checked by PDDL's code.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pddltools.check.codes import finding
from pddltools.check.features import Feature
from pddltools.check.tracks import ADL
from pddltools.diagnostics import Diagnostic
from pddltools.dialects import dialect
from pddltools.dialects.extension import Rules, dialect_track, implementation
from pddltools.fond.ast import OneOf
from pddltools.pddl import ast
from pddltools.pddl.parser import Builder, GrammarPathLexer, PDDLLexer
from pddltools.pddl.printer import add_printer_rules, flat, sexp

F = Feature


class FONDBuilder(Builder):
    """PDDL's builder, with the callback of `oneof`."""

    def oneof(self, c: list[Any]) -> OneOf:
        return OneOf(tuple(c[1:-1]), span=self._span(c[0], c[-1]))


class FONDLexer(PDDLLexer):
    """PDDL's lexer, with FOND's own fast-path scanners (they are set on the class)."""


class FONDGrammarPathLexer(GrammarPathLexer):
    """The lexer with the fast path switched off."""


add_printer_rules(OneOf, lambda n: sexp("oneof", *map(flat, n.outcomes)), lambda n: ("oneof", list(n.outcomes)))


def _stand_in(node: OneOf) -> ast.AndEffect:
    return ast.AndEffect(tuple(node.outcomes), span=node.span)


def _findings(domain: ast.Domain, problems: Sequence[ast.Problem]) -> list[Diagnostic]:
    """W926: a `oneof` of one outcome (nothing is nondeterministic); E925: a `oneof` with no outcome."""
    found: list[Diagnostic] = []
    for structure in domain.structures:
        for node in structure.walk():
            if isinstance(node, OneOf) and len(set(node.outcomes)) < 2:
                where = f"action {structure.name}" if isinstance(structure, ast.Action) else structure.name
                found.append(finding("W926", f"this oneof of {where} has only one distinct outcome: the effect is "
                                     "deterministic", node.span))
    return found


#: IPC-2006's and IPC-2008's FOND tracks (the uncertainty part's nondeterministic track): STRIPS with
#: types and `oneof`; the ADL features (conditions, conditional effects) are what FOND planners (PRP,
#: MyND, FIP) compile away themselves.
TRACKS = (
    dialect_track("ipc2006-fond", "IPC-2006 FOND track", {F.TYPING, F.EQUALITY}, ADL,
                  "a strong (cyclic) policy reaching the goal whatever the outcomes"),
    dialect_track("ipc2008-fond", "IPC-2008 FOND track", {F.TYPING, F.EQUALITY}, ADL,
                  "a strong cyclic policy; planning time and policy size"),
)

DIALECT = dialect("fond")
RULES = Rules(DIALECT, FONDBuilder, (FONDLexer, FONDGrammarPathLexer), (OneOf,), _stand_in, _findings, TRACKS,
              "nondeterministic")
IMPLEMENTATION = implementation(RULES)
