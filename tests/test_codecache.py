"""The AST's classes built through `pddltools.codecache` are the classes `dataclasses` builds without it:
every generated method of every node class has the same code, and the cache survives between runs; the
same for classes of `attrs` (the language server's protocol types) built through `AttrsCode`."""

from __future__ import annotations
import __future__

import contextlib
import dataclasses
import decimal
import importlib.util
import inspect
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from pddltools import codecache, dialects
from pddltools.pddl import ast

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__")


def node_classes(module: ModuleType) -> dict[str, type]:
    return {name: value for name, value in vars(module).items()
            if inspect.isclass(value) and dataclasses.is_dataclass(value) and value.__module__ == module.__name__}


def build(name: str, path: str | None = None, *, cache: str | None = None) -> ModuleType:
    """Another build of a module's file (pddltools/pddl/ast.py by default) as module `name`, with a
    `MethodCode` of its own open when `cache` names one (the AST opens its own)."""
    spec = importlib.util.spec_from_file_location(name, path or ast.__file__)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses looks the module up while building
    try:
        with codecache.MethodCode(cache) if cache else contextlib.nullcontext():
            spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return module


@pytest.fixture(scope="module")
def uncached() -> ModuleType:
    """A second build of pddltools/pddl/ast.py with the cache off."""
    codecache.enabled = False
    try:
        return build("pddltools.pddl._ast_uncached")
    finally:
        codecache.enabled = True


