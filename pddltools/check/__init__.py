"""The checker: semantic findings, the language features a task really uses, its numeric fragment, and the
IPC tracks it fits."""

from __future__ import annotations

from pddltools.check.codes import CODES, Code
from pddltools.check.features import Feature, FeatureSet, FeatureUse, detect
from pddltools.check.numeric import Fragment, numeric_fragment
from pddltools.check.report import CheckReport, check, check_files
from pddltools.check.tracks import TRACK_IDS, TRACKS, Fit, Track, Verdict, verdicts

__all__ = ["CODES", "TRACKS", "TRACK_IDS", "CheckReport", "Code", "Feature", "FeatureSet", "FeatureUse", "Fit",
           "Fragment", "Track", "Verdict", "check", "check_files", "detect", "numeric_fragment", "verdicts"]
