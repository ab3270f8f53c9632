"""Test support that ships with memplan: random programs for fuzzing plans."""