@pytest.mark.parametrize("path", [ast.__file__, dialects.__file__], ids=["slotted AST", "the language registry"])
def test_classes_built_from_the_kept_code_are_the_classes_dataclasses_builds(
        path: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build that finds every class's methods kept (the second with one cache folder) builds no class
    through `dataclasses`, and builds the same classes: the same namespace in the same order, fields,
    methods and what their closures hold; for slotted classes (the AST) and others (`Dialect`)."""
    if not codecache._CLASSES:
        pytest.skip("another Python than 3.11: dataclasses builds every class")
    cache = None if path == ast.__file__ else "test-registry"
    codecache.enabled = False
    try:
        plain = node_classes(build("pddltools._plain", path))
    finally:
        codecache.enabled = True
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    build("pddltools._first", path, cache=cache)  # an empty cache: dataclasses builds, the code is kept
    recorded: list[str] = []
    record = codecache._Classes._record

    def counted(self: codecache._Classes, cls: type, arguments: tuple[bool, ...]) -> type:
        recorded.append(cls.__qualname__)
        return record(self, cls, arguments)

    monkeypatch.setattr(codecache._Classes, "_record", counted)
    kept = node_classes(build("pddltools._kept", path, cache=cache))
    assert recorded == []
    assert len(kept) >= (45 if cache is None else 2) and kept.keys() == plain.keys()
    for name, cls in kept.items():
        other = plain[name]
        assert list(vars(cls)) == list(vars(other)), name
        assert getattr(cls, "__slots__", None) == getattr(other, "__slots__", None), name
        assert cls.__doc__ == other.__doc__, name
        assert cls.__match_args__ == other.__match_args__, name  # type: ignore[attr-defined]
        assert cls.__dataclass_params__.__repr__() == other.__dataclass_params__.__repr__(), name  # type: ignore[attr-defined]
        assert list(map(described, dataclasses.fields(cls))) == list(map(described, dataclasses.fields(other))), name
        for method in (*GENERATED, "__getstate__", "__setstate__"):
            mine, theirs = getattr(cls, method, None), getattr(other, method, None)  # type: Any, Any
            if not inspect.isfunction(theirs):
                assert mine is theirs, (name, method)  # object's own
                continue
            assert mine.__code__ == theirs.__code__ and mine.__qualname__ == theirs.__qualname__, (name, method)
            assert comparable(mine.__defaults__) == comparable(theirs.__defaults__), (name, method)
            assert mine.__annotations__ == theirs.__annotations__, (name, method)
            assert held(mine) == held(theirs), (name, method)


def described(f: dataclasses.Field[Any]) -> tuple[object, ...]:
    """A field as `dataclass` made it, a default function by its code (each build has its own)."""
    return (f.name, f.type, comparable(f.default), comparable(f.default_factory), f.init, f.repr, f.hash,
            f.compare, dict(f.metadata), f.kw_only, f._field_type)  # type: ignore[attr-defined]


def held(function: Any) -> list[object]:
    """What a function's closure holds."""
    return [comparable(c.cell_contents) for c in function.__closure__ or ()]


def comparable(value: object) -> object:
    """`value`, with the classes and functions in it by name and code (two builds' are distinct objects)."""
    if isinstance(value, tuple):
        return tuple(map(comparable, value))
    if isinstance(value, type):
        return (type, value.__qualname__)
    if inspect.isfunction(value):
        return (value.__code__, value.__qualname__)
    return value


def test_every_node_class_has_the_methods_dataclasses_builds(uncached: ModuleType) -> None:
    cached, plain = node_classes(ast), node_classes(uncached)
    assert len(cached) >= 45 and cached.keys() == plain.keys()
    for name, cls in cached.items():
        other = plain[name]
        assert cls.__slots__ == other.__slots__, name
        assert cls.__match_args__ == other.__match_args__, name  # type: ignore[attr-defined]
        assert cls.__doc__ == other.__doc__, name
        assert [(f.name, f.default, f.compare, f.hash, f.repr, f.kw_only) for f in dataclasses.fields(cls)] == \
               [(f.name, f.default, f.compare, f.hash, f.repr, f.kw_only) for f in dataclasses.fields(other)], name
        assert cls.__dataclass_params__.frozen and cls.__dataclass_params__.eq, name  # type: ignore[attr-defined]
        for method in GENERATED:
            mine, theirs = cls.__dict__.get(method), other.__dict__.get(method)
            assert (mine is None) == (theirs is None), (name, method)
            if mine is not None:
                assert mine.__code__ == theirs.__code__, (name, method)
                assert mine.__qualname__ == theirs.__qualname__, (name, method)
                assert mine.__defaults__ == theirs.__defaults__ or method == "__init__", (name, method)


def test_nodes_behave_as_dataclasses() -> None:
    span_a = ast.Variable("?x")
    atom = ast.Atom("at", (ast.Variable("?x"), ast.Constant("home")))
    moved = dataclasses.replace(atom, predicate="near")
    assert moved.predicate == "near" and moved.args == atom.args
    assert ast.Variable("?x") == span_a and hash(ast.Variable("?x")) == hash(span_a)
    with pytest.raises(dataclasses.FrozenInstanceError):
        atom.predicate = "x"  # type: ignore[misc]
    assert repr(span_a) == "Variable(name='?x')"


def test_the_cache_is_written_once_and_read_after(tmp_path: Path) -> None:
    env = {"XDG_CACHE_HOME": str(tmp_path), "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    probe = "import pddltools.pddl.ast, pddltools.codecache as c; print(len(pddltools.pddl.ast.Atom.__slots__))"
    first = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    (written,) = (tmp_path / "pddltools").glob("pddl-ast-*.code")
    stamp = written.stat().st_mtime_ns
    second = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert first.stdout == second.stdout
    assert written.stat().st_mtime_ns == stamp, "a run that compiled nothing afresh rewrote the cache"
    written.write_bytes(b"not marshal data")
    third = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert third.stdout == first.stdout and written.read_bytes() != b"not marshal data"


def test_a_command_keeps_the_code_of_its_modules_dataclasses(tmp_path: Path) -> None:
    adl = ROOT / "corpus" / "plans" / "adl"
    env = {"XDG_CACHE_HOME": str(tmp_path), "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    argv = [sys.executable, "-m", "pddltools", "validate", str(adl / "domain.pddl"), str(adl / "problem.pddl"),
            str(adl / "valid.plan")]
    first = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
    (written,) = (tmp_path / "pddltools").glob("command-validate-*.code")
    stamp = written.stat().st_mtime_ns
    second = subprocess.run(argv, env=env, capture_output=True, text=True, check=True)
    assert first.stdout == second.stdout and "valid, value 8" in first.stdout
    assert written.stat().st_mtime_ns == stamp
    odd = subprocess.run([sys.executable, "-m", "pddltools", "../x"], env=env, capture_output=True, text=True)
    assert odd.returncode == 2
    assert sorted(p.name.split("-")[1] for p in (tmp_path / "pddltools").glob("command-*")) == ["validate"]


#: A `validate` run in this process, then every dataclass of its modules: each field's kind and whether it
#: has a default, and whether `typing` was imported.
DATACLASS_PROBE = """
import contextlib, io, json, sys
if sys.argv[1] == "typing first":
    import typing
from pddltools.entry import main
with contextlib.redirect_stdout(io.StringIO()):
    main(sys.argv[2:])
classes = {}
for module in [m for name, m in sorted(sys.modules.items()) if name.startswith("pddltools")]:
    for value in vars(module).values():
        fields = getattr(value, "__dataclass_fields__", None)
        if isinstance(value, type) and fields and value.__module__ == module.__name__:
            classes[module.__name__ + "." + value.__qualname__] = {
                name: [f._field_type.name, str(f.type), f.default is f.default_factory]
                for name, f in fields.items()}
print(json.dumps({"typing": "typing" in sys.modules, "classes": classes}))
"""


def test_a_runs_dataclasses_have_the_same_fields_whether_typing_is_imported_or_not(tmp_path: Path) -> None:
    """`dataclasses` tells a `ClassVar` annotation given as text from a field only where `typing` is
    imported (Python 3.11 reads `sys.modules`), and `codecache._plain_field` as it does: a `validate` run,
    which imports no typing, must build every dataclass it builds as a process with typing does; and no
    annotation that names `ClassVar` or `InitVar` may have become a field (a name imported for the type
    checker only is not found where `dataclasses` looks)."""
    adl = ROOT / "corpus" / "plans" / "adl"
    argv = ["validate", str(adl / "domain.pddl"), str(adl / "problem.pddl"), str(adl / "valid.plan")]
    env = {"XDG_CACHE_HOME": str(tmp_path), "PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    runs = [json.loads(subprocess.run([sys.executable, "-c", DATACLASS_PROBE, first, *argv], env=env, cwd=ROOT,
                                      capture_output=True, text=True, check=True).stdout)
            for first in ("as a command runs", "typing first", "as a command runs")]  # cold cache, then warm
    assert [run["typing"] for run in runs[1:]] == [True, False]  # (a cold cache's run imports Lark, and typing)
    cold, with_typing, without = (run["classes"] for run in runs)
    assert len(with_typing) > 60  # the AST's, the semantics', the validator's
    assert without == with_typing
    assert {name: fields for name, fields in cold.items() if name in without} == without  # (it builds more)
    named = [(cls, name) for cls, fields in without.items() for name, (kind, text, _) in fields.items()
             if kind == "_FIELD" and ("ClassVar" in text or "InitVar" in text)]
    assert named == []


