"""An anytime planner for `line` problems: writes a good plan PLAN.1, starts PLAN.2 and is cut off while
writing it (PLAN.2 stays half-written), then keeps "improving" until stopped. Usage: anytime.py PROBLEM PLAN"""
import re
import sys
import time
from pathlib import Path

links = len(re.findall(r"\(next\b", Path(sys.argv[1]).read_text()))
with open(sys.argv[2] + ".1", "w") as plan:
    plan.writelines(f"(walk p{i} p{i + 1})\n" for i in range(links))
with open(sys.argv[2] + ".2", "w") as plan:
    plan.write("(walk p0 p1)\n")
    plan.flush()
    while True:
        time.sleep(1)
