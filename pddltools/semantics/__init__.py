"""Grounded semantics of PDDL: what a task means, state by state.

- `GroundedTask`: a domain and problem with their initial state, ground actions, goal (`task.py`);
- `State`: ground atoms plus fluent values (`state.py`);
- `Evaluator`: formulas, expressions, derived predicates, reasons for falsity (`evaluate.py`);
- `Effects`, `collect`, `apply`: simultaneous effect application (`apply.py`);
- `metric_value` (`metric.py`), PDDL3 preferences and trajectory constraints (`preferences.py`),
  durative actions and mutex (`temporal.py`).
"""

from __future__ import annotations

from pddltools.semantics.apply import Effects, apply, collect, resolve
from pddltools.semantics.errors import (
    ArithmeticFault,
    EffectConflict,
    NotStratified,
    SemanticsError,
    UnboundVariable,
    UndefinedValue,
    Unsupported,
)
from pddltools.semantics.evaluate import Evaluator, Unsatisfied
from pddltools.semantics.grounding import Binding, Grounder
from pddltools.semantics.metric import metric_value
from pddltools.semantics.preferences import ConstraintResult, evaluate_constraints, holds_over, state_violations
from pddltools.semantics.state import GroundAtom, GroundFluent, State, show_atom
from pddltools.semantics.task import GroundAction, GroundedTask, TimedLiteral

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from pddltools.semantics.temporal import Footprint, Split, interference, split

#: Names of `temporal`, imported at their first use: a sequential plan's validation never needs them.
_TEMPORAL = frozenset(("Footprint", "Split", "interference", "split"))


def __getattr__(name: str) -> Any:
    if name in _TEMPORAL:
        from pddltools.semantics import temporal

        value = getattr(temporal, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "ArithmeticFault",
    "Binding",
    "ConstraintResult",
    "EffectConflict",
    "Effects",
    "Evaluator",
    "Footprint",
    "GroundAction",
    "GroundAtom",
    "GroundFluent",
    "GroundedTask",
    "Grounder",
    "NotStratified",
    "SemanticsError",
    "Split",
    "State",
    "TimedLiteral",
    "UnboundVariable",
    "UndefinedValue",
    "Unsatisfied",
    "Unsupported",
    "apply",
    "collect",
    "evaluate_constraints",
    "holds_over",
    "interference",
    "metric_value",
    "resolve",
    "show_atom",
    "split",
    "state_violations",
]
