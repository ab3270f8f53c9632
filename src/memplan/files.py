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

import os
import stat
import sys
import tempfile


class OutputError(Exception):
    """The output could not be written; `str()` is the user-facing reason."""


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _encoded(text: str | bytes) -> bytes:
    return text if isinstance(text, bytes) else text.encode("utf-8")


def _write_through(path: str, text: str | bytes) -> None:
    with open(path, "wb") as handle:
        handle.write(_encoded(text))


def _write_atomically(path: str, text: str | bytes, existing: os.stat_result | None) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(
        prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=directory
    )
    try:
        mode = stat.S_IMODE(existing.st_mode) if existing else 0o666 & ~_umask()
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(_encoded(text))
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def write_output(path: str, text: str | bytes) -> None:
    """Write `text` (bytes: UTF-8 already) to `path` (`-` is stdout), choosing the
    safe way for its kind."""
    if path == "-":
        binary = getattr(sys.stdout, "buffer", None)
        if isinstance(text, bytes) and binary is not None:
            sys.stdout.flush()
            binary.write(text)
            binary.flush()
        else:
            sys.stdout.write(text if isinstance(text, str) else text.decode("utf-8"))
            sys.stdout.flush()
        return
    try:
        try:
            existing: os.stat_result | None = os.lstat(path)
        except FileNotFoundError:
            existing = None
        if existing is not None and not stat.S_ISREG(existing.st_mode):
            if stat.S_ISDIR(existing.st_mode):
                raise IsADirectoryError(21, "Is a directory")
            _write_through(path, text)
        else:
            _write_atomically(path, text, existing)
    except OSError as error:
        raise OutputError(
            f"could not write output file '{path}': {error.strerror or error}"
        ) from None


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
