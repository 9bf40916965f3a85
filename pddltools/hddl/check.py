"""`check` for HDDL: PDDL's checker on the PDDL parts, and the hierarchy's own findings.

PDDL's checker (`pddltools.check`) runs on the domain's PDDL part with each method standing in as an
action whose precondition is the method's precondition and constraints (a stand-in, which PDDL's
findings call a method): so the predicates, variables, constants and types of method preconditions are
checked by the same code as an action's, and requirements and features count them. This module adds what PDDL
has no word for: task declarations, each method's task, subtasks (names, arity and types through PDDL's
`NameChecker`), subtask ids and :ordering (unknown ids, cycles), the problem's initial network,
compound tasks without a method and tasks no decomposition of the initial network reaches.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from pddltools.check.codes import finding
from pddltools.check.names import NameChecker, Place
from pddltools.check.report import CheckReport, check, in_file_order
from pddltools.check.symbols import DomainSymbols, domain_symbols, problem_symbols, suggestion
from pddltools.diagnostics import Diagnostic, Severity, Span
from pddltools.hddl import ast
from pddltools.hddl.network import Order, label
from pddltools.hddl.tracks import htn_verdicts, partial_network
from pddltools.pddl import ast as pddl
from pddltools.pddl.type_hierarchy import type_names


def check_htn(domain: ast.HTNDomain, problems: Sequence[ast.HTNProblem] = (), *, strict: bool = False,
              tracks: Iterable[str] | None = None) -> CheckReport:
    """Check parsed HDDL files; findings in file order, verdicts for the HTN tracks."""
    methods = tuple(as_action(m) for m in domain.methods)
    stand_in = replace(domain.domain, structures=domain.domain.structures + methods)
    # HDDL planners do not compare a problem's domain name with the domain's: W911 says so, not E301
    pddl_problems = [replace(p.problem, domain=domain.name) for p in problems]
    report = check(stand_in, pddl_problems, strict=strict, tracks=(),
                   stand_ins={m.name: "method" for m in domain.methods}, reachability=False)
    findings = [f for f in report.findings if not _about_method_parameters(f, domain)]
    findings += [_other_domain(p, domain) for p in problems if p.problem.domain != domain.name]
    symbols = domain_symbols(domain.domain, strict=strict)
    hierarchy = Hierarchy(domain, symbols)
    hierarchy.domain()
    for problem in problems:
        hierarchy.problem(problem)
    hierarchy.unused(problems)
    findings += hierarchy.findings
    findings.append(_order_information(domain))
    files = report.files
    errors = sum(1 for f in findings if f.severity is Severity.ERROR)
    return CheckReport(files, tuple(in_file_order(findings, files)), report.features,
                       htn_verdicts(report.features, domain, problems, tracks, errors=errors))


# -------------------------------------------------------------------------------------------------
# Methods seen by PDDL's checker


def as_action(method: ast.Method) -> pddl.Action:
    """The method as PDDL's checker can read it: an action with its parameters and, as precondition, its
    precondition and constraints (a sortof constraint, which PDDL has no node for, is checked here)."""
    parts: list[pddl.Formula] = []
    if method.precondition is not None:
        parts.append(method.precondition)
    if method.network.constraints is not None:
        parts.append(_without_sortof(method.network.constraints))
    precondition = parts[0] if len(parts) == 1 else pddl.And(tuple(parts), span=method.span) if parts else None
    return pddl.Action(method.name, method.parameters, precondition, None, span=method.span)


def _without_sortof(formula: pddl.Formula) -> pddl.Formula:
    """The constraints with each (sortof ...), also under `not` (UM-Translog's), made an empty `and`."""
    if isinstance(formula, ast.SortOf):
        return pddl.And((), span=formula.span)
    if isinstance(formula, pddl.And | pddl.Or | pddl.Not):
        return formula.map_children(_without_sortof)  # type: ignore[arg-type]
    return formula


def _method_at(finding_: Diagnostic, domain: ast.HTNDomain) -> ast.Method | None:
    span = finding_.span
    if span is None:
        return None
    for method in domain.methods:
        where = method.span
        if where is not None and where.file == span.file and where.start <= span.start < where.end:
            return method
    return None


def _about_method_parameters(finding_: Diagnostic, domain: ast.HTNDomain) -> bool:
    """PDDL's "parameter never used" (I404) for a method: its parameters are also used by its task and
    subtasks, which PDDL's checker does not see."""
    return finding_.code == "I404" and _method_at(finding_, domain) is not None


def _other_domain(problem: ast.HTNProblem, domain: ast.HTNDomain) -> Diagnostic:
    """W911: a problem naming another domain (pandaPIparser does not compare the names, and IPC-2020
    Barman-BDI's problems name barman_htn for domain barman_agent)."""
    return finding("W911", f"the HDDL problem names domain {problem.problem.domain}, but the domain is {domain.name} "
                   "(HDDL planners do not compare the names)", problem.problem.domain_span or problem.span)


# -------------------------------------------------------------------------------------------------
# The hierarchy


class Hierarchy:
    """The findings about tasks, methods and task networks of one domain and its problems."""

    def __init__(self, domain: ast.HTNDomain, symbols: DomainSymbols) -> None:
        self.htn = domain
        self.symbols = symbols
        self.names = NameChecker(symbols)
        self.findings: list[Diagnostic] = []
        self.actions = {a.name: a for a in domain.actions}
        self.tasks: dict[str, ast.Task] = {}
        self.methods: dict[str, list[ast.Method]] = {}  # by the task they decompose

    def domain(self) -> None:
        for task in self.htn.tasks:
            self.declaration(task)
        for method in self.htn.methods:  # a method declared twice: PDDL's E211, as the action it stands in as
            self.method(method)
        self.findings += self.names.findings
        self.names.findings = []

    def declaration(self, task: ast.Task) -> None:
        first = self.tasks.get(task.name)
        if first is not None:
            self.findings.append(finding("E901", f"task {task.name} is declared twice", task.span,
                                         notes=(("first declared here", first.span),)))
            return
        action = self.actions.get(task.name)
        if action is not None:
            self.findings.append(finding("E901", f"task {task.name} is declared twice: as a compound task and "
                                         "as an action", task.span, notes=(("the action", action.span),)))
        self.tasks[task.name] = task
        self.names.declared_types(task.parameters)

    def method(self, method: ast.Method) -> None:
        scope = {p.name: type_names(p.type) for p in method.parameters}
        place = Place(f"method {method.name}", self.symbols.constants)
        head = method.task
        task = self.tasks.get(head.name)
        if task is None:
            if head.name in self.actions:
                self.findings.append(finding(
                    "E904", f"method {method.name} decomposes {head.name}, which is an action (a primitive "
                    "task), not a compound task", head.span))
            else:
                self.unknown_task(head.name, head.span)
        else:
            self.methods.setdefault(head.name, []).append(method)
            self.names.arguments(head, task.parameters, head.args, f"task {head.name}", scope, place)
        self.network(method.network, scope, place)
        if method.network.constraints is not None:
            self.sortof(method.network.constraints, scope, place)

    def problem(self, problem: ast.HTNProblem) -> None:
        if problem.htn is None:
            return
        table = problem_symbols(self.symbols, problem.problem)
        names = NameChecker(self.symbols, table)
        htn = problem.htn
        scope = {p.name: type_names(p.type) for p in htn.parameters}
        names.declared_types(htn.parameters)
        place = Place("the initial task network", table.objects)
        saved, self.names = self.names, names
        try:
            self.network(htn.network, scope, place)
            if htn.network.constraints is not None:
                names.formula(_without_sortof(htn.network.constraints), scope, place)
                self.sortof(htn.network.constraints, scope, place)
        finally:
            self.names = saved
        self.findings += names.findings

    # -- task networks ---------------------------------------------------------------------------

    def network(self, network: ast.TaskNetwork, scope: dict[str, tuple[str, ...]], place: Place) -> None:
        ids: dict[str, ast.Subtask] = {}
        for subtask in network.subtasks:
            if subtask.id is not None:
                first = ids.setdefault(subtask.id, subtask)
                if first is not subtask:
                    self.findings.append(finding(
                        "E905", f"subtask id {subtask.id} is used twice in {place.what}", subtask.span,
                        notes=(("first used here", first.span),)))
            self.subtask(subtask, scope, place)
        for constraint in network.ordering:
            for name in (constraint.before, constraint.after):
                if name not in ids:
                    self.findings.append(finding(
                        "E906", f"the ordering constraint names {name}, but no subtask of {place.what} has "
                        "that id" + suggestion(name, ids), constraint.span))
        cycle = Order.of(network).cycle()
        if cycle is not None:
            shown = " < ".join(label(network, i) for i in cycle)
            where = network.ordering[0].span if network.ordering else network.span
            self.findings.append(finding("E907", f"the ordering of {place.what} has a cycle: {shown}", where))

    def subtask(self, subtask: ast.Subtask, scope: dict[str, tuple[str, ...]], place: Place) -> None:
        task = self.tasks.get(subtask.task)
        parameters = task.parameters if task is not None else None
        if parameters is None:
            action = self.actions.get(subtask.task)
            parameters = action.parameters if action is not None else None
        if parameters is None:
            self.unknown_task(subtask.task, subtask.span)
            return
        self.names.arguments(subtask, parameters, subtask.args, f"task {subtask.task}", scope, place)

    def sortof(self, constraints: pddl.Formula, scope: dict[str, tuple[str, ...]], place: Place) -> None:
        for node in constraints.walk():
            if isinstance(node, ast.SortOf):
                if node.variable.name not in scope:
                    self.names.free_variable(node.variable, scope, place)
                self.names.declared_types([pddl.TypedName(node.variable.name, node.type, span=node.span)])

    def unknown_task(self, name: str, span: Span | None) -> None:
        known = [*self.tasks, *self.actions]
        self.findings.append(finding("E903", f"task {name} is not declared (no :task and no action has that "
                                     "name)" + suggestion(name, known), span))

    # -- what no decomposition uses --------------------------------------------------------------

    def unused(self, problems: Sequence[ast.HTNProblem]) -> None:
        for name, task in self.tasks.items():
            if name not in self.methods:
                self.findings.append(finding("W908", f"compound task {name} has no method: no plan can "
                                             "contain it", task.span))
        roots = [p.htn.network for p in problems if p.htn is not None]
        if not roots:
            return  # without an initial network every task may be the one a problem asks for
        reached = self.reached(roots)
        for name, task in self.tasks.items():
            if name not in reached:
                self.findings.append(finding("W909", f"task {name} is unreachable: no decomposition of the "
                                             "initial task network reaches it", task.span))

    def reached(self, roots: Iterable[ast.TaskNetwork]) -> set[str]:
        seen: set[str] = set()
        stack = [s.task for network in roots for s in network.subtasks]
        while stack:
            name = stack.pop()
            if name in seen:
                continue
            seen.add(name)
            for method in self.methods.get(name, ()):
                stack.extend(s.task for s in method.network.subtasks)
        return seen


def _order_information(domain: ast.HTNDomain) -> Diagnostic:
    """I910: whether every method is totally ordered, and if not, the first that is not and why."""
    found = partial_network(domain)
    if found is None:
        return finding("I910", f"domain {domain.name} is totally ordered: every method's subtasks are "
                       "totally ordered", domain.span)
    method, first, second = found
    return finding("I910", f"domain {domain.name} is partially ordered: in method {method.name}, subtasks "
                   f"{first} and {second} are not ordered", method.span)
