"""The command line as the commands declare it: recorded once, then read directly or replayed onto argparse.

Every command declares its arguments with argparse's own calls (`add_parser`, `add_argument`, groups,
`set_defaults`), made on a `Recorder`, which keeps them. `read` parses an ordinary command line from the
recording without importing argparse (which brings gettext and locale: 2 to 3 ms of CPU of a fresh process),
and declines (None) whatever it is not sure to read exactly as argparse would: `-h`, an abbreviation or
an unknown option, `--`, a value starting with '-', a failed type or choice, a missing argument, two
options of an exclusive group, an action it does not know. `Recorder.replay` then makes the parser
those calls make, and argparse's errors and help are its own, unchanged.
"""

from __future__ import annotations

from types import SimpleNamespace

TYPE_CHECKING = False  # typing's flag, without importing typing (mypy reads the name)
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Sequence
    from typing import Any

#: argparse.SUPPRESS: an attribute left out of the namespace.
SUPPRESS = "==SUPPRESS=="

#: What the reader knows of an argument: its actions, and the keywords that change how it is read.
_ACTIONS = frozenset(("store", "store_true", "store_false", "store_const", "append", "append_const", "count"))
_ARGUMENT_KEYWORDS = frozenset(("action", "nargs", "const", "default", "type", "choices", "required", "help",
                                "metavar", "dest", "version"))
_PARSER_KEYWORDS = frozenset(("prog", "usage", "description", "epilog", "formatter_class", "add_help", "help"))
_SUBPARSERS_KEYWORDS = frozenset(("title", "description", "metavar", "dest", "required", "help"))
_FAILED = object()  # a value the reader could not make: argparse must say why


class Argument:
    """One `add_argument` call as the reader needs it."""

    __slots__ = (
        "action",
        "choices",
        "const",
        "default",
        "dest",
        "flags",
        "group",
        "known",
        "nargs",
        "required",
        "type",
    )

    def __init__(self, flags: tuple[str, ...], options: dict[str, Any], group: int | None) -> None:
        self.flags = tuple(flag for flag in flags if flag.startswith("-"))
        action = options.get("action", "store")
        self.action: str = action if isinstance(action, str) else "custom"
        self.nargs = options.get("nargs")
        self.type: Callable[[str], Any] | None = options.get("type")
        self.choices = options.get("choices")
        self.const = options.get("const")
        self.required = bool(options.get("required", False))
        self.group = group
        if self.flags:
            longs = [flag for flag in self.flags if flag.startswith("--")]
            self.dest: str = options.get("dest") or (longs or list(self.flags))[0].lstrip("-").replace("-", "_")
        else:
            self.dest = flags[0] if flags else ""
        implicit = {"store_true": False, "store_false": True, "help": SUPPRESS, "version": SUPPRESS}
        self.default = options["default"] if "default" in options else implicit.get(self.action)
        self.known = (set(options) <= _ARGUMENT_KEYWORDS and len(flags) > 0
                      and (self.action in _ACTIONS or self.action in ("help", "version"))
                      and (self.flags == flags or (len(flags) == 1 and "dest" not in options))
                      and (self.type is None or callable(self.type))
                      and (self.nargs in (None, "*", "+") or (self.nargs == "?" and not self.flags))
                      and (self.nargs is None or self.action in ("store", "append")))


