"""`-o PATH` for each kind of path: replaced atomically, or written through."""

import os
import re
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from memplan.tools.memplan_opt import main
from memplan.files import OutputError, open_output, write_output

SOURCE = "func.func @f() {\n  return\n}\n"


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "in.mlir"
    path.write_text(SOURCE)
    return path


def test_new_file_gets_the_umask_mode(tmp_path):
    old = os.umask(0o022)
    try:
        write_output(str(tmp_path / "new.mlir"), "text")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.mlir").stat().st_mode) == 0o644
    old = os.umask(0o077)
    try:
        write_output(str(tmp_path / "private.mlir"), "text")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "private.mlir").stat().st_mode) == 0o600


def test_existing_file_keeps_its_mode_and_is_replaced(tmp_path):
    target = tmp_path / "out.mlir"
    target.write_text("old")
    target.chmod(0o640)
    inode = target.stat().st_ino
    write_output(str(target), "new")
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    # Replaced by rename, not rewritten in place: a reader holding the old file
    # keeps the old text.
    assert target.stat().st_ino != inode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.mlir"]


def test_symlink_stays_a_link_and_its_target_gets_the_text(tmp_path):
    real = tmp_path / "real.mlir"
    real.write_text("old")
    link = tmp_path / "link.mlir"
    link.symlink_to(real)
    write_output(str(link), "new")
    assert link.is_symlink()
    assert real.read_text() == "new"


def test_dangling_symlink_creates_its_target(tmp_path):
    link = tmp_path / "link.mlir"
    link.symlink_to(tmp_path / "later.mlir")
    write_output(str(link), "new")
    assert link.is_symlink()
    assert (tmp_path / "later.mlir").read_text() == "new"


@pytest.mark.skipif(os.geteuid() != 0, reason="mknod of a device needs root")
def test_character_device_is_written_through_not_replaced(tmp_path):
    null = tmp_path / "null"
    os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # the /dev/null device
    write_output(str(null), "discarded")
    assert stat.S_ISCHR(null.lstat().st_mode)
    assert os.major(null.lstat().st_rdev) == 1 and os.minor(null.lstat().st_rdev) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["null"]


def test_fifo_is_written_through(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[str] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    write_output(str(fifo), "through the pipe")
    reader.join(timeout=10)
    assert received == ["through the pipe"]
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


def test_dev_stdout_is_written_through(source, tmp_path):
    # /dev/stdout is a symlink into /proc: it must reach the process's stdout.
    out = tmp_path / "captured.txt"
    with open(out, "w") as handle:
        done = subprocess.run(
            [sys.executable, "-m", "memplan.tools.memplan_opt", str(source), "-o", "/dev/stdout"],
            stdout=handle, stderr=subprocess.PIPE, text=True, check=False,
        )
    assert done.returncode == 0, done.stderr
    assert "func.func @f()" in out.read_text()


def test_directory_is_refused(tmp_path):
    with pytest.raises(OutputError, match="Is a directory"):
        write_output(str(tmp_path), "text")


def test_failed_write_leaves_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "out.mlir"
    target.write_text("old")

    def fail(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OutputError, match="No space left on device"):
        write_output(str(target), "new")
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.mlir"]


def test_tool_writes_device_through(source, tmp_path):
    if os.geteuid() != 0:
        pytest.skip("mknod of a device needs root")
    null = tmp_path / "null"
    os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    assert main([str(source), "-o", str(null)]) == 0
    assert stat.S_ISCHR(null.lstat().st_mode)


_SYSTEM_OUTPUT = re.compile(r"(?:^|\s)(?:-o|--output)(?:\s+|=)['\"]?/")


def test_no_test_writes_output_to_a_system_path():
    """Tests write only below lit's %t or a pytest tmp_path: a test that sent
    `-o` to the null device, run as root by a tool that renames, once replaced
    the machine's null device with a plain file."""
    root = Path(__file__).resolve().parents[2]
    offenders = []
    for path in sorted(root.rglob("*")):
        if "Output" in path.parts or not path.is_file():
            continue
        if path.suffix not in {".mlir", ".test", ".py", ".sh"}:
            continue
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if "RUN:" in line or path.suffix in {".py", ".sh"}:
                if _SYSTEM_OUTPUT.search(line):
                    offenders.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    assert offenders == []


def test_open_output_streams_into_a_temporary_file_kept_only_at_the_end(tmp_path):
    """The bytes reach the disk while the block runs (memplan-opt never holds its
    whole output), the target keeps its old text until the block ends, and a
    discarded or failed block leaves the target and no temporary file behind."""
    target = tmp_path / "out.mlir"
    target.write_text("old")
    with open_output(str(target)) as output:
        output.stream.write(b"x" * 100_000)
        output.stream.flush()
        (temporary,) = [p for p in tmp_path.iterdir() if p != target]
        assert temporary.stat().st_size == 100_000
        assert target.read_text() == "old"
        mark = output.mark()
        output.stream.write(b"taken back")
        output.cut(mark)
    assert target.read_bytes() == b"x" * 100_000
    with open_output(str(target)) as output:
        output.stream.write(b"discarded")
        output.discard()
    with pytest.raises(RuntimeError):
        with open_output(str(target)) as output:
            output.stream.write(b"failed")
            raise RuntimeError("a bug")
    assert target.read_bytes() == b"x" * 100_000
    assert list(tmp_path.iterdir()) == [target]


# The `memplan-opt` command ends with os._exit (console_main): what it printed must
# still reach the reader, and a failed write must still fail the run.

def _console(argv: list[str], **kwargs) -> subprocess.CompletedProcess[str]:
    code = "import sys; from memplan.tools.memplan_opt import console_main; sys.argv[1:] = %r; console_main()"
    return subprocess.run([sys.executable, "-c", code % (argv,)], text=True, timeout=120, **kwargs)


def test_console_exit_delivers_all_of_a_long_output(tmp_path):
    functions = "".join(f"func.func @f{i}() {{\n  return\n}}\n" for i in range(3000))
    source = tmp_path / "many.mlir"
    source.write_text(functions)
    done = _console([str(source)], capture_output=True)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout) > 65536  # more than a pipe holds: flushed before the exit
    assert done.stdout.count("func.func @f") == 3000 and done.stdout.rstrip().endswith("}")


def test_console_exit_fails_a_run_whose_output_cannot_be_written(source):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    # Only opened as the child's stdout (never an -o target, which would be replaced).
    with open("/dev/full", "w") as full:
        done = _console([str(source)], stdout=full, stderr=subprocess.PIPE)
    assert done.returncode == 1
    assert "cannot write the output" in done.stderr and "Traceback" not in done.stderr


def test_console_exit_after_a_closed_pipe(run_with_closed_stdout, source):
    code = "import sys; from memplan.tools.memplan_opt import console_main; sys.argv[1:] = %r; console_main()"
    done = run_with_closed_stdout([sys.executable, "-c", code % ([str(source)],)])
    assert done.returncode == 141 and "Traceback" not in done.stderr

