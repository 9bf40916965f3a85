"""Contingent PDDL in the language registry: the grammar (`grammars/contingent.lark`: PDDL plus sensing,
state and observation variables, an uncertain initial state and hidden initial states), its nodes and
builder, its printer and its check.

PDDL's checker reads a contingent task through a stand-in: each action with what it senses as part of
its precondition (`:observe`) or effect (`:sensing-model`), so that the predicates, arity and types of
observations are checked by PDDL's code, and the initial state with the literals of its `oneof`, `or`
and `unknown` (their names and arity). No IPC track ran contingent planning: the verdicts say why no
deterministic track fits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import pddltools.contingent.printer  # noqa: F401  (registers how the dialect's nodes print, as parsing needs)
from pddltools.contingent.ast import (
    ContingentDomain,
    ContingentProblem,
    Hidden,
    InitInvariant,
    InitOneOf,
    InitOr,
    Sensing,
    StateVariable,
    Unknown,
)
from pddltools.diagnostics import Diagnostic
from pddltools.dialects import dialect
from pddltools.dialects.extension import Rules, implementation
from pddltools.dialects.pddl import summary as pddl_summary
from pddltools.pddl import ast
from pddltools.pddl.parser import (
    Builder,
    GrammarPathLexer,
    PDDLLexer,
    assemble_domain,
    assemble_problem,
    is_token,
    section_value,
)
from pddltools.syntax.frozen import new_span
from pddltools.syntax.lalr import Tok


@dataclass(frozen=True)
class _SensingAction:
    """A sensing action as the builder hands it to `domain`: the PDDL action and what it senses."""

    action: ast.Action
    sensing: Sensing


@dataclass(frozen=True)
class _DefaultSensing:
    model: Any


def _spliced(items: Sequence[Any]) -> list[Any]:
    """Init elements with the fast path's runs (tokens) and `(and ...)`s (tuples) spliced in."""
    out: list[Any] = []
    for item in items:
        if is_token(item):
            out.extend(item.value)
        elif isinstance(item, tuple):
            out.extend(item)
        else:
            out.append(item)
    return out


class ContingentBuilder(Builder):
    """PDDL's builder, with the callbacks of the rules contingent.lark adds."""

    def sensing_action(self, c: list[Any]) -> _SensingAction:
        action = self.action([c[0], c[1], c[2], c[3], c[4], c[5] if c[5] is not None else c[7], c[-1]])
        kind, value = c[6]
        sensing = Sensing(action.name, value if kind == "observe" else None, value if kind == "model" else None,
                          span=value.span if value is not None else None)
        return _SensingAction(action, sensing)

    def observe(self, c: list[Any]) -> tuple[str, Any]:
        if len(c) == 1:
            return "observe", c[0]
        first, last = c[0].span, c[-1].span  # several formulas (medpks): observed together
        span = new_span(self.source, first.start, last.end - first.start) if first and last else None
        return "observe", ast.And(tuple(c), span=span)

    def sensing_model(self, c: list[Any]) -> tuple[str, Any]:
        return "model", c[0]

    def variable_keyword(self, c: list[Tok]) -> Tok:
        return c[0]

    def state_variable(self, c: list[Any]) -> StateVariable:
        observation = c[1].value == ":obs-variable"
        parenthesised = is_token(c[2]) and c[2].type == "LPAR"
        if parenthesised:
            name, parameters, values = c[3].value, c[4], c[6:-1]
        else:
            name, parameters, values = c[2].value, (), c[3:-1]
        return StateVariable(observation, name, tuple(parameters), tuple(values), parenthesised,
                             span=self._span(c[0], c[-1]))

    def default_sensing_model(self, c: list[Any]) -> _DefaultSensing:
        return _DefaultSensing(c[1])

    def init_and(self, c: list[Any]) -> tuple[Any, ...]:
        return tuple(_spliced(c[1:-1]))

    def init_oneof(self, c: list[Any]) -> InitOneOf:
        return InitOneOf(tuple(_spliced(c[1:-1])), span=self._span(c[0], c[-1]))

    def init_or(self, c: list[Any]) -> InitOr:
        return InitOr(tuple(_spliced(c[1:-1])), span=self._span(c[0], c[-1]))

    def init_invariant(self, c: list[Any]) -> InitInvariant:
        return InitInvariant(tuple(_spliced(c[1:-1])), span=self._span(c[0], c[-1]))

    def unknown(self, c: list[Any]) -> Unknown:
        return Unknown(c[1], span=self._span(c[0], c[-1]))

    def init(self, c: list[Any]) -> tuple[str, Any, int]:
        return section_value("init", tuple(_spliced(c[1:-1])), c[0].start_pos)

    def hidden(self, c: list[Any]) -> tuple[str, Any, int]:
        return section_value("hidden", Hidden(tuple(_spliced(c[1:-1])), span=self._span(c[0], c[-1])), c[0].start_pos)

    def domain(self, c: list[Any]) -> ContingentDomain:  # type: ignore[override]
        sensing: list[Sensing] = []
        variables: list[StateVariable] = []
        default = None
        rest: list[Any] = []
        for item in c[4:-1]:
            if isinstance(item, _SensingAction):
                rest.append(item.action)
                sensing.append(item.sensing)
            elif isinstance(item, StateVariable):
                variables.append(item)
            elif isinstance(item, _DefaultSensing):
                default = item.model
            else:
                rest.append(item)
        span = self._span(c[0], c[-1])
        return ContingentDomain(assemble_domain(c[2].value, rest, span), tuple(sensing), tuple(variables), default,
                                span=span)

    def problem(self, c: list[Any]) -> ContingentProblem:  # type: ignore[override]
        items = c[4:-1]
        hidden = tuple(item[1] for item in items if item[0] == "hidden")
        rest = [item for item in items if item[0] != "hidden"]
        span = self._span(c[0], c[-1])
        if not rest and hidden:  # the simulator's file of hidden states: no (:domain ...)
            return ContingentProblem(c[2].value, None, hidden, span=span)
        problem = assemble_problem(c[2].value, rest, span, self.warnings, (c[0].start_pos, c[3].end_pos))
        return ContingentProblem(problem.name, problem, hidden, span=span)