class Recorder:
    """A stand-in for `argparse.ArgumentParser` that keeps the calls made on it, in order."""

    def __init__(self, **options: Any) -> None:
        self.options = options
        self.calls: list[tuple[int, str, tuple[Any, ...], dict[str, Any], Recorder | None]] = []
        self.arguments: list[Argument] = []
        self.defaults: dict[str, Any] = {}
        self.exclusive: dict[int, bool] = {}  # an exclusive group's index: whether one of it is required
        self.subparsers: RecordedSubparsers | None = None
        self.known = set(options) <= _PARSER_KEYWORDS
        self._containers = 1  # the parser itself, then each group in the order made
        if options.get("add_help", True):
            self.arguments.append(Argument(("-h", "--help"), {"action": "help"}, None))

    # argparse's calls, as the commands make them
    def add_argument(self, *flags: str, **options: Any) -> Argument:
        return self._add(0, flags, options)

    def add_argument_group(self, *args: Any, **options: Any) -> RecordedGroup:
        return self._group(0, "add_argument_group", args, options, exclusive=False)

    def add_mutually_exclusive_group(self, **options: Any) -> RecordedGroup:
        return self._group(0, "add_mutually_exclusive_group", (), options, exclusive=True)

    def set_defaults(self, **defaults: Any) -> None:
        self.calls.append((0, "set_defaults", (), defaults, None))
        self.defaults.update(defaults)

    def add_subparsers(self, **options: Any) -> RecordedSubparsers:
        self.known = self.known and self.subparsers is None and set(options) <= _SUBPARSERS_KEYWORDS
        self.calls.append((0, "add_subparsers", (), options, None))
        self.subparsers = RecordedSubparsers(self, self._containers, options)
        self._containers += 1
        return self.subparsers

    def _add(self, container: int, flags: tuple[str, ...], options: dict[str, Any]) -> Argument:
        self.calls.append((container, "add_argument", flags, options, None))
        self.arguments.append(Argument(flags, options, container if container in self.exclusive else None))
        return self.arguments[-1]

    def _group(self, container: int, method: str, args: tuple[Any, ...], options: dict[str, Any], *,
               exclusive: bool) -> RecordedGroup:
        self.calls.append((container, method, args, options, None))
        index = self._containers
        self._containers += 1
        if container in self.exclusive:  # a group inside an exclusive one: whose arguments exclude which?
            self.known = False
        if exclusive:
            self.exclusive[index] = bool(options.get("required", False))
        return RecordedGroup(self, index)

    # argparse's parser, made by the same calls
    def replay(self) -> argparse.ArgumentParser:
        """The argparse parser these calls make (`pddltools.cli_options.ArgumentParser`)."""
        from pddltools.cli_argparse import ArgumentParser

        parser = ArgumentParser(**self.options)
        self.replay_onto(parser)
        return parser

    def replay_onto(self, parser: Any) -> None:
        containers: list[Any] = [parser]
        for container, method, args, options, child in self.calls:
            if callable(options.get("version")):  # a `--version` text made only when argparse may print it
                options = {**options, "version": options["version"]()}
            made = getattr(containers[container], method)(*args, **options)
            if method in ("add_argument_group", "add_mutually_exclusive_group", "add_subparsers"):
                containers.append(made)
            if child is not None:
                child.replay_onto(made)

    # the reader's view
    def understood(self) -> bool:
        """Whether the reader knows every declaration of this parser (its sub-commands are judged alone)."""
        dests = [a.dest for a in self.arguments if a.dest != SUPPRESS and a.action not in ("help", "version")]
        return (self.known and all(a.known for a in self.arguments) and len(dests) == len(set(dests))
                and not set(dests) & set(self.defaults) and not any(self.exclusive.values()))


class RecordedGroup:
    """An argument group, or an exclusive one, of a `Recorder`: its calls go to its parser's record."""

    def __init__(self, parser: Recorder, index: int) -> None:
        self._parser = parser
        self._index = index

    def add_argument(self, *flags: str, **options: Any) -> Argument:
        return self._parser._add(self._index, flags, options)

    def add_argument_group(self, *args: Any, **options: Any) -> RecordedGroup:
        return self._parser._group(self._index, "add_argument_group", args, options, exclusive=False)

    def add_mutually_exclusive_group(self, **options: Any) -> RecordedGroup:
        return self._parser._group(self._index, "add_mutually_exclusive_group", (), options, exclusive=True)


class RecordedSubparsers:
    """`add_subparsers`' action: `add_parser` records a sub-command's parser."""

    def __init__(self, parser: Recorder, index: int, options: dict[str, Any]) -> None:
        self._parser = parser
        self._index = index
        self.dest: str = options.get("dest") or SUPPRESS
        self.choices: dict[str, Recorder] = {}

    def add_parser(self, name: str, **options: Any) -> Recorder:
        child = Recorder(**{key: value for key, value in options.items() if key != "help"})
        child.known = child.known and set(options) <= _PARSER_KEYWORDS
        self.choices[name] = child
        self._parser.calls.append((self._index, "add_parser", (name,), options, child))
        return child


def read(parser: Recorder, argv: Sequence[str]) -> SimpleNamespace | None:
    """The namespace argparse would make of `argv` with the parser `parser` records, or None where the
    reader declines (argparse will then parse, and report what is wrong)."""
    values = _read(parser, list(argv))
    return None if values is None else SimpleNamespace(**values)


def _read(parser: Recorder, words: list[str]) -> dict[str, Any] | None:
    if not parser.understood():
        return None
    values: dict[str, Any] = {}
    for argument in parser.arguments:
        if argument.dest != SUPPRESS and argument.default is not SUPPRESS:
            values.setdefault(argument.dest, argument.default)
    for key, value in parser.defaults.items():
        values.setdefault(key, value)
    sub = parser.subparsers
    if sub is None:
        return _read_arguments(parser, words, values)
    if any(not a.flags and a.action not in ("help", "version") for a in parser.arguments):
        return None  # positionals beside the sub-commands
    if not words or words[0] not in sub.choices:
        return None
    inner = _read(sub.choices[words[0]], words[1:])
    if inner is None:
        return None
    if sub.dest != SUPPRESS:
        values[sub.dest] = words[0]
    values.update(inner)
    return values


