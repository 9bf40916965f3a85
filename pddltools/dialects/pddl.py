"""PDDL, the registry's core: its parser, checker, tracks and `parse` summary."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pddltools.check.report import CheckReport, check
from pddltools.check.tracks import TRACK_IDS
from pddltools.diagnostics import Diagnostic, Source
from pddltools.dialects import Implementation
from pddltools.pddl import ast
from pddltools.pddl.language import LANGUAGE
from pddltools.pddl.parser import parse

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pddltools.dialects import Kind


def _parse(source: Source, kind: Kind | None, warnings: list[Diagnostic] | None) -> ast.Domain | ast.Problem:
    return parse(source, kind, warnings=warnings)


def _check(domain: ast.Domain, problems: Sequence[object], strict: bool, tracks: Iterable[str] | None) -> CheckReport:
    return check(domain, [p for p in problems if isinstance(p, ast.Problem)], strict=strict, tracks=tracks)


def summary(node: ast.Domain | ast.Problem) -> dict[str, Any]:
    """`parse`'s entry for a PDDL file: kind, name and the counts of what it declares."""
    if isinstance(node, ast.Domain):
        counts = {
            "requirements": len(node.requirements),
            "types": len(node.types),
            "constants": len(node.constants),
            "predicates": len(node.predicates),
            "functions": len(node.functions),
            "actions": len(node.actions),
            "durative_actions": len(node.durative_actions),
            "derived_predicates": len(node.derived_predicates),
        }
        return {"kind": "domain", "name": node.name, "counts": counts}
    counts = {
        "objects": len(node.objects),
        "init": len(node.init),
        "goal_atoms": sum(1 for n in node.goal.walk() if isinstance(n, ast.Atom)) if node.goal else 0,
    }
    return {"kind": "problem", "name": node.name, "domain": node.domain, "counts": counts}


def _owns(node: object) -> bool:
    return isinstance(node, ast.Domain | ast.Problem)


def _format(node: Any, source: Source, before: Sequence[tuple[int, int]]) -> tuple[str, list[Diagnostic]]:
    """PDDL's layout with the comments kept; also the layout of a dialect that gives none of its own: a
    domain or problem of it through PDDL's printer rules, another node (a PPDDL file bundling several
    definitions) as it prints itself."""
    from pddltools.pddl import printer

    parsed = node.span.source if node.span is not None else source
    render = None if isinstance(node, ast.Domain | ast.Problem) else str
    return printer.format_source(node, source, LANGUAGE.trivia(parsed), render=render, before=before)


IMPLEMENTATION = Implementation(_parse, _owns, _check, summary, TRACK_IDS, format=_format, language=LANGUAGE)
