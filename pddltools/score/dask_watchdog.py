"""On a Dask worker: stop a run when its task is cancelled or the client that wanted it is gone.

Dask does not stop a running task when it is cancelled, nor when the client that submitted it dies (the
scheduler then releases the client's tasks): the worker marks the task `cancelled` and lets its thread
run on. A planner would run to its limit (up to 30 minutes a slot with IPC limits) and a `--resume`
would wait for its slot. The watchdog, a thread beside the task's, looks at the task's state on its
worker a few times a second and sets the event that the run's monitor (`limits.run_limited`) watches,
which then kills the planner's process tree.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

# Worker-side task states of a task nobody waits for any more (distributed's worker state machine).
_ABANDONED = ("cancelled", "released", "forgotten")


@contextmanager
def stop_when_abandoned(interval: float = 0.2) -> Iterator[threading.Event]:
    """An event set once the Dask task running this block is abandoned; never set outside a Dask task."""
    cancel = threading.Event()
    try:
        from distributed import get_worker

        worker = get_worker()
        key = worker.get_current_task()
    except (ImportError, ValueError, KeyError):  # not in a Dask task: nothing to watch
        yield cancel
        return
    finished = threading.Event()

    def watch() -> None:
        while not finished.wait(interval):
            if abandoned(worker, key):
                cancel.set()
                return

    thread = threading.Thread(target=watch, name=f"pddltools-watchdog-{key}", daemon=True)
    thread.start()
    try:
        yield cancel
    finally:
        finished.set()
        thread.join()


def abandoned(worker: Any, key: Any) -> bool:
    """Whether `worker` no longer wants the task `key` it is running: cancelled, released, or closing."""
    task = worker.state.tasks.get(key)
    return task is None or task.state in _ABANDONED or str(worker.status.name) in ("closing", "closed")
