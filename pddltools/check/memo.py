"""Findings of a problem's :init kept between checks of the same text, for the language server.

A keystroke in a large problem's goal, or after its last section, leaves its :init section as it was:
the incremental parser (`pddltools.lsp.incremental`) re-uses the section's nodes, the very same
objects. Checking the tens of thousands of init atoms again (`NameChecker.init`) would cost most of
the keystroke, for the same findings. The AST is frozen, so findings computed from the same objects
are the same findings: they are looked up by the identity of everything they depend on (the domain
node, the problem's objects and init, the strictness), never by equality, which would cost as much
as the check. Each entry holds those objects, so no identity is re-used while it is kept.
"""

from __future__ import annotations

import threading

from pddltools.diagnostics import Diagnostic

#: How many problems' init findings are kept: one entry a file (the newest version checked), for the
#: problems open in an editor; each holds that version's init nodes alive.
SIZE = 8


class InitMemo:
    """The init findings of the last `SIZE` problem files checked, by file name: for each, the parts
    they were computed from (domain, objects, init, strictness) and the findings."""

    def __init__(self, size: int = SIZE) -> None:
        self._size = size
        self._entries: dict[str, tuple[tuple[object, ...], tuple[Diagnostic, ...]]] = {}
        self._lock = threading.Lock()  # the server checks documents in worker threads
        self.hits = 0  # look-ups answered (tests read it)

    def get(self, file: str, parts: tuple[object, ...]) -> tuple[Diagnostic, ...] | None:
        """The findings kept for `file` if they were computed from these very `parts`."""
        with self._lock:
            entry = self._entries.get(file)
            if entry is None or len(entry[0]) != len(parts) \
                    or not all(a is b for a, b in zip(entry[0], parts, strict=True)):
                return None
            self._entries[file] = self._entries.pop(file)  # the newest
            self.hits += 1
            return entry[1]

    def put(self, file: str, parts: tuple[object, ...], found: tuple[Diagnostic, ...]) -> None:
        """Keep `found` for `file` (replacing its earlier version's), dropping the least recent file."""
        with self._lock:
            self._entries.pop(file, None)
            self._entries[file] = (parts, found)
            while len(self._entries) > self._size:
                del self._entries[next(iter(self._entries))]

    def forget(self, file: str) -> None:
        """Drop what is kept for `file` (closed in the editor): its init nodes are freed."""
        with self._lock:
            self._entries.pop(file, None)
