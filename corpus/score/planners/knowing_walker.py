"""walker.py with knowledge: knowing_walker.py PROBLEM PLAN DCK. Without DCK/knowledge.txt it "searches"
(sleeps 1.5 s) before writing the plan; with it, it answers at once."""
import re
import sys
import time
from pathlib import Path

if not (Path(sys.argv[3]) / "knowledge.txt").is_file():
    time.sleep(1.5)
links = len(re.findall(r"\(next\b", Path(sys.argv[1]).read_text()))
with open(sys.argv[2], "w") as plan:
    plan.writelines(f"(walk p{i} p{i + 1})\n" for i in range(links))
