"""What the type checker reads that also runs: `assert_never` and `overload`, without importing `typing`.

`typing` costs a fresh process about 4 ms, and no module a command needs imports it otherwise: this
package's modules import it for the type checker only (`TYPE_CHECKING = False`, then `if TYPE_CHECKING:`;
a bare name `TYPE_CHECKING` is true to mypy and ruff). These two are called as a module is run, so they
are here, and the type checker sees typing's own (ruff is told so: `typing-modules` in pyproject.toml).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Never, NoReturn, overload
else:
    def overload(function):
        """typing's `overload` without its registry (`typing.get_overloads`, which nothing here reads):
        the overloads are for the type checker, and the definition after them replaces them."""
        return function


def assert_never(value: Never) -> NoReturn:
    """The last case of a `match` over a closed union of nodes: a value that can only be `Never` here is
    one every case above has taken, so a node class added to the union makes `mypy --strict` name each
    match that does not handle it (`tests/test_exhaustive.py`). At run time, as typing's: raise."""
    shown = repr(value)
    if len(shown) > 100:  # typing's message, cut where typing cuts it
        shown = shown[:100] + "..."
    raise AssertionError(f"Expected code to be unreachable, but got: {shown}")


__all__ = ["assert_never", "overload"]
