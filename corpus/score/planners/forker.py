"""A planner that forks children (one of them in its own session) and waits; PIDs go to argv[1]."""
import os
import sys
import time

pids = []
for index in range(3):
    pid = os.fork()
    if pid == 0:
        if index == 2:
            os.setsid()  # tries to leave the run's process group
        while True:
            time.sleep(1)
    pids.append(pid)
with open(sys.argv[1], "w") as handle:
    handle.write(" ".join(map(str, [os.getpid(), *pids])))
while True:
    time.sleep(1)
