"""Contingent PDDL (CLG, cp2fsc/replanner): sensing and an uncertain initial state, a declared extension
of PDDL (`pddltools.dialects`)."""
