"""The command table (pddltools.cli.COMMAND_TABLE): each module registers exactly the commands the table names
for it, no package adds its commands through another package's CLI, and running one command imports no
other command's package."""

from __future__ import annotations

import argparse
import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from pddltools.cli import COMMAND_TABLE, GROUPS, TableSubparsers, build_parser

PACKAGE = Path(__file__).resolve().parents[1] / "pddltools"


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices


def test_each_module_registers_the_commands_the_table_names() -> None:
    for entry in COMMAND_TABLE:
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        importlib.import_module(entry.module).register(sub)
        assert tuple(sub.choices) == entry.names, entry.module
        assert not sub._choices_actions, \
            f"{entry.module} gives help lines of its own: they belong in COMMAND_TABLE"


def test_a_module_giving_its_own_help_line_is_refused() -> None:
    sub = argparse.ArgumentParser().add_subparsers()
    table = TableSubparsers(sub, COMMAND_TABLE[0])
    with pytest.raises(TypeError, match="COMMAND_TABLE"):
        table.add_parser(COMMAND_TABLE[0].names[0], help="a second help line")


def test_help_lists_every_command_and_every_group_its_commands() -> None:
    top = _subcommands(build_parser())
    assert set(top) == {"parse", "fmt", *GROUPS, *(n for c in COMMAND_TABLE if c.group is None for n in c.names)}
    helps = {a.dest: a.help for a in next(a for a in build_parser()._actions
                                         if isinstance(a, argparse._SubParsersAction))._choices_actions}
    for entry in COMMAND_TABLE:
        if entry.group is None:
            assert [helps[n] for n in entry.names] == list(entry.helps)
    for group in GROUPS:
        inner = _subcommands(_subcommands(build_parser(group))[group])
        assert set(inner) == {n for c in COMMAND_TABLE if c.group == group for n in c.names}


def test_help_imports_no_command_package() -> None:
    probe = ("import sys, contextlib, io\nfrom pddltools.cli import main\n"
             "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
             "    try:\n        main(['--help'])\n    except SystemExit:\n        pass\n"
             "print(sorted({e.module for e in __import__('pddltools.cli').cli.COMMAND_TABLE} & set(sys.modules)))\n"
             "print('rddl' in out.getvalue() and 'validate plans against' in out.getvalue())")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120)
    imported, listed = done.stdout.splitlines()[-2:]
    assert imported == "[]" and listed == "True"


def test_no_package_registers_commands_through_another_packages_cli() -> None:
    """Only pddltools/cli.py imports a `register` of the table's modules, and only it names a group."""
    modules = {entry.module for entry in COMMAND_TABLE}
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == PACKAGE / "cli.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.ImportFrom) and node.module in modules
                    and any(alias.name.startswith("register") for alias in node.names)):
                offenders.append(f"{path.relative_to(PACKAGE)} imports {node.module}'s register")
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "add_parser" and node.args
                    and isinstance(node.args[0], ast.Constant) and node.args[0].value in GROUPS):
                offenders.append(f"{path.relative_to(PACKAGE)} creates the {node.args[0].value} group")
    assert offenders == []


def _imported_packages(argv: list[str]) -> list[str]:
    probe = ("import sys, atexit\n"
             "atexit.register(lambda: print(sorted({m.split('.')[1] for m in sys.modules if m.startswith('pddltools.')"
             " and m.split('.')[1] in ('score', 'lsp', 'rddl', 'rddl_simulation', 'rddlsim', 'compile', 'check')}),"
             " file=sys.stderr))\n"
             f"from pddltools.cli import main; main({argv!r})")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    packages: list[str] = ast.literal_eval(done.stderr.strip().splitlines()[-1])
    return packages


def test_running_one_command_imports_no_other_commands_package() -> None:
    assert _imported_packages(["validate", "--help"]) == []
    # within a group too: RDDL's syntax commands do not pay for the simulator and the protocol
    assert _imported_packages(["rddl", "parse", "--help"]) == ["rddl"]
