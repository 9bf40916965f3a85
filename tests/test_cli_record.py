"""The command line read from the recorded declarations (`pddltools.cli_record`) is argparse's reading:
for every command, a command line the reader reads gives the namespace argparse gives (every
attribute, the command's `func` too); whatever argparse would refuse or answer with help the reader
declines. Ordinary command lines are read without argparse."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pddltools.cli import COMMAND_TABLE, GROUPS, record
from pddltools.cli_argparse import parse_command_line
from pddltools.cli_record import Recorder, read

ROOT = Path(__file__).resolve().parent.parent

#: Every command as its words on the command line: top-level ones, and each group's.
COMMANDS = sorted({(name,) for entry in COMMAND_TABLE if entry.group is None for name in entry.names}
                  | {("parse",), ("fmt",)}
                  | {(entry.group, name) for entry in COMMAND_TABLE if entry.group for name in entry.names})


@cache
def recording(words: tuple[str, ...]) -> Recorder:
    return record(words[0], subcommand=words[1] if len(words) > 1 else None)


@cache
def replayed(words: tuple[str, ...]) -> Any:
    return recording(words).replay()


def by_argparse(words: tuple[str, ...], argv: list[str]) -> dict[str, Any] | None:
    """argparse's namespace, from the recording replayed, or None where argparse exits (help, error)."""
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            return dict(vars(parse_command_line(replayed(words), argv)))
        except SystemExit:
            return None


def leaf(words: tuple[str, ...]) -> Recorder:
    parser = recording(words)
    for word in words:
        assert parser.subparsers is not None
        parser = parser.subparsers.choices[word]
    return parser


def agrees(words: tuple[str, ...], argv: list[str]) -> bool:
    """Whether the reader agrees with argparse on `argv`; True if it read it, False if it declined."""
    direct = read(recording(words), argv)
    if direct is None:
        return False
    assert vars(direct) == by_argparse(words, argv), argv
    return True


#: Command lines of the docs and the tests, each read directly, as argparse reads it.
ORDINARY = [
    ["validate", "domain.pddl", "problem.pddl", "plan.1"],
    ["validate", "domain.pddl", "problem.pddl", "plan.1", "plan.2", "plan.3"],
    ["validate", "problem.pddl", "plan.1"],
    ["validate", "--format", "json", "domain.pddl", "problem.pddl", "plan.1"],
    ["validate", "domain.pddl", "problem.pddl", "plan.1", "--format=json"],
    ["validate", "-v", "--trace", "domain.pddl", "problem.pddl", "plan.1", "--tolerance", "0.001"],
    ["validate", "--domain", "d.pddl", "problem.pddl", "plan.1", "--epsilon=0.01", "--delta", "0.1"],
    ["validate", "--batch", "list.tsv", "--format", "json"],
    ["validate", "--verbose", "--verbose", "domain.pddl", "problem.pddl", "plan.1"],
    ["validate"],
    ["check", "domain.pddl", "p1.pddl", "p2.pddl", "--strict"],
    ["check", "--each", "a.pddl", "b.pddl"],
    ["check", "--track", "ipc2014-sat", "--track", "ipc2008-seq-opt", "domain.pddl"],
    ["parse", "corpus", "--format", "json"],
    ["fmt", "--check", "a.pddl", "b.pddl"],
    ["explain", "E110"],
    ["explain"],
    ["schema", "validate"],
    ["rddl", "parse", "a.rddl", "b.rddl"],
    ["view", "domain.pddl", "problem.pddl", "plan.1", "-o", "out.html"],
]


@pytest.mark.parametrize("argv", ORDINARY, ids=" ".join)
def test_an_ordinary_command_line_is_read_directly_as_argparse_reads_it(argv: list[str]) -> None:
    words = tuple(argv[:2]) if argv[0] in GROUPS else (argv[0],)
    assert agrees(words, argv)


