"""Declared requirements against used features: a feature used without its flag (a warning, an error
with `--strict`), and a flag declared but never used.

Shorthand flags are expanded first (`:adl`, `:quantified-preconditions`, `:fluents`, `:ucpop`). A flag
is used when any feature it declares is; checking a domain without problems cannot see what only a
problem uses (negative goals, timed initial literals, soft goals ...), so those flags are then left
alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from pddltools.check.codes import finding
from pddltools.check.features import REQUIREMENT_OF, Feature, FeatureSet, declared_requirements, undeclared
from pddltools.diagnostics import Diagnostic, Severity, Span
from pddltools.pddl import ast
from pddltools.pddl.requirements import KNOWN_REQUIREMENTS, expand
from pddltools.pddl.types import NUMBER, type_names

F = Feature

#: Features only a domain can use: with no problem given, these are all there is to know.
DOMAIN_ONLY = frozenset({F.TYPING, F.CONDITIONAL_EFFECTS, F.UNIVERSAL_EFFECTS, F.DERIVED_PREDICATES,
                         F.DURATIVE_ACTIONS, F.DURATION_INEQUALITIES, F.CONTINUOUS_EFFECTS, F.PROCESSES,
                         F.EVENTS})

#: Flags that declare no feature pddltools detects (PDDL 1.2 relics, :strips itself): never "unused".
_NOT_JUDGED = {":strips", ":domain-axioms", ":safety-constraints", ":open-world", ":true-negation",
               ":expression-evaluation"}


def check_requirements(domain: ast.Domain, problems: Sequence[ast.Problem], features: FeatureSet, *,
                       strict: bool = False) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    declared = declared_requirements(domain, problems)
    severity = Severity.ERROR if strict else None
    where = _requirements_span(domain)
    for use in undeclared(features, declared):
        if use.feature is F.ACTION_COSTS:
            found.append(finding("W502", "total-cost is used, but :action-costs is not declared in :requirements",
                                 use.span, severity=severity, notes=(("requirements are declared here", where),)))
            continue
        flag = REQUIREMENT_OF[use.feature][0]
        found.append(finding("W501", f"{use.feature} used, but {flag} is not declared in :requirements",
                             use.span, severity=severity, notes=(("requirements are declared here", where),)))
    used = features.features
    numeric_functions = any(type_names(f.type) == (NUMBER,) or f.type is None for f in domain.functions)
    for requirement in _written(domain, problems):
        flag = requirement.name
        if flag in _NOT_JUDGED or flag not in KNOWN_REQUIREMENTS:
            continue
        covered = [f for f, flags in REQUIREMENT_OF.items() if any(x in expand({flag}) for x in flags)]
        if not covered:
            continue
        if not problems and not all(f in DOMAIN_ONLY for f in covered):
            continue
        if any(f in used for f in covered):
            continue
        # Static numeric functions read in durations or costs need the flag without being "numeric fluents".
        if numeric_functions and (F.NUMERIC_FLUENTS in covered or F.ACTION_COSTS in covered):
            continue
        found.append(finding("W503", f"{flag} is declared but nothing in the "
                             f"{'task' if problems else 'domain'} uses it", requirement.span))
    return found


def _written(domain: ast.Domain, problems: Sequence[ast.Problem]) -> list[ast.Requirement]:
    seen: set[str] = set()
    out = []
    for requirement in [*domain.requirements, *(r for p in problems for r in p.requirements)]:
        if requirement.name not in seen:
            seen.add(requirement.name)
            out.append(requirement)
    return out


def _requirements_span(domain: ast.Domain) -> Span | None:
    return domain.requirements[0].span if domain.requirements else domain.span
