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
`dataclasses` with a stand-in for `inspect` that imports the real module at its first use (and one for
`copy`, which it uses only in `asdict` and `astuple`). It imports `fractions` without `decimal` the same
way (`_fractions`).
"""

from __future__ import annotations

import abc
import builtins
import importlib
import marshal
import os
import re
import sys

# importlib.util's MAGIC_NUMBER is this one; importing importlib.util costs a fresh process
# `contextlib` and `importlib._abc` (about 1 ms), and nothing else on a command's path needs it
from importlib._bootstrap_external import MAGIC_NUMBER
from types import CodeType, FunctionType, MemberDescriptorType, ModuleType, TracebackType


class _Later(ModuleType):
    """A module `dataclasses` imports, until it is used: the real module, imported then and put in its
    place (`inspect` for a class's docstring, `copy` for `asdict` and `astuple`)."""

    def __getattr__(self, name: str) -> Any:
        real = importlib.import_module(self.__name__)
        user = sys.modules.get("dataclasses")
        if user is not None and user.__dict__.get(self.__name__) is self:
            setattr(user, self.__name__, real)  # that module's global
        return getattr(real, name)


#: What `dataclasses` imports only to use in a few of its functions: `inspect` (with `ast`, `dis`,
#: `tokenize`) for the docstring of a class without one, `copy` (with `weakref`) for `asdict`/`astuple`.
_LATER = ("inspect", "copy")


def _dataclasses() -> ModuleType:
    """`dataclasses`, imported without importing `inspect` and `copy` (those not imported yet)."""
    if "dataclasses" in sys.modules:
        return sys.modules["dataclasses"]
    stand_ins = {name: _Later(name) for name in _LATER if name not in sys.modules}
    sys.modules.update(stand_ins)  # what `import inspect` and `import copy` in dataclasses bind
    try:
        return importlib.import_module("dataclasses")
    finally:
        for name, stand_in in stand_ins.items():
            if sys.modules.get(name) is stand_in:
                del sys.modules[name]


TYPE_CHECKING = False
if TYPE_CHECKING:
    import dataclasses
    from typing import Any
else:
    dataclasses = _dataclasses()


class _LazyDecimal(type):
    """The metaclass of `fractions`' `Decimal` until it is used (see `_fractions`): a test of a value
    against it, or a call, imports `decimal` and puts its `Decimal` in `fractions` in its place."""

    def __instancecheck__(cls, instance: object) -> bool:
        return isinstance(instance, _real_decimal())

    def __subclasscheck__(cls, subclass: type) -> bool:
        return issubclass(subclass, _real_decimal())

    def __call__(cls, *arguments: Any, **keywords: Any) -> Any:
        return _real_decimal()(*arguments, **keywords)


class _Decimal(metaclass=_LazyDecimal):
    """`decimal.Decimal` as `fractions` holds it until it is used."""


def _real_decimal() -> type:
    real: type = importlib.import_module("decimal").Decimal
    user = sys.modules.get("fractions")
    if user is not None and user.__dict__.get("Decimal") is _Decimal:
        setattr(user, "Decimal", real)  # noqa: B010  # that module's global
    return real


def _fractions() -> None:
    """Import `fractions` (the AST's exact numbers; every command that reads PDDL imports it) without
    importing `decimal`, when neither is imported yet. `fractions` imports `decimal.Decimal` only to
    make a `Fraction` of a `Decimal` (or of a text or a float: it asks whether the value is one), and
    `decimal` (its compiled module and `contextvars`) costs a fresh process about 1.5 ms, more than
    `fractions` itself: `fractions` gets `_Decimal`, which imports the real module at its first use."""
    if "fractions" in sys.modules or "decimal" in sys.modules:
        return
    stand_in = ModuleType("decimal")
    stand_in.Decimal = _Decimal  # type: ignore[attr-defined]
    sys.modules["decimal"] = stand_in  # what `from decimal import Decimal` in fractions reads
    try:
        importlib.import_module("fractions")
    finally:
        if sys.modules.get("decimal") is stand_in:
            del sys.modules["decimal"]


_fractions()

#: False: build without the cache (the tests compare the two builds).
enabled = True

#: What the cache holds for a key: a method's code, a signature's text, a class's methods' code, or the
#: arguments of `_sre.compile` that make a regular expression.
if TYPE_CHECKING:
    Entry = CodeType | str | tuple[Any, ...]
_ENTRY = (CodeType, str, tuple)


def _cache_path(tag: str) -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    # marshal's format follows the byte code's, which the magic number names
    version = int.from_bytes(MAGIC_NUMBER[:2], "little")
    # os.path, not pathlib: a command opens its cache before it imports pathlib, whose import compiles a
    # pattern of urllib's that the cache then keeps
    return os.path.join(base, "pddltools", f"{tag}-{sys.implementation.cache_tag}-{version}.code")


class MethodCode:
    """While open (`open()` ... `close()`, or `with`), the `exec` of `dataclasses` compiles through this
    cache; an outer one open covers what an inner one would.

    A module opens one before its first class and closes it after its last (a `with` would indent the
    whole module); the command line opens one while it imports a command's modules. `close` writes the
    cache back when a method was compiled afresh, keeping only the code this build used, so edits to the
    classes never make it grow."""

    def __init__(self, tag: str) -> None:
        self.path = _cache_path(tag)
        # str: a signature's text (`_Signatures`); a tuple: a class's generated methods (`_Classes`)
        self.known: dict[str, Entry] = {}
        self.used: dict[str, Entry] = {}
        self.fresh = False
        #: False: write nothing back (a command line that names no command keeps no cache of its own)
        self.keep = True
        self._patched = False
        self._inspect: Any = None  # `dataclasses`' own `inspect` while this cache stands in for it
        self._process: Any = None  # `dataclasses._process_class` while `_Classes` stands in for it
        self.recording: list[CodeType] | None = None  # the code `_exec` ran, while a class is recorded
        self._compile_pattern: Any = None  # `re._compiler.compile` while `_pattern` stands in for it

    def open(self) -> MethodCode:
        if not enabled or getattr(dataclasses, "exec", None) is not None:  # off, or another build is open
            return self
        self._load()
        dataclasses.exec = self._exec  # type: ignore[attr-defined]  # shadows the builtin in that module
        self._inspect = dataclasses.inspect  # type: ignore[attr-defined]  # the module or `_Later`
        dataclasses.inspect = _Signatures(self)  # type: ignore[attr-defined]  # that module's `inspect`
        if _CLASSES:
            self._process = dataclasses._process_class  # type: ignore[attr-defined]
            dataclasses._process_class = _Classes(self, self._process)  # type: ignore[attr-defined]
        if _PATTERNS:
            self._compile_pattern = _re_compiler.compile
            _re_compiler.compile = self._pattern
        self._patched = True
        return self

    def _pattern(self, pattern: Any, flags: int = 0) -> re.Pattern[Any]:
        """`re._compiler.compile` while open: the program `re` would compile for a text pattern, kept (its
        parser and code generator are written in Python, and a fresh `validate` compiles some forty
        patterns, the grammar's scanners among them); the same call to `_sre.compile` makes the pattern."""
        if not isinstance(pattern, str) or flags & re.DEBUG:
            plain: re.Pattern[Any] = self._compile_pattern(pattern, flags)
            return plain
        key = f"re\0{flags}\0{pattern}"
        kept = self.known.get(key)
        if not (isinstance(kept, tuple) and len(kept) == 5):
            tree = _re_parser.parse(pattern, flags)
            state = tree.state
            indexgroup: list[str | None] = [None] * state.groups
            for name, index in state.groupdict.items():
                indexgroup[index] = name
            # plain ints: the program's opcodes are an int subclass, which marshal cannot keep
            kept = (int(flags | state.flags), [int(op) for op in _re_compiler._code(tree, flags)],
                    int(state.groups - 1), {str(name): int(index) for name, index in state.groupdict.items()},
                    tuple(indexgroup))
            self.fresh = True
        self.used[key] = kept
        made: re.Pattern[Any] = _sre.compile(pattern, *kept)
        return made

    def _load(self) -> None:
        try:
            with open(self.path, "rb") as kept:
                loaded = marshal.loads(kept.read())
        except (OSError, EOFError, ValueError, TypeError):
            loaded = {}
        if isinstance(loaded, dict):
            self.known = {k: v for k, v in loaded.items() if isinstance(k, str) and isinstance(v, _ENTRY)}

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
        if self.recording is not None:
            self.recording.append(code)
        builtins.exec(code, globals, locals)

    def close(self) -> None:
        if not self._patched:
            return
        self._unpatch()
        self._patched = False
        if not (self.fresh and self.keep):
            return
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            temporary = f"{self.path}.{os.getpid()}.tmp"
            data = marshal.dumps(self.used)
            with open(temporary, "wb") as out:
                out.write(data)
            os.replace(temporary, self.path)  # whole, or not at all: another process may be reading it
        except (OSError, ValueError):  # ValueError: an entry marshal cannot keep
            pass  # a read-only home: the next run compiles again

    def _unpatch(self) -> None:
        del dataclasses.exec  # type: ignore[attr-defined]
        dataclasses.inspect = self._inspect  # type: ignore[attr-defined]
        if self._process is not None:
            dataclasses._process_class = self._process  # type: ignore[attr-defined]
            self._process = None
        if self._compile_pattern is not None:
            _re_compiler.compile = self._compile_pattern
            self._compile_pattern = None


#: The generated methods of a frozen dataclass, in the order `_process_class` makes them.
_METHODS = ("__init__", "__repr__", "__eq__", "__setattr__", "__delattr__", "__hash__")
_sre: Any = importlib.import_module("_sre")  # re's private parts: typeshed has no stubs for them
_re_compiler: Any = importlib.import_module("re._compiler")
_re_parser: Any = importlib.import_module("re._parser")
#: Python 3.11's `re`, whose compile steps `MethodCode._pattern` repeats (another version compiles as usual).
_PATTERNS = sys.version_info[:2] == (3, 11) and all(
    hasattr(module, name) for module, name in ((_re_compiler, "compile"), (_re_compiler, "_code"),
                                               (_re_parser, "parse"), (_sre, "compile")))
#: Python 3.11's `dataclasses`, whose private steps `_Classes` repeats (another version builds as before).
_CLASSES = sys.version_info[:2] == (3, 11) and all(
    hasattr(dataclasses, name) for name in ("_process_class", "_get_field", "_is_kw_only", "_is_type",
                                            "_fields_in_init_order", "_recursive_repr", "_add_slots",
                                            "_DataclassParams", "_FIELD", "_HAS_DEFAULT_FACTORY",
                                            "_is_initvar", "_is_classvar", "_MODULE_IDENTIFIER_RE"))


class _Classes:
    """`dataclasses._process_class` while a `MethodCode` is open: a frozen class (the AST's nodes, and
    most of the package's records) is built from its methods' code kept under its fields'
    shape (names, which have defaults, the flags of `field()`), without writing and looking up their
    source text; anything else, and a shape met for the first time, goes to `dataclasses` (which is then
    recorded). The steps are `_process_class`'s for that case, in its order, with its own helpers, so the
    class is the one it would build (`tests/test_codecache.py` compares the two)."""

    def __init__(self, cache: MethodCode, process: Any) -> None:
        self._cache = cache
        self._process = process

    def __call__(self, cls: type, init: bool, repr: bool, eq: bool, order: bool, unsafe_hash: bool,
                 frozen: bool, match_args: bool, kw_only: bool, slots: bool, weakref_slot: bool) -> type:
        arguments = (init, repr, eq, order, unsafe_hash, frozen, match_args, kw_only, slots, weakref_slot)
        plain = init and repr and eq and frozen and match_args and not (order or unsafe_hash or kw_only or weakref_slot)
        if not plain:
            done: type = self._process(cls, *arguments)
            return done
        built = self._build(cls, arguments)
        return built if built is not None else self._record(cls, arguments)

    def _record(self, cls: type, arguments: tuple[bool, ...]) -> type:
        """`dataclasses`' own build, the code of a plain class's methods kept under its shape."""
        cache = self._cache
        cache.recording = []
        try:
            built: type = self._process(cls, *arguments)
        finally:
            recorded, cache.recording = cache.recording, None
        shape = _shape(built.__dataclass_fields__.values(), arguments[8])  # type: ignore[attr-defined]
        makers = [_maker(code) for code in recorded]
        if shape is not None and [_made(maker) for maker in makers] == list(_METHODS):
            # each script's one function: the script's source is text, and the code its `exec` looks
            # up by it stays behind when the class is built from its shape (`_build` runs the maker)
            cache.used[shape] = tuple(makers)
            scripts = {id(code) for code in recorded}
            cache.used = {key: value for key, value in cache.used.items() if id(value) not in scripts}
            cache.fresh = True
        return built

    def _build(self, cls: Any, arguments: tuple[bool, ...]) -> type | None:
        """The class from the kept code, or None where `dataclasses` must build it."""
        d = cls.__dict__
        if not d.keys().isdisjoint(_OWN) or hasattr(cls, "__post_init__"):
            return None
        fields: dict[str, Any] = {}
        any_frozen_base = has_dataclass_bases = False
        base: Any
        for base in cls.__mro__[-1:0:-1]:
            base_fields = getattr(base, "__dataclass_fields__", None)
            if base_fields is not None:
                has_dataclass_bases = True
                for f in base_fields.values():
                    fields[f.name] = f
                if base.__dataclass_params__.frozen:
                    any_frozen_base = True
        if has_dataclass_bases and not any_frozen_base:
            return None  # dataclasses says why not
        annotations = d.get("__annotations__", {})
        module = sys.modules.get(cls.__module__)
        if module is None:
            return None
        globals = module.__dict__
        own = []
        for name, kind in annotations.items():
            f = _plain_field(cls, name, kind, globals)
            if f is None:
                return None
            own.append(f)
        for f in own:
            fields[f.name] = f
        if any(isinstance(value, dataclasses.Field) and name not in annotations for name, value in d.items()):
            return None
        shape = _shape(fields.values(), arguments[8])
        kept = self._cache.known.get(shape) if shape is not None else None
        if not isinstance(kept, tuple) or len(kept) != len(_METHODS):
            return None
        values = {"MISSING": dataclasses.MISSING, "_HAS_DEFAULT_FACTORY": dataclasses._HAS_DEFAULT_FACTORY,  # type: ignore[attr-defined]
                  "__dataclass_builtins_object__": object, "_return_type": None, "cls": cls,
                  "FrozenInstanceError": dataclasses.FrozenInstanceError}
        methods = []
        for maker in kept:
            # what running the script defines: its one function, made without running the script
            if not isinstance(maker, CodeType) or maker.co_name != "__create_fn__":
                return None  # not a maker (a cache an earlier version wrote): dataclasses builds
            try:
                arguments_ = [_value(name, fields, values) for name in maker.co_varnames[:maker.co_argcount]]
            except KeyError:
                return None
            methods.append(FunctionType(maker, globals)(*arguments_))
        assert shape is not None
        self._cache.used[shape] = kept
        # from here on, what _process_class does to a plain class, in its order
        for f in own:
            if isinstance(getattr(cls, f.name, None), dataclasses.Field):
                if f.default is dataclasses.MISSING:
                    delattr(cls, f.name)
                else:
                    setattr(cls, f.name, f.default)
        cls.__dataclass_params__ = dataclasses._DataclassParams(*arguments[:6])  # type: ignore[attr-defined]
        cls.__dataclass_fields__ = fields
        init, text, equal, set_attribute, delete_attribute, hashing = methods
        for name, method in (("__init__", init), ("__repr__", dataclasses._recursive_repr(text)),  # type: ignore[attr-defined]
                             ("__eq__", equal), ("__setattr__", set_attribute), ("__delattr__", delete_attribute),
                             ("__hash__", hashing)):
            method.__qualname__ = f"{cls.__qualname__}.{method.__name__}"
            setattr(cls, name, method)
        if not cls.__doc__:
            try:
                signature = str(dataclasses.inspect.signature(cls)).replace(" -> None", "")  # type: ignore[attr-defined]
            except (TypeError, ValueError):
                signature = ""
            cls.__doc__ = cls.__name__ + signature
        initialised = [f for f in fields.values() if f._field_type is dataclasses._FIELD]  # type: ignore[attr-defined]
        standard, _ = dataclasses._fields_in_init_order(initialised)  # type: ignore[attr-defined]
        setattr(cls, "__match_args__", tuple(f.name for f in standard))  # noqa: B010  # mypy: not assignable
        if arguments[8]:
            cls = dataclasses._add_slots(cls, True, False)  # type: ignore[attr-defined]
        abc.update_abstractmethods(cls)
        built: type = cls
        return built


#: What a class's own body may not define for `_Classes` to build it (dataclasses keeps a class's own
#: methods, or refuses them).
_OWN = frozenset((*_METHODS, "__match_args__", "__slots__", "__getstate__", "__setstate__"))


def _shape(fields: Any, slots: bool) -> str | None:
    """The key of a class's methods' code: what their source is written from (every field a plain one)."""
    parts: list[object] = [slots]
    for f in fields:
        if f._field_type is not dataclasses._FIELD:  # type: ignore[attr-defined]
            return None
        parts.append((f.name, f.default is dataclasses.MISSING, f.default_factory is dataclasses.MISSING,
                      f.init, f.repr, f.hash, f.compare, f.kw_only))
    return "class\0" + repr(parts)


def _maker(script: CodeType) -> CodeType | None:
    """The `__create_fn__` a script of `dataclasses` defines (and runs), which makes one method."""
    return next((c for c in script.co_consts if isinstance(c, CodeType) and c.co_name == "__create_fn__"), None)


def _made(maker: CodeType | None) -> str | None:
    """The name of the method a `__create_fn__` makes."""
    return next((c.co_name for c in maker.co_consts if isinstance(c, CodeType)), None) if maker else None


#: How `dataclasses._is_type` reads the name an annotation's text starts with (3.11's pattern).
_ANNOTATION_NAME = getattr(dataclasses, "_MODULE_IDENTIFIER_RE", None)


def _plain_field(cls: Any, name: str, kind: Any, globals: dict[str, Any]) -> Any:
    """`dataclasses._get_field(cls, name, kind, False)` for a field that is neither `KW_ONLY`, a
    `ClassVar` nor an `InitVar`, else None (`dataclasses` builds the class, and says what is wrong).

    `dataclasses` tests a text annotation for each of the three with `_is_type`, each a match of the
    text and a look-up of the name it starts with in the class's module; here the name is looked up
    once and compared with the three. A text naming a module first (`typing.ClassVar`) or an annotation
    that is not text goes through `dataclasses`' own tests."""
    match = _ANNOTATION_NAME.match(kind) if isinstance(kind, str) and _ANNOTATION_NAME is not None else None
    if match is None or match.group(1):
        if dataclasses._is_kw_only(kind, dataclasses) or (  # type: ignore[attr-defined]
                isinstance(kind, str) and dataclasses._is_type(  # type: ignore[attr-defined]
                    kind, cls, dataclasses, dataclasses.KW_ONLY, dataclasses._is_kw_only)):  # type: ignore[attr-defined]
            return None
        f = dataclasses._get_field(cls, name, kind, False)  # type: ignore[attr-defined]
        return f if f._field_type is dataclasses._FIELD else None  # type: ignore[attr-defined]
    named = globals.get(match.group(2))
    typing = sys.modules.get("typing")
    if named is dataclasses.KW_ONLY or dataclasses._is_initvar(named, dataclasses) or (  # type: ignore[attr-defined]
            typing is not None and dataclasses._is_classvar(named, typing)):  # type: ignore[attr-defined]
        return None
    # what `_get_field` makes of a plain field, in its order
    default = getattr(cls, name, dataclasses.MISSING)
    if isinstance(default, dataclasses.Field):
        f = default
    else:
        if isinstance(default, MemberDescriptorType):  # a slot: no default
            default = dataclasses.MISSING
        # what field(default=default) makes, without the call
        f = dataclasses.Field(default, dataclasses.MISSING, True, True, None, True, None,  # type: ignore[arg-type]
                              dataclasses.MISSING)  # type: ignore[arg-type]
    f.name = name
    f.type = kind
    f._field_type = dataclasses._FIELD  # type: ignore[attr-defined]
    if f.kw_only is dataclasses.MISSING:
        f.kw_only = False
    if f.default.__class__.__hash__ is None:
        return None  # a mutable default: dataclasses refuses it
    return f


def _value(name: str, fields: dict[str, Any], values: dict[str, Any]) -> Any:
    """The value `_process_class` gives the local `name` of a method's `__create_fn__`."""
    if name.startswith("_type_"):
        return fields[name[6:]].type
    if name.startswith("_dflt_"):
        f = fields[name[6:]]
        return f.default_factory if f.default_factory is not dataclasses.MISSING else f.default
    return values[name]


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