#: Command lines argparse answers with help or an error, or reads in a way the reader leaves to it.
DECLINED = [
    ["validate", "-h"], ["validate", "--help"], ["validate", "--form", "json", "d", "p", "plan"],
    ["validate", "--format", "xml", "d", "p", "plan"], ["validate", "--format"], ["validate", "--format="],
    ["validate", "--", "d", "p", "plan"], ["validate", "d", "--format", "json", "p"], ["validate", "-"],
    ["validate", "--tolerance", "-1", "d"], ["validate", "--tolerance", "abc"], ["validate", "--bogus"],
    ["validate", "-vv", "d"], ["validate", "--trace=yes"], ["validate", "--version"],
    ["fmt", "--check", "--write", "a.pddl"], ["fmt"], ["check", "--track", "nope", "d.pddl"],
    ["rddl"], ["rddl", "--help"], ["rddl", "nope"], ["explain", "E1", "E2"],
]


@pytest.mark.parametrize("argv", DECLINED, ids=" ".join)
def test_the_reader_declines_what_argparse_must_answer(argv: list[str]) -> None:
    words = tuple(argv[:2]) if argv[0] in GROUPS and len(argv) > 1 and argv[1] in dict(
        (name, 0) for entry in COMMAND_TABLE if entry.group == argv[0] for name in entry.names) else (argv[0],)
    assert read(recording(words), argv) is None


def test_help_and_nothing_at_all_are_argparse_s() -> None:
    top = record()
    assert read(top, []) is None and read(top, ["--help"]) is None and read(top, ["--version"]) is None


def pieces(parser: Recorder) -> st.SearchStrategy[list[str]]:
    """A piece of a command line for `parser`: an option (as given, `--opt=value`, abbreviated) with
    the values it takes or not, a word, or something argparse treats its own way."""
    options = [a for a in parser.arguments if a.flags]
    choices = sorted({str(c) for a in parser.arguments if a.choices is not None for c in a.choices})
    word = st.sampled_from(["d.pddl", "p.pddl", "plan.1", "0.5", "7", "0", "-1", "", "x y", "json", "text",
                            *choices])
    flag = st.sampled_from(sorted({f for a in options for f in a.flags}))
    return st.one_of(
        st.lists(word, min_size=1, max_size=3),
        st.tuples(flag, st.lists(word, max_size=2)).map(lambda t: [t[0], *t[1]]),
        st.tuples(flag.filter(lambda f: f.startswith("--")), word).map(lambda t: [f"{t[0]}={t[1]}"]),
        flag.filter(lambda f: len(f) > 3).map(lambda f: [f[:-1]]),
        st.sampled_from([["-h"], ["--"], ["-"], ["--bogus"], ["-x"], ["--help"], ["--version"]]),
    )


def minimal(words: tuple[str, ...]) -> list[str]:
    """The command's shortest ordinary command line: its required positionals and options, with a value
    each (an option's first choice)."""
    argv = [*words]
    for argument in leaf(words).arguments:
        if not argument.flags and argument.nargs in (None, "+"):
            argv.append("1")
        if argument.flags and argument.required:
            argv += [argument.flags[0], str(next(iter(argument.choices))) if argument.choices else "1"]
    return argv


@pytest.mark.parametrize("words", COMMANDS, ids=" ".join)
def test_every_command_s_declarations_are_known_to_the_reader(words: tuple[str, ...]) -> None:
    assert leaf(words).understood() and agrees(words, minimal(words))


@pytest.mark.parametrize("words", COMMANDS, ids=" ".join)
def test_every_command_line_the_reader_reads_is_read_as_argparse_reads_it(words: tuple[str, ...]) -> None:
    """Options before and after the positionals, `--opt=value`, repeated options, values missing or
    beside the choices, abbreviations, help: read as argparse reads them, or left to argparse."""
    parser = leaf(words)
    read_directly: list[list[str]] = []

    @settings(max_examples=50, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(pieces(parser), max_size=4), st.booleans(), st.lists(pieces(parser), max_size=3))
    def check(before: list[list[str]], ordinary: bool, after: list[list[str]]) -> None:
        middle = minimal(words)[len(words):] if ordinary else []
        argv = [*words, *(word for piece in before for word in piece), *middle,
                *(word for piece in after for word in piece)]
        if agrees(words, argv):
            read_directly.append(argv)

    check()
    assert read_directly  # not every case declined: the comparison compared


