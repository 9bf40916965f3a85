"""Every folder of corpus/pddl/check (and corpus/hddl/check, in HDDL) holds a domain (and maybe a problem)
with one kind of mistake; the `; expect: CODE LINE` lines at the top of a file say what the checker must
report in that file."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from pddltools.check import check_files
from pddltools.diagnostics import Severity

CASES = Path(__file__).resolve().parents[2] / "corpus" / "pddl" / "check"
HDDL_CASES = CASES.parents[1] / "hddl" / "check"
FOLDERS = sorted(p for p in CASES.iterdir() if p.is_dir()) + sorted(p for p in HDDL_CASES.iterdir() if p.is_dir())
EXPECT = re.compile(r"^; expect: ([EWI]\d{3}) (\d+)$", re.MULTILINE)


def _expected(folder: Path) -> Counter[tuple[str, str, int]]:
    out: Counter[tuple[str, str, int]] = Counter()
    for file in sorted([*folder.glob("*.pddl"), *folder.glob("*.hddl")]):
        for code, line in EXPECT.findall(file.read_text(encoding="utf-8")):
            out[(file.name, code, int(line))] += 1
    return out


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: p.name)
def test_the_checker_reports_exactly_what_each_bad_file_expects(folder: Path) -> None:
    expected = _expected(folder)
    assert expected, f"{folder.name} says nothing about what to expect"
    suffix = ".hddl" if folder.parent == HDDL_CASES else ".pddl"
    problem = folder / f"problem{suffix}"
    infos_expected = any(code.startswith("I") for _, code, _ in expected)
    # informative findings are what --verbose shows, and it asks for the invariants (I413) too
    report = check_files(folder / f"domain{suffix}", [problem] if problem.exists() else [], invariants=infos_expected)
    found = Counter(
        (Path(f.span.file).name if f.span else "", f.code, f.span.line if f.span else 0)
        for f in report.findings
        if f.severity is not Severity.INFO or infos_expected
    )
    assert found == expected


def test_every_checker_code_has_a_bad_file_or_a_unit_test() -> None:
    from pddltools.check.codes import CODES

    in_corpus = {code for folder in FOLDERS for _, code, _ in _expected(folder)}
    # E451/E452 cannot be written in PDDL text (the grammar requires timed parts): tests/check/test_durative.py
    # builds such trees directly. The dialects' own codes have their bad files in corpus/fond, corpus/ppddl
    # and corpus/mapddl, checked by tests/dialects.
    dialects = {"E921": "ppddl/over-one.pddl", "E922": "ppddl/bad-probability.pddl",
                "W926": "fond/single-outcome.pddl", "E931": "mapddl/private-of-nobody.pddl",
                "E932": "mapddl/factored-e932/problem-r2.pddl", "E933": "mapddl/factored-e933/problem-r2.pddl",
                "E934": "mapddl/mixed-problem.pddl", "W931": "mapddl/factored-w931/problem-r1.pddl"}
    corpus = CASES.parents[1]
    assert all((corpus / path).is_file() for path in dialects.values())
    assert set(CODES) - in_corpus == {"E451", "E452", *dialects}
