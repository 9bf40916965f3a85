"""The IPC's HTN tracks (2020 and 2023): total order and partial order, with the verdict for a domain.

Both competitions ran a total-order track (every method's subtasks, and the initial task network,
totally ordered) and a partial-order track. The actions' language is the same in both: HDDL's, i.e.
STRIPS with typing, negative and disjunctive preconditions, equality, quantified preconditions and
conditional effects (Höller et al. 2020); numbers, durations, derived predicates and PDDL 3 are not in it.
A total-order domain fits the partial-order track's language too (its planners take any order); the
verdict says that the domain is the other track's kind.

Verdicts use the shape of PDDL's (`pddltools.check.tracks.Verdict`), so `check`'s report and JSON show
them the same way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pddltools.check.features import Feature, FeatureSet
from pddltools.check.tracks import Fit, Track, Verdict, with_errors
from pddltools.dialects.extension import DialectVerdict
from pddltools.hddl import ast
from pddltools.hddl.network import Order, label

F = Feature

#: The PDDL features of HDDL's actions (and method preconditions).
HDDL_FEATURES = frozenset({
    F.TYPING, F.NEGATIVE_PRECONDITIONS, F.DISJUNCTIVE_PRECONDITIONS, F.EQUALITY, F.EXISTENTIAL_PRECONDITIONS,
    F.UNIVERSAL_PRECONDITIONS, F.CONDITIONAL_EFFECTS, F.UNIVERSAL_EFFECTS,
})


@dataclass(frozen=True)
class HTNTrack:
    track: Track
    total_order: bool  # the track's domains are totally ordered


def _track(year: int, total: bool) -> HTNTrack:
    kind = "total-order" if total else "partial-order"
    return HTNTrack(Track(f"ipc{year}-htn-{kind}", f"IPC-{year} HTN {kind} track", frozenset(), HDDL_FEATURES,
                          "solve the initial task network; plan length (satisficing), time (agile) or "
                          "optimality (optimal)"), total)


HTN_TRACKS: tuple[HTNTrack, ...] = tuple(_track(year, total) for year in (2020, 2023) for total in (True, False))
HTN_TRACK_IDS = tuple(t.track.id for t in HTN_TRACKS)


#: A verdict whose reason is the order of the domain's methods, not (only) its features.
HTNVerdict = DialectVerdict


def partial_network(domain: ast.HTNDomain, problems: Sequence[ast.HTNProblem] = ()
                    ) -> tuple[ast.Method | ast.HTNProblem, str, str] | None:
    """The first method (or initial network) whose subtasks are not totally ordered, with two subtasks
    it leaves unordered; None when every network is total."""
    owners: list[tuple[ast.Method | ast.HTNProblem, ast.TaskNetwork]] = [(m, m.network) for m in domain.methods]
    owners += [(p, p.htn.network) for p in problems if p.htn is not None]
    for owner, network in owners:
        pair = Order.of(network).unordered_pair()
        if pair is not None:
            return owner, label(network, pair[0]), label(network, pair[1])
    return None


def htn_verdict(htn: HTNTrack, features: Iterable[Feature],
                partial: tuple[ast.Method | ast.HTNProblem, str, str] | None) -> HTNVerdict:
    used = [f for f in Feature if f in set(features)]
    outside = tuple(f for f in used if f not in HDDL_FEATURES)
    if outside:
        return HTNVerdict(htn.track, Fit.UNFIT, (), (), outside,
                          reason="uses " + ", ".join(outside) + ", which HDDL's actions do not have")
    if partial is not None:
        owner, first, second = partial
        where = (f"method {owner.name}" if isinstance(owner, ast.Method)
                 else f"the initial task network of problem {owner.name}")
        if htn.total_order:
            return HTNVerdict(htn.track, Fit.UNFIT, (), (), (),
                              reason=f"not totally ordered: in {where}, subtasks {first} and {second} are unordered")
        return HTNVerdict(htn.track, Fit.FITS, (), (), (), reason=f"partially ordered ({where})")
    if htn.total_order:
        return HTNVerdict(htn.track, Fit.FITS, (), (), (), reason="every method is totally ordered")
    return HTNVerdict(htn.track, Fit.FITS, (), (), (), lacks_defining=True,
                      reason="fits, though every method is totally ordered (a total-order track domain)")


def htn_verdicts(features: FeatureSet | None, domain: ast.HTNDomain, problems: Sequence[ast.HTNProblem] = (),
                 only: Iterable[str] | None = None, *, errors: int = 0) -> dict[str, Verdict]:
    """The verdict for every HTN track (or those named in `only`), keyed by track id."""
    wanted = set(only) if only is not None else None
    used = [use.feature for use in features.uses] if features is not None else []
    partial = partial_network(domain, problems)
    return {t.track.id: with_errors(htn_verdict(t, used, partial), errors) for t in HTN_TRACKS
            if wanted is None or t.track.id in wanted}
