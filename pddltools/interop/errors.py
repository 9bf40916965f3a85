"""What the bridges raise: a construct the other side cannot carry, or a framework that is not installed.

Codes:
- E701: a PDDL construct tarski cannot express; E702: one Unified Planning cannot express;
- E703: something in a tarski or UP problem that pddltools' PDDL AST cannot express;
- E704: the framework is not installed (the message names the extra to install).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from pddltools.code_ids import CodeId
from pddltools.diagnostics import Error, Span, error
from pddltools.pddl import ast
from pddltools.pddl.type_hierarchy import TypeHierarchy

TO_TARSKI: CodeId = "E701"
TO_UP: CodeId = "E702"
FROM_FRAMEWORK: CodeId = "E703"
MISSING: CodeId = "E704"


class InteropError(Error):
    """A conversion refused: the diagnostics name each construct that cannot be carried, and where it is."""


def refuse(code: CodeId, target: str, construct: str, span: Span | None, why: str = "") -> InteropError:
    message = f"{construct} cannot be expressed in {target}"
    if why:
        message += f": {why}"
    return InteropError([error(code, message, span)])


def require(module: str, extra: str) -> ModuleType:
    """Import a framework module on demand; missing, it is a user's error with the extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise InteropError([error(MISSING, f"{module} is not installed: pip install 'pddltools[{extra}]' ({exc})")]) \
            from None


def refuse_type_shapes(domain: ast.Domain, hierarchy: TypeHierarchy, code: CodeId, target: str) -> None:
    """Neither tarski nor Unified Planning has a type declared `- (either ...)` or a type with two
    parents: refuse the first such declaration where it stands."""
    for declared in domain.types:
        if isinstance(declared.type, ast.Either):
            raise refuse(code, target, f"the type {declared.name} declared as (either ...)",
                         declared.type.span)
        if len(hierarchy.parents.get(declared.name, ())) > 1:
            raise refuse(code, target, f"the type {declared.name} with more than one parent", declared.span)
