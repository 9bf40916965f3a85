"""The checker over every IPC pair of the shared corpus: it never crashes, and the only errors it reports
are the genuine ones listed here, each with what is wrong."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pddltools.check import check
from pddltools.pddl import ParseError, parse_domain_file, parse_problem_file

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pddl"))
from corpus_files import domain_folders, pairs

#: folder → the errors its pairs genuinely have (code, a distinctive part of the message).
GENUINE = {
    # `(in ?obj ?obj)`: the predicate declares the same parameter twice.
    "ipc-2000/logistics-strips-untyped": {("E211", "parameter ?obj of predicate in is declared twice")},
    # `(kiln0 - kiln8 kiln0 - kiln20)`: one object declared with two different types.
    "ipc-2011/temporal-machine-shop-temporal-satisficing": {("E211", "object kiln0 is declared twice")},
    # `area` is declared both `- object` and `- surface` in :types.
    **{f"ipc-2006/storage-{variant}": {("E211", "type area is declared twice, with different parents")}
       for variant in ("preferences-complex", "preferences-qualitative", "preferences-simple",
                       "preferences-simple-grounded-preferences", "propositional", "time", "time-constraints")},
    "ipc-2011/storage-temporal-satisficing": {("E211", "type area is declared twice, with different parents")},
}

#: The one file the parser rejects (tests/pddl/test_corpus.py says why).
UNPARSABLE = {"ipc-1998/mystery-round-1-adl"}


@pytest.mark.corpus
@pytest.mark.parametrize("folder", domain_folders(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_error_the_checker_reports_on_ipc_pairs_is_a_genuine_one(folder: Path) -> None:
    key = f"{folder.parent.name}/{folder.name}"
    domains = {}
    reported: set[tuple[str, str]] = set()
    for domain_path, problem_path in pairs(folder):
        try:
            domain = domains.get(domain_path) or parse_domain_file(domain_path)
        except ParseError:
            assert key in UNPARSABLE
            return
        domains[domain_path] = domain
        report = check(domain, [parse_problem_file(problem_path)])
        assert report.features is not None
        for finding in report.errors:
            expected = {(code, text) for code, text in GENUINE.get(key, set())
                        if code == finding.code and text in finding.message}
            assert expected, f"{problem_path.name}: {finding}"
            reported |= expected
    assert reported == GENUINE.get(key, set())
