"""memplan's passes, one module per pass; `registry` lists them all."""
