"""A fake planner: sleeps argv[4] seconds, then copies the plan file beside the problem to the plan path.

Usage: echo_plan.py DOMAIN PROBLEM PLAN SECONDS. The plan looked for is PROBLEM with `.plan` for
`.pddl`; with none there it writes nothing and exits 0 (no plan found).
"""
import shutil
import sys
import time
from pathlib import Path

time.sleep(float(sys.argv[4]))
source = Path(sys.argv[5] if len(sys.argv) > 5 else Path(sys.argv[2]).with_suffix(".plan"))
if source.is_file():
    shutil.copyfile(source, sys.argv[3])
