"""The methods `dataclasses` generates for a module's classes, compiled once and kept between runs.

For every frozen, slotted class the `dataclass` decorator writes the source of `__init__`, `__repr__`,
`__eq__`, `__hash__`, `__setattr__` and `__delattr__` and compiles each with `exec`: for the PDDL AST's
classes that is about 300 compilations, most of the CPU a fresh `pddltools validate` spends on the AST.
The source depends only on the class's fields, so the compiled code is kept in the user's cache folder
(by the Python version that compiled it), and `dataclass` runs unchanged but for where its `exec` takes
compiled code from: `exec(text, globals, ns)` becomes `exec(compiled[text], globals, ns)`, the same code,
so the classes are the same (`tests/test_codecache.py` compares every method of every node class with
a build without the cache). A missing, stale or unreadable cache costs the compilations, nothing more.

A class without a docstring gets one from `dataclass`: its name and `inspect.signature(cls)`, which
costs more than the cached compilations together; the signature's text is kept in the same cache,
keyed by everything it is made of (the `__init__`'s parameters, annotations and defaults).

That docstring is all `dataclasses` uses `inspect` for (Python 3.11), and importing `inspect` (with `ast`,
`dis` and `tokenize`) costs a fresh process as much as the rest of `dataclasses`: this module imports
`dataclasses` with a stand-in for `inspect` that imports the real module at its first use.
"""

from __future__ import annotations

import builtins
import importlib
import marshal
import os
import sys
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from types import CodeType, ModuleType, TracebackType
from typing import TYPE_CHECKING, Any


class _Inspect(ModuleType):
    """`dataclasses`' `inspect` until it is used: the real module, imported then and put in its place."""

    def __getattr__(self, name: str) -> Any:
        real = importlib.import_module("inspect")
        user = sys.modules.get("dataclasses")
        if user is not None and user.__dict__.get("inspect") is self:
            setattr(user, "inspect", real)  # noqa: B010  # that module's global
        return getattr(real, name)


def _dataclasses() -> ModuleType:
    """`dataclasses`, imported without importing `inspect` when neither is imported yet."""
    if "dataclasses" in sys.modules or "inspect" in sys.modules:
        return importlib.import_module("dataclasses")
    stand_in = _Inspect("inspect")
    sys.modules["inspect"] = stand_in  # what `import inspect` in dataclasses binds
    try:
        return importlib.import_module("dataclasses")
    finally:
        if sys.modules.get("inspect") is stand_in:
            del sys.modules["inspect"]


if TYPE_CHECKING:
    import dataclasses
else:
    dataclasses = _dataclasses()

#: False: build without the cache (the tests compare the two builds).
enabled = True


def _cache_path(tag: str) -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    # marshal's format follows the byte code's, which the magic number names
    version = int.from_bytes(MAGIC_NUMBER[:2], "little")
    return Path(base) / "pddltools" / f"{tag}-{sys.implementation.cache_tag}-{version}.code"


