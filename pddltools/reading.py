"""The one place a user's file is read: regular files and pipes only, never more than a cap.

A path on a command line (or in a results line, a batch list, an editor's workspace) may name anything:
`/dev/zero` or `/dev/urandom` never end, a FIFO with no writer blocks an ordinary `open` for ever, and
a file of many gigabytes exhausts memory long before a parser could report it. So a file is opened
without blocking, refused unless it is a regular file or a pipe (a pipe lets `<(zcat d.pddl.gz)` work),
and read up to `limit` bytes, past which it is refused too: an error with a registered code that the
command reports with exit status 2, never a hang or a MemoryError.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator, Sequence

from pddltools.diagnostics import InputError, Source, Span, decode_source, error

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import BinaryIO

    from pddltools.code_ids import CodeId

#: The default cap on one input, in bytes. The largest planning files in use (grounded domains,
#: generated problems) are a few hundred megabytes; the parsers need about 20 times a file's size.
#: The environment variable PDDLTOOLS_MAX_INPUT_MB overrides it (for a machine with the memory).
MAX_INPUT_BYTES = 1 << 30
_ENVIRONMENT = "PDDLTOOLS_MAX_INPUT_MB"
_CHUNK = 1 << 20


def input_limit() -> int:
    """The cap in bytes: PDDLTOOLS_MAX_INPUT_MB if it is a positive whole number, else the default."""
    text = os.environ.get(_ENVIRONMENT, "").strip()
    if text.isascii() and text.isdigit() and 0 < len(text) <= 9 and int(text) > 0:
        return int(text) << 20
    return MAX_INPUT_BYTES


def read_input(path: str | os.PathLike[str], name: str | None = None, *, code: CodeId = "E001",
               span: Span | None = None, limit: int | None = None, truncate: bool = False) -> bytes:
    """The bytes of the file at `path`, or `InputError` (`code`, placed at `span`) saying why not.

    With `truncate`, a file past `limit` gives its first `limit` bytes instead of an error (a sniff of
    the head of a file)."""
    shown = name if name is not None else str(path)
    cap = input_limit() if limit is None else limit

    def refuse(why: str, which: CodeId = code) -> InputError:
        return InputError([error(which, why, span)])

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | getattr(os, "O_NOCTTY", 0))
    except IsADirectoryError:
        raise refuse(f"{shown} is a directory, not a file") from None
    except FileNotFoundError:
        raise refuse(f"cannot read {shown}: no such file") from None
    except OSError as exc:
        raise refuse(f"cannot read {shown}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise refuse(f"{shown} is a directory, not a file")
        if not (stat.S_ISREG(info.st_mode) or stat.S_ISFIFO(info.st_mode)):
            raise refuse(f"cannot read {shown}: it is {_kind(info.st_mode)}, not a regular file or a pipe",
                         "E004" if code == "E001" else code)
        if stat.S_ISREG(info.st_mode) and info.st_size > cap and not truncate:
            raise _too_large(shown, cap, code, span)
        # a regular file in one read of its size (one buffer, not chunks joined into a second copy)
        hint = info.st_size + 1 if stat.S_ISREG(info.st_mode) else _CHUNK
        return _read(fd, shown, cap, code, span, truncate, hint)
    finally:
        os.close(fd)


def _read(fd: int, shown: str, cap: int, code: CodeId, span: Span | None, truncate: bool, hint: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        try:
            chunk = os.read(fd, max(1, min(hint, cap + 1 - size)))
            hint = _CHUNK
        except BlockingIOError:
            # a pipe whose writer has not written yet: wait for it (a pipe without any writer reads
            # as empty at once, so a FIFO nobody feeds is an empty file, not a hang)
            import select  # here: rarely needed, and a fresh process pays for its import

            select.select([fd], [], [])
            continue
        except OSError as exc:
            if exc.errno == errno.EINTR:
                continue
            raise InputError([error(code, f"cannot read {shown}: {exc.strerror or exc}", span)]) from None
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > cap:
            if truncate:
                return b"".join(chunks)[:cap]
            raise _too_large(shown, cap, code, span)


def _too_large(shown: str, cap: int, code: CodeId, span: Span | None) -> InputError:
    return InputError([error("E004" if code == "E001" else code,
                             f"cannot read {shown}: it is larger than the {cap >> 20:,} MB pddltools reads "
                             f"from one file (set {_ENVIRONMENT} to raise the limit)", span)])


def _kind(mode: int) -> str:
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_stream_text(stream: BinaryIO, name: str, *, code: CodeId = "E001") -> str:
    """What a pipe on standard input holds, as UTF-8 text, up to the same cap as a file."""
    cap = input_limit()
    data = stream.read(cap + 1)
    if len(data) > cap:
        raise _too_large(name, cap, code, None)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError([error(code, f"cannot read {name}: not UTF-8 text (byte 0x{data[exc.start]:02x} at "
                                      f"offset {exc.start})")]) from None


def read_input_text(path: str | os.PathLike[str], name: str | None = None, *, code: CodeId = "E001",
                    span: Span | None = None, errors: str = "strict") -> str:
    """`read_input` decoded as UTF-8; with errors="strict", text that is not UTF-8 is an `InputError`."""
    data = read_input(path, name, code=code, span=span)
    try:
        return data.decode("utf-8-sig", errors=errors)
    except UnicodeDecodeError as exc:
        shown = name if name is not None else str(path)
        raise InputError([error(code, f"cannot read {shown}: not UTF-8 text (byte 0x{data[exc.start]:02x} at "
                                      f"offset {exc.start})", span)]) from None


def read_source(path: str | os.PathLike[str], display_name: str | None = None) -> Source:
    """Read a file as text, or raise `InputError` saying why it cannot be read."""
    name = display_name if display_name is not None else str(path)
    return decode_source(read_input(path, name), name)


def path_text(path: str | os.PathLike[str]) -> str:
    """What `str(Path(path))` shows (slashes collapsed, `.` parts and a trailing slash dropped), without
    importing pathlib, which a fresh process pays several milliseconds for (start-up)."""
    text = os.fspath(path)
    if not text:
        return "."
    root = "//" if text.startswith("//") and not text.startswith("///") else "/" if text.startswith("/") else ""
    return root + "/".join(part for part in text.split("/") if part and part != ".") or "."


class FilePath:
    """A file a user named, as `Path(name)` names it (opened and shown as `path_text(name)`): an
    `os.PathLike` for a command that passes a file where a text is also taken, without pathlib."""

    __slots__ = ("path",)

    def __init__(self, name: str) -> None:
        self.path = path_text(name)

    def __fspath__(self) -> str:
        return self.path

    def __str__(self) -> str:
        return self.path

    def __repr__(self) -> str:
        return f"FilePath({self.path!r})"


def pddl_files(paths: Sequence[str], suffixes: Sequence[str] = (".pddl",)) -> Iterator[Path]:
    """The files named, and every file below the folders named whose suffix is one of `suffixes`
    (*.pddl; parse and check also take *.hddl), in a stable order."""
    from pathlib import Path  # here: a command reading the files it is given needs no pathlib (start-up)

    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.suffix.lower() in suffixes and p.is_file())
        else:
            yield path
