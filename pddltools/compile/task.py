"""What every pass takes and gives: a task, and where each compiled action came from.

A pass maps a `ParsedTask` to a `PassResult`: the new task, and for every action of the new domain its `Origin`, the
action of the input it stands for (or none, for an auxiliary action) and how to rebuild that action's
arguments from the new one's. Composing the origins of a pipeline's steps gives the plan map.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from pddltools.pddl import ast


@dataclass(frozen=True)
class ParsedTask:
    """A domain and problem as ASTs, nothing grounded: what a compiler pass reads and writes (the grounded
    task a plan is checked against is `pddltools.semantics.GroundedTask`)."""

    domain: ast.Domain
    problem: ast.Problem


@dataclass(frozen=True)
class Origin:
    """`action` None: auxiliary, dropped from plans. Each of `args` is, for one parameter of the original
    action, the index of the compiled action's argument that gives it, or the constant it is fixed to;
    `outcome`: for a determinised action, the original's outcome it stands for."""

    action: str | None
    args: tuple[int | str, ...] = ()
    outcome: int | None = None  # a determinised action: which outcome (from 1) of the original it is


@dataclass(frozen=True)
class PassResult:
    """What one compiler pass gives: the new task and where each of its actions came from."""

    task: ParsedTask
    origins: Mapping[str, Origin]
    # The domain now depends on the problem's objects (quantifiers expanded, static facts folded in).
    problem_specific: bool = False
    notes: tuple[str, ...] = ()
    # For the back map: the cost expression each input action had, printed, when costs were removed.
    costs: Mapping[str, str] = field(default_factory=dict)


def identity(domain: ast.Domain) -> dict[str, Origin]:
    return {a.name: same_action(a) for a in domain.actions}


def same_action(action: ast.Action) -> Origin:
    """The origin of an action that keeps the name and parameters of `action`."""
    return Origin(action.name, tuple(range(len(action.parameters))))


def rewrite_actions(domain: ast.Domain, rewrite: Callable[[ast.Action], Iterable[tuple[ast.Action, Origin]]],
                    ) -> tuple[list[ast.Structure], dict[str, Origin]]:
    """The domain's structures with each action replaced by what `rewrite` makes of it (no action, one,
    or several, each with its origin), every other structure kept in its place; and those origins."""
    structures: list[ast.Structure] = []
    origins: dict[str, Origin] = {}
    for structure in domain.structures:
        if not isinstance(structure, ast.Action):
            structures.append(structure)
            continue
        for action, origin in rewrite(structure):
            structures.append(action)
            origins[action.name] = origin
    return structures, origins


def compose(earlier: Mapping[str, Origin], later: Mapping[str, Origin]) -> dict[str, Origin]:
    """Origins of the latest actions in terms of the first task, from two consecutive steps."""
    out: dict[str, Origin] = {}
    for name, origin in later.items():
        if origin.action is None:
            out[name] = origin
            continue
        first = earlier.get(origin.action)
        if first is None or first.action is None:
            out[name] = Origin(None)
            continue
        args: list[int | str] = []
        for arg in first.args:
            args.append(origin.args[arg] if isinstance(arg, int) else arg)
        out[name] = Origin(first.action, tuple(args), first.outcome)
    return out


def unique_name(base: str, taken: set[str]) -> str:
    """`base`, or `base-2`, `base-3` ... whichever is free; the name is then taken."""
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}-{n}"
    taken.add(name)
    return name


def names_in_use(domain: ast.Domain) -> set[str]:
    """Every predicate, function, type, action and constant name of a domain (for fresh names)."""
    names = {p.name for p in domain.predicates} | {f.name for f in domain.functions}
    names |= {t.name for t in domain.types} | {s.name for s in domain.structures} | {c.name for c in domain.constants}
    return names
