"""Ground an RDDL instance: its objects by type, every grounding of every pvariable, initial values.

A `Model` is what the simulator and the protocol share: which fluents exist (as `Key`s, a name and a
tuple of object or enum-value names), what their defaults are and what an instance sets. Enum values
count as the objects of their enum type, keeping their `@`; object values carry no `$`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from pddltools.code_ids import CodeId
from pddltools.diagnostics import Diagnostic, Error, error
from pddltools.rddl import ast
from pddltools.rddl.symbols import SymbolTable
from pddltools.rddl_simulation.tuples import Vector

Key = tuple[str, tuple[str, ...]]
Value = bool | int | float | str | Vector
#: the horizon of a `terminate-when` instance: RDDLSim keeps its horizon in a Java int
UNBOUNDED_HORIZON = 2**31 - 1


class GroundingError(Error):
    """The domain and instance do not fit together well enough to simulate (an undeclared object...)."""


def fail(code: CodeId, message: str, node: object = None) -> GroundingError:
    return GroundingError([error(code, message, getattr(node, "span", None))])


def constant(value: ast.Constant) -> Value:
    """The Python value of a literal: bool, int, float, or a name for enum values and objects (a tuple
    constant needs its type: `Model.tuple_value`)."""
    if isinstance(value, ast.TupleExpr):
        raise fail("R306", "a tuple value is not allowed here", value)
    if isinstance(value, (ast.Boolean, ast.Integer, ast.Real)):
        return value.value
    return value.name


def key_text(key: Key) -> str:
    """`p(a, b)`, or `p` for a 0-ary fluent: how keys appear in messages and JSON."""
    name, args = key
    return f"{name}({', '.join(args)})" if args else name


@dataclass
class Model:
    """One domain grounded for one instance (and its non-fluents block, when it has one)."""

    domain: ast.Domain
    instance: ast.Instance
    non_fluents: ast.NonFluents | None = None
    table: SymbolTable = field(init=False)
    objects: dict[str, tuple[str, ...]] = field(init=False)
    object_type: dict[str, str] = field(init=False)
    decls: dict[str, ast.PVariableDecl] = field(init=False)
    groundings: dict[str, tuple[tuple[str, ...], ...]] = field(init=False)
    defaults: dict[str, Value] = field(init=False)
    int_enums: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        diagnostics: list[Diagnostic] = []
        self.table = SymbolTable.build(self.domain, diagnostics)
        errors = [d for d in diagnostics if d.is_error]
        if errors:
            raise GroundingError(errors)
        self.decls = dict(self.table.pvariables)
        self.int_enums = frozenset(t for t in self.table.types if self.table.is_int_enum(t))
        self._collect_objects()
        self.defaults = {name: self._default(decl) for name, decl in self.decls.items()}
        self.groundings = {name: tuple(self.ground_params(decl.params)) for name, decl in self.decls.items()}

    # -- objects ---------------------------------------------------------------------------------

    def _collect_objects(self) -> None:
        direct: dict[str, list[str]] = {}
        self.object_type = {}
        declared: list[ast.ObjectsDecl] = list(self.domain.objects)  # RDDL2: objects of every instance
        declared += self.non_fluents.objects if self.non_fluents else ()
        declared += self.instance.objects
        for decl in declared:
            if decl.type not in self.table.types:
                raise fail("R301", f"objects of undeclared type {decl.type}", decl)
            for name in decl.names:
                if name in self.object_type:
                    continue  # the same object in the non-fluents and the instance
                self.object_type[name] = decl.type
                direct.setdefault(decl.type, []).append(name)
        self.objects = {"object": tuple(self.object_type)}
        for type_name, type_def in self.table.types.items():
            if isinstance(type_def, ast.EnumType):
                self.objects[type_name] = type_def.values
                for value in type_def.values:
                    self.object_type.setdefault(value, type_name)
            elif isinstance(type_def, ast.TupleType):
                continue  # a range of values, not a set of objects
            else:
                self.objects[type_name] = tuple(o for o, t in self.object_type.items()
                                                if not self.table.is_enum(t) and self.table.is_subtype(t, type_name))

    def of_type(self, type_name: str, node: object = None) -> tuple[str, ...]:
        try:
            return self.objects[type_name]
        except KeyError:
            raise fail("R301", f"undeclared type {type_name}", node) from None

    def ground_params(self, params: Sequence[str]) -> Iterator[tuple[str, ...]]:
        return itertools.product(*(self.of_type(p) for p in params))

    # -- values ----------------------------------------------------------------------------------

    # -- RDDL2 tuples ----------------------------------------------------------------------------

    def tuple_members(self, range_name: str, node: object = None) -> list[tuple[str, str]]:
        """The (label, range) of each member of a tuple type, `[t]<? : r>` expanded over t."""
        type_def = self.table.types.get(range_name)
        if not isinstance(type_def, ast.TupleType):
            raise fail("R306", f"{range_name} is not a tuple type", node)
        if type_def.index is not None:
            member_range = type_def.members[0][1]
            return [(label, member_range) for label in self.of_type(type_def.index, node)]
        return list(type_def.members)

    def is_tuple(self, range_name: str) -> bool:
        return isinstance(self.table.types.get(range_name), ast.TupleType)

    def tuple_value(self, range_name: str, value: ast.Constant) -> Value:
        """A constant of `range_name`: a `Vector` for a tuple type (`< ? : v >` fills every member)."""
        if not self.is_tuple(range_name):
            return constant(value)
        if not isinstance(value, ast.TupleExpr):
            raise fail("R306", f"a value of the tuple type {range_name} must be a tuple, not {value}", value)
        members = self.tuple_members(range_name, value)
        given = dict(value.entries)
        if set(given) == {"?"}:
            return Vector(tuple((label, self.tuple_value(r, given["?"])) for label, r in members))  # type: ignore[arg-type]
        labels = [label for label, _ in members]
        if sorted(given) != sorted(labels):
            raise fail("R306", f"a value of {range_name} gives the members {', '.join(given)}, "
                       f"not {', '.join(labels)}", value)
        return Vector(tuple((label, self.tuple_value(r, given[label])) for label, r in members))  # type: ignore[arg-type]

    def _zero(self, range_name: str) -> Value:
        if self.is_tuple(range_name):
            return Vector(tuple((label, self._zero(r)) for label, r in self.tuple_members(range_name)))
        if range_name == "bool":
            return False
        if range_name == "int":
            return 0
        if range_name == "real":
            return 0.0
        values = self.objects.get(range_name, ())
        return values[0] if values else ""

    def _default(self, decl: ast.PVariableDecl) -> Value:
        if decl.default is not None:
            return self.coerce(decl, self.tuple_value(decl.range, decl.default))
        if self.is_tuple(decl.range):
            return self._zero(decl.range)
        if decl.range == "bool":
            return False
        if decl.range == "int":
            return 0
        if decl.range == "real":
            return 0.0
        values = self.objects.get(decl.range, ())
        return values[0] if values else ""

    def coerce(self, decl: ast.PVariableDecl, value: Value) -> Value:
        """`value` as `decl`'s range stores it (a bool counts as 0/1 in a number, as in RDDLSim)."""
        if isinstance(value, Vector) and not self.is_tuple(decl.range):
            raise fail("R306", f"{decl.name} is {decl.range}, not a tuple", decl)
        if decl.range == "bool":
            return bool(value)
        if isinstance(value, Vector):
            return value
        if decl.range == "int":
            return int(value) if not isinstance(value, str) else value
        if decl.range == "real":
            return float(value) if not isinstance(value, str) else value
        return value

    def keys(self, kinds: Iterable[str]) -> list[Key]:
        wanted = set(kinds)
        return [(name, args) for name, decl in self.decls.items() if decl.kind in wanted
                for args in self.groundings[name]]

    def assigned(self, assignments: Iterable[ast.Assignment], kinds: Iterable[str]) -> dict[Key, Value]:
        """The values an instance's `non-fluents { }` or `init-state { }` sets, checked against the domain."""
        wanted = set(kinds)
        values: dict[Key, Value] = {}
        for assignment in assignments:
            decl = self.decls.get(assignment.name)
            if decl is None or decl.kind not in wanted:
                raise fail("R302", f"{assignment.name} is not a {' or '.join(sorted(wanted))} of the domain",
                           assignment)
            if len(assignment.args) != len(decl.params):
                raise fail("R303", f"{assignment.name} takes {len(decl.params)} arguments, "
                           f"not {len(assignment.args)}", assignment)
            for arg, param in zip(assignment.args, decl.params, strict=False):
                if arg not in self.of_type(param):
                    raise fail("R304", f"{arg} is not an object of type {param} (in {assignment.name})",
                               assignment)
            values[(assignment.name, assignment.args)] = self.coerce(decl, self.tuple_value(decl.range,
                                                                                            assignment.value))
        return values

    def initial_values(self) -> dict[Key, Value]:
        """Every non-fluent and state fluent at the start of a round, action fluents at their defaults."""
        values: dict[Key, Value] = {}
        for name, decl in self.decls.items():
            if decl.kind in ("non-fluent", "state-fluent", "action-fluent"):
                default = self.defaults[name]
                for args in self.groundings[name]:
                    values[(name, args)] = default
        nf_values = self.non_fluents.values if self.non_fluents else ()
        values.update(self.assigned(nf_values, ["non-fluent"]))
        values.update(self.assigned(self.instance.non_fluent_values, ["non-fluent"]))
        values.update(self.assigned(self.instance.init_state, ["state-fluent"]))
        return values

    # -- the instance's numbers ------------------------------------------------------------------

    def _number(self, value: ast.Constant | None, default: float) -> float:
        if value is None:
            return default
        number = constant(value)
        if isinstance(number, (str, Vector)):
            # `max-nondef-actions = pos-inf` arrives as Real(inf); anything else named is a mistake
            raise fail("R305", f"expected a number, not {number}", value)
        return float(number)

    @property
    def terminate_when(self) -> ast.Expr | None:
        """RDDL2's `horizon = terminate-when (c);`: the condition that ends a round."""
        horizon = self.instance.horizon
        return horizon.condition if isinstance(horizon, ast.TerminateWhen) else None

    @property
    def horizon(self) -> int:
        if isinstance(self.instance.horizon, ast.TerminateWhen):
            return UNBOUNDED_HORIZON
        horizon = self._number(self.instance.horizon, math.inf)
        if math.isinf(horizon) or horizon < 0:
            raise fail("R305", f"instance {self.instance.name} needs a finite horizon to be simulated",
                       self.instance)
        return int(horizon)

    @property
    def discount(self) -> float:
        return self._number(self.instance.discount, 1.0)

    @property
    def max_nondef_actions(self) -> float:
        return self._number(self.instance.max_nondef_actions, math.inf)

    @property
    def partially_observed(self) -> bool:
        return any(d.kind == "observ-fluent" for d in self.decls.values())
