"""Writing an output file without ever destroying what the path names.

The one writer of memplan's output files (tools, reports, plan CSVs); it imports
nothing of memplan's, so the IR-free planner can use it too.

A regular file (or a path that does not exist yet) is replaced atomically: the text
goes to a temporary file in the same folder, which is renamed over the target, so
a failure leaves the old file as it was. It gets the mode the umask gives a new
file (0644 under the usual umask 022; `mkstemp` alone gives 0600), or the mode of
the file it replaces.

Anything else is opened and written through, as `mlir-opt`'s `-o` does: a
character or block device (`/dev/null`), a FIFO, `/dev/stdout`, a socket, and any
symlink (the link stays a link; its target gets the text). Renaming over these
would replace a device node with a regular file (run as root, `-o /dev/null`
breaks the machine) or a link with a copy.

`quiet_closed_stdout` is the tools' end on a stdout whose reader went away.
"""

from __future__ import annotations

import io
import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO


class OutputError(Exception):
    """The output could not be written; `str()` is the user-facing reason."""


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _encoded(text: str | bytes) -> bytes:
    return text if isinstance(text, bytes) else text.encode("utf-8")


class Output:
    """Where `open_output` sends the bytes: `stream`, a binary file. A regular
    file is written as the bytes come (into the temporary file), so a large output
    is never held whole in memory; stdout too, when it has a byte buffer."""

    def __init__(self, stream: IO[bytes], owned: bool) -> None:
        self.stream = stream
        self.discarded = False
        self.can_cut = owned
        """Whether `cut` may take back what was written (the stream is ours)."""

    def mark(self) -> int:
        self.stream.flush()
        return self.stream.tell()

    def cut(self, mark: int) -> None:
        """Take back everything written after `mark`."""
        self.stream.flush()
        self.stream.seek(mark)
        self.stream.truncate()

    def discard(self) -> None:
        """Leave the path as it was (nothing of what was written reaches it)."""
        self.discarded = True


@contextmanager
def open_output(path: str) -> Iterator[Output]:
    """An `Output` for `path` (`-` is stdout), kept or left out of `path` when the
    block ends: a regular file (or a new path) is replaced atomically, by renaming
    the temporary file the bytes went to, unless the block raised or called
    `discard()`; anything else is written through at the end; `OutputError` when
    that fails."""
    if path == "-":
        binary = getattr(sys.stdout, "buffer", None)
        if binary is not None:
            sys.stdout.flush()
            yield Output(binary, owned=False)
            binary.flush()
            return
        held = io.BytesIO()
        output = Output(held, owned=True)
        yield output
        if not output.discarded:
            sys.stdout.write(held.getvalue().decode("utf-8"))
            sys.stdout.flush()
        return
    try:
        try:
            existing: os.stat_result | None = os.lstat(path)
        except FileNotFoundError:
            existing = None
        if existing is not None and stat.S_ISDIR(existing.st_mode):
            raise IsADirectoryError(21, "Is a directory")
    except OSError as error:
        raise _output_error(path, error) from None
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        held = io.BytesIO()
        output = Output(held, owned=True)
        yield output
        if not output.discarded:
            try:
                with open(path, "wb") as handle:
                    handle.write(held.getvalue())
            except OSError as error:
                raise _output_error(path, error) from None
        return
    try:
        fd, temporary = tempfile.mkstemp(
            prefix=f".{os.path.basename(path)}.", suffix=".tmp",
            dir=os.path.dirname(os.path.abspath(path)),
        )
    except OSError as error:
        raise _output_error(path, error) from None
    handle = os.fdopen(fd, "wb")
    try:
        try:
            os.fchmod(fd, stat.S_IMODE(existing.st_mode) if existing else 0o666 & ~_umask())
        except OSError as error:
            raise _output_error(path, error) from None
        output = Output(handle, owned=True)
        yield output
        try:
            handle.close()
            if output.discarded:
                os.unlink(temporary)
            else:
                os.replace(temporary, path)
        except OSError as error:
            raise _output_error(path, error) from None
    except BaseException:
        handle.close()
        _unlink_quietly(temporary)
        raise


def _unlink_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _output_error(path: str, error: OSError) -> OutputError:
    return OutputError(f"could not write output file '{path}': {error.strerror or error}")


def write_output(path: str, text: str | bytes) -> None:
    """Write `text` (bytes: UTF-8 already) to `path` (`-` is stdout), choosing the
    safe way for its kind (`open_output`)."""
    if path == "-" and isinstance(text, str) and getattr(sys.stdout, "buffer", None) is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    with open_output(path) as output:
        output.stream.write(_encoded(text))


def quiet_closed_stdout() -> None:
    """When the process's own stdout is a pipe nobody reads any more (the text it
    holds cannot be flushed), point fd 1 at /dev/null, so that the interpreter's
    last flush does not print `Exception ignored ... BrokenPipeError`. Otherwise
    fd 1 is left alone: a caller that replaced `sys.stdout` (a test, a program
    running `main` in-process) keeps its output, and so does a working stdout
    when the broken pipe was another file."""
    stdout = sys.stdout
    if stdout is None or stdout is not sys.__stdout__:
        return
    try:
        stdout.flush()
        return  # stdout still works
    except BrokenPipeError:
        pass
    except (OSError, ValueError):  # closed, or some other failure: not a lost reader
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, stdout.fileno())
        finally:
            os.close(devnull)
    except (OSError, ValueError):
        pass
