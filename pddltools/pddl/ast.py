"""The PDDL abstract syntax tree: one representation for every tool in pddltools.

Every node is a frozen, hashable dataclass. Equality and hashing ignore source positions (`span`), so
a printed and re-parsed tree equals the original, and a pass can compare what it built with what it
was given. Names are lower case (the parser normalises them). `str(node)` prints PDDL
(see `pddltools.pddl.printer`); `dataclasses.replace` rebuilds a node; `children()` and `walk()`
traverse any node, `rebuild()`/`map_children()` rebuild one, and `substitute()` replaces free
variables, quantifiers and parameters hiding the names they bind (all from `pddltools.tree`).

Numbers are exact: integer literals are `int`, decimal literals `fractions.Fraction`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from pddltools import tree
from pddltools.codecache import MethodCode
from pddltools.diagnostics import Span
from pddltools.tree import Tree

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Literal, TypeAlias, TypeVar

#: The words a node's field holds (an operator, a time, a direction). To the type checker each is its
#: `Literal`; at run time, in the hints `typing.get_type_hints` and `pddltools.tree` read, each is `str`:
#: a `Literal` would make every command import typing (start-up).
if TYPE_CHECKING:
    ArithmeticOp: TypeAlias = Literal["+", "-", "*", "/"]
    ComparisonOp: TypeAlias = Literal["=", "<", "<=", ">", ">="]
    TimeSpecifier: TypeAlias = Literal["start", "end", "all"]
    AssignOp: TypeAlias = Literal["assign", "increase", "decrease", "scale-up", "scale-down"]
    Direction: TypeAlias = Literal["minimize", "maximize"]
else:
    ArithmeticOp = ComparisonOp = TimeSpecifier = AssignOp = Direction = str

# The dataclass methods of the classes below are compiled once and kept (start-up: `pddltools.codecache`).
_methods = MethodCode("pddl-ast").open()


@dataclass(frozen=True, slots=True)
class Node(Tree["Node"]):
    """Base of every PDDL node: the shared walker (`pddltools.tree`) over PDDL nodes; `str()` prints PDDL."""

    def bound_variables(self) -> tuple[TypedName, ...]:
        """The variables this node declares for everything below it (parameters, quantified ones)."""
        return ()

    def binds(self) -> frozenset[str]:
        return frozenset(v.name for v in self.bound_variables())

    def __str__(self) -> str:
        from pddltools.pddl.printer import to_pddl

        return to_pddl(self)


if TYPE_CHECKING:
    N = TypeVar("N", bound=Node)


def substitute(node: N, mapping: Mapping[str, Expression]) -> N:
    """`node` with each free variable named in `mapping` replaced: see `pddltools.tree.substitute`."""
    return tree.substitute(node, mapping)


# ------------------------------------------------------------------------------------------------
# Types and typed lists


@dataclass(frozen=True, slots=True)
class TypeName(Node):
    name: str


@dataclass(frozen=True, slots=True)
class Either(Node):
    types: tuple[TypeName, ...]


TypeRef: TypeAlias = TypeName | Either


@dataclass(frozen=True, slots=True)
class TypedName(Node):
    """A declared type, constant, object or parameter (`?x`), with its type if one was given."""

    name: str
    type: TypeRef | None = None


# ------------------------------------------------------------------------------------------------
# Terms and numeric expressions


@dataclass(frozen=True, slots=True)
class Variable(Node):
    name: str  # with its leading "?"

    def replacement(self, mapping: Mapping[str, Node]) -> Node | None:
        return mapping.get(self.name)


@dataclass(frozen=True, slots=True)
class Constant(Node):
    """A name used as an argument: a constant or object (or, in a metric, a 0-ary function)."""

    name: str


@dataclass(frozen=True, slots=True)
class FunctionTerm(Node):
    """`(f t1 ... tn)`: a numeric fluent, or an object fluent used as a term (PDDL 3.1)."""

    function: str
    args: tuple[Term, ...] = ()


@dataclass(frozen=True, slots=True)
class Number(Node):
    """A literal; negative ones (`-3`, `-0.5`) are a `Number` with a negative value, while `(- e)` is
    an `Arithmetic` with one argument."""

    value: int | Fraction


@dataclass(frozen=True, slots=True)
class Arithmetic(Node):
    """`(op e1 ... en)` with op one of + - * /; `(- e)` is negation."""

    op: ArithmeticOp
    args: tuple[Expression, ...]


@dataclass(frozen=True, slots=True)
class ContinuousTime(Node):
    """`#t`, the time elapsed, in continuous effects of durative actions and PDDL+ processes."""


@dataclass(frozen=True, slots=True)
class IsViolated(Node):
    """`(is-violated p)` in a metric: how often preference `p` is violated."""

    preference: str


Term: TypeAlias = Variable | Constant | FunctionTerm
Expression: TypeAlias = Variable | Constant | FunctionTerm | Number | Arithmetic | ContinuousTime | IsViolated


# ------------------------------------------------------------------------------------------------
# Goal descriptions (preconditions, goals, conditions, duration constraints, trajectory constraints)


@dataclass(frozen=True, slots=True)
class Atom(Node):
    predicate: str
    args: tuple[Term, ...] = ()


@dataclass(frozen=True, slots=True)
class Not(Node):
    """Negation in a formula; in an effect, `(not atom)` deletes the atom."""

    body: Formula


@dataclass(frozen=True, slots=True)
class And(Node):
    """Conjunction; `()` and `(and)` are the empty conjunction, true."""

    parts: tuple[Formula, ...] = ()


@dataclass(frozen=True, slots=True)
class Or(Node):
    parts: tuple[Formula, ...] = ()


@dataclass(frozen=True, slots=True)
class Imply(Node):
    condition: Formula
    consequence: Formula


@dataclass(frozen=True, slots=True)
class Exists(Node):
    variables: tuple[TypedName, ...]

    def bound_variables(self) -> tuple[TypedName, ...]:
        return self.variables
    body: Formula


@dataclass(frozen=True, slots=True)
class Forall(Node):
    variables: tuple[TypedName, ...]

    def bound_variables(self) -> tuple[TypedName, ...]:
        return self.variables
    body: Formula


@dataclass(frozen=True, slots=True)
class Comparison(Node):
    """`(op l r)` with op one of = < <= > >=; also equality of objects `(= ?x ?y)`."""

    op: ComparisonOp
    left: Expression
    right: Expression


@dataclass(frozen=True, slots=True)
class Preference(Node):
    """A PDDL 3 preference: a soft goal, precondition or constraint, optionally named."""

    name: str | None
    body: Formula


@dataclass(frozen=True, slots=True)
class Timed(Node):
    """`(at start x)`, `(at end x)`, `(over all x)`: a condition, effect or constraint at a time."""

    time: TimeSpecifier
    body: Formula | Effect


# PDDL 3 trajectory constraints (modal operators over the state trajectory).


@dataclass(frozen=True, slots=True)
class Always(Node):
    body: Formula


@dataclass(frozen=True, slots=True)
class Sometime(Node):
    body: Formula


@dataclass(frozen=True, slots=True)
class Within(Node):
    deadline: Number
    body: Formula


@dataclass(frozen=True, slots=True)
class AtMostOnce(Node):
    body: Formula


@dataclass(frozen=True, slots=True)
class SometimeAfter(Node):
    condition: Formula
    consequence: Formula


@dataclass(frozen=True, slots=True)
class SometimeBefore(Node):
    condition: Formula
    antecedent: Formula


@dataclass(frozen=True, slots=True)
class AlwaysWithin(Node):
    deadline: Number
    condition: Formula
    consequence: Formula


@dataclass(frozen=True, slots=True)
class HoldDuring(Node):
    start: Number
    end: Number
    body: Formula


@dataclass(frozen=True, slots=True)
class HoldAfter(Node):
    time: Number
    body: Formula


Formula: TypeAlias = (
    Atom
    | Not
    | And
    | Or
    | Imply
    | Exists
    | Forall
    | Comparison
    | Preference
    | Timed
    | Always
    | Sometime
    | Within
    | AtMostOnce
    | SometimeAfter
    | SometimeBefore
    | AlwaysWithin
    | HoldDuring
    | HoldAfter
)


# ------------------------------------------------------------------------------------------------
# Effects


@dataclass(frozen=True, slots=True)
class AndEffect(Node):
    """All effects at once; `()` and `(and)` are the empty effect."""

    parts: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class ForallEffect(Node):
    variables: tuple[TypedName, ...]

    def bound_variables(self) -> tuple[TypedName, ...]:
        return self.variables
    body: Effect


@dataclass(frozen=True, slots=True)
class When(Node):
    """A conditional effect."""

    condition: Formula
    body: Effect


@dataclass(frozen=True, slots=True)
class Assign(Node):
    """A numeric or object-valued effect on a fluent."""

    op: AssignOp
    fluent: FunctionTerm
    value: Expression


#: Add effects are `Atom`s, delete effects `Not(Atom)`; durative actions wrap effects in `Timed`.
Effect: TypeAlias = Atom | Not | AndEffect | ForallEffect | When | Assign | Timed


def effect_parts(effect: Effect, *, into_timed: bool = True) -> Iterator[Effect]:
    """`effect` and each effect inside it, depth first in source order, through `and`, `forall`, the
    body of `when` (not its condition: that is a formula) and, with `into_timed`, `at start`/`at end`:
    where a pass meets every effect once, and reaches the literals and assignments."""
    stack: list[Effect] = [effect]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, AndEffect):
            stack.extend(reversed(node.parts))
        elif isinstance(node, ForallEffect | When):
            stack.append(node.body)
        elif into_timed and isinstance(node, Timed):
            effect_body: Any = node.body  # a timed effect's body is an effect
            stack.append(effect_body)


# ------------------------------------------------------------------------------------------------
# Domains


@dataclass(frozen=True, slots=True)
class Requirement(Node):
    name: str  # with its leading ":", e.g. ":typing"


@dataclass(frozen=True, slots=True)
class PredicateDecl(Node):
    name: str
    parameters: tuple[TypedName, ...] = ()


@dataclass(frozen=True, slots=True)
class FunctionDecl(Node):
    """A function; `type` is `number` for numeric fluents, an object type for object fluents, or None
    when the declaration gives none (PDDL 2.1 then means number)."""

    name: str
    parameters: tuple[TypedName, ...] = ()
    type: TypeRef | None = None


@dataclass(frozen=True, slots=True)
class Action(Node):
    name: str
    parameters: tuple[TypedName, ...] = ()
    precondition: Formula | None = None
    effect: Effect | None = None
    vars: tuple[TypedName, ...] = ()  # PDDL 1.2 `:vars`: bound like parameters, not in the plan

    def bound_variables(self) -> tuple[TypedName, ...]:
        return self.parameters + self.vars


@dataclass(frozen=True, slots=True)
class DurativeAction(Node):
    name: str
    parameters: tuple[TypedName, ...] = ()
    duration: Formula | None = None
    condition: Formula | None = None
    effect: Effect | None = None

    def bound_variables(self) -> tuple[TypedName, ...]:
        return self.parameters


@dataclass(frozen=True, slots=True)
class DerivedPredicate(Node):
    """An axiom `(:derived (p ?x - t) body)`."""

    predicate: PredicateDecl
    body: Formula

    @property
    def name(self) -> str:
        return self.predicate.name

    def bound_variables(self) -> tuple[TypedName, ...]:
        return self.predicate.parameters


@dataclass(frozen=True, slots=True)
class Exogenous(Node):
    """What PDDL+ adds beside actions, which the world does without the planner choosing it: processes
    and events (never this class itself)."""

    name: str
    parameters: tuple[TypedName, ...] = ()
    precondition: Formula | None = None
    effect: Effect | None = None

    def bound_variables(self) -> tuple[TypedName, ...]:
        return self.parameters


@dataclass(frozen=True, slots=True)
class Process(Exogenous):
    """A PDDL+ process: while its precondition holds, its effects (continuous ones, with `#t`) act."""


@dataclass(frozen=True, slots=True)
class Event(Exogenous):
    """A PDDL+ event: it happens, instantaneously, as soon as its precondition holds."""


Structure: TypeAlias = Action | DurativeAction | DerivedPredicate


@dataclass(frozen=True, slots=True)
class Domain(Node):
    name: str
    requirements: tuple[Requirement, ...] = ()
    types: tuple[TypedName, ...] = ()
    constants: tuple[TypedName, ...] = ()
    predicates: tuple[PredicateDecl, ...] = ()
    functions: tuple[FunctionDecl, ...] = ()
    constraints: Formula | None = None
    structures: tuple[Structure, ...] = ()  # actions, durative actions and axioms, in file order
    # PDDL+, apart from `structures` so that passes written for actions never meet one unawares.
    processes: tuple[Process, ...] = ()
    events: tuple[Event, ...] = ()

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(s for s in self.structures if isinstance(s, Action))

    @property
    def durative_actions(self) -> tuple[DurativeAction, ...]:
        return tuple(s for s in self.structures if isinstance(s, DurativeAction))

    @property
    def derived_predicates(self) -> tuple[DerivedPredicate, ...]:
        return tuple(s for s in self.structures if isinstance(s, DerivedPredicate))

    @property
    def processes_and_events(self) -> tuple[Process | Event, ...]:
        """The PDDL+ processes, then the events."""
        return (*self.processes, *self.events)


# ------------------------------------------------------------------------------------------------
# Problems


@dataclass(frozen=True, slots=True)
class InitAssignment(Node):
    """`(= (f o1 ... on) v)` in `:init`: a number, or an object for an object fluent."""

    fluent: FunctionTerm
    value: Number | Constant


@dataclass(frozen=True, slots=True)
class TimedInitial(Node):
    """A timed initial literal (or fluent): `(at 10 (p o))`."""

    time: Number
    body: InitElement


InitElement: TypeAlias = Atom | Not | InitAssignment | TimedInitial


@dataclass(frozen=True, slots=True)
class Metric(Node):
    direction: Direction
    expression: Expression


@dataclass(frozen=True, slots=True)
class Length(Node):
    serial: int | None = None
    parallel: int | None = None


@dataclass(frozen=True, slots=True)
class Problem(Node):
    name: str
    domain: str
    requirements: tuple[Requirement, ...] = ()
    objects: tuple[TypedName, ...] = ()
    init: tuple[InitElement, ...] = ()
    goal: Formula | None = None
    constraints: Formula | None = None
    metric: Metric | None = None
    length: Length | None = None
    #: where `(:domain NAME)` names the domain: the NAME, for findings about the problem's domain
    domain_span: Span | None = field(default=None, compare=False, hash=False, repr=False, kw_only=True)


_methods.close()
del _methods
