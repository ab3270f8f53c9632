#!/usr/bin/env python3
"""Export the real models of the IREE transient-memory benchmark, without downloads.

Every model is built from its transformers config with random weights (a fixed
seed), traced by torch.export through iree-turbine's `aot.export` with every
parameter externalized, so the MLIR holds `#stream.parameter.named` references and
no weights; the weights go to a separate `.irpa` archive that `iree-run-module
--parameters=model=FILE` reads.

Models (the names `bench/iree_transients.py` and `tests/peer/` take):

- `bert-base`: BERT-base (12 layers, hidden 768), batch 1, sequence 128, static.
- `llama-decoder`: a Llama-style decoder of this benchmark's own configuration
  (8 layers, hidden 1024, 16 heads, MLP 2816, vocabulary 16000), batch 1, the
  sequence length dynamic (`torch.export.Dim`, 16..4096).
- `bert-small-dynbatch`: a small BERT encoder (4 layers, hidden 256) at sequence
  64 with a dynamic batch (1..4096): the benchmark's own dynamic-shape case beside
  the two it tunes on.

transformers' packed-sequence probe (`find_packed_sequence_indices`) runs
`aten.diff` on the position ids when no attention mask is given, which IREE's torch
importer cannot lower, and its mask builders start from a boolean scalar literal
(`new_ones((), dtype=bool)`) that IREE's importer does not legalize either. Every
model here therefore takes a 2D padding mask as an input and builds the additive 4D
float mask itself (`_additive_mask`, causal for the decoder) before calling the
transformers model, which uses a 4D mask as given and skips both; attention is
eager, so the trace holds plain matmuls and softmax.

Needs torch (CPU), transformers and iree-turbine (none of them a memplan
dependency): run with the interpreter of a venv that has them. Usage:

    python bench/iree_models.py --out /tmp/iree-e2e/models [NAME ...]
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

MODELS = ("bert-base", "llama-decoder", "bert-small-dynbatch")
"""Names of the models this module exports, in the benchmark's order."""


@dataclass(frozen=True)
class ExportedModel:
    """Where an exported model lives, and its inputs' shapes (None: dynamic)."""

    name: str
    mlir: Path
    parameters: Path
    inputs: tuple[tuple[tuple[int | None, ...], str], ...]
    """Per function argument: its shape (None for a dynamic dimension), element type."""

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "mlir": str(self.mlir),
            "parameters": str(self.parameters),
            "inputs": [[list(shape), dtype] for shape, dtype in self.inputs],
        }

    @staticmethod
    def from_json(data: dict) -> "ExportedModel":
        return ExportedModel(
            data["name"],
            Path(data["mlir"]),
            Path(data["parameters"]),
            tuple((tuple(shape), dtype) for shape, dtype in data["inputs"]),
        )


def _additive_mask(mask, causal: bool):
    """The (batch, 1, q, kv) float mask eager attention adds: 0 kept, min dropped.

    Built from float arithmetic and comparisons only (no boolean literal), so IREE's
    torch importer lowers all of it.
    """
    import torch

    dropped = 1.0 - mask[:, None, None, :].to(torch.float32)
    if causal:
        index = torch.arange(mask.shape[1], device=mask.device)
        future = (index[None, :] > index[:, None]).to(torch.float32)
        dropped = (dropped + future[None, None]).clamp(max=1.0)
    return dropped * torch.finfo(torch.float32).min


def _encoder_module(config):
    import torch
    from transformers import BertModel

    class Encoder(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.bert = BertModel(config, add_pooling_layer=False)

        def forward(self, input_ids, attention_mask):
            return self.bert(
                input_ids=input_ids,
                attention_mask=_additive_mask(attention_mask, causal=False),
            ).last_hidden_state

    return Encoder()


def _decoder_module(config):
    import torch
    from transformers import LlamaForCausalLM

    class Decoder(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.llama = LlamaForCausalLM(config)

        def forward(self, input_ids, attention_mask):
            return self.llama(
                input_ids=input_ids,
                attention_mask=_additive_mask(attention_mask, causal=True),
                use_cache=False,
            ).logits

    return Decoder()


def _build(name: str):
    """(module, example args, dynamic_shapes or None, input shapes) of a model."""
    import torch
    from transformers import BertConfig, LlamaConfig

    if name == "bert-base":
        config = BertConfig(attn_implementation="eager")
        seq = 128
        ids = torch.randint(0, config.vocab_size, (1, seq))
        mask = torch.ones(1, seq, dtype=torch.int64)
        shapes = (((1, seq), "i64"), ((1, seq), "i64"))
        return _encoder_module(config), (ids, mask), None, shapes
    if name == "llama-decoder":
        config = LlamaConfig(
            vocab_size=16000,
            hidden_size=1024,
            intermediate_size=2816,
            num_hidden_layers=8,
            num_attention_heads=16,
            num_key_value_heads=16,
            max_position_embeddings=4096,
            attn_implementation="eager",
        )
        seq = torch.export.Dim("seq", min=16, max=4096)
        ids = torch.randint(0, config.vocab_size, (1, 32))
        mask = torch.ones(1, 32, dtype=torch.int64)
        dynamic = {"input_ids": {1: seq}, "attention_mask": {1: seq}}
        shapes = (((1, None), "i64"), ((1, None), "i64"))
        return _decoder_module(config), (ids, mask), dynamic, shapes
    if name == "bert-small-dynbatch":
        config = BertConfig(
            hidden_size=256,
            num_hidden_layers=4,
            num_attention_heads=4,
            intermediate_size=1024,
            attn_implementation="eager",
        )
        seq = 64
        batch = torch.export.Dim("batch", min=2, max=4096)
        ids = torch.randint(0, config.vocab_size, (4, seq))
        mask = torch.ones(4, seq, dtype=torch.int64)
        dynamic = {"input_ids": {0: batch}, "attention_mask": {0: batch}}
        shapes = (((None, seq), "i64"), ((None, seq), "i64"))
        return _encoder_module(config), (ids, mask), dynamic, shapes
    raise ValueError(f"unknown model {name!r}; known: {', '.join(MODELS)}")


def export_model(name: str, out_dir: Path) -> ExportedModel:
    """Export one model to OUT_DIR/NAME.mlir (torch dialect) and NAME.irpa."""
    import torch
    from iree.turbine import aot

    torch.manual_seed(0)
    module, args, dynamic, shapes = _build(name)
    module.eval()
    aot.externalize_module_parameters(module)
    out_dir.mkdir(parents=True, exist_ok=True)
    mlir = out_dir / f"{name}.mlir"
    params = out_dir / f"{name}.irpa"
    with torch.no_grad():
        exported = aot.export(
            module,
            args=args,
            dynamic_shapes=dynamic,
            function_name="main",
            strict_export=False,
        )
    exported.save_mlir(mlir)
    aot.save_module_parameters(params, module)
    model = ExportedModel(name, mlir, params, shapes)
    (out_dir / f"{name}.json").write_text(json.dumps(model.to_json(), indent=1))
    return model


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", default=list(MODELS), metavar="NAME")
    parser.add_argument("--out", type=Path, default=Path("/tmp/iree-e2e/models"))
    args = parser.parse_args(argv)
    for name in args.names:
        model = export_model(name, args.out)
        size = model.mlir.stat().st_size
        print(f"{name}: {model.mlir} ({size} bytes), parameters {model.parameters}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
