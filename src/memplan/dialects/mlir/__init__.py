"""Upstream MLIR as memplan reads and prints it: the dialects xDSL defines but prints
only generically, or lacks (`memref.py` and `memref_ops.py`, `arith`, `scf`,
`affine`, `index`, `func`), MLIR's test dialect (`mlir_test.py`), and the models of
memplan's interfaces attached to xDSL's own ops (`upstream_models.py`)."""
