"""PPDDL: probabilistic effects and rewards, a declared extension of PDDL (`pddltools.dialects`)."""