def _read_arguments(parser: Recorder, words: list[str], values: dict[str, Any]) -> dict[str, Any] | None:
    options = {flag: a for a in parser.arguments if a.flags for flag in a.flags}
    positional_words: list[str] = []
    closed = False  # an option came after the positionals: argparse would split them
    seen: list[Argument] = []
    at = 0
    while at < len(words):
        word = words[at]
        at += 1
        if not word.startswith("-"):
            if closed:
                return None
            positional_words.append(word)
            continue
        closed = bool(positional_words)
        explicit: str | None = None
        argument = options.get(word)
        if argument is None and word.startswith("--") and "=" in word:
            name, _, explicit = word.partition("=")
            argument = options.get(name)
            if not explicit:
                return None
        if argument is None or argument.action in ("help", "version"):
            return None
        if argument.action in ("store", "append"):
            if argument.nargs is None:
                if explicit is None:
                    if at == len(words) or words[at].startswith("-"):
                        return None
                    explicit = words[at]
                    at += 1
                value = _value(argument, explicit)
            else:
                if explicit is not None:
                    return None
                given = []
                while at < len(words) and not words[at].startswith("-"):
                    given.append(words[at])
                    at += 1
                if argument.nargs == "+" and not given:
                    return None
                value = [_value(argument, text) for text in given]
                if _FAILED in value:
                    return None
            if value is _FAILED:
                return None
            if argument.action == "store":
                values[argument.dest] = value
            else:
                values[argument.dest] = [*(values.get(argument.dest) or ()), value]
        else:
            if explicit is not None:
                return None
            if argument.action == "store_true":
                values[argument.dest] = True
            elif argument.action == "store_false":
                values[argument.dest] = False
            elif argument.action == "store_const":
                values[argument.dest] = argument.const
            elif argument.action == "append_const":
                values[argument.dest] = [*(values.get(argument.dest) or ()), argument.const]
            else:  # count
                values[argument.dest] = (values.get(argument.dest) or 0) + 1
        seen.append(argument)
    for group in parser.exclusive:
        if len({id(a) for a in seen if a.group == group}) > 1:
            return None
    for argument in parser.arguments:
        if argument.flags and argument not in seen:
            if argument.required:
                return None
            if isinstance(argument.default, str) and argument.type is not None:
                converted = _converted(argument, argument.default)
                if converted is _FAILED:
                    return None
                values[argument.dest] = converted
    positionals = [a for a in parser.arguments if not a.flags]
    return values if _read_positionals(positionals, positional_words, values) else None


def _read_positionals(positionals: list[Argument], words: list[str], values: dict[str, Any]) -> bool:
    counts = _counts(positionals, len(words))
    if counts is None:
        return False
    start = 0
    for argument, taken in zip(positionals, counts, strict=True):
        given = words[start:start + taken]
        start += taken
        if argument.nargs is None or (argument.nargs == "?" and given):
            value = _value(argument, given[0])
        elif argument.nargs == "?":
            value = argument.default
            if isinstance(value, str):
                value = _value(argument, value)
        elif not given and argument.nargs == "*":
            if argument.choices is not None:
                return False
            value = argument.default if argument.default is not None else []
        else:
            value = [_value(argument, text) for text in given]
            if _FAILED in value:
                return False
        if value is _FAILED:
            return False
        values[argument.dest] = value
    return True


def _counts(positionals: list[Argument], words: int) -> list[int] | None:
    """How many words each positional takes as argparse's pattern match gives them (the first as many as
    the rest leave, and so on), when they take all `words`; None when argparse would leave some, or
    would not match every positional."""
    def match(index: int, left: int) -> list[int] | None:
        if index == len(positionals):
            return []
        nargs = positionals[index].nargs
        least, most = {None: (1, 1), "?": (0, 1), "*": (0, left), "+": (1, left)}[nargs]
        for taken in range(min(most, left), least - 1, -1):
            rest = match(index + 1, left - taken)
            if rest is not None:
                return [taken, *rest]
        return None

    counts = match(0, words)
    return counts if counts is not None and sum(counts) == words else None


def _value(argument: Argument, text: str) -> Any:
    """`text` converted by the argument's type and checked against its choices, or `_FAILED`."""
    value = _converted(argument, text)
    if value is not _FAILED and argument.choices is not None:
        try:
            if value not in argument.choices:
                return _FAILED
        except Exception:  # argparse's own check will say what is wrong
            return _FAILED
    return value


def _converted(argument: Argument, text: str) -> Any:
    if argument.type is None:
        return text
    try:
        return argument.type(text)
    except Exception:  # argparse calls the type again, and reports its failure its own way
        return _FAILED


class TranslationsFoundOnce:
    """While argparse runs, `gettext.find` answers each question once: argparse translates each of its
    words through `gettext.gettext`, which looks for the message catalogues (the environment's
    languages, normalised, and a file per language) at every call, some fifteen times as a command's
    parser is made (a millisecond and a half of a fresh process). The answer depends on the arguments
    and the environment's language variables, both part of the question, and on the catalogue files,
    which do not change while a command runs. Entered only where argparse runs: the reader needs no
    translation."""

    def __enter__(self) -> None:
        import gettext
        import os

        self._find = find = gettext.find
        found: dict[tuple[object, ...], object] = {}

        def find_once(domain: str, localedir: str | None = None, languages: list[str] | None = None,
                      all: bool = False) -> object:
            key = (domain, localedir, None if languages is None else tuple(languages), all,
                   *(os.environ.get(name) for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")))
            if key not in found:
                found[key] = find(domain, localedir, languages, all)
            answer = found[key]
            return list(answer) if isinstance(answer, list) else answer

        gettext.find = find_once  # type: ignore[assignment]

    def __exit__(self, *exception: object) -> None:
        import gettext

        gettext.find = self._find
