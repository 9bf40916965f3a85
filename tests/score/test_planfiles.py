"""What the runner reads of a run folder, and how (`planfiles`): only regular files inside it, reached
without links, capped, the newest anytime plan; and what it writes there never follows a planner's link."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pddltools.diagnostics import Error
from pddltools.score.planfiles import folder_usage, read_plans, write_file
from pddltools.score.runner import Planner


def test_a_link_anywhere_on_the_way_to_the_plan_is_not_followed(tmp_path: Path) -> None:
    run, elsewhere = tmp_path / "run", tmp_path / "elsewhere"
    run.mkdir()
    elsewhere.mkdir()
    (elsewhere / "plan").write_text("(secret)\n")
    (run / "out").symlink_to(elsewhere)  # a folder on the way that is a link
    found = read_plans(run, run / "out" / "plan", 1 << 20)
    assert found.text is None and "out on the way to it is a symbolic link" in found.reason
    (run / "plan").symlink_to(elsewhere / "plan")
    found = read_plans(run, run / "plan", 1 << 20)
    assert found.text is None and f"plan is a symbolic link (to {elsewhere / 'plan'})" in found.reason


def test_only_the_newest_anytime_plan_is_read_and_odd_numbers_are_ignored(tmp_path: Path) -> None:
    for name, text in (("plan.1", "(a)\n"), ("plan.10", "(newest)\n"), ("plan.9", "(b)\n"), ("plan.²", "(no)\n"),
                       ("plan.x", "(no)\n")):
        (tmp_path / name).write_text(text)
    os.mkfifo(tmp_path / "plan.2")  # an older one that is a pipe: never opened
    assert read_plans(tmp_path, tmp_path / "plan", 100).text == "(newest)\n"
    cut_off = read_plans(tmp_path, tmp_path / "plan", 100, earlier=True)
    assert (cut_off.text, cut_off.earlier, cut_off.name) == ("(newest)\n", "(b)\n", "plan.10")
    (tmp_path / "plan.11").write_text("(x)\n" * 100)
    assert "over the 100 bytes a plan may have" in read_plans(tmp_path, tmp_path / "plan", 100).reason


def test_a_plan_outside_the_run_folder_is_refused_up_front(tmp_path: Path) -> None:
    found = read_plans(tmp_path / "run", tmp_path / "other" / "plan", 100)
    assert found.reason.endswith(f"outside its run folder {tmp_path / 'run'}, not read")
    Planner("ok", "p {problem}", plan_file="{problem}.soln").check()
    Planner("ok", "p", plan_file="sas_plan").check()  # relative: in the run folder, where the planner runs
    for template in ("/tmp/plan", "{rundir}/../plan", "{dck}/plan"):
        with pytest.raises(Error) as caught:
            Planner("bad", "p", plan_file=template).check()
        assert caught.value.diagnostics[0].code == "S020" and "must be in the run folder" in str(caught.value)


def test_writing_replaces_a_link_the_planner_left_without_touching_its_target(tmp_path: Path) -> None:
    target = tmp_path / "precious"
    target.write_text("keep me\n")
    (tmp_path / "stdout.txt").symlink_to(target)
    write_file(tmp_path / "stdout.txt", b"output\n")
    assert target.read_text() == "keep me\n"
    assert not (tmp_path / "stdout.txt").is_symlink() and (tmp_path / "stdout.txt").read_bytes() == b"output\n"


def test_folder_usage_counts_allocated_bytes_and_stops_at_its_bound(tmp_path: Path) -> None:
    (tmp_path / "a").write_bytes(b"x" * (1 << 20))
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b").write_bytes(b"y" * (1 << 20))
    with open(tmp_path / "sparse", "wb") as handle:  # 1 GB long, nothing in it
        handle.truncate(1 << 30)
    used, entries = folder_usage(tmp_path)
    assert 2 << 20 <= used < 3 << 20 and entries == 4
    assert folder_usage(tmp_path, most=2)[1] == 2
