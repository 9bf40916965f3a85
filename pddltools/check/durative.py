"""The shape of durative actions (PDDL 2.1): every condition is timed `at start`, `over all` or
`at end`, and every effect `at start` or `at end`, except continuous effects (those that read `#t`).

Quantifiers, conjunctions, preferences and conditional effects may wrap the timed parts (PDDL 2.1 and
3.0 allow `(forall (?x) (at end ...))` and `(when (at start c) (at end e))`).
"""

from __future__ import annotations

from pddltools.check.codes import finding
from pddltools.diagnostics import Diagnostic
from pddltools.pddl import ast
from pddltools.static_typing import assert_never


def check_durative_actions(domain: ast.Domain) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    for action in domain.durative_actions:
        if action.condition is not None:
            _conditions(action.condition, action.name, found)
        if action.effect is not None:
            _effects(action.effect, action.name, found)
    return found


def _conditions(formula: ast.Formula, action: str, found: list[Diagnostic]) -> None:
    stack: list[ast.Node] = [formula]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.And):
            stack.extend(reversed(node.parts))
        elif isinstance(node, ast.Forall | ast.Preference):
            stack.append(node.body)
        elif not isinstance(node, ast.Timed):
            found.append(finding("E451", f"this condition of durative action {action} must say when it holds: "
                                 "wrap it in (at start ...), (over all ...) or (at end ...)", node.span))


def _effects(effect: ast.Effect, action: str, found: list[Diagnostic]) -> None:
    for node in ast.effect_parts(effect, into_timed=False):
        match node:
            case ast.AndEffect() | ast.ForallEffect():
                continue  # effect_parts goes on into their parts
            case ast.When():
                _conditions(node.condition, action, found)
            case ast.Timed():
                if node.time == "all":
                    found.append(finding("E452", f"an effect of durative action {action} happens at start or at "
                                         "end, not over all", node.span))
            case ast.Assign() if any(isinstance(n, ast.ContinuousTime) for n in node.value.walk()):
                continue  # a continuous effect runs over the whole action
            case ast.Atom() | ast.Not() | ast.Assign():
                found.append(finding("E452", f"this effect of durative action {action} must say when it happens: "
                                     "wrap it in (at start ...) or (at end ...)", node.span))
            case _:
                assert_never(node)
