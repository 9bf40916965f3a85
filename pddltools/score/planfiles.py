"""The files a planner leaves in its run folder, read as the untrusted output they are.

A planner may leave anything at its plan's path: a symbolic link to a secret or to /dev/zero, a named
pipe nobody writes to (opening it for reading would wait forever), a directory, a file of gigabytes,
or a thousand anytime plans. So a plan is read only when it is a regular file inside the run folder,
reached without following a link in any part of its path, opened without blocking (O_NONBLOCK: a pipe
or a device opens at once and is refused on its type), and no larger than a cap; of the anytime plans
`plan.1`, `plan.2`, ... only the newest (and, for a run cut off at its limit, the one before) is read.
Anything else is a reason the run is a crash, said in words. The same care goes into what the runner
writes there (`write_file`): a link the planner left at `stdout.txt` is replaced, never followed.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path

MB = 1 << 20

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOCTTY = getattr(os, "O_NOCTTY", 0)


class PlanFileError(Exception):
    """A plan file the runner will not read; the message says why (one line, for the run's reason)."""


class PlanTooLarge(PlanFileError):
    """A regular plan file over the size cap."""


@dataclass(frozen=True)
class PlanFiles:
    """The plans found for a run: the newest one's text, the one before (anytime planners), and a reason
    when what was found cannot be used (then `text` is None)."""

    text: str | None = None
    earlier: str | None = None
    reason: str = ""
    name: str = ""  # the file the text came from, relative to the run folder
    too_large: str = ""  # a plan file over the cap, relative to the run folder (the caller may remove it)


def _kind(mode: int) -> str:
    kinds = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISLNK, "a symbolic link"))
    return next((name for test, name in kinds if test(mode)), "not a regular file")


def _size(n: int) -> str:
    return f"{n / MB:.1f} MB" if n >= MB // 10 else f"{n} bytes"


def inside(folder: Path, path: Path) -> Path | None:
    """`path` relative to `folder` when it lies inside it (lexically: no `..` out of it), else None."""
    path = path if path.is_absolute() else folder / path
    try:
        relative = Path(os.path.normpath(path)).relative_to(os.path.normpath(folder))
    except ValueError:
        return None
    return relative if relative.parts and ".." not in relative.parts else None


