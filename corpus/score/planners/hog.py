"""A planner that allocates memory until something stops it (10 MB at a time, touched)."""
import time

blocks = []
while True:
    blocks.append(bytearray(10 * 1024 * 1024))
    time.sleep(0.01)
