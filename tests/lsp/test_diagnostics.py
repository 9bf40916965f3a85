"""Diagnostics published by `pddltools lsp` on open, change and save, for PDDL and RDDL."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pytest_lsp import LanguageClient

from pddltools.check import check_files

from .conftest import (
    CORPUS,
    SHARED,
    change_document,
    close_document,
    diagnostics_of,
    diagnostics_until,
    forget,
    open_document,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


def codes(diagnostics: object) -> list[str]:
    return [str(d.code) for d in diagnostics]  # type: ignore[attr-defined]


async def test_a_clean_domain_has_only_hints(client: LanguageClient) -> None:
    found = await open_document(client, CORPUS / "logistics-domain.pddl")
    assert codes(found) == ["I402"]  # in-city is static: informative, shown as a hint
    assert found[0].severity == lsp.DiagnosticSeverity.Hint
    assert found[0].source == "pddltools"
    # the hint is on the declaration (in-city ?loc - place ?city - city), line 8
    assert found[0].range.start == lsp.Position(line=7, character=15)
    close_document(client, CORPUS / "logistics-domain.pddl")


async def test_a_syntax_error_in_one_action_keeps_the_findings_of_the_others(client: LanguageClient) -> None:
    found = await open_document(client, CORPUS / "broken" / "broken-actions-domain.pddl")
    assert codes(found) == ["E107", "E103", "E205"]
    unclosed, stumble, free = found
    assert unclosed.range.start.line == 16  # the '(and' of unload-truck's precondition is never closed
    assert stumble.range.start.line == 17
    assert free.range.start.line == 20 and "?cty" in free.message and "drive-truck" in free.message
    assert free.severity == lsp.DiagnosticSeverity.Error
    close_document(client, CORPUS / "broken" / "broken-actions-domain.pddl")


async def test_a_broken_declaration_section_does_not_flood_its_uses(client: LanguageClient, tmp_path: Path) -> None:
    text = (CORPUS / "logistics-domain.pddl").read_text(encoding="utf-8").replace(
        "(in ?pkg - package ?veh - vehicle))", "(in ?pkg - package ?veh - vehicle)")
    found = await open_document(client, tmp_path / "d.pddl", text)
    # without :predicates every atom would be an undeclared predicate (E202); those are not reported
    assert codes(found) and all(code.startswith("E1") for code in codes(found))
    assert found[0].range.start.line == 7  # the '(' of :predicates that is never closed
    close_document(client, tmp_path / "d.pddl")


async def test_two_broken_actions_are_both_reported(client: LanguageClient) -> None:
    path = REPO_BAD / "two_broken_actions.pddl"
    found = await open_document(client, path)
    assert [d.code for d in found][:2] == ["E103", "E103"]
    assert {d.range.start.line for d in found} >= {5, 12}
    close_document(client, path)


REPO_BAD = CORPUS.parent / "pddl" / "bad"


async def test_a_problem_is_checked_against_the_domain_beside_it(client: LanguageClient) -> None:
    path = CORPUS / "problem-unknown-object.pddl"
    found = await open_document(client, path)
    errors = [d for d in found if d.severity == lsp.DiagnosticSeverity.Error]
    assert [(d.code, d.range.start.line) for d in errors] == [("E206", 7), ("E204", 8)]
    assert "pkg3" in errors[1].message
    expected = check_files(CORPUS / "logistics-domain.pddl", [path])
    ours = [f for f in expected.findings if f.span is not None and f.span.file == str(path)]
    assert codes(found) == ["L002", *(f.code for f in ours)]
    # the hint says which file the problem was checked against, at the problem's (:domain NAME)
    assert f"checked against {CORPUS / 'logistics-domain.pddl'}" in found[0].message
    assert found[0].severity == lsp.DiagnosticSeverity.Hint and found[0].range.start.line == 1
    close_document(client, path)


async def test_several_files_declaring_the_domain_make_an_ambiguity_warning(client: LanguageClient,
                                                                            tmp_path: Path) -> None:
    domain = "(define (domain tiny) (:predicates (p ?x) {more}) (:action a :parameters (?x) :precondition (p ?x) " \
             ":effect (p ?x)))"
    (tmp_path / "a-copy.pddl").write_text(domain.format(more=""))
    (tmp_path / "b-copy.pddl").write_text(domain.format(more="(r ?x)"))
    problem = tmp_path / "p.pddl"
    text = "(define (problem t1) (:domain tiny) (:objects o) (:init (p o)) (:goal (r o)))"
    found = await open_document(client, problem, text)
    by_code = {d.code: d for d in found}
    assert str(tmp_path / "a-copy.pddl") in by_code["L002"].message
    warning = by_code["L003"]
    assert warning.severity == lsp.DiagnosticSeverity.Warning and str(tmp_path / "b-copy.pddl") in warning.message
    assert warning.range.start.character == text.index("tiny")
    assert "E202" in by_code  # checked against a-copy.pddl, which lacks r
    # named by the IPC convention, the domain is no longer a guess: no warning
    (tmp_path / "b-copy.pddl").rename(tmp_path / "domain.pddl")
    found = await change_document(client, problem, text + "\n")
    assert "L003" not in codes(found) and "E202" not in codes(found)
    assert f"checked against {tmp_path / 'domain.pddl'} (domain.pddl beside the problem)" in found[0].message
    close_document(client, problem)


async def test_the_domain_of_an_unsaved_problem_is_found_among_open_documents(client: LanguageClient,
                                                                              tmp_path: Path) -> None:
    domain = tmp_path / "nowhere" / "d.pddl"  # neither file exists on disk
    problem = tmp_path / "elsewhere" / "p.pddl"
    await open_document(client, domain, "(define (domain tiny) (:predicates (p ?x) (q)) "
                        "(:action a :parameters (?x) :precondition (p ?x) :effect (q)))")
    text = "(define (problem t1) (:domain tiny) (:objects o) (:init (p o)) (:goal (and (q) (r o))))"
    found = await open_document(client, problem, text)
    assert [(d.code, "r" in d.message) for d in found if d.severity == lsp.DiagnosticSeverity.Error] == [
        ("E202", True)]
    # the domain changes: the open problem is checked again without being touched
    await change_document(client, domain, "(define (domain tiny) (:predicates (p ?x) (q) (r ?x)) "
                          "(:action a :parameters (?x) :precondition (p ?x) :effect (and (q) (r ?x))))")
    # fails (AssertionError) unless a publish for the problem comes without the error: publishes of the
    # problem checked against the old domain may come first
    await diagnostics_until(client, problem, lambda _, found: not [
        d for d in found if d.severity == lsp.DiagnosticSeverity.Error])
    close_document(client, problem)
    close_document(client, domain)


async def test_a_problem_without_its_domain_says_so(client: LanguageClient, tmp_path: Path) -> None:
    problem = tmp_path / "p.pddl"
    text = "(define (problem t1) (:domain missing) (:objects o) (:init) (:goal (p o)))"
    found = await open_document(client, problem, text)
    assert codes(found) == ["L001"]
    assert found[0].range.start.character == text.index("missing")
    assert "no domain `missing` found for this problem" in found[0].message
    close_document(client, problem)


async def test_changes_are_checked_and_the_version_is_published(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "domain.pddl"
    good = (CORPUS / "logistics-domain.pddl").read_text(encoding="utf-8")
    assert codes(await open_document(client, path, good)) == ["I402"]
    broken = good.replace("(at ?plane ?to)", "(at ?plane ?to ?to)")
    found = await change_document(client, path, broken)
    assert codes(found) == ["I402", "E206"]
    # typing a half-written action at the end keeps the finding above it
    half = broken.rstrip()[:-1] + "  (:action new\n    :parameters (?x - truck)\n    :precondition (and (at ?x"
    found = await change_document(client, path, half)
    assert "E206" in codes(found) and any(c in ("E102", "E107") for c in codes(found))
    # saving checks again (at once, without the debounce pause)
    forget(path)
    client.text_document_did_save(lsp.DidSaveTextDocumentParams(text_document=lsp.TextDocumentIdentifier(
        uri=path.resolve().as_uri())))
    assert codes(await diagnostics_of(client, path)) == codes(found)
    forget(path)
    close_document(client, path)
    # closing clears the document's diagnostics (a publish without a version)
    assert len(await diagnostics_until(client, path, lambda version, _: version is None)) == 0


async def test_rddl_diagnostics(client: LanguageClient) -> None:
    assert codes(await open_document(client, CORPUS / "lights.rddl")) == []
    assert codes(await open_document(client, CORPUS / "lights-instance.rddl")) == []  # domain beside it
    typed = await open_document(client, CORPUS / "broken" / "lights-type-error.rddl")
    assert codes(typed) == ["R203"] and typed[0].range.start.line == 14
    syntax = await open_document(client, CORPUS / "broken" / "lights-syntax-error.rddl")
    assert codes(syntax) == ["R100"] and syntax[0].range.start == lsp.Position(line=9, character=34)
    for name in ("lights.rddl", "lights-instance.rddl", "broken/lights-type-error.rddl",
                 "broken/lights-syntax-error.rddl"):
        close_document(client, CORPUS / name)


async def test_a_broken_rddl_block_keeps_the_findings_of_the_others(client: LanguageClient, tmp_path: Path) -> None:
    domain = (CORPUS / "broken" / "lights-type-error.rddl").read_text(encoding="utf-8")
    instance = (CORPUS / "lights-instance.rddl").read_text(encoding="utf-8").replace("horizon = 10;", "horizon = ;")
    found = await open_document(client, tmp_path / "all.rddl", domain + "\n" + instance)
    assert sorted((str(d.code), d.range.start.line) for d in found) == [("R100", 37), ("R203", 14)]
    close_document(client, tmp_path / "all.rddl")


async def test_an_rddl_instance_reports_its_own_errors(client: LanguageClient, tmp_path: Path) -> None:
    text = (CORPUS / "lights-instance.rddl").read_text(encoding="utf-8").replace("on(kitchen);", "on(garage);")
    await open_document(client, tmp_path / "lights.rddl", (CORPUS / "lights.rddl").read_text(encoding="utf-8"))
    found = await open_document(client, tmp_path / "inst.rddl", text)
    assert found and all("garage" in d.message for d in found if d.severity == lsp.DiagnosticSeverity.Error)
    close_document(client, tmp_path / "inst.rddl")
    close_document(client, tmp_path / "lights.rddl")


@pytest.mark.corpus
async def test_an_ipc_instance_finds_its_domain_in_the_sibling_folder(client: LanguageClient) -> None:
    folder = SHARED / "pddl" / "ipc-2008" / "elevator-sequential-satisficing-strips"
    if not folder.is_dir():
        pytest.skip("the shared corpus is not there")
    problem = sorted((folder / "instances").glob("*.pddl"))[0]
    found = await open_document(client, problem)
    assert "L001" not in codes(found)
    domain = sorted((folder / "domains").glob("*.pddl"))
    expected = check_files(domain[0] if len(domain) == 1 else folder / "domains" / "domain-1.pddl", [problem])
    ours = [f for f in expected.findings if f.span is not None and f.span.file == str(problem)]
    assert codes(found) == ["L002", *(f.code for f in ours)]
    close_document(client, problem)


SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning,
            "info": lsp.DiagnosticSeverity.Hint}


def as_published(diagnostic: lsp.Diagnostic) -> tuple[str, int, int, int, int, int]:
    r = diagnostic.range
    return (str(diagnostic.code), int(diagnostic.severity or 0), r.start.line, r.start.character, r.end.line,
            r.end.character)


@pytest.mark.corpus
async def test_every_finding_of_pddltools_check_on_corpus_domains(client: LanguageClient) -> None:
    """The server publishes exactly `pddltools check`'s findings: code, severity and range."""
    root = SHARED / "pddl"
    if not root.is_dir():
        pytest.skip("the shared corpus is not there")
    domains = [p for p in sorted(root.rglob("domain*.pddl")) if p.stat().st_size < 150_000][::25]
    assert len(domains) >= 10
    for path in domains:
        report = check_files(path)
        expected = []
        for f in report.findings:
            assert f.span is not None
            expected.append((f.code, int(SEVERITY[f.severity.value]), f.span.line - 1, f.span.column - 1,
                             f.span.end_line - 1, f.span.end_column - 1))
        found = await open_document(client, path)
        assert sorted(as_published(d) for d in found) == sorted(expected), path
        close_document(client, path)


@pytest.mark.corpus
async def test_every_finding_of_rddl_check_on_corpus_files(client: LanguageClient) -> None:
    from pddltools.rddl.loading import check_paths

    root = SHARED / "rddl" / "examples"
    if not root.is_dir():
        pytest.skip("the shared corpus is not there")
    for path in sorted(root.glob("*.rddl"))[:8]:
        (result,) = check_paths([path])
        expected = sorted((d.code, int(SEVERITY[d.severity.value]), d.span.line - 1, d.span.column - 1)
                          for d in result.diagnostics if d.span is not None)
        found = await open_document(client, path, path.read_text(encoding="utf-8", errors="replace"))
        assert sorted(as_published(d)[:4] for d in found) == expected, path
        close_document(client, path)
