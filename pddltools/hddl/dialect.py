"""HDDL in the language registry (`pddltools.dialects`): its parser, checker, HTN tracks and summary."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pddltools.check.report import CheckReport
from pddltools.diagnostics import Diagnostic, Source
from pddltools.dialects import Implementation
from pddltools.dialects.pddl import summary as pddl_summary
from pddltools.hddl import ast
from pddltools.hddl.check import check_htn
from pddltools.hddl.language import LANGUAGE
from pddltools.hddl.parser import parse
from pddltools.hddl.tracks import HTN_TRACK_IDS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pddltools.dialects import Kind


def _parse(source: Source, kind: Kind | None, warnings: list[Diagnostic] | None) -> ast.HTNDomain | ast.HTNProblem:
    return parse(source, kind, warnings=warnings)


def _check(domain: ast.HTNDomain, problems: Sequence[object], strict: bool, tracks: Iterable[str] | None
           ) -> CheckReport:
    return check_htn(domain, [p for p in problems if isinstance(p, ast.HTNProblem)], strict=strict, tracks=tracks)


def _summary(node: ast.HTNDomain | ast.HTNProblem) -> dict[str, Any]:
    """The PDDL part's counts, and the hierarchy's."""
    if isinstance(node, ast.HTNDomain):
        info = pddl_summary(node.domain)
        info["counts"].update(tasks=len(node.tasks), methods=len(node.methods))
        return info
    info = pddl_summary(node.problem)
    info["counts"]["subtasks"] = len(node.htn.network.subtasks) if node.htn is not None else 0
    return info


def _owns(node: object) -> bool:
    return isinstance(node, ast.HTNDomain | ast.HTNProblem)


def _format(node: ast.HTNDomain | ast.HTNProblem, source: Source, before: Sequence[tuple[int, int]]
            ) -> tuple[str, list[Diagnostic]]:
    from pddltools.hddl import printer

    parsed = node.span.source if node.span is not None else source
    return printer.format_source(node, source, LANGUAGE.trivia(parsed), list(before))


IMPLEMENTATION = Implementation(_parse, _owns, _check, _summary, HTN_TRACK_IDS, format=_format, language=LANGUAGE)
