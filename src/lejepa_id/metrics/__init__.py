"""Metrics: pure reference functions, the registry, and the scorer used in training."""
