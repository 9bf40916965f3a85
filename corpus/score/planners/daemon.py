"""A planner that leaves a double-forked grandchild behind and exits at once; PIDs go to argv[1]."""
import os
import sys
import time

if os.fork() == 0:
    if os.fork() == 0:
        with open(sys.argv[1], "w") as handle:
            handle.write(str(os.getpid()))
        while True:
            time.sleep(1)
    os._exit(0)
os.wait()
time.sleep(0.5)
sys.exit(0)
