"""PPDDL in the language registry: the grammar (`grammars/ppddl.lark`: PDDL plus probabilistic effects,
probabilities and the goal reward), its nodes and builder, printer rules, checks (E921, E922) and the
IPPC's tracks.

PDDL's checker reads a PPDDL domain through its deterministic stand-in, each probabilistic effect read as
an `and` of its outcomes and the `(reward)` fluent declared: the names, arity and types of every
outcome are checked by PDDL's code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from pddltools.check.codes import finding
from pddltools.check.features import Feature
from pddltools.check.tracks import ADL
from pddltools.diagnostics import Diagnostic
from pddltools.dialects import dialect
from pddltools.dialects.extension import Rules, dialect_track, implementation
from pddltools.dialects.pddl import summary as pddl_summary
from pddltools.pddl import ast
from pddltools.pddl.parser import (
    Builder,
    BuildError,
    GrammarPathLexer,
    PDDLLexer,
    assemble_problem,
    section_value,
)
from pddltools.ppddl.ast import Outcome, PPDDLFile, PPDDLProblem, Probabilistic
from pddltools.ppddl.printer import probability_text  # and, imported, the printer rules of the nodes
from pddltools.syntax.frozen import new_span
from pddltools.syntax.lalr import Tok

F = Feature

#: The fluent rewards change; PPDDL declares it (with :rewards), domains do not.
REWARD = "reward"


class PPDDLBuilder(Builder):
    """PDDL's builder, with the callbacks of the rules ppddl.lark adds."""

    def probability(self, c: list[Tok]) -> tuple[Fraction, Tok]:
        text = c[0].value
        if "/" in text:
            numerator, denominator = text.split("/")
            if int(denominator) == 0:
                raise BuildError("a probability's denominator is 0", c[0].start_pos, c[0].end_pos)
            return Fraction(int(numerator), int(denominator)), c[0]
        return Fraction(self.number(c).value), c[0]

    def probabilistic(self, c: list[Any]) -> Probabilistic:
        pairs = c[1:-1]
        outcomes = tuple(Outcome(pairs[i][0], pairs[i + 1], span=self._outcome_span(pairs[i][1], pairs[i + 1]))
                         for i in range(0, len(pairs), 2))
        return Probabilistic(outcomes, span=self._span(c[0], c[-1]))

    def _outcome_span(self, probability: Tok, effect: Any) -> Any:
        """From the probability to the end of the effect."""
        end = effect.span.end if effect.span is not None else probability.end_pos
        return new_span(self.source, probability.start_pos, end - probability.start_pos)

    def definitions(self, c: list[Any]) -> PPDDLFile:
        first, last = c[0].span, c[-1].span
        span = new_span(self.source, first.start, last.end - first.start) if first and last else None
        return PPDDLFile(tuple(c), span=span)

    def goal_reward(self, c: list[Any]) -> tuple[str, Any, int]:
        return section_value("goal-reward", c[1], c[0].start_pos)

    def problem(self, c: list[Any]) -> ast.Problem | PPDDLProblem:  # type: ignore[override]
        items = c[4:-1]
        rewards = [item for item in items if item[0] == "goal-reward"]
        if len(rewards) > 1:
            raise BuildError("a problem has at most one :goal-reward section", rewards[1][2], rewards[1][2] + 1)
        span = self._span(c[0], c[-1])
        problem = assemble_problem(c[2].value, [i for i in items if i[0] != "goal-reward"], span, self.warnings,
                                   (c[0].start_pos, c[3].end_pos))
        return PPDDLProblem(problem, rewards[0][1], span=span) if rewards else problem


class PPDDLLexer(PDDLLexer):
    """PDDL's lexer, with PPDDL's own fast-path scanners (they are set on the class)."""


class PPDDLGrammarPathLexer(GrammarPathLexer):
    """The lexer with the fast path switched off."""


