# lit configuration for memplan's regression tests.
import os
import shutil
import sys

import lit.formats

config.name = "memplan"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)

# The tools come from the environment lit itself runs in (the venv memplan is
# installed into), ahead of anything else on PATH.
bin_dir = os.path.dirname(sys.executable)
config.environment["PATH"] = os.pathsep.join([bin_dir, os.environ.get("PATH", "")])
for name in ("HOME", "TMPDIR"):
    if name in os.environ:
        config.environment[name] = os.environ[name]
config.environment["PYTHONDONTWRITEBYTECODE"] = "1"

filecheck = shutil.which("filecheck", path=config.environment["PATH"])
if filecheck is None:
    lit_config.fatal("filecheck not found: pip install -e '.[test]'")
config.substitutions.append(("FileCheck", filecheck))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%examples", os.path.join(os.path.dirname(__file__), "..", "..", "examples")))
