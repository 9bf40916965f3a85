"""The shape of PDDL+ (Fox & Long 2006): processes change the world only continuously, continuous
effects have the form PDDL 2.1 gives them, and an event must be able to falsify its own precondition.

Where `#t` may stand at all (durative-action effects and processes) is the name checker's E453. Here:
- a process's effects are continuous numeric updates: no atoms added or deleted, no `assign` (E454);
- a continuous effect is `(increase f e)` or `(decrease f e)` where `e` is `#t`, `(* #t x)` or `(* x #t)`
  and `x` does not read `#t` again (E455): the rate of change is `x`, which is what validators integrate;
- an event fires as soon as its precondition holds; if its effect cannot make that precondition false,
  it would fire again at once, for ever (E456). The test is on predicates and functions, so it errs
  towards "can falsify": an effect on a predicate of the right polarity, or on any function or derived
  predicate the precondition reads, counts even if its arguments differ.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

from pddltools.check.codes import finding
from pddltools.diagnostics import Diagnostic
from pddltools.pddl import ast
from pddltools.static_typing import assert_never


def check_pddlplus(domain: ast.Domain) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    for process in domain.processes:
        if process.effect is not None:
            found += _process_effects(process)
    for action in domain.durative_actions:
        if action.effect is not None:
            shapes = (_shape(node, f"durative action {action.name}") for node in _continuous(action.effect))
            found += [shape for shape in shapes if shape is not None]
    derived = frozenset(d.name for d in domain.derived_predicates)
    for event in domain.events:
        if not _can_falsify(event, derived):
            found.append(finding(
                "E456", f"event {event.name} cannot make its own precondition false: once it holds, the event "
                "would fire again at once, for ever; its effect must delete, add or change something its "
                "precondition tests", event.span))
    return found


def _continuous(effect: ast.Effect) -> Iterator[ast.Assign]:
    for node in ast.effect_parts(effect):
        if isinstance(node, ast.Assign) and _reads_time(node.value):
            yield node


def _reads_time(expression: ast.Node) -> bool:
    return any(isinstance(n, ast.ContinuousTime) for n in expression.walk())


def _process_effects(process: ast.Process) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    assert process.effect is not None
    for node in ast.effect_parts(process.effect):
        if isinstance(node, ast.AndEffect | ast.ForallEffect | ast.When):
            continue
        if isinstance(node, ast.Assign) and _reads_time(node.value):
            shape = _shape(node, f"process {process.name}")
            if shape is not None:
                found.append(shape)
            continue
        what = "an assignment that does not read #t" if isinstance(node, ast.Assign) else "a discrete effect"
        found.append(finding("E454", f"process {process.name} has {what}: a process changes numeric fluents "
                             "continuously, (increase f (* #t rate)) or (decrease ...); instantaneous changes "
                             "belong in an action or an event", node.span))
    return found


def _shape(node: ast.Assign, owner: str) -> Diagnostic | None:
    if node.op not in ("increase", "decrease"):
        return finding("E455", f"this continuous effect of {owner} uses {node.op}: a continuous effect "
                       "is (increase f (* #t rate)) or (decrease f (* #t rate))", node.span)
    value = node.value
    if isinstance(value, ast.ContinuousTime):
        return None
    if isinstance(value, ast.Arithmetic) and value.op == "*" and len(value.args) == 2:
        times = [a for a in value.args if isinstance(a, ast.ContinuousTime)]
        rate = [a for a in value.args if not isinstance(a, ast.ContinuousTime)]
        if len(times) == 1 and not any(_reads_time(r) for r in rate):
            return None
    return finding("E455", f"in this continuous effect of {owner}, #t must be a factor of the whole change: "
                   "write #t, (* #t rate) or (* rate #t), with a rate that does not read #t", value.span)


def _can_falsify(event: ast.Event, derived: frozenset[str]) -> bool:
    if event.effect is None or event.precondition is None:
        return False
    positive, negative, functions = _tested(event.precondition, derived)
    for node in ast.effect_parts(event.effect):
        if isinstance(node, ast.Atom) and node.predicate in negative:
            return True
        if isinstance(node, ast.Not) and isinstance(node.body, ast.Atom) and node.body.predicate in positive:
            return True
        if isinstance(node, ast.Assign) and node.fluent.function in functions:
            return True
        if isinstance(node, ast.Atom | ast.Not | ast.Assign) and "*" in functions:
            return True  # a derived predicate in the precondition may depend on anything
    return False


def _tested(precondition: ast.Formula, derived: frozenset[str]) -> tuple[set[str], set[str], set[str]]:
    """The predicates the precondition needs true (falsified by a delete), those it needs false (by an
    add), and the functions it reads; "*" among the functions when it reads a derived predicate."""
    positive: set[str] = set()
    negative: set[str] = set()
    functions: set[str] = set()
    stack: list[tuple[ast.Formula, bool]] = [(precondition, True)]
    while stack:
        node, polarity = stack.pop()
        match node:
            case ast.Atom():
                (positive if polarity else negative).add(node.predicate)
                if node.predicate in derived:
                    functions.add("*")
                functions.update(n.function for n in node.walk() if isinstance(n, ast.FunctionTerm))
            case ast.Not():
                stack.append((node.body, not polarity))
            case ast.Imply():
                stack += [(node.condition, not polarity), (node.consequence, polarity)]
            case ast.Comparison():
                functions.update(n.function for n in node.walk() if isinstance(n, ast.FunctionTerm))
            case ast.And() | ast.Or():
                stack.extend((part, polarity) for part in node.parts)
            case ast.Exists() | ast.Forall() | ast.Preference() | ast.Timed():
                stack.append((cast(ast.Formula, node.body), polarity))  # the body keeps the polarity
            case (ast.Always() | ast.Sometime() | ast.Within() | ast.AtMostOnce() | ast.SometimeAfter()
                  | ast.SometimeBefore() | ast.AlwaysWithin() | ast.HoldDuring() | ast.HoldAfter()):
                stack.extend((cast(ast.Formula, child), polarity) for child in node.children()
                             if not isinstance(child, ast.Number))  # no precondition holds one
            case _:
                assert_never(node)
    return positive, negative, functions
