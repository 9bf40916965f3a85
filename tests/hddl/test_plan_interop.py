"""HDDL to and from Unified Planning's hierarchical problems, and UP's hierarchical plans written in the
IPC format that the verifier then accepts (skipped without unified-planning)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pddltools.hddl.verify import HTNTask, verify_plan
from pddltools.interop.errors import InteropError

up = pytest.importorskip("unified_planning")
from pddltools.interop.up_hddl import from_up_htn, ipc_plan, to_up_htn  # noqa: E402

PLANS = Path(__file__).resolve().parents[2] / "corpus" / "hddl" / "plans"


@pytest.fixture(scope="module")
def walk() -> HTNTask:
    return HTNTask.load(PLANS / "walk" / "domain.hddl", PLANS / "walk" / "problem.hddl")


@pytest.fixture(scope="module")
def up_walk(walk: HTNTask) -> object:
    return to_up_htn(walk.domain, walk.problem)


def test_a_domain_goes_to_up_and_comes_back(up_walk: Any) -> None:
    task = up_walk
    assert [t.name for t in task.tasks] == ["go"] and {m.name for m in task.methods} == {"m-go", "m-stay"}
    assert len(task.task_network.subtasks) == 2
    domain, problem = from_up_htn(task)
    assert [m.name for m in domain.methods] == ["m-go", "m-stay"] and [a.name for a in domain.actions] == ["move"]
    assert problem.htn is not None and [s.task for s in problem.htn.network.subtasks] == ["go", "go"]
    m_go = domain.methods[0]
    assert m_go.precondition is not None and [s.task for s in m_go.network.subtasks] == ["move"]


def test_method_constraints_that_up_would_drop_are_refused() -> None:
    errands = HTNTask.load(PLANS / "errands" / "domain.hddl", PLANS / "errands" / "problem.hddl")
    with pytest.raises(InteropError) as caught:
        to_up_htn(errands.domain, errands.problem)
    [diagnostic] = caught.value.diagnostics
    assert diagnostic.code == "E702" and "m-shopping" in diagnostic.message and diagnostic.span is not None
    assert diagnostic.span.line == 14  # the :constraints formula in domain.hddl


def test_a_flat_problem_is_refused() -> None:
    flat = up.model.Problem("flat")
    with pytest.raises(InteropError) as caught:
        from_up_htn(flat)
    assert caught.value.diagnostics[0].code == "E703" and "not hierarchical" in caught.value.diagnostics[0].message


def test_a_up_hierarchical_plan_is_written_in_the_ipc_format(walk: HTNTask, up_walk: Any, tmp_path: Path) -> None:
    from unified_planning.plans import ActionInstance, SequentialPlan
    from unified_planning.plans.hierarchical_plan import Decomposition, HierarchicalPlan, MethodInstance

    task = up_walk
    move = task.action("move")
    a, b, c = (task.object(name) for name in "abc")
    m_go = next(m for m in task.methods if m.name == "m-go")
    first, second = ActionInstance(move, (a, b)), ActionInstance(move, (b, c))
    [t1, t2] = [s.identifier for s in task.task_network.subtasks]
    [inner] = [s.identifier for s in m_go.subtasks]
    tree = Decomposition({t1: MethodInstance(m_go, (a, b), Decomposition({inner: first})),
                          t2: MethodInstance(m_go, (b, c), Decomposition({inner: second}))})
    text = ipc_plan(HierarchicalPlan(SequentialPlan([first, second]), tree))
    assert text == "==>\n0 (move a b)\n1 (move b c)\nroot 2 3\n2 go b -> m-go 0\n3 go c -> m-go 1\n<==\n"
    (tmp_path / "plan.txt").write_text(text)
    assert verify_plan(walk, tmp_path / "plan.txt").valid
