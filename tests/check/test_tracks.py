"""The track table: unit verdicts, and every IPC-2008 folder fits the track it is named after."""

from __future__ import annotations

from pathlib import Path

import pytest

from pddltools.check import Feature, Fit, check, detect, verdicts
from pddltools.pddl import parse_domain_file, parse_problem_file

F = Feature
IPC2008 = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "pddl" / "ipc-2008"
TRACK_OF = {
    "sequential-satisficing": "ipc2008-seq-sat", "sequential-optimal": "ipc2008-seq-opt",
    "temporal-satisficing": "ipc2008-tempo-sat", "temporal-optimal": "ipc2008-tempo-opt",
    "net-benefit-satisficing": "ipc2008-netben-sat", "net-benefit-optimal": "ipc2008-netben-opt",
}


def test_verdicts_for_feature_sets() -> None:
    strips = verdicts([F.TYPING])
    assert {v.fit for v in strips.values()} == {Fit.FITS}
    adl = verdicts([F.TYPING, F.CONDITIONAL_EFFECTS, F.ACTION_COSTS])
    assert adl["ipc2008-seq-sat"].fit is Fit.FITS
    assert adl["ipc2008-seq-sat"].optional_used == (F.CONDITIONAL_EFFECTS,)
    learning = adl["ipc2011-learning"]
    assert learning.fit is Fit.COMPILABLE and learning.to_compile == (F.CONDITIONAL_EFFECTS, F.ACTION_COSTS)
    assert learning.compile_command("d.pddl", "p.pddl") == \
        "pddltools compile d.pddl p.pddl --remove action-costs,conditional-effects -o OUTDIR"
    temporal = verdicts([F.DURATIVE_ACTIONS, F.NUMERIC_FLUENTS])
    assert temporal["ipc2008-seq-opt"].fit is Fit.UNFIT
    assert temporal["ipc2008-seq-opt"].ruled_out_by == (F.NUMERIC_FLUENTS, F.DURATIVE_ACTIONS)
    assert temporal["ipc2008-tempo-sat"].fit is Fit.FITS
    soft = verdicts([F.PREFERENCES, F.GOAL_UTILITIES, F.ACTION_COSTS])
    assert soft["ipc2008-seq-sat"].fit is Fit.COMPILABLE
    assert soft["ipc2011-learning"].fit is Fit.UNFIT  # plan length ignores the costs soft goals become
    assert verdicts([F.TRAJECTORY_CONSTRAINTS])["ipc2008-netben-opt"].fit is Fit.UNFIT


def test_a_domain_that_fits_only_the_language_is_told_so() -> None:
    classical = verdicts([F.TYPING, F.ACTION_COSTS])["ipc2008-tempo-sat"]
    assert classical.fit is Fit.FITS and classical.lacks_defining
    assert "none of durative-actions" in classical.explain()


def _ipc2008_pairs() -> list[tuple[str, Path, Path]]:
    if not IPC2008.is_dir():
        return []
    out = []
    for folder in sorted(p for p in IPC2008.iterdir() if p.is_dir()):
        track = next(t for name, t in TRACK_OF.items() if name in folder.name)
        for problem in sorted((folder / "instances").glob("instance-*.pddl")):
            number = problem.stem.split("-", 1)[1]
            domain = folder / "domains" / f"domain-{number}.pddl"
            out.append((track, domain if domain.exists() else folder / "domain.pddl", problem))
    return out


@pytest.mark.corpus
@pytest.mark.parametrize(("track", "domain", "problem"), _ipc2008_pairs(),
                         ids=lambda v: v if isinstance(v, str) else f"{v.parent.parent.name}/{v.name}"
                         if v.parent.name in ("instances", "domains") else v.name)
def test_every_ipc2008_pair_fits_the_track_its_folder_is_named_after(track: str, domain: Path,
                                                                     problem: Path) -> None:
    parsed_domain, parsed_problem = parse_domain_file(domain), parse_problem_file(problem)
    verdict = verdicts(detect(parsed_domain, [parsed_problem]))[track]
    assert verdict.fit is Fit.FITS, verdict.explain()
    # the verdict, not the findings: relaxed reachability (seconds on the large cyber-security tasks) is
    # walked over the corpus by tests/check/test_reachability.py
    report = check(parsed_domain, [parsed_problem], tracks=[track], reachability=False)
    assert report.tracks[track].fit is Fit.FITS


def test_the_ipc2008_corpus_is_there_to_walk() -> None:
    if not IPC2008.is_dir():
        pytest.skip("the shared corpus is not beside the repository")
    assert len({d.parent for _, d, _ in _ipc2008_pairs()}) >= 40


def test_a_report_and_its_verdicts_print_as_one_line_each() -> None:
    """What `print(check(...))` and `print(report.tracks)` show a user at the prompt."""
    from pddltools.check import check
    from pddltools.pddl import parse_domain_file, parse_problem_file

    hello = Path(__file__).resolve().parents[2] / "corpus" / "pddl" / "examples" / "hello"
    report = check(parse_domain_file(hello / "domain.pddl"), [parse_problem_file(hello / "problem.pddl")])
    fitting = sum(1 for v in report.tracks.values() if v.fit.value == "fits")
    assert str(report) == (f"domain.pddl + 1 problem: 0 errors, 0 warnings, {len(report.infos)} informative; "
                           f"fits {fitting} of {len(report.tracks)} tracks")
    assert repr(report) == f"<CheckReport {report}>"
    assert str(report.tracks["ipc2011-learning"]) == "ipc2011-learning: compilable (after compiling away action-costs)"
    assert repr(report.tracks) .count("<Verdict ") == len(report.tracks) and "frozenset" not in repr(report.tracks)
