"""One way to find a problem's domain: the layouts, and every command finding the same file for every
instance of the shared IPC corpus (`check --each`, `validate PROBLEM PLAN`, `run`, the editor)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pddltools.check.cli import pair_files
from pddltools.domain_finder import DomainFinder, classify, task_arguments
from pddltools.lsp.workspace import Workspace
from pddltools.score.pairs import find_pairs

SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "pddl"
DOMAIN = "(define (domain {name}) (:predicates (p)) (:action a :parameters () :precondition (p) :effect (not (p))))"
PROBLEM = "(define (problem {stem}) (:domain {name}) (:init (p)) (:goal (not (p))))"


def write(root: Path, layout: dict[str, str]) -> None:
    """Files from `relative path: domain NAME` or `relative path: problem of NAME`."""
    for relative, what in layout.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        kind, _, name = what.partition(" ")
        name = name.removeprefix("of ")
        path.write_text(DOMAIN.format(name=name) if kind == "domain" else PROBLEM.format(stem=path.stem, name=name))


LAYOUTS = {
    # IPC-1998..2011 as published: one domain beside the instances/ folder
    "domain.pddl above instances/": ({"ferry/domain.pddl": "domain ferry", "ferry/instances/instance-3.pddl":
                                     "problem of ferry"}, "ferry/instances/instance-3.pddl", "ferry/domain.pddl"),
    "domain.pddl beside": ({"t/domain.pddl": "domain ferry", "t/p01.pddl": "problem of ferry"},
                           "t/p01.pddl", "t/domain.pddl"),
    # IPC-2008/2011/2014: a domain per instance in domains/
    "domains/domain-N.pddl": ({"f/domains/domain-1.pddl": "domain ferry", "f/domains/domain-12.pddl": "domain ferry",
                               "f/instances/instance-12.pddl": "problem of ferry"},
                              "f/instances/instance-12.pddl", "f/domains/domain-12.pddl"),
    "domain-N.pddl beside": ({"f/domain-2.pddl": "domain ferry", "f/domain-20.pddl": "domain ferry",
                              "f/p02.pddl": "problem of ferry"}, "f/p02.pddl", "f/domain-2.pddl"),
    "domain_N.pddl in domains/ beside": ({"f/domains/domain_7.pddl": "domain ferry", "f/instance-7.pddl":
                                         "problem of ferry"}, "f/instance-7.pddl", "f/domains/domain_7.pddl"),
    # the Fast Downward benchmark collection's names for per-instance domains
    "pNN-domain.pddl": ({"airport/p01-domain.pddl": "domain airport", "airport/p02-domain.pddl": "domain airport",
                         "airport/p01-airport1-p1.pddl": "problem of airport"},
                        "airport/p01-airport1-p1.pddl", "airport/p01-domain.pddl"),
    "domain_pNN.pddl": ({"trucks/domain_p01.pddl": "domain trucks", "trucks/domain_p11.pddl": "domain trucks",
                         "trucks/p11.pddl": "problem of trucks"}, "trucks/p11.pddl", "trucks/domain_p11.pddl"),
    "STEM-domain.pddl": ({"x/task-domain.pddl": "domain d", "x/task.pddl": "problem of d"},
                         "x/task.pddl", "x/task-domain.pddl"),
    # no convention: the file declaring the problem's (:domain NAME), also in a sibling folder
    "by name in a sibling folder": ({"proj/model/ferry.pddl": "domain ferry", "proj/model/other.pddl": "domain other",
                                     "proj/tasks/t1.pddl": "problem of ferry"}, "proj/tasks/t1.pddl",
                                    "proj/model/ferry.pddl"),
    # a conventional file that declares another domain gives way to the one that declares the problem's
    "name beats a mismatched convention": ({"m/domain.pddl": "domain other", "m/ferry.pddl": "domain ferry",
                                            "m/p1.pddl": "problem of ferry"}, "m/p1.pddl", "m/ferry.pddl"),
}


@pytest.mark.parametrize("name", LAYOUTS)
def test_each_layout_finds_its_domain(tmp_path: Path, name: str) -> None:
    layout, problem, domain = LAYOUTS[name]
    write(tmp_path, layout)
    found = DomainFinder().find(tmp_path / problem)
    assert found.domain == tmp_path / domain and not found.ambiguous, found


def test_a_mismatched_convention_is_still_used_when_nothing_declares_the_name(tmp_path: Path) -> None:
    tmp_path = tmp_path / "alone" / "here"
    write(tmp_path, {"domain.pddl": "domain other", "p1.pddl": "problem of ferry"})
    found = DomainFinder().find(tmp_path / "p1.pddl")
    assert found.domain == tmp_path / "domain.pddl"  # the checker then says the names differ (E301)


def test_several_files_declaring_the_domain_are_an_ambiguous_choice(tmp_path: Path) -> None:
    tmp_path = tmp_path / "alone" / "here"  # the folders beside the problem's are searched: none here
    write(tmp_path, {"a.pddl": "domain ferry", "b.pddl": "domain ferry", "p.pddl": "problem of ferry"})
    found = DomainFinder().find(tmp_path / "p.pddl")
    assert found.domain == tmp_path / "a.pddl" and found.others == (tmp_path / "b.pddl",)
    assert found.ambiguity() == f"2 files declare domain ferry: checked against {tmp_path / 'a.pddl'}, " \
                                f"not {tmp_path / 'b.pddl'}"
    # files named on the command line (or open in the editor) are looked at first
    found = DomainFinder(given=[tmp_path / "b.pddl"]).find(tmp_path / "p.pddl")
    assert found.domain == tmp_path / "b.pddl" and found.others == (tmp_path / "a.pddl",)


def test_forced_and_missing(tmp_path: Path) -> None:
    tmp_path = tmp_path / "alone" / "here"
    write(tmp_path, {"p.pddl": "problem of ferry", "elsewhere/d.pddl": "domain ferry"})
    assert DomainFinder(forced=tmp_path / "x.pddl").find(tmp_path / "p.pddl").domain == tmp_path / "x.pddl"
    missing = DomainFinder().find(tmp_path / "elsewhere" / "p.pddl")
    assert missing.domain is None
    assert missing.missing().startswith("no domain found for this problem")  # not even readable
    found = DomainFinder().find(tmp_path / "p.pddl")  # elsewhere/ is a folder below the problem's: not searched
    assert found.domain is None and found.missing().startswith("no domain `ferry` found for this problem")


def test_classify_reads_past_comments() -> None:
    assert classify("; (define (domain fake))\n(define (problem p) (:domain Real))") == ("problem", "real")
    assert classify("(define (domain D)") == ("domain", "d")
    assert classify("not pddl") == (None, None)


# -------------------------------------------------------------------------------------------------
# Every command, every instance of the shared corpus


def _ipc_folders() -> list[Path]:
    """Every IPC domain folder in shared/: the corpus, and the patched copies beside the plans."""
    folders = [*SHARED.glob("*/*"), *(SHARED.parents[1] / "plans" / "patched").glob("*/*")]
    return sorted(p for p in folders if (p / "instances").is_dir())


def _published(problem: Path) -> Path:
    """The domain the corpus pairs with `problem`: domains/domain-N.pddl for instance N, else domain.pddl."""
    folder = problem.parent.parent
    if (folder / "domains").is_dir():
        number = re.search(r"\d+", problem.stem)
        assert number is not None
        return folder / "domains" / f"domain-{number.group()}.pddl"
    return folder / "domain.pddl"


@pytest.mark.corpus
@pytest.mark.parametrize("folder", _ipc_folders(), ids=lambda p: str(p.relative_to(SHARED.parents[1])))
def test_every_command_finds_the_same_domain(folder: Path) -> None:
    problems = sorted((folder / "instances").glob("*.pddl"))
    expected = {p: _published(p) for p in problems}
    # run: the folder, as `pddltools run FOLDER` reads it
    pairs, missing = find_pairs([folder])
    assert not missing
    assert {problem: domain for domain, problem in pairs} == {p.resolve(): d.resolve() for p, d in expected.items()}
    # check --each: the folder (each domain once, with its problems)
    by_check = {Path(p): Path(b.domain or "") for b in pair_files([str(folder)]) for p in b.problems}
    assert by_check == expected
    # check --each: each problem alone, as pre-commit passes a changed file
    assert {p: Path(pair_files([str(p)])[0].domain or "") for p in problems[:3]} == \
        {p: expected[p] for p in problems[:3]}
    workspace = Workspace()
    finder = DomainFinder()
    for problem in problems:
        # validate PROBLEM PLAN
        found, _ = task_arguments([str(problem), "plan.txt"])
        assert found is not None and found.domain == expected[problem], problem
        # the editor, with the problem open
        text = problem.read_text(encoding="utf-8", errors="replace")
        doc = workspace.open(problem.as_uri(), text, 1, "pddl")
        wanted = finder.kind(problem)[1]
        assert wanted is not None
        in_editor = workspace.domain_resolution(doc, wanted)
        assert in_editor is not None and in_editor.domain == expected[problem], problem
        workspace.close(doc.uri)


@pytest.mark.corpus
def test_the_corpus_test_sees_both_ipc_layouts() -> None:
    if not SHARED.is_dir():
        pytest.skip("the shared corpus is not there")
    folders = _ipc_folders()
    assert len(folders) > 200 and sum((f / "domains").is_dir() for f in folders) > 40


def test_validate_finds_the_domain_of_the_problem_it_is_given(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    from pddltools.cli import main

    folder = tmp_path / "ferry"
    write(folder, {"domains/domain-2.pddl": "domain ferry", "instances/instance-2.pddl": "problem of ferry"})
    plan = tmp_path / "p.plan"
    plan.write_text("(a)\n")
    assert main(["validate", str(folder / "instances" / "instance-2.pddl"), str(plan)]) == 0
    assert f"{plan}: valid" in capsys.readouterr().out
    lonely = tmp_path / "lonely" / "here" / "p.pddl"
    write(lonely.parent, {"p.pddl": "problem of ferry"})
    assert main(["validate", str(lonely), str(plan)]) == 2
    assert "no domain `ferry` found for this problem" in capsys.readouterr().err
    assert main(["validate", "--domain", str(folder / "domains" / "domain-2.pddl"), str(lonely), str(plan)]) == 0
