"""pddltools: language tooling for automated planning (PDDL and RDDL)."""
from __future__ import annotations

__version__ = "0.2.0"
