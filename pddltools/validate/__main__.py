"""`python -m pddltools.validate DOMAIN PROBLEM PLAN...` or `--batch LIST`: the same as
`pddltools validate`, starting faster because no other command is loaded."""

from __future__ import annotations

import sys

from pddltools.validate.cli import main

sys.exit(main())
