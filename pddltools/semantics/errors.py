"""The ways a plan can fail inside the semantics, as exceptions the validator turns into reports."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pddltools.diagnostics import Span


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
    """A construct the validator does not implement: the plan cannot be judged (never "invalid").
    `span` is where the construct is written, when known."""

    reason = "unsupported"

    def __init__(self, message: str, span: Span | None = None) -> None:
        self.span = span
        super().__init__(message)


class NotStratified(SemanticsError):
    """Derived predicates that depend on their own negation: no stratified semantics exists."""

    reason = "not-stratified"

    def __init__(self, predicate: str, negated: str) -> None:
        self.predicate = predicate  # whose definition uses
        self.negated = negated  # this predicate under a negation, though it depends on `predicate`
        super().__init__(f"derived predicate {predicate} depends on the negation of {negated}, which "
                         f"depends on {predicate}: no stratified meaning exists")


class UnboundVariable(SemanticsError):
    """A variable that no parameter or quantifier binds (the checker reports it as an error)."""

    reason = "unbound-variable"

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(f"the variable {name} is not bound by a parameter or a quantifier")
