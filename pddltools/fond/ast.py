"""FOND's one node: `(oneof e1 e2 ...)`, an effect of which exactly one outcome happens, chosen by the
environment. It sits where PDDL effects sit (in an action's effect, an `and`, a `when`, a `forall`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pddltools.pddl import ast


@dataclass(frozen=True, slots=True)
class OneOf(ast.Node):
    outcomes: tuple[Any, ...]  # PDDL effects (or nested oneof)
