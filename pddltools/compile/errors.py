"""The error the compiler raises (its codes, E8xx, are registered in `pddltools.codes`).

`CompileError` is defined in `pddltools.diagnostics`, below the grounder (`pddltools.analysis`) that
refuses tasks in the same terms; the passes take it from here.
"""

from __future__ import annotations

from pddltools.diagnostics import CompileError, compile_error

__all__ = ["CompileError", "compile_error"]
