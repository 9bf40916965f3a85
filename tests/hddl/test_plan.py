"""Reading the IPC HTN plan format: what pandaPIparser's verifier reads, with every fault located."""

from __future__ import annotations

from pathlib import Path

import pytest

from pddltools.diagnostics import Source
from pddltools.hddl.plan import HTNPlanError, looks_like_htn_plan, parse_plan, read_plan

FEATURES = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus" / "hddl" / "ipc-2020" / "tests" / \
    "ipc2020-feature-tests" / "plans"


def plan(text: str):  # type: ignore[no-untyped-def]
    return parse_plan(Source(text, "plan.txt"))


def test_primitive_steps_roots_and_decompositions_keep_their_places() -> None:
    p = plan("planner log line\n==>\n0 (drive T1 a b)\n1 noop\nroot 2\n2 deliver p1 b -> M-Deliver 0 1\n<==\nafter\n")
    assert [(s.id, s.name.text, [a.text for a in s.args]) for s in p.primitive] == [
        (0, "drive", ["t1", "a", "b"]), (1, "noop", [])]
    assert p.roots is not None and [w.text for w in p.roots] == ["2"]
    [d] = p.decompositions
    assert (d.id, d.name.text, d.method and d.method.text, [w.text for w in d.subtasks]) == (
        2, "deliver", "m-deliver", ["0", "1"])
    assert (d.line.line, d.method and d.method.span.column) == (6, 19)
    assert p.primitive[0].args[0].span.text == "T1"       # the spelling stays in the file
    assert len(p) == 2 and p.primitive[0].ground() == "(drive t1 a b)"


def test_bracketed_arguments_comments_and_blank_lines() -> None:
    p = plan("==>\n; a comment\n\n0 drive[t1,a,b]   ; trailing\nroot 1\n\n1 go[t1,b] -> m 0\n")  # no <==: ends at EOF
    assert [a.text for a in p.primitive[0].args] == ["t1", "a", "b"]
    assert [a.text for a in p.decompositions[0].args] == ["t1", "b"]


def test_a_plan_without_root_is_primitive_only() -> None:
    p = plan("==>\n0 noop\n<==\n")
    assert p.roots is None and p.decompositions == ()


@pytest.mark.parametrize(("text", "line", "column", "words"), [
    ("0 noop\n", 1, 7, "expected a line `==>`"),
    ("==>\nx noop\nroot\n", 2, 1, "expected a task id"),
    ("==>\n0 noop\nroot 1\n1 t -> m 0 z\n", 4, 12, "expected a task id"),
    ("==>\n0\nroot\n", 2, 2, "expected an action"),
    ("==>\nroot 1\n1 t ->\n", 3, 5, "expected a method's name"),
    ("==>\nroot 1\n1 t -> m\n2 noop\n", 4, 1, "primitive steps come before"),
    ("==>\n1 t -> m\nroot 1\n", 2, 1, "a decomposition before the `root` line"),
    ("==>\nroot 1\nroot 2\n", 3, 1, "a second `root` line"),
])
def test_faults_are_located_with_what_was_expected(text: str, line: int, column: int, words: str) -> None:
    with pytest.raises(HTNPlanError) as caught:
        plan(text)
    [d] = caught.value.diagnostics
    assert d.code == "V101" and words in d.message
    assert d.span is not None and (d.span.line, d.span.column) == (line, column)


def test_every_bad_line_is_reported_not_only_the_first() -> None:
    with pytest.raises(HTNPlanError) as caught:
        plan("==>\nx a\ny b\nroot\n")
    assert [d.span.line for d in caught.value.diagnostics if d.span] == [2, 3]


def test_the_organisers_feature_test_plans_read() -> None:
    if not FEATURES.is_dir():
        pytest.skip("the shared corpus is not beside the repository")
    plans = {p.name: read_plan(str(p)) for p in sorted(FEATURES.iterdir())}
    assert [len(p) for p in plans.values()] == [0, 1, 1, 1]
    assert plans["only-primitive.plan"].decompositions == ()
    assert looks_like_htn_plan((FEATURES / "forall.plan").read_text()) and not looks_like_htn_plan("(drive a b)\n")
