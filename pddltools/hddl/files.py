"""Which language a file is in, by its suffix: the commands that take PDDL and HDDL files alike
(`parse`, `fmt`, `check`) ask here which parser or checker to run."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pddltools.diagnostics import Diagnostic, Source
from pddltools.hddl import ast
from pddltools.pddl import ast as pddl

SUFFIXES = (".pddl", ".hddl")

Kind = Literal["domain", "problem"]


def is_hddl(path: str | Path) -> bool:
    return Path(path).suffix.lower() == ".hddl"


def parse_either(source: Source, warnings: list[Diagnostic] | None = None, kind: Kind | None = None
                 ) -> pddl.Domain | pddl.Problem | ast.HTNDomain | ast.HTNProblem:
    """The file parsed as HDDL when its name ends in .hddl, else as PDDL (as a `kind` file when given);
    raises the parser's error."""
    if is_hddl(source.name):
        from pddltools.hddl.parser import parse as parse_hddl

        return parse_hddl(source, kind, warnings=warnings)
    from pddltools.pddl.parser import parse

    return parse(source, kind, warnings=warnings)