class ContingentLexer(PDDLLexer):
    """PDDL's lexer, with the contingent grammar's own fast-path scanners (they are set on the class)."""


class ContingentGrammarPathLexer(GrammarPathLexer):
    """The lexer with the fast path switched off."""


def _leaves(elements: Sequence[Any]) -> list[Any]:
    """The literals of an initial state's `oneof`, `or` and `unknown` (for the checker's names)."""
    out: list[Any] = []
    for element in elements:
        if isinstance(element, InitOneOf | InitOr | InitInvariant):
            out.extend(_leaves(element.parts))
        elif isinstance(element, Unknown):
            out.append(element.atom)
        else:
            out.append(element)
    return out


def _stand_in_domain(node: ContingentDomain) -> ast.Domain:
    """The PDDL domain with each action's sensing in its precondition (`:observe`) or effect (`:sensing-model`)."""
    senses = {s.action: s for s in node.sensing}
    structures: list[Any] = []
    for structure in node.domain.structures:
        found = senses.get(getattr(structure, "name", ""))
        if isinstance(structure, ast.Action) and found is not None:
            if found.observe is not None:
                parts = tuple(p for p in (structure.precondition, found.observe) if p is not None)
                structure = replace(structure, precondition=ast.And(parts, span=found.span))
            else:
                effects = tuple(e for e in (structure.effect, found.model) if e is not None)
                structure = replace(structure, effect=ast.AndEffect(effects, span=found.span))
        structures.append(structure)
    return replace(node.domain, structures=tuple(structures))


def _definitions(node: Any) -> tuple[Any, ...]:
    if isinstance(node, ContingentDomain):
        return (_stand_in_domain(node),)
    if isinstance(node, ContingentProblem):
        return (node.problem,) if node.problem is not None else ()
    return (node,)


def _declare_problem(problem: ast.Problem) -> ast.Problem:
    return replace(problem, init=tuple(_leaves(problem.init)))


def _findings(domain: ast.Domain, problems: Sequence[ast.Problem]) -> list[Diagnostic]:
    return []


def _summary(node: Any) -> dict[str, Any]:
    if isinstance(node, ContingentDomain):
        info = pddl_summary(node.domain)
        info["counts"].update(sensing_actions=len(node.sensing), variables=len(node.variables))
        return info
    if isinstance(node, ContingentProblem) and node.problem is None:
        return {"kind": "problem", "name": node.name, "counts": {"hidden_states": len(node.hidden)}}
    if not isinstance(node, ContingentProblem) or node.problem is None:
        return pddl_summary(node)
    info = pddl_summary(node.problem)
    info["counts"]["hidden_states"] = len(node.hidden)
    return info


def _uses_own(node: Any) -> bool:
    if isinstance(node, ContingentDomain):
        return bool(node.sensing or node.variables or node.default_sensing is not None)
    if isinstance(node, ContingentProblem):
        return (node.problem is None or bool(node.hidden)
                or any(isinstance(e, InitOneOf | InitOr | InitInvariant | Unknown) for e in node.problem.init))
    return False


DIALECT = dialect("contingent")
RULES = Rules(DIALECT, ContingentBuilder, (ContingentLexer, ContingentGrammarPathLexer), (), lambda node: node,
              _findings, (), "contingent (it senses, and its initial state is uncertain)", _definitions,
              declare_problem=_declare_problem, uses_own=_uses_own)
IMPLEMENTATION = implementation(RULES, summarise=_summary)
