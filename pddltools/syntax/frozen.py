"""Fast construction of frozen, slotted dataclasses for the parsers' hot paths.

A frozen dataclass's `__init__` sets each field through `object.__setattr__`, which costs about twice
as much as writing the slot directly. The parsers build hundreds of thousands of nodes per file, so
they use `fast_constructor(cls)`: a positional function with the same fields, in `fields(cls)` order,
that writes the slots directly. The result is an ordinary instance of `cls`.

Where the compiled module `pddltools.syntax._speedups` is built (it is, by `pip install`, on any machine with
a C compiler), the constructor is its `Maker`, which also leaves the instance out of the cycle
collector: the trees are immutable and acyclic, and otherwise each collection after a large parse
walks every node (a fifth of the time of parsing the corpus). Without it, the same constructor is
generated in Python: a function that writes the slots through their descriptors.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any, TypeVar

from pddltools.diagnostics import Span

T = TypeVar("T")


try:
    from pddltools.syntax import _speedups
except ImportError:  # not built: the Python versions of the hot paths run instead
    _speedups = None  # type: ignore[assignment]

#: The compiled module, or None where it is not built.
speedups = _speedups


def fast_constructor(cls: type[T], *, compiled: bool = True) -> Callable[..., T]:
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    if compiled and speedups is not None:
        return speedups.Maker(cls, tuple(names))
    env: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    body = []
    for name in names:
        env[f"_set_{name}"] = getattr(cls, name).__set__
        body.append(f"    _set_{name}(o, {name})")
    code = (f"def make({', '.join(names)}):\n    o = _new(_cls)\n" + "\n".join(body) + "\n    return o\n")
    exec(code, env)  # generated once per class; the code is the loop above, unrolled
    make: Callable[..., T] = env["make"]
    make.__doc__ = f"{cls.__name__}({', '.join(names)}), built without the frozen __init__"
    return make


#: `Span(origin, offset, length)` without its `__init__` (which takes an end): the parsers and the plan
#: reader make one for every node and step.
new_span = fast_constructor(Span)
