"""The one traversal and rewrite layer (`pddltools.tree`) over both ASTs.

The round-trip tests enumerate the node classes from the AST modules, so a node class added later is
covered without a new test: each is built with a distinct leaf in every place a sub-node may stand,
which shows that `children()` finds exactly those leaves, in field order, and that `rebuild` puts
them back where they were.
"""

from __future__ import annotations

import inspect
import itertools
import types
import typing
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from pddltools import tree
from pddltools.diagnostics import Source, Span
from pddltools.pddl import ast as pddl
from pddltools.rddl import ast as rddl
from pddltools.semantics.evaluate import ground


def _node_classes(module: types.ModuleType, base: type) -> list[type]:
    return [value for value in vars(module).values()
            if isinstance(value, type) and issubclass(value, base) and value is not base]


PDDL_CLASSES = _node_classes(pddl, pddl.Node)
RDDL_CLASSES = _node_classes(rddl, rddl.Node)


class _Builder:
    """Builds an instance of a node class from its type hints, a fresh `Variable("?cN")` leaf wherever
    a sub-node may stand (so the leaves, in order, tell where each one went)."""

    def __init__(self, variable: type) -> None:
        self.variable = variable
        self.counter = itertools.count()
        self.leaves: list[Any] = []

    def node(self, cls: type) -> Any:
        hints = typing.get_type_hints(cls)
        values = {name: self.value(hint) for name, hint in hints.items() if name != "span"}
        return cls(**values)

    def leaf(self) -> Any:
        made = self.variable(f"?c{next(self.counter)}")
        self.leaves.append(made)
        return made

    def value(self, hint: Any) -> Any:
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if isinstance(hint, type) and issubclass(hint, tree.Tree):
            return self.leaf()
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                return (self.value(args[0]), self.value(args[0]))
            return tuple(self.value(arg) for arg in args)
        if origin is typing.Literal:
            return args[0]
        if args and (origin is typing.Union or origin is types.UnionType):
            holding = [arg for arg in args if tree._mentions_tree(arg)]
            if holding:
                return self.value(holding[0])
            return self.value(next(arg for arg in args if arg is not type(None)))
        simple: dict[Any, Any] = {str: "s", int: 1, bool: True, float: 1.5, Fraction: Fraction(1, 2),
                                  Span: _span(7)}  # a position a node keeps besides its own span
        return simple[hint]


def _span(start: int) -> Span:
    return Span(Source(" " * 100, "x.pddl"), start, start + 1)


@pytest.mark.parametrize(("cls", "variable"),
                         [(c, pddl.Variable) for c in PDDL_CLASSES] + [(c, rddl.Variable) for c in RDDL_CLASSES],
                         ids=lambda value: getattr(value, "__qualname__", str(value)))
def test_children_and_rebuild_round_trip(cls: type, variable: type) -> None:
    builder = _Builder(variable)
    node = builder.node(cls)
    node = node.rebuild(node.children())  # no-op rebuild first: keeps the node
    assert list(node.children()) == builder.leaves
    assert all(a is b for a, b in zip(node.children(), builder.leaves, strict=True))
    assert node.rebuild(builder.leaves) == node
    assert node.map_children(lambda child: child) is node

    located = type(node)(**{name: getattr(node, name) for name in typing.get_type_hints(cls) if name != "span"},
                         span=_span(3))
    renamed = [variable(f"?new{i}") for i in range(len(builder.leaves))]
    rebuilt = located.rebuild(renamed)
    assert type(rebuilt) is cls
    assert list(rebuilt.children()) == renamed
    assert rebuilt.span == located.span
    if renamed:
        assert rebuilt != node
        with pytest.raises(ValueError):
            located.rebuild(renamed[:-1])
    with pytest.raises(ValueError):
        located.rebuild([*renamed, variable("?extra")])


