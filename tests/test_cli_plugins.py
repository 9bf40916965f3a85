"""The sub-commands registered lazily (pddltools.cli.PLUGINS) are exactly what each plugin registers, and
running one command imports no other command's package."""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys

from pddltools.cli import PLUGINS, build_parser


def test_each_plugin_registers_the_commands_the_table_names() -> None:
    for module, names in PLUGINS:
        parser = argparse.ArgumentParser()
        sub = parser.add_subparsers()
        importlib.import_module(module).register(sub)
        assert tuple(sub.choices) == names, module


def test_help_lists_every_command() -> None:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    every = {"parse", "fmt", *(name for _, names in PLUGINS for name in names)}
    assert set(sub.choices) == every


def test_running_one_command_imports_no_other_commands_package() -> None:
    code = ("import sys; from pddltools.cli import main; main(['validate', '--help'])")
    probe = ("import runpy, sys, atexit\n"
             "atexit.register(lambda: print(sorted(m for m in sys.modules if m.startswith('pddltools.')"
             " and m.split('.')[1] in ('score', 'lsp', 'rddl', 'compile', 'check')), file=sys.stderr))\n"
             + code)
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert done.stderr.strip().splitlines()[-1] == "[]"
