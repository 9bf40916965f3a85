"""`python -m pddltools COMMAND ...`: the `pddltools` command, for when its script is not on PATH."""

from __future__ import annotations

import sys

from pddltools.entry import main

sys.exit(main(prog="python -m pddltools"))
