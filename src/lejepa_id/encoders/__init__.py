"""Encoders f: observations -> codes, stacked over runs (one module per family would
follow the same registry: :func:`register_encoder`)."""

from lejepa_id.encoders.cnn import CNNEncoder
from lejepa_id.encoders.stacked import (
    EncoderCost,
    build_encoder,
    encoder_cost,
    encoder_names,
    register_encoder,
)

__all__ = [
    "CNNEncoder",
    "EncoderCost",
    "build_encoder",
    "encoder_cost",
    "encoder_names",
    "register_encoder",
]