def _open_parent(folder: Path, relative: Path) -> int:
    """A descriptor of the folder holding `relative`, each part below `folder` opened without following links."""
    # The run folder itself is the runner's own; a link the planner put in its place is not followed.
    fd = os.open(folder, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC)
    try:
        for part in relative.parts[:-1]:
            try:
                below = os.open(part, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise PlanFileError(f"{part} on the way to it is a symbolic link or not a folder") from None
                raise
            os.close(fd)
            fd = below
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_regular(folder: Path, relative: Path, cap: int, *, follow: bool = False,
                 option: str = " (--max-plan-size)") -> str:
    """The text of the regular file `relative` inside `folder`, at most `cap` bytes; PlanFileError
    saying why not (FileNotFoundError when there is nothing there). Links are not followed unless
    `follow`."""
    parent = _open_parent(folder, relative) if not follow else os.open(folder, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    name = relative.parts[-1]
    try:
        try:
            fd = os.open(name, os.O_RDONLY | (0 if follow else _NOFOLLOW) | _NONBLOCK | _NOCTTY | _CLOEXEC,
                         dir_fd=parent)
        except OSError as exc:
            if exc.errno == errno.ELOOP or (exc.errno == errno.EMLINK and _NOFOLLOW):
                target = ""
                with contextlib.suppress(OSError):
                    target = os.readlink(name, dir_fd=parent)
                raise PlanFileError(f"{relative} is a symbolic link" + (f" (to {target[:200]})" if target else "")
                                    + ", not read: a plan must be a regular file in the run folder") from None
            if exc.errno == errno.ENOENT:
                raise FileNotFoundError(str(relative)) from None
            if exc.errno in (errno.ENXIO, errno.EISDIR):
                raise PlanFileError(f"{relative} is not a regular file, not read") from None
            raise PlanFileError(f"{relative} cannot be opened: {exc.strerror or exc}") from None
    finally:
        os.close(parent)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise PlanFileError(f"{relative} is {_kind(info.st_mode)}, not read: a plan must be a regular file")
        if info.st_size > cap:
            raise PlanTooLarge(f"{relative} has {_size(info.st_size)}, over the {_size(cap)} a plan may have{option}")
        os.set_blocking(fd, True)
        chunks: list[bytes] = []
        total = 0
        while total <= cap:
            block = os.read(fd, min(1 << 20, cap + 1 - total))
            if not block:
                break
            chunks.append(block)
            total += len(block)
        if total > cap:  # it grew after the fstat (a process of the run still writing)
            raise PlanTooLarge(f"{relative} grew past the {_size(cap)} a plan may have{option}")
        return b"".join(chunks).decode("utf-8", errors="replace")
    finally:
        os.close(fd)


def read_capped(path: Path, cap: int) -> str:
    """The text of the file at `path` (links followed: it is the user's own), which must be a regular file
    of at most `cap` bytes: PlanFileError saying why not, OSError when it cannot be opened."""
    return read_regular(path.parent.resolve(), Path(path.resolve().name), cap, follow=True, option="")


def anytime_numbers(folder: Path, relative: Path) -> list[int]:
    """The N of the files `NAME.N` beside `relative` (anytime plans), newest last; N in ASCII digits."""
    try:
        parent = _open_parent(folder, relative)
    except (OSError, PlanFileError):
        return []
    prefix = relative.parts[-1] + "."
    numbers = []
    try:
        with os.scandir(parent) as entries:
            for entry in entries:
                suffix = entry.name[len(prefix):] if entry.name.startswith(prefix) else ""
                if suffix.isascii() and suffix.isdigit() and len(suffix) < 10:
                    numbers.append(int(suffix))
    finally:
        os.close(parent)
    return sorted(numbers)


def read_plans(folder: Path, plan: Path, cap: int, *, earlier: bool = False) -> PlanFiles:
    """The plan a run left at `plan` (inside `folder`), or the newest of its anytime plans `plan.N`;
    with `earlier`, also the one before the newest (a run cut off may have been stopped mid-write)."""
    relative = inside(folder, plan)
    if relative is None:
        return PlanFiles(reason=f"its plan file {plan} is outside its run folder {folder}, not read")
    numbers = anytime_numbers(folder, relative)
    names = [relative.with_name(f"{relative.name}.{n}") for n in reversed(numbers)] + [relative]
    found: list[tuple[Path, str]] = []
    for name in names:
        try:
            found.append((name, read_regular(folder, name, cap)))
        except FileNotFoundError:
            continue
        except PlanFileError as exc:
            if not found:
                return PlanFiles(reason=f"its plan file {exc}", too_large=str(name) if isinstance(exc, PlanTooLarge)
                                 else "")
            break  # the newest is read; an older one unusable is no reason to drop it
        except OSError as exc:
            if not found:
                return PlanFiles(reason=f"its plan file {name} cannot be read: {exc.strerror or exc}")
            break
        if len(found) == (2 if earlier else 1):
            break
    if not found:
        return PlanFiles()
    return PlanFiles(found[0][1], found[1][1] if len(found) > 1 else None, "", str(found[0][0]))


def write_file(path: Path, data: bytes) -> None:
    """Write `data` to `path` as a new regular file: whatever the planner left there (a link, a pipe) is
    removed first, never followed or opened."""
    with contextlib.suppress(FileNotFoundError):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o644)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)


def folder_usage(folder: Path, most: int = 100_000) -> tuple[int, int]:
    """Bytes of disk the files below `folder` take (allocated blocks, so a sparse file counts for what it
    holds), and how many entries were seen; stops counting at `most` entries. Links are not followed."""
    total = entries = 0
    stack = [str(folder)]
    while stack and entries < most:
        try:
            scan = os.scandir(stack.pop())
        except OSError:
            continue
        with scan:
            for entry in scan:
                entries += 1
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                total += info.st_blocks * 512 if hasattr(info, "st_blocks") else info.st_size
                if stat.S_ISDIR(info.st_mode):
                    stack.append(entry.path)
                if entries >= most:
                    break
    return total, entries


def empty_folder(folder: Path, keep: tuple[str, ...]) -> None:
    """Remove everything in `folder` but the entries named in `keep` (without following links)."""
    with contextlib.suppress(OSError), os.scandir(folder) as entries:
        for entry in list(entries):
            if entry.name in keep:
                continue
            with contextlib.suppress(OSError):
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path)
                else:
                    os.unlink(entry.path)
