"""HDDL, the hierarchical planning language of the IPC's HTN tracks: PDDL plus tasks and methods."""
