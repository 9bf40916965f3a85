"""A planner for the `line` domain: walks p0 -> p1 -> ... -> pN (N = the number of links).

Usage: walker.py PROBLEM PLAN [BAD]: for a problem with BAD links it writes a one-step plan (invalid).
"""
import re
import sys
from pathlib import Path

links = len(re.findall(r"\(next\b", Path(sys.argv[1]).read_text()))
steps = 1 if len(sys.argv) > 3 and links == int(sys.argv[3]) else links
with open(sys.argv[2], "w") as plan:
    plan.writelines(f"(walk p{i} p{i + 1})\n" for i in range(steps))