class MethodCode:
    """While open (`open()` ... `close()`, or `with`), the `exec` of `dataclasses` compiles through this
    cache; an outer one open covers what an inner one would.

    A module opens one before its first class and closes it after its last (a `with` would indent the
    whole module); the command line opens one while it imports a command's modules. `close` writes the
    cache back when a method was compiled afresh, keeping only the code this build used, so edits to the
    classes never make it grow."""

    def __init__(self, tag: str) -> None:
        self.path = _cache_path(tag)
        self.known: dict[str, CodeType | str] = {}  # str: a signature's text (`_Signatures`)
        self.used: dict[str, CodeType | str] = {}
        self.fresh = False
        self._patched = False
        self._inspect: Any = None  # `dataclasses`' own `inspect` while this cache stands in for it

    def open(self) -> MethodCode:
        if not enabled or getattr(dataclasses, "exec", None) is not None:  # off, or another build is open
            return self
        self._load()
        dataclasses.exec = self._exec  # type: ignore[attr-defined]  # shadows the builtin in that module
        self._inspect = dataclasses.inspect  # type: ignore[attr-defined]  # the module or `_Inspect`
        dataclasses.inspect = _Signatures(self)  # type: ignore[attr-defined]  # that module's `inspect`
        self._patched = True
        return self

    def _load(self) -> None:
        try:
            loaded = marshal.loads(self.path.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            loaded = {}
        if isinstance(loaded, dict):
            self.known = {k: v for k, v in loaded.items() if isinstance(k, str) and isinstance(v, CodeType | str)}

    def __enter__(self) -> MethodCode:
        return self.open()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()

    def _exec(self, source: Any, globals: Any = None, locals: Any = None) -> None:
        if not isinstance(source, str):
            builtins.exec(source, globals, locals)
            return
        code = self.known.get(source)
        if not isinstance(code, CodeType):
            code = compile(source, "<string>", "exec", dont_inherit=True)  # what exec(source) compiles there
            self.fresh = True
        self.used[source] = code
        builtins.exec(code, globals, locals)

    def close(self) -> None:
        if not self._patched:
            return
        self._unpatch()
        self._patched = False
        if not self.fresh:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
            temporary.write_bytes(marshal.dumps(self.used))
            os.replace(temporary, self.path)  # whole, or not at all: another process may be reading it
        except OSError:
            pass  # a read-only home: the next run compiles again

    def _unpatch(self) -> None:
        del dataclasses.exec  # type: ignore[attr-defined]
        dataclasses.inspect = self._inspect  # type: ignore[attr-defined]


class _Signatures:
    """`dataclasses`' `inspect` while a `MethodCode` is open: `signature(cls)` (asked for the docstring
    of a class without one) is the text kept in the cache, else the real signature's, then kept."""

    def __init__(self, cache: MethodCode) -> None:
        self._cache = cache

    def __getattr__(self, name: str) -> Any:
        return getattr(importlib.import_module("inspect"), name)

    def signature(self, cls: Any) -> str:  # `dataclasses` only takes its str()
        init = cls.__init__
        code = init.__code__
        names = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
        key = "signature\0" + repr((cls.__module__, cls.__qualname__, type(cls).__qualname__,
                                    getattr(cls.__new__, "__qualname__", ""), names, code.co_argcount,
                                    init.__annotations__, init.__defaults__, init.__kwdefaults__))
        text = self._cache.known.get(key)
        if not isinstance(text, str):
            text = str(importlib.import_module("inspect").signature(cls))
            self._cache.fresh = True
        self._cache.used[key] = text
        return text


#: The future flags `attr._make` compiles its scripts with: it imports annotations from __future__, and
#: `compile` passes the calling module's future flags on (`__future__.annotations.compiler_flag`).
_ATTRS_FLAGS = 0x1000000


class AttrsCode(MethodCode):
    """The same for the classes of `attrs` (lsprotocol's thousand protocol classes, which the language
    server imports: compiling their methods is a third of its start-up). attrs writes each class's methods
    as one script and compiles it with `compile(script, filename, "exec")` in `attr._make`; while open,
    that `compile` takes the code from the cache, keyed by the file name attrs gives (which the code
    carries) and the script. Without attrs installed, opening does nothing."""

    def open(self) -> AttrsCode:
        try:
            from attr import _make
        except ImportError:
            return self
        if not enabled or getattr(_make, "compile", None) is not None:
            return self
        self._load()
        _make.compile = self._compile  # type: ignore[attr-defined]  # shadows the builtin in that module
        self._patched = True
        return self

    def __enter__(self) -> AttrsCode:
        return self.open()

    def _compile(self, source: Any, filename: str, mode: str, *args: Any, **kwargs: Any) -> CodeType:
        if args or kwargs or not isinstance(source, str) or not isinstance(filename, str):
            plain: CodeType = builtins.compile(source, filename, mode, *args, **kwargs)  # not a call attrs makes
            return plain
        key = f"{mode}\0{filename}\0{source}"
        code = self.known.get(key)
        if not isinstance(code, CodeType):
            code = builtins.compile(source, filename, mode, _ATTRS_FLAGS, True)  # what attr._make compiles
            self.fresh = True
        self.used[key] = code
        return code

    def _unpatch(self) -> None:
        from attr import _make

        del _make.compile  # type: ignore[attr-defined]
