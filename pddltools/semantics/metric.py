"""The plan's value: the `:metric` expression over the final state, with `total-time` and `is-violated`."""

from __future__ import annotations

from collections.abc import Mapping

from pddltools.pddl import ast
from pddltools.semantics.evaluate import Evaluator
from pddltools.semantics.state import Number, State, normal


def metric_value(ev: Evaluator, metric: ast.Metric, state: State, total_time: Number,
                 violations: Mapping[str, int]) -> Number:
    """The metric's value in the final state. `total-time` is the makespan (a sequential plan's step i
    happens at time i, as VAL reads it); `(is-violated p)` is the number of violations of `p`.
    Raises `UndefinedValue` when the metric reads a fluent that has no value."""
    values = dict(state.values)
    values[("total-time",)] = total_time
    return normal(ev.number(metric.expression, {}, State(state.atoms, values), violations))
