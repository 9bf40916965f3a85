"""Verify an HTN plan against an HDDL domain and problem, as the IPC's verifier (pandaPIparser -verify) does.

The checks, in the order pandaPIparser makes them, each fault a diagnostic on the plan line at fault:
ids are unique and every subtask id names a step of the plan (V102); primitive steps are actions of the
domain with the right objects (V002-V005, as for classical plans) and decompositions name compound tasks
(V103) with the right arguments (V104) and a method of that task (V105); every step is reached from
the root once (V109); each decomposition instantiates its method (V111): one binding of the method's
parameters gives its task's arguments, maps its subtasks one to one onto the listed ids (listed in an
order the method's ordering allows, as pandaPIparser requires unless run with `-o`) and satisfies its
`:constraints`; the root tasks
instantiate the problem's initial task network the same way (V110); the order each method imposes
holds in the primitive plan (V108: everything below a subtask ordered first comes before everything
below the one ordered after it); the primitive plan is executable and reaches the goal (the classical
validator's verdict); and each method's precondition holds (V107) in the state before the first
primitive step below it, as the IPC-2020 rules define for total order; a method with no primitive step
below it is checked in the states between its predecessors' last step and its successors' first.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

from pddltools.code_ids import CodeId
from pddltools.diagnostics import Diagnostic, Error, Source, Span, error
from pddltools.hddl import ast
from pddltools.hddl.matching import SEARCH_LIMIT, Candidate, Holds, Matcher, SearchTooLong
from pddltools.hddl.parser import parse
from pddltools.hddl.plan import HTNPlan, HTNPlanError, HTNPlanLine, Word, parse_plan
from pddltools.pddl import ast as pddl
from pddltools.pddl.type_hierarchy import type_names
from pddltools.reading import read_source
from pddltools.semantics import GroundedTask, SemanticsError
from pddltools.validate import planfile
from pddltools.validate.planfile import PlanError
from pddltools.validate.report import PlanReport
from pddltools.validate.resolve import resolve_step
from pddltools.validate.sequential import validate_sequential
from pddltools.wording import count

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pddltools.validate.report import Verdict

#: how many bindings of a method's parameters that no task argument fixes are tried before giving up
BINDING_LIMIT = 100_000
_GAVE_UP = (f"pddltools stopped searching for a one-to-one assignment of the subtasks to the listed ids after "
            f"{SEARCH_LIMIT:,} choices (their names, arguments and order leave too many open); list the ids in "
            "the method's order or give the subtasks distinct arguments")


@dataclass
class HTNTask:
    """An HDDL domain and problem, loaded once for any number of plans."""

    domain: ast.HTNDomain
    problem: ast.HTNProblem
    task: GroundedTask  # the classical part: states, actions, goal
    compound: dict[str, ast.Task] = field(default_factory=dict)
    methods: dict[str, ast.Method] = field(default_factory=dict)

    @classmethod
    def load(cls, domain_path: str | Path, problem_path: str | Path) -> HTNTask:
        """Parse both files; raises `pddltools.diagnostics.Error` for bad input."""
        domain = parse(read_source(domain_path), "domain")
        problem = parse(read_source(problem_path), "problem")
        task = GroundedTask(domain.domain, problem.problem, domain_path=str(domain_path),
                            problem_path=str(problem_path))
        return cls(domain, problem, task, {t.name: t for t in domain.tasks}, {m.name: m for m in domain.methods})


@dataclass(frozen=True)
class _Network:
    """What a decomposition must instantiate: a method's (or the initial network's) parameters, the task
    it decomposes (None for the initial network) and its subtasks."""

    name: str
    parameters: tuple[pddl.TypedName, ...]
    head: ast.TaskHead | None
    network: ast.TaskNetwork
    precondition: pddl.Formula | None = None


def verify_plan(htn: HTNTask, plan: str | Path | Source, name: str | None = None) -> PlanReport:
    """The verdict on one HTN plan (a path, or the plan's text as a `Source`); never raises for a bad plan."""
    label = name if name is not None else plan.name if isinstance(plan, Source) else str(plan)
    try:
        parsed = parse_plan(plan if isinstance(plan, Source) else read_source(plan))
    except HTNPlanError as exc:
        return _rejected(label, "syntax", exc.diagnostics, verdict="error")
    except Error as exc:
        return _rejected(label, "unreadable", exc.diagnostics, verdict="error")
    return _Verifier(htn, parsed, label).run()


def _rejected(label: str, reason: str, diagnostics: Sequence[Diagnostic], verdict: Verdict = "invalid") -> PlanReport:
    first = diagnostics[0]
    return PlanReport(plan=label, valid=False, verdict=verdict, reason=reason,
                      message=first.message, line=first.span.line if first.span else None,
                      diagnostics=tuple(diagnostics))


class _Verifier:
    def __init__(self, htn: HTNTask, plan: HTNPlan, label: str) -> None:
        self.htn = htn
        self.plan = plan
        self.label = label
        self.faults: list[Diagnostic] = []
        self.steps: dict[int, HTNPlanLine] = {}
        self.parent: dict[int, int | None] = {}  # step id -> the decomposition listing it (None: a root)
        self.bindings: dict[int, list[dict[str, str]]] = {}  # decomposition id -> bindings that fit
        self.matched: dict[int, dict[str, int]] = {}  # decomposition id -> method subtask id -> plan id
        self.position = {s.id: i for i, s in enumerate(plan.primitive)}
        self._below: dict[int, list[int]] | None = None

    def fault(self, code: CodeId, message: str, span: Span) -> None:
        self.faults.append(error(code, message, span))

    def run(self) -> PlanReport:
        self.check_ids()
        primitive = self.resolve_primitive()
        self.check_declarations()
        if self.faults:
            return _rejected(self.label, "hierarchy", self.faults, verdict="error")
        self.check_reached()
        roots = self.root_network()
        for step in self.plan.decompositions:
            self.instantiate(step, self.htn.methods[step.method.text] if step.method else None)
        if roots is not None:
            self.instantiate_roots(roots)
        if self.faults:
            return _rejected(self.label, "hierarchy", self.faults)
        self.check_order()
        if self.faults:
            return _rejected(self.label, "ordering", self.faults)
        report = validate_sequential(self.htn.task, primitive, self.label)
        self.check_preconditions()  # in an executable plan, whether or not it reaches the goal
        if self.faults:
            return _rejected(self.label, "method-precondition", self.faults)
        return report

    # ----------------------------------------------------------------------------------------------
    # ids and declarations

    def check_ids(self) -> None:
        for step in self.plan.steps:
            if step.id in self.steps:
                first = self.steps[step.id]
                self.fault("V102", f"task id {step.id} is used twice (first on line {first.line.line})",
                           step.id_word.span)
                continue
            self.steps[step.id] = step
        listed: list[tuple[Word, int | None]] = [(w, None) for w in self.plan.roots or ()]
        listed += [(w, step.id) for step in self.plan.decompositions for w in step.subtasks]
        for word, owner in listed:
            ident = int(word.text)
            where = "the root" if owner is None else f"task {owner}"
            if ident not in self.steps:
                self.fault("V102", f"{where} lists the subtask id {ident}, but no line of the plan has that id",
                           word.span)
            elif ident == owner:
                self.fault("V102", f"task {ident} lists itself as its own subtask id", word.span)
            elif ident in self.parent:
                other = self.parent[ident]
                self.fault("V102", f"{where} lists the subtask id {ident}, which "
                           f"{'the root' if other is None else f'task {other}'} already lists: each id is "
                           "a subtask once", word.span)
            else:
                self.parent[ident] = owner

    def resolve_primitive(self) -> planfile.Plan:
        """The primitive steps as a classical plan, each checked as the classical validator checks steps."""
        steps = tuple(planfile.PlanFileStep(i, s.name.text, tuple(a.text for a in s.args), s.line)
                      for i, s in enumerate(self.plan.primitive, 1))
        for step, original in zip(steps, self.plan.primitive, strict=True):
            if step.name in self.htn.compound:
                self.fault("V103", f"step {original.id}: {step.name} is a compound task of the domain; a "
                           f"primitive step is an action (decompose it with `-> METHOD`)", original.name.span)
                continue
            try:
                resolve_step(self.htn.task, step)
            except PlanError as exc:
                self.faults.extend(exc.diagnostics)
        return planfile.Plan(self.plan.source, steps)

    def check_declarations(self) -> None:
        grounder = self.htn.task.grounder
        for step in self.plan.decompositions:
            declared = self.htn.compound.get(step.name.text)
            if declared is None:
                what = "an action: its line has no `->`" if step.name.text in self.htn.task.schemas else "not declared"
                self.fault("V103", f"task {step.id}: {step.name.text} is {what}; a decomposition names a compound "
                           "task of the domain's :tasks", step.name.span)
                continue
            if len(step.args) != len(declared.parameters):
                wanted = count(len(declared.parameters), "argument")
                self.fault("V104", f"task {step.id}: {declared.name} takes {wanted} "
                           f"({' '.join(p.name for p in declared.parameters) or 'none'}), not {len(step.args)}",
                           step.name.span)
            else:
                for arg, param in zip(step.args, declared.parameters, strict=True):
                    if arg.text not in grounder.declared:
                        self.fault("V104", f"task {step.id}: argument {arg.text!r} is not an object of the problem "
                                   "or a constant of the domain", arg.span)
                    elif not grounder.fits(arg.text, param.type):
                        self.fault("V104", f"task {step.id}: argument {arg.text} is a "
                                   f"{' or '.join(grounder.declared[arg.text])}, but {param.name} of "
                                   f"{declared.name} must be of type {' or '.join(type_names(param.type))}",
                                   arg.span)
            assert step.method is not None
            method = self.htn.methods.get(step.method.text)
            if method is None:
                self.fault("V105", f"task {step.id}: the domain has no method {step.method.text!r}", step.method.span)
            elif method.task.name != step.name.text:
                self.fault("V105", f"task {step.id}: method {method.name} decomposes {method.task.name}, not "
                           f"{step.name.text}", step.method.span)

    def check_reached(self) -> None:
        if self.plan.roots is None:
            return  # a primitive plan only: nothing claims a hierarchy
        # reached: walked down from the root tasks (iteratively: a decomposition may be thousands deep);
        # subtasks that list each other in a cycle have parents, but are not reached
        reached: set[int] = set()
        todo = [int(w.text) for w in self.plan.roots]
        while todo:
            ident = todo.pop()
            if ident in reached or ident not in self.steps:
                continue
            reached.add(ident)
            todo.extend(int(w.text) for w in self.steps[ident].subtasks)
        for step in self.plan.steps:
            if step.id not in self.parent:
                self.fault("V109", f"task {step.id} {step.ground()} is neither a root task nor a subtask of any "
                           "decomposition", step.line)
            elif step.id not in reached:
                top, cycle = self._above(step.id)
                why = ("its decompositions form a cycle (it is a subtask of task "
                       f"{self.parent[step.id]}, itself below it)" if step.id in cycle else
                       f"it is below task {top}, which decompositions in a cycle list" if cycle else
                       f"it is below task {top}, which is not reached either")
                self.fault("V109", f"task {step.id} {step.ground()} is not reached from the root: {why}", step.line)

    def _above(self, ident: int) -> tuple[int, set[int]]:
        """The topmost task above `ident` by the parent links, and the cycle the links run into (empty
        when they end at a task without a parent)."""
        path = [ident]
        seen = {ident}
        while (parent := self.parent.get(ident)) is not None:
            if parent in seen:
                return parent, set(path[path.index(parent):])
            path.append(parent)
            seen.add(parent)
            ident = parent
        return ident, set()

    # ----------------------------------------------------------------------------------------------
    # method instantiation

    def root_network(self) -> _Network | None:
        htn = self.htn.problem.htn
        if htn is None:
            return None
        return _Network("the initial task network", htn.parameters, None, htn.network)

    def instantiate_roots(self, network: _Network) -> None:
        roots = self.plan.roots
        if roots is None:
            if network.network.subtasks:
                self.fault("V110", f"the plan has no `root` line, but the problem's initial task network has "
                           f"{len(network.network.subtasks)} tasks", self.plan.start)
            return
        span = self.plan.root_line or self.plan.start
        root_ids = [int(w.text) for w in roots]
        try:
            found = self.match(network, {}, root_ids)
        except SearchTooLong:
            self.fault("V110", f"the root tasks ({self.names(root_ids)}): {_GAVE_UP}", span)
            return
        if found is None:
            self.fault("V110", f"the root tasks ({self.names(root_ids)}) are not the problem's initial task network "
                       f"({_shown(network.network)}), listed in an order its :ordering allows, under any "
                       "binding of its parameters", span)
            return
        self.matched[-1], self.bindings[-1] = found

    def instantiate(self, step: HTNPlanLine, method: ast.Method | None) -> None:
        if method is None:
            return
        network = _Network(method.name, method.parameters, method.task, method.network, method.precondition)
        binding: dict[str, str] = {}
        for term, arg in zip(method.task.args, step.args, strict=False):
            if isinstance(term, pddl.Variable):
                if binding.setdefault(term.name, arg.text) != arg.text:
                    self.fault("V111", f"task {step.id}: method {method.name} needs {term.name} = "
                               f"{binding[term.name]} and = {arg.text} at once (its task is {method.task})",
                               arg.span)
                    return
            elif isinstance(term, pddl.Constant) and term.name != arg.text:
                self.fault("V111", f"task {step.id}: method {method.name} decomposes {method.task}, whose argument is "
                           f"the constant {term.name}, not {arg.text}", arg.span)
                return
        assert step.method is not None
        try:
            found = self.match(network, binding, [int(w.text) for w in step.subtasks])
        except SearchTooLong:
            self.fault("V111", f"task {step.id}: whether its subtasks instantiate method {method.name} is "
                       f"undecided: {_GAVE_UP}", step.method.span)
            return
        if found is None:
            self.fault("V111", f"task {step.id}: its subtasks ({self.names([int(w.text) for w in step.subtasks])}) "
                       f"do not instantiate method {method.name} (subtasks {_shown(method.network)}), in an order its "
                       ":ordering allows, under one binding of its parameters that fits their types and :constraints",
                       step.method.span)
            return
        self.matched[step.id], self.bindings[step.id] = found

    def names(self, ids: Sequence[int]) -> str:
        return ", ".join(f"{i} {self.steps[i].ground()}" for i in ids if i in self.steps) or "none"

    def match(self, network: _Network, binding: dict[str, str], ids: list[int]
              ) -> tuple[dict[str, int], list[dict[str, str]]] | None:
        """A one-to-one map of the network's subtasks onto `ids` and the bindings (extending `binding`) that
        fit it, or None (`SearchTooLong` when the search gave up). The listed order must be a
        linearisation of the network's (as pandaPIparser requires unless told `-o`). Bindings are
        complete: parameters no argument fixes range over their type's objects, kept when the
        :constraints hold (the precondition is checked later, in its state)."""
        subtasks = network.network.subtasks
        if len(subtasks) != len(ids):
            return None
        index = {s.id or str(i): i for i, s in enumerate(subtasks)}
        order = [(index[first], index[then]) for first, then in _orderings(network.network)
                 if first in index and then in index]
        grounder = self.htn.task.grounder
        types = {p.name: p.type for p in network.parameters}
        holds, coupled = self._decided(network.network.constraints)
        domains: list[list[Candidate]] = []
        for wanted in subtasks:
            fits: list[Candidate] = []
            for rank, ident in enumerate(ids):
                step = self.steps[ident]
                if step.name.text != wanted.task or len(step.args) != len(wanted.args):
                    continue
                extended = _unify(wanted.args, step.args, binding)
                if extended is None or not holds(extended) or any(
                        name in types and not grounder.fits(value, types[name]) for name, value in extended.items()):
                    continue
                fits.append(Candidate(ident, rank, extended))
            domains.append(fits)
        # the parameters the subtasks bind; when no constraint joins them to the others, what the others
        # can be does not depend on the assignment, and one that fails settles it for all
        placed = {a.name for s in subtasks for a in s.args if isinstance(a, pddl.Variable)} - binding.keys()
        unplaced = {p.name for p in network.parameters} - placed - binding.keys()
        joined = any(group & placed and group & unplaced for group in coupled)
        for assignment, bound in Matcher(domains, order, holds, binding, coupled=coupled).solutions():
            fitting = list(self._complete(network, bound))
            if fitting:
                return {(s.id or str(i)): assignment[i].ident for i, s in enumerate(subtasks)}, fitting
            if not joined:
                return None
        return None

    def _decided(self, constraints: pddl.Formula | None) -> tuple[Holds, list[frozenset[str]]]:
        """Whether the conjuncts of `constraints` whose variables a binding gives all hold (the others
        wait for the binding that gives theirs), and the variables of each conjunct."""
        parts = [] if constraints is None else (
            list(constraints.parts) if isinstance(constraints, pddl.And) else [constraints])
        needs = [(part, {v.name for v in part.walk() if isinstance(v, pddl.Variable)}
                  | ({part.variable.name} if isinstance(part, ast.SortOf) else set())) for part in parts]

        def holds(binding: dict[str, str]) -> bool:
            return all(self._constraints_hold(part, binding) for part, names in needs if names <= binding.keys())
        return holds, [frozenset(names) for _, names in needs]

    def _complete(self, network: _Network, binding: dict[str, str]) -> Iterator[dict[str, str]]:
        grounder = self.htn.task.grounder
        params = network.parameters
        if any(p.name in binding and not grounder.fits(binding[p.name], p.type) for p in params):
            return
        unbound = [p for p in params if p.name not in binding]
        for tried, full in enumerate(grounder.bindings(unbound, binding)):
            if tried >= BINDING_LIMIT:
                return
            names = {k: str(v) for k, v in full.items()}
            if self._constraints_hold(network.network.constraints, names):
                yield names

    def _constraints_hold(self, formula: pddl.Formula | None, binding: dict[str, str]) -> bool:
        if formula is None:
            return True
        if isinstance(formula, pddl.And):
            return all(self._constraints_hold(part, binding) for part in formula.parts)
        if isinstance(formula, pddl.Not):
            return not self._constraints_hold(formula.body, binding)
        if isinstance(formula, ast.SortOf):
            return self.htn.task.grounder.fits(binding.get(formula.variable.name, ""), formula.type)
        # equality: the state is irrelevant
        return self.htn.task.evaluator.holds(formula, binding, self.htn.task.initial_state())

    # ----------------------------------------------------------------------------------------------
    # order and preconditions

    def below(self, ident: int) -> list[int]:
        """Positions in the primitive plan of the steps `ident` decomposes into (walked iteratively, and
        once per task for the whole plan: a decomposition may be thousands of tasks deep)."""
        if self._below is None:
            self._below = self._all_below()
        return self._below.get(ident, [])

    def _all_below(self) -> dict[int, list[int]]:
        """`below` of every task, children before parents."""
        out: dict[int, list[int]] = {ident: [at] for ident, at in self.position.items()}
        order: list[int] = []
        visited: set[int] = set()
        for top in self.matched:
            stack = [(top, False)]
            while stack:  # a post-order by an explicit stack: (task, whether its children are done)
                ident, done = stack.pop()
                if done:
                    order.append(ident)
                elif ident not in visited and ident not in out:
                    visited.add(ident)
                    stack.append((ident, True))
                    stack.extend((c, False) for c in self.matched.get(ident, {}).values())
        for ident in order:
            positions: list[int] = []
            for child in self.matched.get(ident, {}).values():
                positions.extend(out.get(child, ()))
            out[ident] = positions
        return out

    def networks(self) -> Iterator[tuple[int, ast.TaskNetwork, Span]]:
        for ident in self.matched:
            if ident == -1:
                htn = self.htn.problem.htn
                assert htn is not None
                yield ident, htn.network, self.plan.root_line or self.plan.start
            else:
                step = self.steps[ident]
                assert step.method is not None
                yield ident, self.htn.methods[step.method.text].network, step.line

    def check_order(self) -> None:
        for ident, network, span in self.networks():
            mapped = self.matched[ident]
            for before, after in _orderings(network):
                if before not in mapped or after not in mapped:
                    continue
                first, second = self.below(mapped[before]), self.below(mapped[after])
                if first and second and max(first) > min(second):
                    where = "the root" if ident == -1 else f"task {ident}"
                    self.fault("V108", f"{where}: its method orders {_label(network, before)} (id {mapped[before]}) "
                               f"before {_label(network, after)} "
                               f"(id {mapped[after]}), but primitive step {self.plan.primitive[max(first)].id} "
                               f"below the first comes after step {self.plan.primitive[min(second)].id} below the "
                               "second", span)

    def check_preconditions(self) -> None:
        try:
            states = self.htn.task.run((s.name.text, [a.text for a in s.args]) for s in self.plan.primitive)
        except (SemanticsError, ValueError):
            return  # the classical validator has judged the plan executable; nothing to add
        holds = self.htn.task.evaluator.holds
        for step in self.plan.decompositions:
            assert step.method is not None
            method = self.htn.methods[step.method.text]
            if method.precondition is None:
                continue
            window = self.window(step.id, len(states) - 1)
            if not any(holds(method.precondition, b, states[i]) for i in window for b in self.bindings[step.id]):
                at = (f"before primitive step {self.plan.primitive[window[0]].id}" if window[0] < len(self.plan)
                      else "at the end of the plan")
                self.fault("V107", f"task {step.id}: the precondition of method {method.name} is false {at}, where "
                           f"the method starts: {method.precondition}", step.method.span)

    def window(self, ident: int, last: int) -> list[int]:
        """The states a method's precondition may be checked in: the one before its first primitive
        step, or, for a method with none, those after its predecessors' steps and up to its successors'."""
        positions = self.below(ident)
        if positions:
            return [min(positions)]
        low, high = 0, last
        owner = self.parent.get(ident)
        key = -1 if owner is None else owner
        mapped = self.matched.get(key, {})
        mine = next((k for k, v in mapped.items() if v == ident), None)
        for before, after in _orderings(self._network_of(key)) if mapped else ():
            if after == mine and before in mapped and self.below(mapped[before]):
                low = max(low, max(self.below(mapped[before])) + 1)
            if before == mine and after in mapped and self.below(mapped[after]):
                high = min(high, min(self.below(mapped[after])))
        return list(range(low, max(low, high) + 1))

    def _network_of(self, key: int) -> ast.TaskNetwork:
        if key == -1:
            htn = self.htn.problem.htn
            assert htn is not None
            return htn.network
        method = self.steps[key].method
        assert method is not None
        return self.htn.methods[method.text].network


def _orderings(network: ast.TaskNetwork) -> list[tuple[str, str]]:
    """The network's `before < after` pairs by subtask id, closed under transitivity (a subtask with no
    primitive step below it must not break the chain it stands in): the ordering constraints, or the
    sequence of an ordered network (whose subtasks may have no ids: their positions stand in)."""
    ids = [s.id or str(i) for i, s in enumerate(network.subtasks)]
    after: dict[str, set[str]] = {i: set() for i in ids}
    for first, then in [(o.before, o.after) for o in network.ordering] + (list(pairwise(ids)) if network.ordered
                                                                          else []):
        after.setdefault(first, set()).add(then)
    closed: list[tuple[str, str]] = []
    for start in after:
        seen: set[str] = set()
        todo = list(after[start])
        while todo:
            node = todo.pop()
            if node not in seen:
                seen.add(node)
                todo.extend(after.get(node, ()))
        closed.extend((start, node) for node in sorted(seen) if node != start)
    return closed


def _label(network: ast.TaskNetwork, key: str) -> str:
    """A subtask as a message names it: its id, or its place when an ordered network gives it none."""
    return key if any(s.id == key for s in network.subtasks) else f"its subtask {int(key) + 1}"


def _unify(terms: Sequence[pddl.Term], args: Sequence[Word], binding: dict[str, str]) -> dict[str, str] | None:
    out = dict(binding)
    for term, arg in zip(terms, args, strict=True):
        if isinstance(term, pddl.Variable):
            if out.setdefault(term.name, arg.text) != arg.text:
                return None
        elif isinstance(term, pddl.Constant):
            if term.name != arg.text:
                return None
        else:
            return None
    return out


def _shown(network: ast.TaskNetwork) -> str:
    return ", ".join(f"{s.id} ({' '.join((s.task, *(str(a) for a in s.args)))})" if s.id else
                     f"({' '.join((s.task, *(str(a) for a in s.args)))})" for s in network.subtasks) or "none"


__all__ = ["BINDING_LIMIT", "HTNTask", "verify_plan"]
