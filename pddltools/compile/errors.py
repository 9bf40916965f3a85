"""The compiler's error codes (E8xx) and the error it raises."""

from __future__ import annotations

from pddltools.diagnostics import Error, Span, error

CODES: dict[str, str] = {
    "E801": "a feature this compiler cannot remove (durative actions, numeric fluents ...)",
    "E802": "derived predicates that are not stratified",
    "E803": "a compilation would be too large",
    "E804": "the output folder has files (use --force)",
    "E805": "a plan that does not fit the compiled task",
    "E806": "an unknown target or feature name",
    "E807": "an unreadable plan map",
}


class CompileError(Error):
    """A task the compiler refuses, with the reason as a diagnostic."""


def compile_error(code: str, message: str, span: Span | None = None) -> CompileError:
    return CompileError([error(code, message, span)])
