"""MA-PDDL (multi-agent PDDL, as CoDMAP-2015 wrote it unfactored), a declared extension of PDDL
(`pddltools.dialects`)."""
