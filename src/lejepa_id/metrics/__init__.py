"""Metrics: pure reference functions, the registry, and the scorer used in training.

Importing any module of this package registers every built-in metric first (the imports
below), so the registry is complete by construction, whatever is imported first.
"""

from lejepa_id.metrics import action, builtin, spectral

__all__ = ["action", "builtin", "spectral"]
