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
# renamed into place, so that whoever finds the file finds all four PIDs, however busy the machine
with open(sys.argv[1] + ".part", "w") as handle:
    handle.write(" ".join(map(str, [os.getpid(), *pids])))
os.replace(sys.argv[1] + ".part", sys.argv[1])
while True:
    time.sleep(1)
