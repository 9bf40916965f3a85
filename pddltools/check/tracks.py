"""The IPC tracks as data, and the verdict for a set of used features.

IPC-2008 (deterministic part) has three tracks, each with a satisficing and an optimal subtrack. Its
rules: each track has *core* features, a prerequisite for entering it, and *optional* features (ADL,
derived predicates, object fluents ...) that may appear in some domains, for which the organisers offer
equivalent versions with the feature compiled away. So a domain that uses only core and optional
features *fits*; one that uses a feature the track does not have, but that `pddltools compile` can
remove, is *compilable*; anything else is *unfit*.

The IPC-2011 learning track's language is the typed STRIPS subset of PDDL: everything beyond it is
either compilable or unfit.

The IPC-2023 numeric tracks (satisficing, optimal, agile; ipc2023-numeric.github.io) share one language:
PDDL 2.1's numeric subset with quantifiers, negation and disjunction in conditions, no conditional
effects, and metrics that are minimised. Each domain is simple (SNP) or linear (LNP) numeric planning:
`pddltools.check.numeric` says which.

The classical tracks since IPC-2014 share one language, PDDL 3.1's STRIPS with action costs, negative
preconditions and conditional effects (with `forall` in effects) as the core:
- IPC-2014 (helios.hud.ac.uk/scommv/IPC-14/rules.html and its track pages): sequential satisficing,
  optimal, agile and multi-core subtracks; ADL and derived predicates optional.
- IPC-2018 (ipc2018-classical.bitbucket.io): optimal, bounded-cost, satisficing, agile; derived
  predicates and quantified preconditions optional (alternative encodings were offered).
- IPC-2023 (ipc2023-classical.github.io): optimal, satisficing, agile; disjunctive preconditions and
  existential quantifiers optional (the organisers compiled them away and ran both versions).
- The IPC-2023 learning tracks (ipc2023-learning.github.io): STRIPS, action costs, types and negative
  preconditions only.

The table below is the one place these rules live; the IPC-2008 corpus (every folder is named after its
track) checks it in `tests/check/test_tracks.py`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum

from pddltools.check.features import Feature, FeatureSet

F = Feature

#: The ADL features: optional in every IPC-2008 track.
ADL = frozenset({
    F.NEGATIVE_PRECONDITIONS, F.DISJUNCTIVE_PRECONDITIONS, F.EQUALITY, F.EXISTENTIAL_PRECONDITIONS,
    F.UNIVERSAL_PRECONDITIONS, F.CONDITIONAL_EFFECTS, F.UNIVERSAL_EFFECTS,
})

#: What `pddltools compile --remove` can take away, with the name it is removed by.
COMPILABLE: dict[Feature, str] = {
    F.TYPING: "typing",
    F.NEGATIVE_PRECONDITIONS: "negative-preconditions",
    F.DISJUNCTIVE_PRECONDITIONS: "disjunctive-preconditions",
    F.EQUALITY: "equality",
    F.EXISTENTIAL_PRECONDITIONS: "existential-preconditions",
    F.UNIVERSAL_PRECONDITIONS: "universal-preconditions",
    F.CONDITIONAL_EFFECTS: "conditional-effects",
    F.UNIVERSAL_EFFECTS: "universal-effects",
    F.DERIVED_PREDICATES: "derived-predicates",
    F.OBJECT_FLUENTS: "object-fluents",
    F.ACTION_COSTS: "action-costs",
    F.PREFERENCES: "preferences",
    F.GOAL_UTILITIES: "preferences",
}


@dataclass(frozen=True)
class Track:
    id: str
    title: str
    core: frozenset[Feature]  # what entrants must support (a domain need not use all of it)
    optional: frozenset[Feature]  # may appear; organisers offer compiled versions
    objective: str
    # Compilable in general, but not into this track's language without changing what is scored.
    not_compilable: frozenset[Feature] = frozenset()
    # What makes a domain belong here rather than merely fit the language (durative actions for the
    # temporal track): a domain without any of these is told so.
    defining: frozenset[Feature] = frozenset()
    minimise_only: bool = False  # a metric to maximise is outside the track's language


def _track(id: str, title: str, core: Iterable[Feature], optional: Iterable[Feature], objective: str,
           not_compilable: Iterable[Feature] = (), defining: Iterable[Feature] = (),
           minimise_only: bool = False) -> Track:
    return Track(id, title, frozenset(core), frozenset(optional), objective, frozenset(not_compilable),
                 frozenset(defining), minimise_only)


_SEQUENTIAL_CORE = {F.TYPING, F.ACTION_COSTS}
_TEMPORAL_CORE = {F.TYPING, F.DURATIVE_ACTIONS, F.NUMERIC_FLUENTS, F.ACTION_COSTS}
_NETBENEFIT_CORE = {F.TYPING, F.ACTION_COSTS, F.PREFERENCES, F.GOAL_UTILITIES}
_OPTIONAL = ADL | {F.DERIVED_PREDICATES, F.OBJECT_FLUENTS}
_TEMPORAL_OPTIONAL = _OPTIONAL | {F.DURATION_INEQUALITIES, F.TIMED_INITIAL_LITERALS}
# Conditions may be any first-order formula; effects are unconditional.
_NUMERIC_CORE = {F.TYPING, F.NUMERIC_FLUENTS, F.ACTION_COSTS, F.NEGATIVE_PRECONDITIONS, F.DISJUNCTIVE_PRECONDITIONS,
                 F.EQUALITY, F.EXISTENTIAL_PRECONDITIONS, F.UNIVERSAL_PRECONDITIONS}

# The classical tracks since IPC-2014: conditional effects with `forall` became core in 2014.
_CLASSICAL_CORE = {F.TYPING, F.ACTION_COSTS, F.NEGATIVE_PRECONDITIONS, F.CONDITIONAL_EFFECTS, F.UNIVERSAL_EFFECTS}
_IPC2014_OPTIONAL = ADL | {F.DERIVED_PREDICATES}
_IPC2018_OPTIONAL = {F.DERIVED_PREDICATES, F.UNIVERSAL_PRECONDITIONS, F.EXISTENTIAL_PRECONDITIONS, F.EQUALITY}
_IPC2023_OPTIONAL = {F.DISJUNCTIVE_PRECONDITIONS, F.EXISTENTIAL_PRECONDITIONS, F.EQUALITY}


def _classical(year: int, kinds: Iterable[tuple[str, str, str]], optional: Iterable[Feature]) -> list[Track]:
    return [_track(f"ipc{year}-{kind}", f"IPC-{year} classical {title}", _CLASSICAL_CORE, optional, objective,
                   minimise_only=True) for kind, title, objective in kinds]


_SAT = ("sat", "satisficing", "minimise total cost; the score is C*/C against the best known cost")
_OPT = ("opt", "optimal", "minimise total cost; only optimal plans count, a costlier one voids the domain")
_AGILE = ("agile", "agile", "solve fast: 1 - log T / log 300 of CPU time; the cost is ignored")

TRACKS: tuple[Track, ...] = (
    _track("ipc2008-seq-sat", "IPC-2008 sequential satisficing", _SEQUENTIAL_CORE, _OPTIONAL,
           "minimise total cost; suboptimal plans are fine"),
    _track("ipc2008-seq-opt", "IPC-2008 sequential optimal", _SEQUENTIAL_CORE, _OPTIONAL,
           "minimise total cost; only optimal plans count"),
    _track("ipc2008-tempo-sat", "IPC-2008 temporal satisficing", _TEMPORAL_CORE, _TEMPORAL_OPTIONAL,
           "minimise the metric (usually makespan); suboptimal plans are fine", defining={F.DURATIVE_ACTIONS}),
    _track("ipc2008-tempo-opt", "IPC-2008 temporal optimal", _TEMPORAL_CORE, _TEMPORAL_OPTIONAL,
           "minimise the metric (usually makespan); only optimal plans count", defining={F.DURATIVE_ACTIONS}),
    _track("ipc2008-netben-sat", "IPC-2008 net-benefit satisficing", _NETBENEFIT_CORE,
           _OPTIONAL | {F.NUMERIC_FLUENTS}, "maximise utility of achieved soft goals minus total cost",
           defining={F.GOAL_UTILITIES}),
    _track("ipc2008-netben-opt", "IPC-2008 net-benefit optimal", _NETBENEFIT_CORE,
           _OPTIONAL | {F.NUMERIC_FLUENTS}, "maximise net benefit; only optimal plans count",
           defining={F.GOAL_UTILITIES}),
    # Soft goals compile into action costs, which plan length (the learning track's quality) ignores.
    _track("ipc2011-learning", "IPC-2011 learning track (typed STRIPS)", {F.TYPING}, (),
           "solve test problems with learned knowledge; plan length", {F.PREFERENCES, F.GOAL_UTILITIES}),
    _track("ipc2023-numeric-sat", "IPC-2023 numeric satisficing", _NUMERIC_CORE, (),
           "minimise the metric; the score is C*/C against a reference cost", defining={F.NUMERIC_FLUENTS},
           minimise_only=True),
    _track("ipc2023-numeric-opt", "IPC-2023 numeric optimal", _NUMERIC_CORE, (),
           "minimise the metric; only optimal plans count", defining={F.NUMERIC_FLUENTS}, minimise_only=True),
    _track("ipc2023-numeric-agile", "IPC-2023 numeric agile", _NUMERIC_CORE, (),
           "solve fast: 1 below 1 s of CPU time, 1 - log T / log 300 up to 300 s; the cost is ignored",
           defining={F.NUMERIC_FLUENTS}, minimise_only=True),
    *_classical(2014, (_SAT, _OPT, ("agile", "agile", "solve fast: 1 / (1 + log10(T / T*)) of CPU time against "
                                    "the fastest; the cost is ignored"),
                       ("mco", "multi-core", "minimise total cost on several cores; C*/C as satisficing")),
                _IPC2014_OPTIONAL),
    *_classical(2018, (_OPT, ("bounded", "bounded-cost", "find a plan within the problem's cost bound"), _SAT,
                       _AGILE), _IPC2018_OPTIONAL),
    *_classical(2023, (_OPT, _SAT, _AGILE), _IPC2023_OPTIONAL),
    _track("ipc2023-learning", "IPC-2023 learning tracks (STRIPS, action costs, types, negative preconditions)",
           {F.TYPING, F.ACTION_COSTS, F.NEGATIVE_PRECONDITIONS}, (),
           "plan with learned knowledge: C*/C (quality) or 1 - log T / log 1800 (agile)", minimise_only=True),
)

TRACK_IDS = tuple(track.id for track in TRACKS)


def track(id: str) -> Track:
    for candidate in TRACKS:
        if candidate.id == id:
            return candidate
    raise KeyError(id)


class Fit(StrEnum):
    FITS = "fits"
    COMPILABLE = "compilable"
    UNFIT = "unfit"
    INVALID = "invalid"  # the task has errors: whatever its language, no planner can be given it as it is


@dataclass(frozen=True, repr=False)
class Verdict:
    track: Track
    fit: Fit
    optional_used: tuple[Feature, ...]  # fits, but a core-only planner needs these compiled away
    to_compile: tuple[Feature, ...]  # compilable: the features to remove
    ruled_out_by: tuple[Feature, ...]  # unfit: the features the track does not have
    lacks_defining: bool = False  # fits the language, but uses none of the track's defining features
    errors: int = 0  # invalid: how many errors the task has
    language: Fit | None = None  # invalid: what the verdict on its features alone would be
    maximises: bool = False  # unfit: a metric is maximised, and the track minimises only

    def __str__(self) -> str:
        return f"{self.track.id}: {self.fit.value} ({self.explain()})"

    def __repr__(self) -> str:
        return f"<Verdict {self}>"

    def compile_command(self, domain: str = "DOMAIN", problem: str = "PROBLEM") -> str | None:
        """The `pddltools compile` call that makes the task fit (or fit a core-only planner)."""
        features = self.to_compile or self.optional_used
        names = sorted({COMPILABLE[f] for f in features if f in COMPILABLE})
        if not names or self.fit not in (Fit.FITS, Fit.COMPILABLE):
            return None
        return f"pddltools compile {domain} {problem} --remove {','.join(names)} -o OUTDIR"

    def explain(self) -> str:
        if self.fit is Fit.INVALID and self.language is not None:
            errors = "1 error (fix it" if self.errors == 1 else f"{self.errors} errors (fix them"
            return (f"the task has {errors} first); its features alone: {self.language.value}, "
                    + replace(self, fit=self.language).explain())
        if self.fit is Fit.UNFIT:
            reasons = ["uses " + ", ".join(self.ruled_out_by) + ", which this track does not have"
                       ] if self.ruled_out_by else []
            if self.maximises:
                reasons.append("maximises its metric, and this track's metrics are minimised")
            return "; ".join(reasons)
        if self.fit is Fit.COMPILABLE:
            return "after compiling away " + ", ".join(self.to_compile)
        notes = []
        if self.optional_used:
            notes.append("optional features used: " + ", ".join(self.optional_used))
        if self.lacks_defining:
            notes.append("but uses none of " + ", ".join(sorted(self.track.defining)))
        return "; ".join(notes) or "core features only"


def verdict(track: Track, features: FeatureSet | Iterable[Feature], *, maximises: bool = False) -> Verdict:
    """`maximises`: a problem's metric is to be maximised."""
    used = [f for f in Feature if f in set(features)]
    allowed = track.core | track.optional
    outside = [f for f in used if f not in allowed]
    optional = tuple(f for f in used if f in track.optional and f not in track.core)
    if maximises and track.minimise_only:
        ruled_out = tuple(f for f in outside if f not in COMPILABLE or f in track.not_compilable)
        return Verdict(track, Fit.UNFIT, optional, (), ruled_out, maximises=True)
    if not outside:
        lacks = bool(track.defining) and not any(f in track.defining for f in used)
        return Verdict(track, Fit.FITS, optional, (), (), lacks)
    hopeless = tuple(f for f in outside if f not in COMPILABLE or f in track.not_compilable)
    if hopeless:
        return Verdict(track, Fit.UNFIT, optional, (), hopeless)
    return Verdict(track, Fit.COMPILABLE, optional, tuple(outside), ())


def verdicts(features: FeatureSet | Iterable[Feature], only: Iterable[str] | None = None, *,
             errors: int = 0, maximises: bool = False) -> dict[str, Verdict]:
    """The verdict for every track (or the ones named in `only`), keyed by track id. A task with
    `errors` fits nothing: a track it would fit or could be compiled into says `invalid` instead.
    `maximises`: a problem's metric is to be maximised."""
    wanted = set(only) if only is not None else None
    found = {t.id: verdict(t, features, maximises=maximises) for t in TRACKS if wanted is None or t.id in wanted}
    return {tid: with_errors(v, errors) for tid, v in found.items()}


def with_errors(found: Verdict, errors: int) -> Verdict:
    """`found` for a task with `errors` errors: unfit stays unfit (its features rule the track out
    anyway); fits and compilable become invalid, keeping the verdict on the features for the message."""
    if not errors or found.fit is Fit.UNFIT:
        return found
    return replace(found, fit=Fit.INVALID, errors=errors, language=found.language or found.fit)
