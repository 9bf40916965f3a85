"""Every finding the checker can report: a stable code, its default severity and a title.

Codes are stable across releases (tools and CI configurations filter on them); the README lists this
table. Parser codes (E0xx, E1xx, W1xx) live with the parser; the checker's are:

- E2xx/W2xx names, arity and types; E3xx/W3xx the problem against its domain;
- W4xx/I4xx informative findings; E45x durative actions;
- W5xx requirements; W6xx/E6xx functions and the metric.
"""

from __future__ import annotations

from dataclasses import dataclass

from pddltools.diagnostics import Diagnostic, Severity, Span


@dataclass(frozen=True)
class Code:
    code: str
    severity: Severity
    title: str


E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

CODES: dict[str, Code] = {c.code: c for c in (
    Code("E201", E, "undeclared type"),
    Code("E202", E, "undeclared predicate"),
    Code("E203", E, "undeclared function"),
    Code("E204", E, "undeclared constant or object"),
    Code("E205", E, "free variable (not a parameter or quantified variable)"),
    Code("E206", E, "wrong number of arguments"),
    Code("E207", E, "argument of the wrong type"),
    Code("W207", W, "argument of a wider type than the parameter (it may not fit)"),
    Code("E208", E, "a number where an object is expected"),
    Code("E209", E, "an object where a number is expected"),
    Code("E210", E, "object-fluent value of the wrong type"),
    Code("E211", E, "duplicate declaration"),
    Code("W211", W, "repeated identical declaration"),
    Code("E212", E, "cycle in the type hierarchy"),
    Code("E213", E, "is-violated names an undeclared preference"),
    Code("E214", E, "numeric update of an object fluent"),
    Code("W215", W, "type declared twice with different parents (read as a subtype of each)"),
    Code("W216", W, "parameter name repeated in a predicate or function declaration (read by position)"),
    Code("W217", W, "object declared twice with different types (read as an object of each)"),
    Code("E301", E, "the problem's :domain does not name this domain"),
    Code("W302", W, "object repeats a domain constant"),
    Code("E303", E, "derived predicate not declared in :predicates"),
    Code("E304", E, "derived predicate not stratified (depends on its own negation)"),
    Code("W401", W, "goal can never be reached (no action makes it true, and init does not hold it)"),
    Code("I402", INFO, "static predicate (no action changes it)"),
    Code("I403", INFO, "unused predicate"),
    Code("I404", INFO, "unused action parameter"),
    Code("E451", E, "durative-action condition outside at start / over all / at end"),
    Code("E452", E, "durative-action effect outside at start / at end"),
    Code("E453", E, "?duration used where it is not allowed"),
    Code("W501", W, "feature used but its requirement is not declared"),
    Code("W502", W, "total-cost used without :action-costs"),
    Code("W503", W, "requirement declared but never used"),
    Code("W601", W, "function read but never given a value"),
    Code("E602", E, "metric over an undeclared function"),
)}


def finding(code: str, message: str, span: Span | None, *, severity: Severity | None = None,
            notes: tuple[tuple[str, Span | None], ...] = ()) -> Diagnostic:
    return Diagnostic(code, severity or CODES[code].severity, message, span, notes)