def test_every_class_is_enumerated() -> None:
    # A guard on the enumeration itself, so that the round trip cannot pass by covering nothing.
    assert {pddl.Atom, pddl.ForallEffect, pddl.Problem, pddl.Domain} <= set(PDDL_CLASSES)
    assert {rddl.TupleExpr, rddl.Aggregation, rddl.Instance, rddl.RDDLFile} <= set(RDDL_CLASSES)
    assert all(issubclass(c, tree.Tree) for c in PDDL_CLASSES + RDDL_CLASSES)


def test_the_layouts_hints_are_typings_and_read_without_it_for_every_node_class() -> None:
    """`tree` reads a node class's type hints without `typing.get_type_hints` (start-up): the same hints,
    for every node class of both ASTs; an annotation it does not read (a text inside a subscript) is left
    to typing, and one that cannot be resolved is typing's error."""
    for cls in (*PDDL_CLASSES, *RDDL_CLASSES):
        assert tree._evaluated_hints(cls) == typing.get_type_hints(cls), cls

    class Quoted(pddl.Node):
        parts: tuple[pddl.Atom, ...]
        others: tuple["pddl.Atom", ...]  # noqa: UP037  # a text inside: typing evaluates it

    with pytest.raises(tree._Unread):
        tree._evaluated_hints(Quoted)
    assert tree._type_hints(Quoted) == typing.get_type_hints(Quoted)

    class Unknown(pddl.Node):
        part: Missing  # type: ignore[name-defined]  # noqa: F821

    with pytest.raises(NameError):
        tree._evaluated_hints(Unknown)
    assert tree._type_hints(Unknown) is None


#: PDDL's node classes' hints read by `tree` in a process without typing, then compared with typing's.
WITHOUT_TYPING = """
import sys
from pddltools import tree
from pddltools.pddl import ast
classes = [v for v in vars(ast).values() if isinstance(v, type) and issubclass(v, ast.Node) and v is not ast.Node]
ours = {cls: tree._evaluated_hints(cls) for cls in classes}
assert "typing" not in sys.modules
import typing
same = [ours[cls] == typing.get_type_hints(cls) for cls in classes]
print(len(classes), sum(same))
"""


