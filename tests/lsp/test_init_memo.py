"""A keystroke that leaves a problem's :init section as it was re-uses that section's findings
(`pddltools.check.memo`), and the findings are still exactly `pddltools check`'s on the edited text:
after an edit in the goal, in the init, in the objects, and in the domain."""

from __future__ import annotations

from pathlib import Path

from pddltools.check import check_files
from pddltools.diagnostics import Diagnostic
from pddltools.lsp.diagnostics import findings
from pddltools.lsp.workspace import Document, Workspace

from .conftest import CORPUS

DOMAIN = (CORPUS / "logistics-domain.pddl").read_text(encoding="utf-8")
PROBLEM = (CORPUS / "problem-unknown-object.pddl").read_text(encoding="utf-8")


def described(found: list[Diagnostic] | tuple[Diagnostic, ...]) -> list[tuple[str, str, int, int, int]]:
    return [(d.code, d.message, d.span.start, d.span.end, d.span.line) for d in found if d.span is not None]


class Session:
    """A domain and a problem open in a workspace, each also written to disk for `check_files`."""

    def __init__(self, folder: Path) -> None:
        self.workspace = Workspace()
        self.domain, self.problem = folder / "domain.pddl", folder / "problem.pddl"
        self.versions = {self.domain: 1, self.problem: 1}
        for path, text in ((self.domain, DOMAIN), (self.problem, PROBLEM)):
            path.write_text(text, encoding="utf-8")
            self.workspace.open(path.as_uri(), text, 1, "pddl")

    def edit(self, path: Path, old: str, new: str) -> None:
        text = path.read_text(encoding="utf-8")
        assert old in text
        text = text.replace(old, new, 1)
        path.write_text(text, encoding="utf-8")
        self.versions[path] += 1
        self.workspace.change(path.as_uri(), text, self.versions[path])

    def problem_findings(self) -> list[tuple[str, str, int, int, int]]:
        doc = self.workspace.documents[self.problem.as_uri()]
        assert isinstance(doc, Document)
        return described([f for f in findings(self.workspace, doc) if f.code != "L002"])

    def expected(self) -> list[tuple[str, str, int, int, int]]:
        report = check_files(self.domain, [self.problem])
        return described([f for f in report.findings if f.span is not None and f.span.file == str(self.problem)])


def test_an_edit_outside_the_init_re_uses_its_findings(tmp_path: Path) -> None:
    session = Session(tmp_path)
    first = session.problem_findings()
    assert first == session.expected() and "E204" in [code for code, *_ in first]  # pkg3 in the init
    hits = session.workspace.init_findings.hits
    session.edit(session.problem, "(at pkg2 airport1)", "(at pkg2 airport2)")  # in the goal, below the init
    assert session.problem_findings() == session.expected()
    assert session.workspace.init_findings.hits == hits + 1
    session.edit(session.problem, "))))", "))) )")  # after the last section
    assert session.problem_findings() == session.expected()
    assert session.workspace.init_findings.hits == hits + 2
    session.workspace.close(session.problem.as_uri())  # closed: its entry goes, reopened: checked again
    session.workspace.open(session.problem.as_uri(), session.problem.read_text(encoding="utf-8"), 9, "pddl")
    assert session.problem_findings() == session.expected()
    assert session.workspace.init_findings.hits == hits + 2


def test_an_edit_of_the_init_or_what_it_depends_on_checks_it_again(tmp_path: Path) -> None:
    session = Session(tmp_path)
    session.problem_findings()
    hits = session.workspace.init_findings.hits
    session.edit(session.problem, "(at pkg3 depot)", "(at pkg1 depot)")  # the init: pkg3 is gone
    found = session.problem_findings()
    assert found == session.expected() and "E204" not in [code for code, *_ in found]
    session.edit(session.problem, "pkg1 pkg2 - package", "pkg1 - package")  # the objects: pkg2 is not declared
    found = session.problem_findings()
    assert found == session.expected() and [m for code, m, *_ in found if code == "E204" and "pkg2" in m]
    session.edit(session.domain, "(in-city ?loc - place ?city - city)", "(in-town ?loc - place ?city - city)")
    found = session.problem_findings()  # the domain: in-city is no longer declared
    assert found == session.expected() and [m for code, m, *_ in found if code == "E202" and "in-city" in m]
    assert session.workspace.init_findings.hits == hits
