"""The checker over every official IPC domain of the shared corpus, each with its first instance (every
domain of a folder that has one per instance): it never crashes and reports no error. Where a file bends
the language in a way planners agree on, it says so in a located warning that names the reading."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from pddltools.check import check_files
from pddltools.check.tracks import Fit
from pddltools.diagnostics import Severity

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pddl"))
from corpus_files import domain_folders

_STORAGE = ("W215", "type area is declared twice, with different parents: it is read as a subtype of each "
            "(object and surface)")

#: folder → the warnings saying how a bent declaration is read (code, a distinctive part of the message).
BENT = {
    # `(in ?obj ?obj)`: the predicate declares the same parameter twice.
    "ipc-2000/logistics-strips-untyped": {("W216", "parameter ?obj of predicate in is declared twice")},
    # `(kiln0 - kiln8 kiln0 - kiln20)`: one object declared with two types, and fired as either.
    "ipc-2011/temporal-machine-shop-temporal-satisficing": {
        ("W217", "object kiln0 is declared twice, as a kiln8 and as a kiln20: it is read as an object of each "
                 "type (kiln8, kiln20)")},
    # `area` is declared both `- object` and `- surface` in :types.
    **{f"ipc-2006/storage-{variant}": {_STORAGE}
       for variant in ("preferences-complex", "preferences-qualitative", "preferences-simple",
                       "preferences-simple-grounded-preferences", "propositional", "time", "time-constraints")},
    "ipc-2011/storage-temporal-satisficing": {_STORAGE},
    # `(in-package "PDDL")` before the domain, from the IPC-1998 distribution: skipped by the parser.
    "ipc-1998/mystery-round-1-adl": {("W104", '(in-package "PDDL") is a Lisp form of the IPC-1998 distribution')},
}


def _natural(path: Path) -> list[int | str]:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path.name)]


def first_pairs(folder: Path) -> list[tuple[Path, Path]]:
    """The shared domain.pddl with the first instance, or each domains/domain-N.pddl with instance N."""
    instances = sorted((folder / "instances").glob("*.pddl"), key=_natural)
    if (folder / "domain.pddl").exists():
        return [(folder / "domain.pddl", instances[0])]
    out = []
    for instance in instances:
        domain = folder / "domains" / f"domain-{re.sub(r'[^0-9]', '', instance.stem)}.pddl"
        if domain.exists():
            out.append((domain, instance))
    return out


@pytest.mark.corpus
@pytest.mark.parametrize("folder", domain_folders(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_official_ipc_domain_has_an_error_and_bent_ones_are_read_aloud(folder: Path) -> None:
    key = f"{folder.parent.name}/{folder.name}"
    pairs = first_pairs(folder)
    assert pairs, f"{key}: no domain and instance found"
    reported: set[tuple[str, str]] = set()
    for domain_path, problem_path in pairs:
        report = check_files(domain_path, [problem_path])  # syntax errors would be findings too
        assert report.features is not None
        assert not report.errors, f"{problem_path.name}: {report.errors[0]}"
        for finding in report.warnings:
            assert finding.span is not None, f"{problem_path.name}: unlocated {finding}"
            if finding.code in ("W104", "W215", "W216", "W217"):
                expected = {(code, text) for code, text in BENT.get(key, set()) if text in finding.message}
                assert expected, f"{problem_path.name}: {finding}"
                reported |= expected
    assert reported == BENT.get(key, set())


STORAGE = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "pddl" / "ipc-2006" / "storage-propositional"


@pytest.mark.corpus
def test_strict_makes_a_bent_declaration_an_error_and_then_no_track_fits() -> None:
    if not STORAGE.is_dir():
        pytest.skip("the shared IPC corpus is not beside the repository")
    files = (STORAGE / "domain.pddl", [STORAGE / "instances" / "instance-1.pddl"])
    relaxed = check_files(*files)
    assert relaxed.ok and relaxed.tracks["ipc2008-seq-sat"].fit is Fit.FITS
    strict = check_files(*files, strict=True)
    bent = [f for f in strict.errors if f.code == "W215"]
    assert len(bent) == 1 and bent[0].severity is Severity.ERROR and bent[0].span is not None
    assert bent[0].span.line == 9
    assert {v.fit for v in strict.tracks.values()} <= {Fit.INVALID, Fit.UNFIT}
    verdict = strict.tracks["ipc2008-seq-sat"]
    assert verdict.fit is Fit.INVALID and verdict.language is Fit.FITS
    assert verdict.explain().startswith("the task has 1 error (fix it first); its features alone: fits")
    assert verdict.compile_command() is None