def test_the_layouts_hints_are_typings_where_typing_is_not_imported() -> None:
    """Without typing imported (a command's run), `tree` reads every PDDL node class's hints itself, and
    they are what `typing.get_type_hints` returns; `Tree["Node"]` is a generic alias of `Tree`, as
    typing's `Generic` made it."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", WITHOUT_TYPING], capture_output=True, text=True, check=True)
    classes, same = map(int, done.stdout.split())
    assert classes > 40 and same == classes
    alias = tree.Tree["pddl.Node"]
    assert typing.get_origin(alias) is tree.Tree and typing.get_args(alias) == ("pddl.Node",)
    assert pddl.Node.__mro__[1] is tree.Tree and pddl.Node.__orig_bases__ == (tree.Tree["Node"],)


def test_span_declared_once() -> None:
    for cls in PDDL_CLASSES + RDDL_CLASSES:
        assert "span" not in inspect.get_annotations(cls), cls


# ------------------------------------------------------------------------------------------------
# walk order


def _v(name: str) -> pddl.Variable:
    return pddl.Variable(name)


def test_walk_is_depth_first_in_source_order() -> None:
    formula = pddl.And((
        pddl.Atom("p", (_v("?a"), pddl.Constant("b"))),
        pddl.Not(pddl.Atom("q")),
        pddl.Exists((pddl.TypedName("?y", pddl.TypeName("t")),), pddl.Atom("r", (_v("?y"),))),
    ))
    kinds = [type(n).__name__ + (f":{n.name}" if hasattr(n, "name") else "") for n in formula.walk()]
    assert kinds == ["And", "Atom", "Variable:?a", "Constant:b", "Not", "Atom", "Exists", "TypedName:?y",
                     "TypeName:t", "Atom", "Variable:?y"]


def test_walk_of_rddl_includes_tuple_entries() -> None:
    expr = rddl.Binary("+", rddl.TupleExpr((("@x", rddl.Integer(1)), ("@y", rddl.Variable("?v")))),
                       rddl.PVariable("p", (rddl.Variable("?w"),)))
    assert [type(n).__name__ for n in expr.walk()] == ["Binary", "TupleExpr", "Integer", "Variable",
                                                        "PVariable", "Variable"]


def test_walk_survives_deep_nesting() -> None:
    formula: pddl.Formula = pddl.Atom("p")
    for _ in range(5000):
        formula = pddl.Not(formula)
    assert sum(1 for _ in formula.walk()) == 5001


# ------------------------------------------------------------------------------------------------
# scope-aware substitution


def _args(node: pddl.Node) -> Iterator[str]:
    return (n.name for n in node.walk() if isinstance(n, pddl.Variable | pddl.Constant))


def test_quantifier_shadowing_a_parameter_is_not_substituted() -> None:
    body = pddl.And((
        pddl.Atom("p", (_v("?x"),)),
        pddl.Forall((pddl.TypedName("?x"),), pddl.Atom("q", (_v("?x"), _v("?y")))),
        pddl.Exists((pddl.TypedName("?y"),), pddl.Atom("r", (_v("?x"), _v("?y")))),
    ))
    out = pddl.substitute(body, {"?x": pddl.Constant("a"), "?y": pddl.Constant("b")})
    assert list(_args(out)) == ["a", "?x", "b", "a", "?y"]
    assert isinstance(out, pddl.And)


def test_forall_effect_binds_its_variables() -> None:
    effect = pddl.AndEffect((
        pddl.ForallEffect((pddl.TypedName("?x"),), pddl.When(pddl.Atom("p", (_v("?x"),)),
                                                             pddl.Not(pddl.Atom("q", (_v("?x"), _v("?z")))))),
        pddl.Atom("done", (_v("?x"),)),
    ))
    out = pddl.substitute(effect, {"?x": pddl.Constant("a"), "?z": pddl.Constant("c")})
    assert list(_args(out)) == ["?x", "?x", "c", "a"]


def test_action_parameters_bind_over_the_whole_action() -> None:
    action = pddl.Action("move", (pddl.TypedName("?x"),), pddl.Atom("at", (_v("?x"), _v("?free"))),
                         pddl.Atom("moved", (_v("?x"),)))
    out = pddl.substitute(action, {"?x": pddl.Constant("a"), "?free": pddl.Constant("f")})
    assert out.precondition == pddl.Atom("at", (_v("?x"), pddl.Constant("f")))
    assert out.effect == action.effect
    assert pddl.substitute(action, {"?x": pddl.Constant("a")}) is action  # nothing free to replace


def test_substitution_shares_untouched_subtrees_and_keeps_spans() -> None:
    untouched = pddl.Atom("q", (pddl.Constant("k"),))
    atom = pddl.Atom("p", (_v("?x"),), span=_span(5))
    out = pddl.substitute(pddl.And((untouched, atom)), {"?x": pddl.Constant("a")})
    assert out.parts[0] is untouched
    assert out.parts[1].span == atom.span
    assert pddl.substitute(_v("?x"), {"?x": pddl.Number(3)}) == pddl.Number(3)


def test_ground_replaces_values_under_the_same_scopes() -> None:
    formula = pddl.And((pddl.Comparison(">=", pddl.FunctionTerm("f", (_v("?x"),)), _v("?d")),
                        pddl.Exists((pddl.TypedName("?x"),), pddl.Atom("p", (_v("?x"),)))))
    assert str(ground(formula, {"?x": "a", "?d": 2})) == "(and (>= (f a) 2) (exists (?x) (p ?x)))"


def test_rddl_aggregation_and_cpf_bind_their_variables() -> None:
    agg = rddl.Aggregation("sum", (rddl.Binding("?x", "t"),),
                           rddl.Binary("*", rddl.PVariable("p", (rddl.Variable("?x"),)), rddl.Variable("?y")))
    whole = rddl.Binary("+", rddl.Variable("?x"), agg)
    out = rddl.substitute(whole, {"?x": rddl.ObjectValue("a"), "?y": rddl.Integer(2)})
    assert str(out) == str(rddl.Binary("+", rddl.ObjectValue("a"), rddl.Aggregation(
        "sum", (rddl.Binding("?x", "t"),),
        rddl.Binary("*", rddl.PVariable("p", (rddl.Variable("?x"),)), rddl.Integer(2)))))
    cpf = rddl.Cpf("p", ("?x",), rddl.Binary("^", rddl.Variable("?x"), rddl.Variable("?z")), True)
    assert rddl.substitute(cpf, {"?x": rddl.Boolean(True), "?z": rddl.Boolean(False)}).expr == rddl.Binary(
        "^", rddl.Variable("?x"), rddl.Boolean(False))


def test_rddl_matrix_and_vector_indices_are_bound() -> None:
    cov = rddl.PVariable("cov", (rddl.Variable("?i"), rddl.Variable("?k")))
    matrix = rddl.MatrixOperation("cholesky", "?i", "?j", cov)
    out = rddl.substitute(matrix, {"?i": rddl.ObjectValue("a"), "?k": rddl.ObjectValue("b")})
    assert out.body == rddl.PVariable("cov", (rddl.Variable("?i"), rddl.ObjectValue("b")))
    vector = rddl.VectorDistribution("MultivariateNormal", ("?i",), (rddl.PVariable("m", (rddl.Variable("?i"),)),))
    assert rddl.substitute(vector, {"?i": rddl.ObjectValue("a")}) is vector


def test_effect_parts_reach_every_effect_once_in_source_order() -> None:
    add, delete = pddl.Atom("a"), pddl.Not(pddl.Atom("d"))
    timed = pddl.Timed("end", pddl.Atom("t"))
    effect = pddl.AndEffect((add, pddl.When(pddl.Atom("c"), delete), pddl.ForallEffect((), timed)))
    parts = list(pddl.effect_parts(effect))
    assert parts == [effect, add, effect.parts[1], delete, effect.parts[2], timed, pddl.Atom("t")]
    assert pddl.Atom("c") not in parts  # a `when` condition is a formula, not an effect
    assert list(pddl.effect_parts(effect, into_timed=False))[-1] is timed


def test_shift_spans_rebuilds_every_span_onto_the_new_source() -> None:
    own = Source("(p ?x)", "own.pddl")
    atom = pddl.Atom("p", (pddl.Variable("?x", span=Span(own, 3, 5)),), span=Span(own, 0, 6))
    document = Source(";; moved\n(p ?x)", "doc.pddl")
    moved = tree.shift_spans(pddl.And((atom,), span=Span(own, 0, 6)), document, 9)
    assert moved == pddl.And((atom,))
    assert [(n.span.source, n.span.text) for n in moved.walk() if n.span] == [
        (document, "(p ?x)"), (document, "(p ?x)"), (document, "?x")]
    assert atom.span.source is own and atom.span.start == 0  # the original is not changed


def test_no_module_mutates_a_frozen_object_after_construction() -> None:
    """Nodes and spans are frozen and hashed: `__setattr__` may only set the fields of the object a
    constructor (`__init__`) is building, or in the fast constructors of `syntax/frozen.py`."""
    import ast
    from pathlib import Path

    import pddltools

    root = Path(pddltools.__file__).parent
    offenders = []
    for path in sorted(root.rglob("*.py")):
        if path == root / "syntax" / "frozen.py":
            continue
        module = ast.parse(path.read_text(encoding="utf-8"))
        allowed: set[int] = set()
        for function in ast.walk(module):
            if isinstance(function, ast.FunctionDef) and function.name in ("__init__", "__post_init__"):
                allowed.update(id(call) for call in ast.walk(function) if isinstance(call, ast.Call)
                               and call.args and isinstance(call.args[0], ast.Name) and call.args[0].id == "self")
        for call in ast.walk(module):
            if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                    and call.func.attr == "__setattr__" and id(call) not in allowed):
                offenders.append(f"{path.relative_to(root)}:{call.lineno}")
    assert offenders == []
