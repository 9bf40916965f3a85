"""The error the compiler raises (its codes, E8xx, are registered in `pddltools.codes`)."""

from __future__ import annotations

from pddltools.code_ids import CodeId
from pddltools.diagnostics import Error, Span, error


class CompileError(Error):
    """A task the compiler refuses, with the reason as a diagnostic."""


def compile_error(code: CodeId, message: str, span: Span | None = None) -> CompileError:
    return CompileError([error(code, message, span)])
