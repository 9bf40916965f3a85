"""A learner for the `line` domain: learn_line.py DOMAIN TRAINING DCK [--noisy].

Its "knowledge" is the longest line in the training set, written to DCK/knowledge.txt. With --noisy it
also writes the time, so that two runs differ (a learner that does not reproduce its knowledge).
"""
import re
import sys
import time
from pathlib import Path

longest = max(len(re.findall(r"\(next\b", p.read_text())) for p in Path(sys.argv[2]).glob("*.pddl"))
text = f"longest {longest}\n" + (f"learned at {time.time()}\n" if "--noisy" in sys.argv else "")
(Path(sys.argv[3]) / "knowledge.txt").write_text(text)
