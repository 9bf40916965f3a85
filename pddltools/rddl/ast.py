"""The RDDL abstract syntax tree: frozen, hashable dataclasses that print themselves back as RDDL.

Every node carries a `span` (where it came from) that takes no part in equality or hashing, so two
parses of equivalent text compare equal wherever their positions differ. `str(node)` is the printer
(`pddltools.rddl.printer`); `dataclasses.replace` rebuilds a node; `children()`, `walk()`, `rebuild()`
and `substitute()` come from `pddltools.tree`, aggregations and CPFs binding their variables.

Conventions the parser guarantees, so that consumers need not re-check them:
- names keep their case (RDDL is case sensitive); variables keep their `?`, enum values their `@`;
  object references written `$obj` are `ObjectValue("obj")`;
- `&` is read as `^`, a missing argument list (`p`) is the same as an empty one (`p()`);
- several sections of one kind in a block (two `cpfs { }`) are joined in order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar

from pddltools import tree
from pddltools.tree import Tree


@dataclass(frozen=True, slots=True)
class Node(Tree["Node"]):
    """Base of every RDDL node: the shared walker (`pddltools.tree`) over RDDL nodes, with the span
    declared there; `str()` prints RDDL."""

    def __str__(self) -> str:
        from pddltools.rddl.printer import format_node

        return format_node(self)


# ---------------------------------------------------------------------------------------------------
# expressions


@dataclass(frozen=True, slots=True)
class Boolean(Node):
    value: bool


@dataclass(frozen=True, slots=True)
class Integer(Node):
    value: int


@dataclass(frozen=True, slots=True)
class Real(Node):
    """A real literal; `pos-inf` and `neg-inf` are `Real(inf)` and `Real(-inf)`."""

    value: float


@dataclass(frozen=True, slots=True)
class Variable(Node):
    """A parameter `?x` (the name includes the `?`)."""

    name: str

    def replacement(self, mapping: Mapping[str, Node]) -> Node | None:
        return mapping.get(self.name)


@dataclass(frozen=True, slots=True)
class EnumValue(Node):
    """An enum constant `@low` (the name includes the `@`)."""

    name: str


@dataclass(frozen=True, slots=True)
class ObjectValue(Node):
    """An object constant: `$obj` in an expression, a bare name in an instance or a default."""

    name: str


@dataclass(frozen=True, slots=True)
class PVariable(Node):
    """A pvariable used in an expression, `p(?x, ?y)`, or `p'(?x)` for its next-state value.

    A bare name without arguments may also stand for an object; the type checker decides.
    """

    name: str
    args: tuple[Expr, ...] = ()
    primed: bool = False


@dataclass(frozen=True, slots=True)
class Unary(Node):
    """`-e`, `+e` or `~e`."""

    op: str
    operand: Expr


#: Binary operators, loosest first; operators on one line share a precedence level.
BINARY_LEVELS: tuple[tuple[str, ...], ...] = (
    ("<=>",),
    ("=>",),
    ("|",),
    ("^",),
    ("==", "~=", "<", "<=", ">", ">="),
    ("+", "-"),
    ("*", "/"),
)
BINARY_PRECEDENCE: dict[str, int] = {op: level for level, ops in enumerate(BINARY_LEVELS) for op in ops}
LOGICAL_OPERATORS = frozenset({"<=>", "=>", "|", "^"})
COMPARISON_OPERATORS = frozenset({"==", "~=", "<", "<=", ">", ">="})
ARITHMETIC_OPERATORS = frozenset({"+", "-", "*", "/"})


@dataclass(frozen=True, slots=True)
class Binary(Node):
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Binding(Node):
    """`?x : type` in the subscript of an aggregation."""

    variable: str
    type: str


#: Aggregations written `op_{?x : t, ...} body`.
QUANTIFIERS = frozenset({"exists", "forall"})
NUMERIC_AGGREGATIONS = frozenset({"sum", "prod", "avg", "minimum", "maximum", "min", "max"})
ARG_AGGREGATIONS = frozenset({"argmax", "argmin"})
AGGREGATIONS = QUANTIFIERS | NUMERIC_AGGREGATIONS | ARG_AGGREGATIONS | {"det"}


@dataclass(frozen=True, slots=True)
class Aggregation(Node):
    """`sum_{?x : t} e`, `exists_{...} e`, `argmax_{...} e`, and `Discrete_{?x : t} e` (a draw)."""

    op: str
    bindings: tuple[Binding, ...]
    body: Expr

    def binds(self) -> frozenset[str]:
        return frozenset(b.variable for b in self.bindings)


@dataclass(frozen=True, slots=True)
class IfThenElse(Node):
    condition: Expr
    then: Expr
    otherwise: Expr


@dataclass(frozen=True, slots=True)
class SwitchCase(Node):
    """`case value : result`, or `default : result` when `value` is None."""

    value: Expr | None
    result: Expr


@dataclass(frozen=True, slots=True)
class Switch(Node):
    subject: Expr
    cases: tuple[SwitchCase, ...]


@dataclass(frozen=True, slots=True)
class Function(Node):
    """A built-in function with square brackets: `exp[x]`, `pow[x, 2]`, `min[a, b]`."""

    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Distribution(Node):
    """A draw from a named distribution: `Bernoulli(p)`, `Normal(mean, variance)`, `KronDelta(e)`."""

    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class DiscreteCase(Node):
    """`@value : probability` in `Discrete(type, ...)`; `probability` None means `otherwise`."""

    value: str
    probability: Expr | None


@dataclass(frozen=True, slots=True)
class Discrete(Node):
    """`Discrete(type, @a : p, @b : q)` or `UnnormDiscrete(...)`."""

    name: str
    type: str
    cases: tuple[DiscreteCase, ...]


@dataclass(frozen=True, slots=True)
class VectorDistribution(Node):
    """`MultivariateNormal[?i](mean(?i), cov(?i, ?j))` and its kin (pyRDDLGym's extension)."""

    name: str
    indices: tuple[str, ...]
    args: tuple[Expr, ...]

    def binds(self) -> frozenset[str]:
        return frozenset(self.indices)


@dataclass(frozen=True, slots=True)
class MatrixOperation(Node):
    """`cholesky[row=?i, col=?j][e]`, `inverse[...]`, `pinverse[...]` (pyRDDLGym's extension)."""

    name: str
    row: str
    column: str
    body: Expr

    def binds(self) -> frozenset[str]:
        return frozenset((self.row, self.column))


@dataclass(frozen=True, slots=True)
class TupleExpr(Node):
    """An RDDL2 tuple value `< @x : e1, col1 : e2 >`, as an expression or (with constant members) a
    default; labels are enum values with their `@`, object names bare, or `?` ("every member", only
    in a constant)."""

    entries: tuple[tuple[str, Expr], ...]


@dataclass(frozen=True, slots=True)
class Member(Node):
    """`base.@x`, `base.$col1` or `base.?d`: one member of a tuple value; `label` is an `EnumValue`,
    an `ObjectValue` or a `Variable`."""

    base: Expr
    label: Expr


@dataclass(frozen=True, slots=True)
class Multinomial(Node):
    """RDDLSim's `Multinomial(type, n, @a : p, @b : otherwise)`: counts of `n` draws per value of `type`."""

    type: str
    count: Expr
    cases: tuple[DiscreteCase, ...]


@dataclass(frozen=True, slots=True)
class Dirichlet(Node):
    """RDDLSim's `Dirichlet(type, alpha)`: a probability per value of `type`, every concentration `alpha`."""

    type: str
    alpha: Expr


Expr = (
    Boolean | Integer | Real | Variable | EnumValue | ObjectValue | PVariable | Unary | Binary |
    Aggregation | IfThenElse | Switch | Function | Distribution | Discrete | VectorDistribution |
    MatrixOperation | TupleExpr | Member | Multinomial | Dirichlet
)
#: What may stand after `default =`, `level =` or in an instance's `p(a, b) = ...;`.
Constant = Boolean | Integer | Real | EnumValue | ObjectValue | TupleExpr


@dataclass(frozen=True, slots=True)
class TerminateWhen(Node):
    """`horizon = terminate-when (condition);` (RDDL2): the round ends once the state satisfies it."""

    condition: Expr


# ---------------------------------------------------------------------------------------------------
# domain


@dataclass(frozen=True, slots=True)
class ObjectType(Node):
    """`t : object;` or `t : parent;` (an object type and its supertype)."""

    name: str
    parent: str = "object"


@dataclass(frozen=True, slots=True)
class EnumType(Node):
    """`t : {@a, @b};`"""

    name: str
    values: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TupleType(Node):
    """RDDL2 `t : <@x : real, y : robot>;` (`members` as written), or `t : [index]<? : r>;` (`index`
    set, `members` the one pair `("?", r)`): a member of range r per value or object of `index`."""

    name: str
    members: tuple[tuple[str, str], ...]
    index: str | None = None


TypeDef = ObjectType | EnumType | TupleType

FLUENT_KINDS = (
    "non-fluent", "state-fluent", "action-fluent", "interm-fluent", "observ-fluent", "derived-fluent",
)
BASIC_RANGES = frozenset({"bool", "int", "real"})


@dataclass(frozen=True, slots=True)
class PVariableDecl(Node):
    """`name(t1, t2) : { kind, range, default = v, level = n };`"""

    name: str
    params: tuple[str, ...]
    kind: str
    range: str
    default: Constant | None = None
    level: Constant | None = None


@dataclass(frozen=True, slots=True)
class Cpf(Node):
    """`p'(?x) = e;` (a conditional probability function); `primed` is False for interm/observ ones."""

    name: str
    params: tuple[str, ...]
    expr: Expr
    primed: bool = False

    def binds(self) -> frozenset[str]:
        return frozenset(self.params)


@dataclass(frozen=True, slots=True)
class Domain(Node):
    name: str
    requirements: tuple[str, ...] = ()
    types: tuple[TypeDef, ...] = ()
    objects: tuple[ObjectsDecl, ...] = ()  # RDDL2: objects every instance has
    pvariables: tuple[PVariableDecl, ...] = ()
    cpfs: tuple[Cpf, ...] = ()
    cpfs_keyword: str = "cpfs"
    reward: Expr | None = None
    state_action_constraints: tuple[Expr, ...] = ()
    action_preconditions: tuple[Expr, ...] = ()
    state_invariants: tuple[Expr, ...] = ()
    termination: tuple[Expr, ...] = ()


# ---------------------------------------------------------------------------------------------------
# non-fluents and instances


@dataclass(frozen=True, slots=True)
class ObjectsDecl(Node):
    """`t : {a, b, c};` in an `objects` section."""

    type: str
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Assignment(Node):
    """`p(a, b) = v;` in `non-fluents { }` or `init-state { }`; `p;` is `= true`, `~p;` is `= false`.

    Arguments are object names, or enum values with their `@`.
    """

    name: str
    args: tuple[str, ...]
    value: Constant


@dataclass(frozen=True, slots=True)
class NonFluents(Node):
    name: str
    domain: str | None = None
    objects: tuple[ObjectsDecl, ...] = ()
    values: tuple[Assignment, ...] = ()


@dataclass(frozen=True, slots=True)
class Instance(Node):
    name: str
    domain: str | None = None
    non_fluents: str | None = None
    objects: tuple[ObjectsDecl, ...] = ()
    non_fluent_values: tuple[Assignment, ...] = ()
    init_state: tuple[Assignment, ...] = ()
    max_nondef_actions: Constant | None = None
    horizon: Constant | TerminateWhen | None = None
    discount: Constant | None = None


Block = Domain | NonFluents | Instance


@dataclass(frozen=True, slots=True)
class RDDLFile(Node):
    """One parsed text: its blocks in order (a file may hold a domain, non-fluents and instances)."""

    blocks: tuple[Block, ...] = ()

    @property
    def domains(self) -> tuple[Domain, ...]:
        return tuple(b for b in self.blocks if isinstance(b, Domain))

    @property
    def non_fluents(self) -> tuple[NonFluents, ...]:
        return tuple(b for b in self.blocks if isinstance(b, NonFluents))

    @property
    def instances(self) -> tuple[Instance, ...]:
        return tuple(b for b in self.blocks if isinstance(b, Instance))


N = TypeVar("N", bound=Node)


def substitute(node: N, mapping: Mapping[str, Expr]) -> N:
    """`node` with each free variable named in `mapping` replaced: see `pddltools.tree.substitute`."""
    return tree.substitute(node, mapping)