def _stand_in(node: Probabilistic | Outcome) -> Any:
    if isinstance(node, Outcome):
        return node.effect
    outcomes: tuple[Any, ...] = tuple(o.effect for o in node.outcomes)  # PDDL effects, or nested choices
    return ast.AndEffect(outcomes, span=node.span)


def _definitions(node: Any) -> tuple[Any, ...]:
    if isinstance(node, PPDDLFile):
        return tuple(d for n in node.definitions for d in _definitions(n))
    return (node.problem,) if isinstance(node, PPDDLProblem) else (node,)


def _findings(domain: ast.Domain, problems: Sequence[ast.Problem]) -> list[Diagnostic]:
    """E922: a probability outside [0, 1]; E921: a probabilistic effect's probabilities summing above 1."""
    found: list[Diagnostic] = []
    for structure in domain.structures:
        for node in structure.walk():
            if not isinstance(node, Probabilistic):
                continue
            bad = [o for o in node.outcomes if not 0 <= o.probability <= 1]
            for outcome in bad:
                found.append(finding("E922", f"probability {probability_text(outcome.probability)} is not "
                                     "between 0 and 1", outcome.span))
            total = sum((o.probability for o in node.outcomes), Fraction(0))
            if not bad and total > 1:
                found.append(finding("E921", f"the probabilities of this probabilistic effect sum to "
                                     f"{probability_text(total)}, more than 1", node.span))
    return found


def _with_reward(domain: ast.Domain) -> ast.Domain:
    """The domain with the reward fluent declared, as PPDDL declares it for every domain; :rewards is
    the requirement of that numeric fluent."""
    if not any(f.name == REWARD for f in domain.functions):
        domain = replace(domain, functions=(*domain.functions, ast.FunctionDecl(REWARD, (), None, span=domain.span)))
    rewards = next((r for r in domain.requirements if r.name == ":rewards"), None)
    if rewards is None:
        return domain
    return replace(domain, requirements=(*domain.requirements, ast.Requirement(":numeric-fluents", span=rewards.span)))


def _reward_starts_at_zero(problem: ast.Problem) -> ast.Problem:
    if any(isinstance(e, ast.InitAssignment) and e.fluent.function == REWARD for e in problem.init):
        return problem
    start = ast.InitAssignment(ast.FunctionTerm(REWARD, ()), ast.Number(0), span=problem.span)
    return replace(problem, init=(*problem.init, start))


def _summary(node: Any) -> dict[str, Any]:
    if isinstance(node, PPDDLFile):  # the first definition's, and how many problems follow
        info = _summary(node.definitions[0])
        info["counts"]["problems"] = sum(isinstance(d, ast.Problem) for d in _definitions(node))
        return info
    info = pddl_summary(_definitions(node)[0])
    if isinstance(node, PPDDLProblem):
        info["counts"]["goal_reward"] = 1
    return info


#: The IPPC's tracks (IPC-4 2004, IPC-5 2006, IPC-6 2008 probabilistic parts): PPDDL 1.0, ADL with
#: probabilistic effects and rewards; mdpsim runs the sessions.
TRACKS = tuple(
    dialect_track(f"ippc{year}", f"IPPC-{year} (probabilistic track)", {F.TYPING, F.EQUALITY, F.NUMERIC_FLUENTS}, ADL,
                  "the goal's probability (or reward) over 30 simulated rounds with mdpsim")
    for year in (2004, 2006, 2008))

DIALECT = dialect("ppddl")
RULES = Rules(DIALECT, PPDDLBuilder, (PPDDLLexer, PPDDLGrammarPathLexer), (Probabilistic, Outcome), _stand_in,
              _findings, TRACKS, "probabilistic", _definitions, _with_reward, _reward_starts_at_zero,
              uses_own=lambda node: isinstance(node, PPDDLProblem | PPDDLFile))
IMPLEMENTATION = implementation(RULES, summarise=_summary)
