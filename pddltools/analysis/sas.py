"""A `GroundTask` in Fast Downward's SAS format (version 3), as its translator writes `output.sas`.

Variables come from the mutex groups (`invariants.py`): a group whose atoms are pairwise exclusive becomes
one variable with a value per atom, plus "none of those" (`<none of those>`) unless one of the atoms
always holds; every atom in no group is a binary variable (the atom, or its negation). Operators are
named "ACTION ARG ..." so that the search's plan is already a plan of the original task (the plan map is
the identity on action names). A precondition on a variable the operator also changes is the "pre" of
that effect; the others are its prevail conditions.

Derived atoms the task needs (`axioms.py`) are binary variables with their axiom layer, false in the
initial state (what holds when no axiom makes them true), set by one rule per axiom; derived atoms
nothing needs get no variable.

An unsolvable task (the goal is never reached) is written as Fast Downward writes one: a single binary
variable the goal wants true and nothing can set.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from pddltools.analysis.axioms import Axioms
from pddltools.analysis.grounder import Axiom, GroundTask, Literal, Operator, paused_gc
from pddltools.diagnostics import compile_error
from pddltools.semantics.state import GroundAtom


@dataclass
class Encoding:
    """Each atom's variable and value; each variable's values as text."""

    place: dict[int, tuple[int, int]]  # atom → (variable, value)
    values: list[list[str]]
    none_value: list[int | None]  # the value "none of those" of each variable, if it has one
    layers: list[int]  # each variable's axiom layer; -1 for a variable operators change

    def literal(self, lit: Literal) -> tuple[int, int] | None:
        """(variable, value) for a literal; None for a negated atom that is a value of a larger variable
        (its negation is not one value: `encode` keeps negated atoms out of larger variables)."""
        atom, positive = lit
        var, value = self.place[atom]
        if positive:
            return var, value
        if len(self.values[var]) == 2:
            return var, 1 - value
        return None


def encode(task: GroundTask, axioms: Axioms | None = None) -> Encoding:
    """Variables from the mutex groups, except for atoms some condition negates: "not this value" of a
    larger variable is not one value, so such an atom keeps a binary variable of its own (as Fast
    Downward does for negated goals)."""
    axioms = axioms or Axioms(task)
    place: dict[int, tuple[int, int]] = {}
    values: list[list[str]] = []
    none_value: list[int | None] = []
    layers: list[int] = []
    negated = {a for op in task.operators for a, p in op.precondition if not p}
    negated |= {a for op in task.operators for e in op.effects for a, p in e.conditions if not p}
    negated |= {a for a, p in task.goal or () if not p}
    negated |= {a for axiom in axioms.axioms for a, p in axiom.condition if not p}
    covered: set[int] = set()
    for group in task.mutexes:
        atoms = [a for a, positive in group if positive and a not in covered and a not in negated]
        if len(atoms) < 2:
            continue
        var = len(values)
        names = [_atom(task.atoms[a]) for a in atoms]
        for value, a in enumerate(atoms):
            place[a] = (var, value)
            covered.add(a)
        values.append([*names, "<none of those>"])
        none_value.append(len(atoms))
        layers.append(-1)
    for a, atom in enumerate(task.atoms):
        if a in covered:
            continue
        layer = axioms.layer.get(a, -1)
        if layer < 0 and atom[0] in task.derived:
            continue  # a derived atom nothing reads
        var = len(values)
        place[a] = (var, 0)
        values.append([_atom(atom), "Negated" + _atom(atom)])
        none_value.append(None)
        layers.append(layer)
    return Encoding(place, values, none_value, layers)


def _atom(atom: GroundAtom) -> str:
    return f"Atom {atom[0]}({', '.join(atom[1:])})"


def write(task: GroundTask) -> str:
    with paused_gc():
        return _write(task)


def _write(task: GroundTask) -> str:
    if task.goal is None:
        return _unsolvable()
    needed = Axioms(task)
    enc = encode(task, needed)
    lines = ["begin_version", "3", "end_version", "begin_metric", "1" if task.metric else "0", "end_metric",
             str(len(enc.values))]
    for var, values in enumerate(enc.values):
        lines += ["begin_variable", f"var{var}", str(enc.layers[var]), str(len(values)), *values, "end_variable"]
    groups = [g for g in task.mutexes if sum(1 for _, p in g if p) >= 2]
    lines.append(str(len(groups)))
    for group in groups:
        facts = [enc.literal(lit) for lit in group if lit[1]]
        pairs = [f"{found[0]} {found[1]}" for found in facts if found is not None]
        lines += ["begin_mutex_group", str(len(pairs)), *pairs, "end_mutex_group"]
    state = [enc.none_value[v] if enc.none_value[v] is not None else 1 for v in range(len(enc.values))]
    for a in task.init:
        var, value = enc.place[a]
        state[var] = value
    lines += ["begin_state", *(str(s) for s in state), "end_state"]
    goal = _pairs(enc, task.goal)
    if goal is None:
        return _unsolvable()  # two values of one variable at once
    lines += ["begin_goal", str(len(goal)), *(f"{v} {x}" for v, x in sorted(goal.items())), "end_goal"]
    exclusive: dict[int, list[int]] = {}  # each atom's mutex groups, by number
    for number, group in enumerate(groups):
        for a, positive in group:
            if positive:
                exclusive.setdefault(a, []).append(number)
    operators = [found for op in task.operators
                 if (found := _operator(enc, op, op.cost if task.metric else 1, exclusive))]
    lines.append(str(len(operators)))
    lines += operators
    rules = [found for axiom in needed.axioms if (found := _rule(enc, axiom))]
    lines.append(str(len(rules)))
    lines += rules
    return "\n".join(lines) + "\n"


def _pairs(enc: Encoding, literals: Iterable[Literal]) -> dict[int, int] | None:
    """Each literal's variable and value; None when two of them want one variable to have two values
    (atoms of one mutex group: the condition can never hold)."""
    out: dict[int, int] = {}
    for lit in literals:
        found = enc.literal(lit)
        assert found is not None, "a negated atom is always a binary variable of its own"
        if out.setdefault(found[0], found[1]) != found[1]:
            return None
    return out


def _operator(enc: Encoding, op: Operator, cost: int | Fraction, exclusive: dict[int, list[int]]) -> str:
    """The operator's text; empty when it never applies: its precondition asks two values of one variable,
    or two atoms of one mutex group (`exclusive`: each atom's groups), as the translator drops such an
    operator. Left in, it would never apply, yet a relaxed heuristic could use it."""
    if isinstance(cost, Fraction) and cost.denominator != 1:
        raise compile_error("E801", f"the grounder reads only integer costs for the SAS format, not {cost} ({op.name})")
    place = enc.place
    conditions: dict[int, int] = {}
    held: dict[int, int] = {}  # a mutex group → the precondition's atom in it
    for atom, positive in op.precondition:  # `_pairs` inlined: the writer's inner loop
        var, value = place[atom]
        if not positive:
            value = 1 - value  # a negated atom is always a binary variable of its own
        elif atom in exclusive:
            for group in exclusive[atom]:
                if held.setdefault(group, atom) != atom:
                    return ""
        if conditions.setdefault(var, value) != value:
            return ""
    effects = op.effects
    added = {place[e.atom][0] for e in effects if e.add and not e.conditions}
    changes: list[str] = []
    affected: set[int] = set()
    for effect in effects:
        var, value = place[effect.atom]
        if effect.conditions:
            found = _pairs(enc, effect.conditions)
            if found is None:
                continue  # its condition can never hold
            conds = found
        else:
            conds = {}
        if effect.add:
            post = value
        elif var in added:
            continue  # the variable takes another value (or this one) outright: the add wins
        elif enc.none_value[var] is None:
            post = 1 - value
        else:
            post = enc.none_value[var]  # type: ignore[assignment]
            if conditions.get(var) != value:
                conds[var] = value  # deleting one value of a larger variable: only when it holds
        affected.add(var)
        before = conditions.get(var, -1)
        if conds:
            pairs = " ".join(f"{v} {x}" for v, x in sorted(conds.items()))
            changes.append(f"{len(conds)} {pairs} {var} {before} {post}")
        else:
            changes.append(f"0 {var} {before} {post}")
    prevail = sorted((v, x) for v, x in conditions.items() if v not in affected)
    head = f"begin_operator\n{op.schema} {' '.join(op.args)}\n" if op.args else f"begin_operator\n{op.schema}\n"
    body = "".join(f"{v} {x}\n" for v, x in prevail)
    return f"{head}{len(prevail)}\n{body}{len(changes)}\n" + "".join(c + "\n" for c in changes) \
        + f"{int(cost)}\nend_operator"


def _rule(enc: Encoding, axiom: Axiom) -> str:
    """The axiom's text: its conditions, then its head's variable going from false (1) to true (0); empty
    when its condition asks two values of one variable."""
    conditions = _pairs(enc, axiom.condition)
    if conditions is None:
        return ""
    var, value = enc.place[axiom.head]
    body = "".join(f"{v} {x}\n" for v, x in sorted(conditions.items()))
    return f"begin_rule\n{len(conditions)}\n{body}{var} {1 - value} {value}\nend_rule"


def _unsolvable() -> str:
    return "\n".join(["begin_version", "3", "end_version", "begin_metric", "0", "end_metric", "1",
                      "begin_variable", "var0", "-1", "2", "Atom dummy(val1)", "Atom dummy(val2)", "end_variable",
                      "0", "begin_state", "0", "end_state", "begin_goal", "1", "0 1", "end_goal", "0", "0"]) + "\n"
