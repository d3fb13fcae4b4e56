"""The Coq proof checker behind ``lejepa-id verify``."""
