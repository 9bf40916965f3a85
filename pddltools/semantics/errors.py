"""The ways a plan can fail inside the semantics, as exceptions the validator turns into reports."""

from __future__ import annotations


class SemanticsError(Exception):
    """Evaluation or application failed for a reason that makes the plan invalid (not a bug)."""

    reason = "semantics"


class UndefinedValue(SemanticsError):
    """A fluent without a value was read (PDDL leaves uninitialised fluents undefined)."""

    reason = "undefined"

    def __init__(self, fluent: str) -> None:
        self.fluent = fluent
        super().__init__(f"{fluent} has no value")


class EffectConflict(SemanticsError):
    """Two effects of one step (or one happening) give the same fluent different values."""

    reason = "conflict"


class ArithmeticFault(SemanticsError):
    """Division by zero in an expression or a scale-down."""

    reason = "arithmetic"


class Unsupported(SemanticsError):
    """A construct the validator does not implement (continuous effects with `#t`)."""

    reason = "unsupported"


class NotStratified(SemanticsError):
    """Derived predicates that depend on their own negation: no stratified semantics exists."""

    reason = "not-stratified"


class UnboundVariable(SemanticsError):
    """A variable that no parameter or quantifier binds (the checker reports it as an error)."""

    reason = "unbound-variable"

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(f"the variable {name} is not bound by a parameter or a quantifier")