ATTRS_MODULE = '''
from __future__ import annotations

import attrs


@attrs.define
class Position:
    line: int
    character: int = 0


@attrs.frozen(order=True, kw_only=True)
class Range:
    start: Position
    end: Position = attrs.field(factory=lambda: Position(0))
    label: str | None = attrs.field(default=None, eq=False)


@attrs.define(slots=False)
class Loose:
    items: list[int] = attrs.field(factory=list, validator=attrs.validators.instance_of(list))
'''


def _attrs_build(folder: Path, cache: str | None) -> dict[tuple[str, str], object]:
    """The generated methods' code of a fresh build of ATTRS_MODULE (through `AttrsCode(cache)` when given)."""
    pytest.importorskip("attrs")
    path = folder / "protocol_probe.py"
    path.write_text(ATTRS_MODULE, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("protocol_probe", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    try:
        if cache is None:
            spec.loader.exec_module(module)
        else:
            with codecache.AttrsCode(cache) as opened:
                spec.loader.exec_module(module)
            assert opened.used, "attrs compiled nothing through the cache"
    finally:
        del sys.modules[spec.name]
    return {(cls.__name__, name): method.__code__ for cls in (module.Position, module.Range, module.Loose)
            for name, method in vars(cls).items()
            if inspect.isfunction(method) and method.__code__.co_filename.startswith("<attrs generated")}


def test_attrs_classes_built_through_the_cache_have_attrs_own_code(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    compiled = _attrs_build(tmp_path, "probe-attrs")
    (written,) = (tmp_path / "pddltools").glob("probe-attrs-*.code")
    stamp = written.stat().st_mtime_ns
    cached = _attrs_build(tmp_path, "probe-attrs")
    plain = _attrs_build(tmp_path, None)
    assert len(plain) >= 10 and {"__init__", "__eq__", "__repr__"} <= {name for _, name in plain}
    assert compiled == cached == plain  # code objects: byte code, constants, names, flags, file name
    assert written.stat().st_mtime_ns == stamp, "a build that compiled nothing afresh rewrote the cache"
    assert __future__.annotations.compiler_flag == codecache._ATTRS_FLAGS


def test_dataclasses_imported_through_the_cache_write_their_docstrings_with_inspect_imported_late() -> None:
    """`pddltools.codecache` imports `dataclasses` with a stand-in for `inspect`: a class made after it,
    with no cache open, still gets the docstring `dataclass` writes, and `inspect` is then the real one;
    the same for `copy`, which `asdict` and `astuple` import at their first use."""
    probe = """
import sys
import pddltools.codecache
import dataclasses
print("inspect" in sys.modules)
@dataclasses.dataclass(frozen=True)
class Point:
    x: int
    y: "list[int]" = dataclasses.field(default_factory=list)
print(Point.__doc__, "inspect" in sys.modules, dataclasses.inspect is sys.modules["inspect"])
print("copy" in sys.modules, dataclasses.asdict(Point(1, [2])), dataclasses.astuple(Point(3)),
      dataclasses.copy is sys.modules["copy"])
"""
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert done.stdout.split("\n")[:3] == ["False", "Point(x: int, y: 'list[int]' = <factory>) True True",
                                           "False {'x': 1, 'y': [2]} (3, []) True"]


def test_patterns_compiled_while_open_are_kept_and_equal_to_what_re_compiles(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pattern compiled while a cache is open is made, the next time, from the kept program without
    `re`'s parser, and equals `re`'s own compilation (a pattern's equality compares its program)."""
    if not codecache._PATTERNS:
        pytest.skip("the pattern cache follows Python 3.11's re")
    import re

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    shapes = [r"(?P<head>\(\s*)(?:aN|b)+(?P=head)?", r"[^\s()]{N,}", r"(?i)xN(?=y)"]
    texts = [shape.replace("N", str(n)) for n in (7919, 104729) for shape in shapes]  # in no one's cache
    flags = [0, re.IGNORECASE | re.MULTILINE, re.ASCII]

    def compile_all() -> list[re.Pattern[str]]:
        re.purge()  # re's own cache would answer without asking the compiler
        with codecache.MethodCode("patterns-test"):
            return [re.compile(text, flag) for text in texts for flag in flags]

    first = compile_all()
    assert list((tmp_path / "pddltools").glob("patterns-test-*.code")), "nothing was kept"

    def no_parsing(*arguments: object) -> None:
        raise AssertionError("a kept pattern was parsed again")

    with monkeypatch.context() as patched:
        patched.setattr(codecache._re_parser, "parse", no_parsing)
        second = compile_all()
    re.purge()
    plain = [re.compile(text, flag) for text in texts for flag in flags]
    assert first == second == plain
    assert [p.groupindex for p in second] == [p.groupindex for p in plain]
    match = second[0].match("( a7919b( ")
    assert match is not None and match.group("head") == "( " and match.end() == 10
    assert not isinstance(getattr(codecache._re_compiler.compile, "__self__", None), codecache.MethodCode)


def test_fractions_imported_without_decimal_work_as_with_it() -> None:
    """`fractions` imported through the code cache does not import `decimal` until a Fraction is made
    of a text, a float or a Decimal (it asks whether the value is a Decimal); then it holds the real
    `Decimal`, and every Fraction is what it would have been."""
    probe = """
import sys
import pddltools.codecache
import fractions
from fractions import Fraction
assert "decimal" not in sys.modules, "imported with fractions"
assert Fraction(3, 6) == Fraction(1, 2) and Fraction(2.5) == Fraction(5, 2) and "decimal" not in sys.modules
assert Fraction("1.5") == Fraction(3, 2) and "decimal" in sys.modules
import decimal
assert fractions.Decimal is decimal.Decimal
assert Fraction(decimal.Decimal("1.47")) == Fraction(147, 100) == Fraction.from_decimal(decimal.Decimal("1.47"))
assert not isinstance(Fraction(1), decimal.Decimal) and isinstance(decimal.Decimal(1), fractions.Decimal)
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout == "ok\n", done.stderr
    stand_in = codecache._Decimal
    assert isinstance(decimal.Decimal("2"), stand_in) and not isinstance(2.0, stand_in)
    assert issubclass(decimal.Decimal, stand_in) and stand_in("0.5") == decimal.Decimal("0.5")
