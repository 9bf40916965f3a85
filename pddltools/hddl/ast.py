"""The HDDL abstract syntax tree: the PDDL tree, plus compound tasks, methods and task networks.

An HDDL domain is a PDDL domain (its actions are `pddltools.pddl.ast.Action`s, its formulas PDDL
formulas) beside the hierarchy: `HTNDomain` holds the `pddl.ast.Domain` and the compound tasks and
methods; `HTNProblem` holds the `pddl.ast.Problem` and the initial task network. Every tool that reads
PDDL reads the inner node unchanged. The nodes are PDDL nodes (frozen, slotted, spans out of equality,
walked by `pddltools.tree`); `str(node)` prints HDDL (`pddltools.hddl.printer`).

Names are lower case, as in PDDL (the parser normalises them); the IPC files rely on case nowhere (see
the README's HDDL paragraph), and a node's span still covers the file's own spelling.
"""

from __future__ import annotations

from dataclasses import dataclass

from pddltools.pddl import ast
from pddltools.pddl.ast import Formula, Term, TypedName


@dataclass(frozen=True, slots=True)
class Node(ast.Node):
    """Base of the HDDL-only nodes; `str()` prints HDDL."""

    def __str__(self) -> str:
        from pddltools.hddl.printer import to_hddl

        return to_hddl(self)


@dataclass(frozen=True, slots=True)
class Task(Node):
    """A compound task's declaration: `(:task deliver :parameters (?p - package))`; a precondition
    and an effect are hybrid planning's (PANDA's hybrid domains), None in HTN domains."""

    name: str
    parameters: tuple[TypedName, ...] = ()
    precondition: Formula | None = None
    effect: ast.Effect | None = None

    def bound_variables(self) -> tuple[TypedName, ...]:
        return self.parameters


@dataclass(frozen=True, slots=True)
class TaskHead(Node):
    """The task a method decomposes: `:task (deliver ?p)`."""

    name: str
    args: tuple[Term, ...] = ()


@dataclass(frozen=True, slots=True)
class Subtask(Node):
    """One task of a network: `(t1 (deliver ?p))`, or `(deliver ?p)` with no id (id None)."""

    id: str | None
    task: str
    args: tuple[Term, ...] = ()


@dataclass(frozen=True, slots=True)
class Ordering(Node):
    """`(< before after)`: the subtask `before` precedes `after` (`(> a b)` is read as `(< b a)`)."""

    before: str
    after: str


@dataclass(frozen=True, slots=True)
class SortOf(Node):
    """A method constraint `(sortof ?x - t)`: the variable's value is of type `t` (pandaPIparser's form)."""

    variable: ast.Variable
    type: ast.TypeName | ast.Either


@dataclass(frozen=True, slots=True)
class CausalLink(Node):
    """Hybrid planning's `(producer literal consumer)`: the subtask `producer` makes `literal` true for
    `consumer` (PANDA's hybrid domains; HTN planners ignore it)."""

    producer: str
    literal: Formula
    consumer: str


@dataclass(frozen=True, slots=True)
class TaskNetwork(Node):
    """The subtasks of a method or of a problem's `:htn`.

    `ordered` is True for `:ordered-subtasks` / `:ordered-tasks` (each subtask precedes the next; no
    `:ordering` is then needed); `ordering` lists the `(< a b)` constraints of `:ordering`;
    `constraints` is the `:constraints` formula over the variables ((= ?x ?y), (not (= ...)),
    (sortof ?x - t)), None when absent."""

    subtasks: tuple[Subtask, ...] = ()
    ordered: bool = False
    ordering: tuple[Ordering, ...] = ()
    constraints: Formula | None = None
    causal_links: tuple[CausalLink, ...] = ()


@dataclass(frozen=True, slots=True)
class Method(Node):
    name: str
    parameters: tuple[TypedName, ...]
    task: TaskHead
    precondition: Formula | None = None
    network: TaskNetwork = TaskNetwork()

    def bound_variables(self) -> tuple[TypedName, ...]:
        return self.parameters


@dataclass(frozen=True, slots=True)
class HTN(Node):
    """A problem's initial task network: `(:htn :parameters (...) :subtasks ... :ordering ...)`."""

    parameters: tuple[TypedName, ...] = ()
    network: TaskNetwork = TaskNetwork()

    def bound_variables(self) -> tuple[TypedName, ...]:
        return self.parameters


#: What an HDDL domain file holds besides PDDL, in file order.
Hierarchy = Task | Method


@dataclass(frozen=True, slots=True)
class HTNDomain(Node):
    domain: ast.Domain
    tasks: tuple[Task, ...] = ()
    methods: tuple[Method, ...] = ()

    @property
    def name(self) -> str:
        return self.domain.name

    @property
    def actions(self) -> tuple[ast.Action, ...]:
        return self.domain.actions


@dataclass(frozen=True, slots=True)
class HTNProblem(Node):
    problem: ast.Problem
    htn: HTN | None = None

    @property
    def name(self) -> str:
        return self.problem.name

