"""Plan files: both IPC formats, and every kind of bad plan file named with its line and column."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pddltools.diagnostics import Source
from pddltools.validate import GroundedTask, PlanError, read_plan, validate_plan
from tests.validate.conftest import OWN

ADL = OWN / "adl"


@pytest.fixture(scope="module")
def task() -> GroundedTask:
    return GroundedTask.load(ADL / "domain.pddl", ADL / "problem.pddl")


def test_sequential_format_with_numbers_comments_and_case() -> None:
    text = "; cost = 99 (not trusted)\n\n1: (PICK K1 Hall)\n2:(unlock lab) ; why\n  (move hall lab)\n"
    plan = read_plan(Source(text))
    assert [(s.index, s.name, s.args, s.line) for s in plan.steps] == [
        (1, "pick", ("k1", "hall"), 3), (2, "unlock", ("lab",), 4), (3, "move", ("hall", "lab"), 5)]
    assert plan.steps[0].time == 1


def test_temporal_format() -> None:
    plan = read_plan(Source("0.000: (a x) [10.000]\n10.5: (b)  [0.25]\n"))
    assert [(s.name, s.time, s.duration) for s in plan.steps] == [
        ("a", Fraction(0), Fraction(10)), ("b", Fraction(21, 2), Fraction(1, 4))]
    assert plan.temporal


def test_a_step_over_several_lines() -> None:
    plan = read_plan(Source("(move\n  hall\n  lab)\n(pick k1 lab)"))
    assert [s.args for s in plan.steps] == [("hall", "lab"), ("k1", "lab")]
    assert [s.line for s in plan.steps] == [1, 4]


@pytest.mark.parametrize(("text", "line", "column", "words"), [
    ("(pick k1 hall)\n(unlock lab\n(move hall lab)\n", 2, 1, "never closed"),
    ("(pick k1 hall)\nunlock lab)\n", 2, 1, "expected '('"),
    ("(pick k1 hall))\n(unlock lab)\n", 1, 15, "without a matching"),
    ("(pick k1 hall)\n()\n", 2, 1, "empty step"),
    ("x: (pick k1 hall)\n", 1, 1, "not a number"),
    ("0: (pick k1 hall) [abc]\n", 1, 20, "not a number"),
    ("(pick k1 hall) [\n", 1, 16, "duration"),
])
def test_syntax_errors_name_line_and_column(text: str, line: int, column: int, words: str) -> None:
    with pytest.raises(PlanError) as caught:
        read_plan(Source(text, "p.plan"))
    diagnostic = caught.value.diagnostics[0]
    assert caught.value.reason == "syntax"
    assert diagnostic.span is not None
    assert (diagnostic.span.line, diagnostic.span.column) == (line, column)
    assert words in diagnostic.message


@pytest.mark.parametrize(("text", "reason", "step", "words"), [
    ("(pick k1 hall)\n(fly hall lab)\n", "bad-action", 2, "no action 'fly'"),
    ("(pick k1)\n", "arity", 1, "takes 2 arguments"),
    ("(pick k1 hall extra)\n", "arity", 1, "not 3"),
    ("(pick k9 hall)\n", "unknown-object", 1, "'k9' is not an object"),
    ("(pick lab hall)\n", "type", 1, "lab is a room"),
    ("(pick k1 hall\n", "syntax", 1, "never closed"),
])
def test_steps_that_are_not_actions_of_the_task(task: GroundedTask, text: str, reason: str, step: int,
                                                words: str) -> None:
    report = validate_plan(task, text)
    assert (report.verdict, report.reason, report.failed_step) == ("error", reason, step)
    assert words in report.message
    assert report.line == step and report.diagnostics


def test_empty_plan_is_a_plan_with_no_steps(task: GroundedTask) -> None:
    report = validate_plan(task, "")
    assert (report.verdict, report.reason, report.length) == ("invalid", "goal", 0)
    assert "(in k1 lab)" in report.unsatisfied


def test_binary_junk_and_missing_files(task: GroundedTask, tmp_path: object) -> None:
    from pathlib import Path

    junk = Path(str(tmp_path)) / "junk.plan"
    junk.write_bytes(b"\x7fELF\x00\x01\x02")
    report = validate_plan(task, junk)
    assert (report.verdict, report.reason) == ("error", "syntax")
    assert report.diagnostics[0].span is not None and report.diagnostics[0].span.line == 1
    missing = validate_plan(task, Path(str(tmp_path)) / "nope.plan")
    assert (missing.verdict, missing.reason) == ("error", "unreadable")
    assert "cannot read" in missing.message


def test_a_path_given_as_a_string(task: GroundedTask) -> None:
    report = validate_plan(task, str(ADL / "valid.plan"))
    assert report.valid and report.plan.endswith("valid.plan")


def test_fast_path_and_tokenizer_agree() -> None:
    from pddltools.validate.planfile import _read_tokens

    text = "; c\n0.5: (a b c) [2]\n\n(d)\n3: (e f)   ; x\n"
    source = Source(text)
    assert read_plan(source) == _read_tokens(source)


_TOKENS = st.sampled_from(["(", ")", "[", "]", "pick", "move", "unlock", "k1", "hall", "lab", "box", "office",
                           "1:", "0.5:", "[2]", ";", "\n", " ", "x", "3.0", "\x00", "é"])


@settings(max_examples=150, deadline=None)
@given(st.lists(_TOKENS, max_size=40))
def test_any_text_gives_a_report_never_an_exception(tokens: list[str]) -> None:
    task = GroundedTask.load(ADL / "domain.pddl", ADL / "problem.pddl")
    report = validate_plan(task, " ".join(tokens))
    assert report.verdict in ("valid", "invalid", "error")
    if report.verdict == "error":
        assert report.reason and report.message