def test_validate_and_check_are_known_to_the_reader() -> None:
    assert leaf(("validate",)).understood() and leaf(("check",)).understood()


def test_an_unknown_action_leaves_the_command_to_argparse() -> None:
    parser = Recorder(prog="probe")
    sub = parser.add_subparsers()
    probe = sub.add_parser("probe")
    probe.add_argument("--many", action="extend", nargs="+")
    probe.add_argument("file")
    assert not probe.understood() and read(parser, ["probe", "a"]) is None
    plain = sub.add_parser("plain")
    plain.add_argument("file")
    plain.set_defaults(func=print)
    assert vars(read(parser, ["plain", "a"]) or {}) == {"file": "a", "func": print}


def test_a_validate_run_imports_no_argparse_and_a_usage_error_is_argparse_s() -> None:
    adl = ROOT / "corpus" / "plans" / "adl"
    probe = ("import sys; from pddltools.cli import main; status = main(sys.argv[1:]); "
             "print(status, sorted({'argparse', 'gettext', 'locale'} & set(sys.modules)))")
    plans = [str(adl / "domain.pddl"), str(adl / "problem.pddl"), str(adl / "valid.plan")]
    done = subprocess.run([sys.executable, "-c", probe, "validate", "--format", "json", *plans], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.stdout.splitlines()[-1] == "0 []"
    wrong = subprocess.run([sys.executable, "-c", probe, "validate", "--format", "xml", *plans], cwd=ROOT,
                           capture_output=True, text=True, timeout=120, check=False)
    assert wrong.returncode == 2 and "argument --format: invalid choice: 'xml'" in wrong.stderr


def synthetic() -> Recorder:
    """A command declaring what no command of the table uses yet, each kind the reader knows."""
    parser = Recorder(prog="probe")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    probe = sub.add_parser("probe", help="a probe")
    probe.add_argument("first", nargs="?", default="7", type=int)
    probe.add_argument("rest", nargs="*", type=str.upper)
    probe.add_argument("--level", "-l", action="count")
    probe.add_argument("--quiet", action="store_false", dest="loud")
    probe.add_argument("--mode", action="store_const", const="fast", default="slow")
    probe.add_argument("--tag", action="append_const", const="t")
    probe.add_argument("--size", type=int, default="3", choices=range(10))
    probe.add_argument("--names", nargs="+", action="append")
    group = probe.add_argument_group("more")
    either = group.add_mutually_exclusive_group()
    either.add_argument("--left", action="store_true")
    either.add_argument("--right", action="store_true")
    probe.set_defaults(func=len)
    return parser


@settings(max_examples=300, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(["--level", "-l", "--quiet", "--mode", "--tag", "--size", "--size=4", "--size=12",
                                 "--names", "a", "b", "5", "x", "--left", "--right", "-ll", "--lev", "--", "-h"]),
                max_size=8))
def test_every_kind_of_argument_the_reader_knows_is_read_as_argparse_reads_it(argv: list[str]) -> None:
    recorded = synthetic()
    assert recorded.subparsers is not None and recorded.subparsers.choices["probe"].understood()
    parser = recorded.replay()
    direct = read(recorded, ["probe", *argv])
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            expected: dict[str, Any] | None = dict(vars(parse_command_line(parser, ["probe", *argv])))
        except SystemExit:
            expected = None
    if direct is not None:
        assert vars(direct) == expected
    if argv in ([], ["--level", "--quiet", "5", "a", "b"], ["--names", "a", "b", "--names", "x", "--left"]):
        assert direct is not None
