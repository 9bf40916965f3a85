"""The IPC-2023 HTN set (github:ipc2023-htn/ipc2023-domains), when a copy is at $PDDLTOOLS_IPC2023_HTN:
every .hddl file parses and round-trips through the printer. CI has no copy: the test skips."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pddltools.diagnostics import Source
from pddltools.hddl.parser import parse, parse_file
from pddltools.hddl.printer import to_hddl

FOLDER = Path(os.environ.get("PDDLTOOLS_IPC2023_HTN", "/nonexistent"))


@pytest.mark.skipif(not FOLDER.is_dir(), reason="no copy of the IPC-2023 HTN domains ($PDDLTOOLS_IPC2023_HTN)")
def test_every_ipc_2023_file_parses_and_round_trips() -> None:
    files = sorted(FOLDER.rglob("*.hddl"))
    assert files
    for path in files:
        tree = parse_file(path)
        assert parse(Source(to_hddl(tree), "printed.hddl")) == tree, path


@pytest.mark.skipif(not FOLDER.is_dir(), reason="no copy of the IPC-2023 HTN domains ($PDDLTOOLS_IPC2023_HTN)")
def test_every_ipc_2023_competition_domain_checks_without_error_with_its_first_problem() -> None:
    """Except the hybrid-planning variants in other/ folders, which are not competition files (one has
    undeclared constants, one a type `Object` that a case-insensitive reader takes for `object`)."""
    from pddltools.check.cli import pair_files
    from pddltools.check.report import check_files

    for folder in sorted({p.parent for p in FOLDER.rglob("*.hddl") if "other" not in p.parts}):
        for block in pair_files([str(p) for p in sorted(folder.glob("*.hddl"))]):
            if block.domain is not None:
                assert check_files(block.domain, block.problems[:1]).errors == [], block.domain
