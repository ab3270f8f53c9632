"""memplan-iree-compile against IREE itself: the split, and memplan's layout at run time.

    MEMPLAN_IREE_BIN=/work/venvs/iree/bin MEMPLAN_IREE_PYTHON=/work/venvs/iree/bin/python \\
        python -m pytest tests/peer/test_iree_pipeline.py -v -p no:cacheprovider

Needs iree-compile, iree-opt and iree-run-module (iree-base-compiler and
iree-base-runtime 3.13) in MEMPLAN_IREE_BIN or on PATH, and the models of
bench/iree_models.py: exported already in MEMPLAN_IREE_MODELS (NAME.mlir, .irpa,
.json), or exported here by MEMPLAN_IREE_PYTHON (a python with torch, transformers
and iree-turbine). Each test skips, saying which, when one is missing. The
temporary files go to pytest's tmp_path; nothing touches the repository.

1. The split with IREE's own `iree-stream-layout-slices` at the split point builds
   the very vmfb, byte for byte, of one straight `iree-compile`.
2. The vmfb with memplan's `layout-slices` runs under iree-run-module with outputs
   bit-identical to IREE's build's on the same inputs: BERT-base (static), the
   Llama-style decoder at sequence lengths 128, 1024 and 300, the dynamic-batch BERT
   at batch 2, 4 and 33.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from memplan.tools.iree_compile import find_tools, plan_build, run_build

REPO = Path(__file__).resolve().parents[2]
DIM_VALUES = {"bert-base": [None], "llama-decoder": [128, 1024, 300],
              "bert-small-dynbatch": [2, 4, 33]}


def _bin(name: str) -> str | None:
    folder = os.environ.get("MEMPLAN_IREE_BIN")
    if folder:
        path = Path(folder) / name
        return str(path) if path.is_file() else None
    return shutil.which(name)


@pytest.fixture(scope="module")
def tools():
    missing = [n for n in ("iree-compile", "iree-opt", "iree-run-module") if _bin(n) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not found (set MEMPLAN_IREE_BIN or PATH; "
                    "pip install iree-base-compiler==3.13.0 iree-base-runtime==3.13.0)")
    return find_tools(_bin("iree-compile"), _bin("iree-opt"))


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> Path:
    given = os.environ.get("MEMPLAN_IREE_MODELS")
    if given:
        return Path(given)
    python = os.environ.get("MEMPLAN_IREE_PYTHON")
    if not python:
        pytest.skip("no models: set MEMPLAN_IREE_MODELS (exported by bench/iree_models.py) "
                    "or MEMPLAN_IREE_PYTHON (a python with torch, transformers, iree-turbine)")
    out = tmp_path_factory.mktemp("models")
    done = subprocess.run([python, str(REPO / "bench" / "iree_models.py"), "--out", str(out)],
                          capture_output=True, text=True)
    if done.returncode:
        pytest.skip(f"exporting the models with {python} failed: {done.stderr[-500:]}")
    return out


def _model(models: Path, name: str) -> dict:
    meta = models / f"{name}.json"
    if not meta.is_file():
        pytest.skip(f"{meta} is absent (bench/iree_models.py writes it)")
    return json.loads(meta.read_text())


def _build(tools, source: Path, out: Path, layout: str, work: Path) -> Path:
    run_build(plan_build(source, out, work, tools, layout=layout))
    return out


def test_split_with_iree_layout_is_iree_compile_byte_for_byte(tools, models, tmp_path):
    model = _model(models, "bert-small-dynbatch")
    source = Path(model["mlir"])
    straight = _build(tools, source, tmp_path / "straight.vmfb", "none", tmp_path / "w0")
    split = _build(tools, source, tmp_path / "split.vmfb", "iree", tmp_path / "w1")
    assert straight.read_bytes() == split.read_bytes()
    # The stream-phase module as well, against iree-compile's own.
    stream = tmp_path / "straight-stream.mlir"
    subprocess.run([*tools.iree_compile, "--iree-hal-target-device=local",
                    "--iree-hal-local-target-device-backends=llvm-cpu",
                    "--compile-to=stream", "--mlir-print-debuginfo", str(source),
                    "-o", str(stream)], check=True, capture_output=True)
    reprinted = tmp_path / "straight-stream.reprinted.mlir"
    subprocess.run([*tools.iree_opt, "--mlir-print-debuginfo", str(stream), "-o", str(reprinted)],
                   check=True, capture_output=True)
    assert reprinted.read_text() == (tmp_path / "w1" / "stream.mlir").read_text()


def _inputs(model: dict, value: int | None, folder: Path) -> list[str]:
    import numpy as np

    rng = np.random.default_rng(7)
    flags = []
    for index, (shape, dtype) in enumerate(model["inputs"]):
        shape = [value if d is None else d for d in shape]
        assert dtype == "i64"
        if index == 0:
            data = rng.integers(0, 1000, shape).astype(np.int64)
        else:  # the padding mask: the last positions of each row padded
            data = np.ones(shape, np.int64)
            data[..., -min(3, shape[-1] - 1):] = 0
        path = folder / f"input{index}.npy"
        np.save(path, data)
        flags.append(f"--input=@{path}")
    return flags


def _run(vmfb: Path, model: dict, inputs: list[str], out: Path) -> bytes:
    done = subprocess.run([_bin("iree-run-module"), "--device=local-task", f"--module={vmfb}",
                           f"--parameters=model={model['parameters']}", "--function=main",
                           *inputs, f"--output=@{out}"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    return out.read_bytes()


@pytest.mark.parametrize("name", sorted(DIM_VALUES))
def test_memplan_layout_runs_bit_identical_to_iree(tools, models, tmp_path, name):
    import numpy as np

    model = _model(models, name)
    source = Path(model["mlir"])
    iree = _build(tools, source, tmp_path / "iree.vmfb", "none", tmp_path / "w0")
    memplan = _build(tools, source, tmp_path / "memplan.vmfb", "memplan", tmp_path / "w1")
    assert iree.read_bytes() != memplan.read_bytes()  # the layouts differ
    for value in DIM_VALUES[name]:
        folder = tmp_path / f"dim{value}"
        folder.mkdir()
        inputs = _inputs(model, value, folder)
        theirs = _run(iree, model, inputs, folder / "iree.npy")
        ours = _run(memplan, model, inputs, folder / "memplan.npy")
        assert ours == theirs, f"{name} at {value}: outputs differ"
        result = np.load(folder / "memplan.npy")
        assert np.isfinite(result).all() and result.std() > 0
