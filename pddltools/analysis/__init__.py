"""Relaxed reachability, grounding, invariants and domain test suites over the lifted task."""
