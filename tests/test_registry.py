"""The language registry (pddltools.dialects): no module outside it and the extensions' own packages tells
the registry's languages apart, no private name crosses a package, and no import cycle spans packages
(the checker and HDDL once imported each other)."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Hashable, Iterator
from pathlib import Path

import pytest

from pddltools import dialects
from pddltools.diagnostics import Source

PACKAGE = Path(__file__).resolve().parents[1] / "pddltools"


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _package(module: str) -> str:
    return ".".join(module.split(".")[:2])


MODULES = {_module(p): p for p in PACKAGE.rglob("*.py")}
TREES = {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in MODULES.items()}


def _owners(dialect: dialects.Dialect) -> set[str]:
    """The modules allowed to name `dialect`: the registry, the dialect's package and its server module."""
    owners = {_package(dialect.implementation), "pddltools.dialects", *([dialect.server] if dialect.server else [])}
    return {m for m in MODULES if any(m == o or m.startswith(o + ".") for o in owners)}


def _words(dialect: dialects.Dialect) -> set[str]:
    return {dialect.name, *dialect.suffixes} - set(dialects.CORE.suffixes) - {dialects.CORE.name}


def _switches(tree: ast.AST, words: set[str]) -> Iterator[ast.AST]:
    """Comparisons with a language's name or suffix (`doc.language == "hddl"`, `suffix in (".hddl", ...)`),
    `path.endswith(".hddl")`, and calls of an is-it-that-language helper."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for side in [node.left, *node.comparators]:
                if any(isinstance(c, ast.Constant) and c.value in words for c in ast.walk(side)):
                    yield node
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if name in {"endswith", "startswith"} and any(
                    isinstance(c, ast.Constant) and c.value in words for a in node.args for c in ast.walk(a)):
                yield node
            if any(name == f"is_{w}" for w in words):
                yield node


def test_no_module_outside_the_registry_switches_on_a_registered_language() -> None:
    every = {w for d in dialects.DIALECTS[1:] for w in _words(d)}
    found = []
    for name, tree in TREES.items():
        for node in _switches(tree, every):  # then: is the module allowed to name that language?
            named = [d for d in dialects.DIALECTS[1:] if list(_switches(node, _words(d)))]
            if any(name not in _owners(d) for d in named):
                found.append(f"{MODULES[name].name}:{node.lineno}: {ast.unparse(node)}")  # type: ignore[attr-defined]
    assert found == []


def test_the_switch_detector_sees_a_switch() -> None:
    switch = ast.parse('if doc.language == "hddl" or path.endswith(".hddl") or is_hddl(path): pass')
    assert len(list(_switches(switch, {"hddl", ".hddl"}))) == 3
    assert list(_switches(ast.parse('if doc.language == "pddl": pass'), {"hddl", ".hddl"})) == []


def _imports(tree: ast.AST) -> list[tuple[str, str | None]]:
    """(module, name) of each import of pddltools, at any depth, except those only for type checking."""
    return list(_each_import(tree))


def _each_import(tree: ast.AST) -> Iterator[tuple[str, str | None]]:
    typing_only = {id(n) for node in ast.walk(tree)
                   if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("pddltools"):
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                yield (full, None) if full in MODULES else (node.module, alias.name)
        elif isinstance(node, ast.Import):
            yield from ((a.name, None) for a in node.names if a.name.startswith("pddltools"))


IMPORTS = {name: _imports(tree) for name, tree in TREES.items()}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_attributes(tree: ast.AST) -> Iterator[tuple[str, str]]:
    """(module, name) of each `module._name` read through an imported module (`from pddltools.pddl import
    printer` ... `printer._FLAT`): a private name taken without importing it."""
    modules: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("pddltools"):
            modules.update((a.asname or a.name, f"{node.module}.{a.name}") for a in node.names
                           if f"{node.module}.{a.name}" in MODULES)
        elif isinstance(node, ast.Import):
            modules.update((a.asname, a.name) for a in node.names if a.name.startswith("pddltools") and a.asname)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules \
                and _private(node.attr):
            yield modules[node.value.id], node.attr


def test_no_private_name_crosses_a_package() -> None:
    crossing = [f"{name} imports {module}.{imported}" for name, found in IMPORTS.items()
                for module, imported in found
                if imported is not None and _private(imported) and _package(module) != _package(name)]
    crossing += [f"{name} reads {module}.{attribute}" for name, tree in TREES.items()
                 for module, attribute in private_attributes(tree) if _package(module) != _package(name)]
    assert crossing == []


def test_a_private_name_read_through_its_module_is_seen() -> None:
    tree = ast.parse("from pddltools.pddl import printer\nimport pddltools.codes as codes\n"
                     "printer._FLAT\ncodes._USAGE\nprinter.to_pddl\nprinter.__doc__")
    assert list(private_attributes(tree)) == [("pddltools.pddl.printer", "_FLAT"), ("pddltools.codes", "_USAGE")]


# -------------------------------------------------------------------------------------------------
# Floors: the table in docs/architecture.md is the rule

ARCHITECTURE = PACKAGE.parent / "docs" / "architecture.md"
_ROW = re.compile(r"^\| (\d+)\. ([a-z ]+) \| (.+) \|$")

#: Imports that climb a floor, each with why it is still there (none now).
KNOWN_CLIMBS: set[tuple[str, str]] = set()


def floor_table(text: str) -> dict[str, tuple[int, str]]:
    """Entry (a module, or `pddltools.*.cli`) → (floor, floor's name), from the "Floors" section."""
    section = text.split("\n## Floors\n", 1)[1].split("\n## ", 1)[0]
    table = {}
    for line in section.splitlines():
        row = _ROW.match(line)
        if row:
            for entry in re.findall(r"`([\w.*]+)`", row[3]):
                assert entry not in table, f"{entry} is on two floors"
                table[entry] = (int(row[1]), row[2])
    return table


FLOORS = floor_table(ARCHITECTURE.read_text(encoding="utf-8"))


def floor_of(module: str, table: dict[str, tuple[int, str]] = FLOORS) -> tuple[int, str]:
    """The floor of the most specific entry naming `module` or a package above it."""
    parts = module.split(".")
    for length in range(len(parts), 0, -1):
        head = parts[:length]
        for entry in (".".join(head), ".".join([*head[:-2], "*", head[-1]]) if length > 2 else None):
            if entry in table:
                return table[entry]
    raise KeyError(module)


def _unit(module: str) -> tuple[str, int]:
    """A package's modules on one floor: what imports must not go round between."""
    return _package(module), floor_of(module)[0]


def _edges() -> list[tuple[str, str]]:
    return [(name, module) for name, found in IMPORTS.items() for module, _ in found
            if module in MODULES and module != name and (name, module) not in KNOWN_CLIMBS]


def test_every_module_stands_on_a_floor_of_the_architecture_page() -> None:
    unplaced = []
    for name in MODULES:
        try:
            floor_of(name)
        except KeyError:
            unplaced.append(name)
    assert unplaced == [], "add them to the Floors table of docs/architecture.md"
    assert floor_of("pddltools.check.cli")[1] == "commands" and floor_of("pddltools.check.report")[1] == "passes"
    assert floor_of("pddltools.hddl.verify")[1] == "validation" and floor_of("pddltools.hddl.ast")[1] == "languages"


def test_no_module_imports_from_a_higher_floor() -> None:
    climbing = [f"{name} ({floor_of(name)[1]}) imports {module} ({floor_of(module)[1]})"
                for name, module in _edges() if floor_of(module)[0] > floor_of(name)[0]]
    assert climbing == []


def test_the_known_climbs_are_still_there() -> None:
    # when one goes, its entry goes: the list never hides a new import
    assert all(module in {m for m, _ in IMPORTS[name]} for name, module in KNOWN_CLIMBS)


def closing_cycles(edges: list[tuple[str, str]], unit: Callable[[str], Hashable]) -> list[tuple[Hashable, Hashable]]:
    """The imports between two units (`unit` of each module) from which a chain of imports leads back."""
    graph: dict[Hashable, set[Hashable]] = {}
    for name, module in edges:
        if unit(module) != unit(name):
            graph.setdefault(unit(name), set()).add(unit(module))
    reach: dict[Hashable, set[Hashable]] = {}

    def reached(start: Hashable) -> set[Hashable]:
        if start not in reach:
            seen, stack = {start}, [start]
            while stack:
                for nxt in graph.get(stack.pop(), set()) - seen:
                    seen.add(nxt)
                    stack.append(nxt)
            reach[start] = seen
        return reach[start]

    return sorted(((a, b) for a in graph for b in graph[a] if a in reached(b)), key=str)


def test_no_import_cycle_spans_two_packages() -> None:
    """Between the packages of one floor (a language's package counts once per floor it spans), imports
    go one way: no chain leads back, through imports at any depth."""
    assert closing_cycles(_edges(), _unit) == []
    assert not any(m.startswith("pddltools.hddl") for name in MODULES if name.startswith("pddltools.check")
                   for m, _ in IMPORTS[name])


def test_the_floor_rule_sees_a_climb_and_a_cycle() -> None:
    table = floor_table("\n## Floors\n| 1. low | `a`, `a.*.cli` |\n| 2. high | `b`, `a.x.cli` |\n## Next\n")
    assert floor_of("a.y.cli", table) == (1, "low") and floor_of("a.x.cli", table) == (2, "high")
    assert floor_of("b.c", table)[0] > floor_of("a.c", table)[0]
    with pytest.raises(KeyError):
        floor_of("c", table)
    edges = [("p.one", "q.two"), ("q.two", "r.x"), ("r.y", "p.three"), ("q.two", "q.four")]
    def top(module: str) -> str:
        return module.split(".")[0]

    assert closing_cycles(edges, top) == [("p", "q"), ("q", "r"), ("r", "p")]
    assert closing_cycles(edges[:2], top) == []


@pytest.mark.parametrize(("name", "expected"), [("d.pddl", "pddl"), ("d.HDDL", "hddl"), ("d.txt", "pddl")])
def test_a_files_suffix_chooses_its_language(name: str, expected: str) -> None:
    assert dialects.of_path(name).name == expected


def test_a_parsed_file_knows_its_language_and_summary() -> None:
    node = dialects.parse(Source("(define (domain d) (:task t :parameters ()))", "d.hddl"))
    assert dialects.of_node(node).name == "hddl"
    assert dialects.summary(node)["counts"]["tasks"] == 1
    assert set(dialects.track_ids()) >= {"ipc2008-seq-sat", "ipc2023-htn-total-order"}
