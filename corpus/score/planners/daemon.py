"""A planner that leaves a double-forked grandchild behind and exits once the grandchild has written
its PID to argv[1] (renamed into place, so never read half written)."""
import os
import sys
import time

if os.fork() == 0:
    if os.fork() == 0:
        with open(sys.argv[1] + ".part", "w") as handle:
            handle.write(str(os.getpid()))
        os.replace(sys.argv[1] + ".part", sys.argv[1])
        while True:
            time.sleep(1)
    os._exit(0)
os.wait()
while not os.path.exists(sys.argv[1]):
    time.sleep(0.01)
sys.exit(0)
