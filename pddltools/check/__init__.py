"""The checker: semantic findings, the language features a task really uses, and the IPC tracks it fits."""

from __future__ import annotations

from pddltools.check.codes import CODES, Code
from pddltools.check.features import Feature, FeatureSet, FeatureUse, detect
from pddltools.check.report import CheckReport, check, check_files
from pddltools.check.tracks import TRACK_IDS, TRACKS, Fit, Track, Verdict, verdicts

__all__ = ["CODES", "TRACKS", "TRACK_IDS", "CheckReport", "Code", "Feature", "FeatureSet", "FeatureUse", "Fit",
           "Track", "Verdict", "check", "check_files", "detect", "verdicts"]
